"""`stratagem rate ARMY` and `stratagem rate SCENARIO`: the values the rules derive for an
army, or for every side of a scenario in its circumstances (terrain, roles, options)."""

from __future__ import annotations

import argparse
from typing import Any

from stratagem.cli.common import (
    add_allow_path,
    add_format,
    add_lang,
    chosen_lang,
    write_result,
)

EPILOG = """examples:
  stratagem rate my-army.yaml
  stratagem rate my-army.yaml --explain --lang ru
  stratagem rate my-army.yaml --json
  stratagem rate my-army.yaml --format html -o roster.html  # a roster sheet to print
  stratagem rate my-battle.yaml          # every side, on this battle's terrain, in its role
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "rate", help="show the values the rules derive for an army or for the sides of a "
        "scenario (strength, ratings...)",
        description="Compute every derived value of an army file, as its ruleset defines them; "
        "of a scenario file, every side's, where it fights: the scenario's terrain, its role "
        "and overrides, the battle's options, the ruleset's settings.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("army", metavar="FILE", help="an army file (kind: army) or a scenario file "
                   "(kind: scenario)")
    add_lang(p)
    p.add_argument("--explain", action="store_true", help="show how each value arose")
    add_format(p)
    add_allow_path(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from stratagem.api import rate_army, rate_scenario
    from stratagem.compile.pipeline import DEFAULT
    from stratagem.model.scenario import Army

    lang = chosen_lang(args.lang)
    loaded = DEFAULT.rated(args.army)
    rated = (rate_army(loaded, explain=True, lang=lang) if isinstance(loaded, Army)
             else rate_scenario(loaded, explain=True, lang=lang))
    from stratagem.render.views import rating_view

    write_result(args, rated, "rate", rating_view, lang)
    return 0
