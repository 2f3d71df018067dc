"""``stratagem rulesets``: list the shipped rulesets and their settings."""

from __future__ import annotations

import argparse
import json

from stratagem.cli.common import add_lang, chosen_lang, helps, spoken
from stratagem.errors import Keyed

def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``rulesets`` subcommand."""
    parser = subparsers.add_parser(
        "rulesets", help=helps("cli.help.rulesets.about"),
        description=spoken("cli.help.rulesets.description"),
        epilog=spoken("cli.help.rulesets.epilog"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_lang(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help=helps("cli.help.text_or_json"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from stratagem.i18n.catalog import engine_catalog
    from stratagem.loader.resolve import display_path, list_rulesets

    lang = chosen_lang(args.lang)
    texts = engine_catalog(lang)
    infos = list_rulesets(lang)
    if args.format == "json":
        print(json.dumps([
            {"id": i.id, "title": i.title, "path": str(i.path), "settings": list(i.settings)}
            for i in infos
        ], indent=2, ensure_ascii=False))
        return 0
    if not infos:
        print(Keyed("no rulesets are installed", "rulesets.none").localized(texts))
        return 0
    width = max(len(i.id) for i in infos)
    for info in infos:
        print(f"{info.id:<{width}}  {info.title or ''}".rstrip())
        for setting in info.settings:
            print(f"{'':<{width}}  " + Keyed(f"setting: {setting}", "rulesets.setting",
                                              setting=setting).localized(texts))
    folder = display_path(infos[0].path.parent.parent)
    print("\n" + Keyed(f"{len(infos)} ruleset{'s' if len(infos) != 1 else ''} in {folder}",
                       "rulesets.count", n=len(infos), folder=folder).localized(texts))
    return 0
