"""``stratagem schema KIND [--ruleset ID]``: print the JSON Schema of a file kind.

The army and scenario schemas depend on a ruleset (its unit fields, enums, decisions):
with ``--ruleset`` the full schema is generated from it, ready for an editor's YAML
language server. The loader is imported inside :func:`run`.
"""

from __future__ import annotations

import argparse
import json

from stratagem.cli.common import add_allow_path

KINDS = ("ruleset", "setting", "army", "scenario", "locale")

EPILOG = """\
examples:
  stratagem schema ruleset                        the schema of ruleset files
  stratagem schema army --ruleset my-rules     army files of that ruleset, with its troop types
  stratagem schema scenario --ruleset my-rules/my-world > scenario.schema.json

Point your editor at the file (yaml-language-server):
  # yaml-language-server: $schema=./army.schema.json
See docs/validation.md.
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``schema`` subcommand."""
    parser = subparsers.add_parser(
        "schema",
        help="print the JSON Schema of a file kind (for editors)",
        description="Print the JSON Schema (2020-12) of a file kind. Army and scenario "
        "schemas are generated from a ruleset with --ruleset; without it they cover only "
        "the parts every ruleset shares.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("kind", choices=KINDS, metavar="KIND", help=", ".join(KINDS))
    parser.add_argument(
        "--ruleset", metavar="ID",
        help="a ruleset id (my-rules), a setting (my-rules/my-world) or a ruleset file; "
        "for army and scenario",
    )
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
