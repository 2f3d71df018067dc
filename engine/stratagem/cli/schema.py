"""``stratagem schema KIND [--ruleset ID]``: print the JSON Schema of a file kind.

The army and scenario schemas depend on a ruleset (its unit fields, enums, decisions):
with ``--ruleset`` the full schema is generated from it, ready for an editor's YAML
language server. The loader is imported inside :func:`run`.
"""

from __future__ import annotations

import argparse
import json

from stratagem.cli.common import add_allow_path, helps, spoken

KINDS = ("ruleset", "setting", "army", "scenario", "locale")

def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``schema`` subcommand."""
    parser = subparsers.add_parser(
        "schema", help=helps("cli.help.schema.about"),
        description=spoken("cli.help.schema.description"),
        epilog=spoken("cli.help.schema.epilog"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=KINDS, metavar="KIND",
                        help=helps("cli.help.schema.kind", kinds=", ".join(KINDS)))
    parser.add_argument("--ruleset", metavar="ID", help=helps("cli.help.schema.ruleset"))
    add_allow_path(parser)
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    from stratagem.compile.pipeline import load_ruleset
    from stratagem.compile.schemas import army_schema, scenario_schema
    from stratagem.loader.schema import static_schema

    if args.ruleset and args.kind not in ("army", "scenario"):
        from stratagem.cli import error_texts
        from stratagem.errors import Keyed

        args.parser.error(Keyed(f"--ruleset applies to army and scenario schemas, not "
                                f"{args.kind}", "cli.schema_ruleset", kind=args.kind
                                ).localized(error_texts(args)))
    if args.ruleset:
        make = army_schema if args.kind == "army" else scenario_schema
        schema = make(load_ruleset(args.ruleset))
    else:
        schema = static_schema(args.kind)
    print(json.dumps(schema, indent=2, ensure_ascii=False))
    return 0
