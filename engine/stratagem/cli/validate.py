"""``stratagem validate FILE...``: check rule, army, scenario and locale files.

Every error of every file is printed as ``file:line:col: message ($.path)`` with a
hint; a parse error in one file does not stop the others. Exit 0 when all files
are valid, 1 otherwise. Each file goes through the pipeline ``battle`` uses
(``stratagem.api.validate``), imported inside :func:`run`.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from stratagem.cli.common import add_allow_path, add_lang, chosen_lang, helps, spoken
from stratagem.errors import Keyed, Location, Texts, describe

def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``validate`` subcommand."""
    parser = subparsers.add_parser(
        "validate", help=helps("cli.help.validate.about"),
        description=spoken("cli.help.validate.description"),
        epilog=spoken("cli.help.validate.epilog"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", metavar="FILE", help=helps("cli.help.validate.files"))
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help=helps("cli.help.validate.format"))
    add_lang(parser)
    add_allow_path(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from stratagem.api import validate
    from stratagem.i18n.catalog import engine_catalog

    texts = engine_catalog(chosen_lang(args.lang))
    results = []
    for name in args.files:
        errors = validate(name)
        results.append({"file": name, "valid": not errors,
                        "errors": [{**e.to_json(texts), "context": e.context} for e in errors]})
    if args.format == "json":
        print(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        for result in results:
            for error in result["errors"]:
                print(render(error, texts))
        print(summary(results).localized(texts))
    return 0 if all(r["valid"] for r in results) else 1


def render(error: dict[str, Any], texts: Texts | None = None) -> str:
    """One error of the JSON report as text (the same text as every command's errors)."""
    location = Location(error.get("file"), error.get("line"), error.get("column"),
                        error.get("path"))
    return describe(location, str(error["message"]), error.get("context"), error.get("hint"),
                    texts)


def summary(results: list[dict[str, Any]]) -> Keyed:
    """"2 files checked, 1 with errors (3 errors)" or "2 files checked, all valid"."""
    files = len(results)
    bad = [r for r in results if not r["valid"]]
    head = f"{files} file{'s' if files != 1 else ''} checked"
    if not bad:
        return Keyed(f"{head}, all valid", "validate.all_valid", files=files)
    count = sum(len(r["errors"]) for r in bad)
    return Keyed(f"{head}, {len(bad)} with errors ({count} error{'s' if count != 1 else ''})",
                 "validate.with_errors", files=files, bad=len(bad), errors=count)
