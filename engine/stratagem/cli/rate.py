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
    helps,
    spoken,
    write_result,
)

def register(sub: Any) -> None:
    p = sub.add_parser(
        "rate", help=helps("cli.help.rate.about"),
        description=spoken("cli.help.rate.description"), epilog=spoken("cli.help.rate.epilog"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("army", metavar="FILE", help=helps("cli.help.rate.file"))
    add_lang(p)
    p.add_argument("--explain", action="store_true", help=helps("cli.help.rate.explain"))
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
