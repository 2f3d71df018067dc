"""`stratagem rate ARMY`: each unit's and the army's derived values."""

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
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "rate", help="show the values the rules derive for an army (strength, ratings...)",
        description="Compute every derived value of an army file, as its ruleset defines them.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("army", help="army file (kind: army)")
    add_lang(p)
    p.add_argument("--explain", action="store_true", help="show how each value arose")
    add_format(p)
    add_allow_path(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from stratagem.api import rate_army

    lang = chosen_lang(args.lang)
    rated = rate_army(args.army, explain=True, lang=lang)
    from stratagem.render.views import rating_view

    write_result(args, rated, "rate", rating_view, lang)
    return 0
