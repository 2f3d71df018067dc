"""``stratagem rulesets``: list the shipped rulesets and their settings."""

from __future__ import annotations

import argparse
import json

EPILOG = """\
examples:
  stratagem rulesets                  ids, titles and settings
  stratagem rulesets --lang ru        titles in Russian
  stratagem rulesets --format json

Name a ruleset by its id (my-rules) and a setting as ruleset/setting
(my-rules/my-world) in the 'ruleset:' key of army and scenario files.
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``rulesets`` subcommand."""
    parser = subparsers.add_parser(
        "rulesets",
        help="list the shipped rulesets and their settings",
        description="List the rulesets shipped with Stratagem, their titles and settings.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--lang", default="en", metavar="LANG",
                        help="language of the titles (default: en)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text (default) or json")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from stratagem.loader.resolve import display_path, list_rulesets

    infos = list_rulesets(args.lang)
    if args.format == "json":
        print(json.dumps([
            {"id": i.id, "title": i.title, "path": str(i.path), "settings": list(i.settings)}
            for i in infos
        ], indent=2, ensure_ascii=False))
        return 0
    if not infos:
        print("no rulesets are installed")
        return 0
    width = max(len(i.id) for i in infos)
    for info in infos:
        print(f"{info.id:<{width}}  {info.title or ''}".rstrip())
        for setting in info.settings:
            print(f"{'':<{width}}  setting: {setting}")
    print(f"\n{len(infos)} ruleset{'s' if len(infos) != 1 else ''} in "
          f"{display_path(infos[0].path.parent.parent)}")
    return 0
