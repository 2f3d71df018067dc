"""``stratagem i18n``: check translations, or show one text in one language.

``stratagem i18n check [--ruleset ID ...] [--format text|json]`` checks the
engine's own locale files and those of every shipped ruleset (or the named
ones; a path to a ruleset folder works too). It exits 1 when a key is
missing, a placeholder or plural form is wrong, or a file does not load.

``stratagem i18n show KEY [--lang LANG] [--ruleset ID] [--locales PATH ...]
[--param NAME=VALUE ...]`` prints one formatted text, the way the report
would show it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from stratagem.cli.common import add_allow_path, language_arg
from stratagem.errors import StratagemError

CHECK_EPILOG = """examples:
  stratagem i18n check                               every shipped ruleset and the engine
  stratagem i18n check --ruleset war-machine         one shipped ruleset
  stratagem i18n check --ruleset ./my-rules          a ruleset folder of your own
  stratagem i18n check --format json                 the same report as JSON

Exit status 1 when a key is missing, a placeholder or plural form is wrong, or a file does
not load. See docs/translating.md.
"""

SHOW_EPILOG = """examples:
  stratagem i18n show report.rounds --lang ru --param n=3
  stratagem i18n show battle.fight --ruleset war-machine --param winner=Orcs --param difference=5
  stratagem i18n show report.winner --locales my-locales/pl.yaml --lang pl --param side=Rome
"""


def register(sub: Any) -> None:
    """Add ``i18n`` and its subcommands to the command line."""
    parser = sub.add_parser(
        "i18n",
        help="check translations; show a text in a language",
        description="Check the locale files, or show one text in one language.",
    )
    inner = parser.add_subparsers(dest="i18n_command", metavar="SUBCOMMAND")
    check = inner.add_parser(
        "check",
        help="list missing and unused keys per language (exit 1 if any is missing)",
        description="Check the engine's locale files and each ruleset's: missing and unused "
        "keys, placeholders that differ between languages, plural forms a language needs.",
        epilog=CHECK_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("--ruleset", action="append", metavar="ID",
                       help="check only this ruleset (a shipped id or a folder); repeatable")
    check.add_argument("--format", choices=("text", "json"), default="text",
                       help="output format (default: text)")
    add_allow_path(check)
    check.set_defaults(run=run_check)
    show = inner.add_parser(
        "show",
        help="print one text, formatted",
        description="Print the text of KEY in a language, with parameters filled in.",
        epilog=SHOW_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    show.add_argument("key", metavar="KEY", help="a message key, e.g. report.rounds")
    show.add_argument("--lang", default="en", type=language_arg,
                      help="language code (default: en)")
    show.add_argument("--ruleset", metavar="ID",
                      help="also read this ruleset's locale files (a shipped id or a folder)")
    show.add_argument("--locales", action="append", default=[], metavar="PATH",
                      help="also read this locale file or folder (after the others); repeatable")
    show.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                      help="a parameter; numbers are read as numbers; repeatable")
    add_allow_path(show)
    show.set_defaults(run=run_show)
    parser.set_defaults(run=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _rulesets_dir() -> Path | None:
    from stratagem.resources import data_dir

    try:
        return data_dir("rulesets")
    except FileNotFoundError:
        return None


def _shipped() -> dict[str, Path]:
    base = _rulesets_dir()
    if base is None:
        return {}
    return {p.name: p for p in sorted(base.iterdir()) if (p / "ruleset.yaml").is_file()}


def _ruleset_folder(ref: str) -> tuple[str, Path, bool]:
    """``(name, folder, shipped)`` for a shipped id or a path to a ruleset folder."""
    shipped = _shipped()
    if ref in shipped:
        return ref, shipped[ref], True
    path = Path(ref)
    if path.is_dir() and (path / "ruleset.yaml").is_file():
        return str(path), path, False
    known = ", ".join(shipped) or "none"
    raise StratagemError(
        f"unknown ruleset {ref!r}",
        hint=f"name a shipped ruleset ({known}) or a folder holding ruleset.yaml",
    )


def _keys_of(ref: str) -> set[str]:
    """The keys a ruleset or setting uses, from the engine's model (imported only now)."""
    from stratagem.compile.pipeline import load_ruleset

    return set(load_ruleset(ref).message_keys())


def run_check(args: argparse.Namespace) -> int:
    from stratagem.i18n.check import check_engine, check_ruleset, ruleset_refs

    if args.ruleset:
        targets = [_ruleset_folder(ref) for ref in args.ruleset]
    else:
        targets = [(name, folder, True) for name, folder in _shipped().items()]
    reports = [check_engine()]
    for name, folder, shipped in targets:
        refs = ruleset_refs(folder, name if shipped else None)
        reports.append(check_ruleset(folder, name, _keys_of, refs))
    ok = all(report.ok for report in reports)
    if args.format == "json":
        print(json.dumps({"ok": ok, "groups": [r.to_json() for r in reports]},
                         ensure_ascii=False, indent=2))
    else:
        for report in reports:
            print(report.render())
        missing = sum(len(lang.missing) for r in reports for lang in r.languages.values())
        unused = sum(len(lang.unused) for r in reports for lang in r.languages.values())
        other = sum(lang.problems for r in reports for lang in r.languages.values()) - missing
        errors = sum(len(r.errors) for r in reports)
        print(f"i18n check: {missing} missing, {unused} unused, {other} other problems, "
              f"{errors} load errors" + (" — OK" if ok else ""))
    return 0 if ok else 1


def _parse_param(text: str) -> tuple[str, object]:
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise StratagemError(f"--param {text!r} is not NAME=VALUE", hint="e.g. --param n=21")
    for convert in (int, float):
        try:
            return name, convert(raw)
        except ValueError:
            pass
    return name, raw


def _check_locale_file(path: Path) -> None:
    """A file given to --locales must be a valid locale file (it is named, never quoted)."""
    from stratagem.compile.pipeline import kind_of, locale_errors
    from stratagem.errors import ValidationFailed
    from stratagem.loader.yamlio import load_yaml

    raw = load_yaml(path)
    kind, errors = kind_of(raw, str(path))
    if kind is not None and kind != "locale":
        errors = [StratagemError(f"{path} is not a locale file (it says kind: {kind})",
                                 hint="--locales names a locale file (pl.yaml) or a folder "
                                      "of them")]
    elif kind == "locale":
        errors = locale_errors(raw, str(path))
    if errors:
        raise ValidationFailed(errors)


def run_show(args: argparse.Namespace) -> int:
    import sys

    from stratagem.i18n.catalog import ENGINE_LOCALES, load_catalog

    places = [ENGINE_LOCALES]
    if args.ruleset:
        places.append(_ruleset_folder(args.ruleset)[1] / "locales")
    for place in args.locales:
        path = Path(place)
        if not path.exists():
            raise StratagemError(f"{place}: no such file or folder",
                                 hint="--locales names a locale file (pl.yaml) or a folder of them")
        if not path.is_dir():
            _check_locale_file(path)
        places.append(path)
    catalog = load_catalog(args.lang, places)
    if not catalog.keys() and args.lang != "en":
        print(f"stratagem: {catalog.text('error.language_missing', lang=args.lang)}",
              file=sys.stderr)
    params: dict[str, Any] = {}
    for name, value in (_parse_param(p) for p in args.param):
        *parents, last = name.split(".")
        target = params
        for part in parents:  # --param check.roll=9 gives {"check": {"roll": 9}}
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                raise StratagemError(f"--param {name}: {part!r} is already a value")
        target[last] = value
    print(catalog.text(args.key, **params))
    return 0 if catalog.message(args.key) is not None else 1
