"""``stratagem i18n``: check translations, show one text, exchange them with translators' tools.

``stratagem i18n check [--ruleset ID ...] [--format text|json]`` checks the
engine's own locale files and those of every shipped ruleset (or the named
ones; a path to a ruleset folder or to an overlay file works too), each
against the languages it ships. It exits 1 when a key is missing, a
placeholder or plural form is wrong, a translation is stale, or a file does
not load.

``stratagem i18n export --lang LANG [--ruleset ID] [--format po|xliff]``,
``stratagem i18n import FILE [--ruleset ID]`` and ``stratagem i18n stamp
--lang LANG [--ruleset ID]``: see :mod:`stratagem.i18n.exchange`.

``stratagem i18n show KEY [--lang LANG] [--ruleset ID] [--locales PATH ...]
[--param NAME=VALUE ...]`` prints one formatted text, the way the report
would show it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from stratagem.cli import error_texts
from stratagem.cli.common import add_allow_path, helps, spoken
from stratagem.errors import Keyed, Location, StratagemError

def register(sub: Any) -> None:
    """Add ``i18n`` and its subcommands to the command line."""
    raw = argparse.RawDescriptionHelpFormatter
    parser = sub.add_parser("i18n", help=helps("cli.help.i18n.about"),
                            description=spoken("cli.help.i18n.description"))
    inner = parser.add_subparsers(dest="i18n_command", metavar="SUBCOMMAND")
    check = inner.add_parser("check", help=helps("cli.help.i18n.check.about"),
                             description=spoken("cli.help.i18n.check.description"),
                             epilog=spoken("cli.help.i18n.check.epilog"), formatter_class=raw)
    check.add_argument("--ruleset", action="append", metavar="ID",
                       help=helps("cli.help.i18n.check.ruleset"))
    check.add_argument("--format", choices=("text", "json"), default="text",
                       help=helps("cli.help.i18n.check.format"))
    add_allow_path(check)
    check.set_defaults(run=run_check)
    show = inner.add_parser("show", help=helps("cli.help.i18n.show.about"),
                            description=spoken("cli.help.i18n.show.description"),
                            epilog=spoken("cli.help.i18n.show.epilog"), formatter_class=raw)
    show.add_argument("key", metavar="KEY", help=helps("cli.help.i18n.show.key"))
    show.add_argument("--lang", default=None, help=helps("cli.help.i18n.show.lang"))
    show.add_argument("--ruleset", metavar="ID", help=helps("cli.help.i18n.show.ruleset"))
    show.add_argument("--locales", action="append", default=[], metavar="PATH",
                      help=helps("cli.help.i18n.show.locales"))
    show.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                      help=helps("cli.help.i18n.show.param"))
    add_allow_path(show)
    show.set_defaults(run=run_show)
    group_help = helps("cli.help.i18n.group")
    export = inner.add_parser("export", help=helps("cli.help.i18n.export.about"),
                              description=spoken("cli.help.i18n.export.description"))
    export.add_argument("--lang", dest="language", metavar="LANG", required=True,
                        help=helps("cli.help.i18n.export.lang"))
    export.add_argument("--ruleset", metavar="ID", help=group_help)
    export.add_argument("--format", choices=("po", "xliff"), default="po",
                        help=helps("cli.help.i18n.export.format"))
    export.add_argument("-o", "--output", metavar="FILE",
                        help=helps("cli.help.i18n.export.output"))
    export.set_defaults(run=run_export)
    imp = inner.add_parser("import", help=helps("cli.help.i18n.import.about"),
                           description=spoken("cli.help.i18n.import.description"))
    imp.add_argument("file", metavar="FILE", help=helps("cli.help.i18n.import.file"))
    imp.add_argument("--ruleset", metavar="ID", help=group_help)
    imp.add_argument("--format", choices=("po", "xliff"), default=None,
                     help=helps("cli.help.i18n.import.format"))
    imp.add_argument("-o", "--output", metavar="FILE",
                     help=helps("cli.help.i18n.import.output"))
    imp.set_defaults(run=run_import)
    stamp = inner.add_parser("stamp", help=helps("cli.help.i18n.stamp.about"),
                             description=spoken("cli.help.i18n.stamp.description"))
    stamp.add_argument("--lang", dest="language", metavar="LANG", required=True,
                       help=helps("cli.help.i18n.stamp.lang"))
    stamp.add_argument("--ruleset", metavar="ID", help=group_help)
    stamp.set_defaults(run=run_stamp)
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
    """``(name, folder, shipped)`` for a shipped id, a ruleset folder or an overlay file."""
    shipped = _shipped()
    if ref in shipped:
        return ref, shipped[ref], True
    path = Path(ref)
    if path.is_dir() and (path / "ruleset.yaml").is_file():
        return str(path), path, False
    if path.is_file() and path.suffix == ".yaml":
        return str(path), path, False
    known = ", ".join(shipped) or "none"
    raise StratagemError(
        f"unknown ruleset {ref!r}",
        hint=f"name a shipped ruleset ({known}), a folder holding ruleset.yaml, or an overlay "
        "file", key="i18n.unknown_ruleset", params={"ref": ref, "known": known},
    )


def _overlay_locales(path: Path) -> Path:
    """The locale folder of an overlay file: ``locales/`` beside it, or ``<stem>/locales/``."""
    for folder in (path.parent / path.stem / "locales", path.parent / "locales"):
        if folder.is_dir():
            return folder
    return path.parent / "locales"


def _group(ref: str | None) -> tuple[str, Path]:
    """``(name, locale folder)`` of the engine (no ref) or of a ruleset or overlay."""
    from stratagem.i18n.catalog import ENGINE_LOCALES

    if ref is None:
        return "engine", ENGINE_LOCALES
    name, folder, _ = _ruleset_folder(ref)
    return name, _overlay_locales(folder) if folder.is_file() else folder / "locales"


def _read(folder: Path, lang: str) -> list[Any]:
    from stratagem.i18n.catalog import read_locale

    path = folder / f"{lang}.yaml"
    return [read_locale(path)] if path.is_file() else []


def _keys_of(ref: str) -> set[str]:
    """The keys a ruleset or setting uses, from the engine's model (imported only now)."""
    from stratagem.compile.pipeline import load_ruleset

    return set(load_ruleset(ref).message_keys())


def _check_target(name: str, folder: Path, shipped: bool) -> Any:
    from stratagem.i18n.check import check_ruleset, ruleset_refs

    if not folder.is_file():
        refs = ruleset_refs(folder, name if shipped else None)
        return check_ruleset(folder, name, _keys_of, refs)
    own = _overlay_locales(folder)
    inherited: dict[str, list[Path]] = {}
    try:
        from stratagem.compile.pipeline import load_ruleset

        for lang, paths in load_ruleset(folder).locale_files.items():
            inherited[lang] = [p for p in paths if p.parent != own]
    except StratagemError:
        pass  # check_ruleset reports it
    return check_ruleset(folder.parent, name, _keys_of, [str(folder)], locales=own,
                         inherited=inherited)


def run_check(args: argparse.Namespace) -> int:
    from stratagem.compile.messages import engine_literal_errors
    from stratagem.i18n.check import check_engine

    if args.ruleset:
        targets = [_ruleset_folder(ref) for ref in args.ruleset]
    else:
        targets = [(name, folder, True) for name, folder in _shipped().items()]
    groups = [_check_target(name, folder, shipped) for name, folder, shipped in targets]
    languages: dict[str, list[Path]] = {lang: [] for report in groups
                                        for lang in report.languages}
    reports = [check_engine(languages), *groups]
    reports[0].errors.extend(engine_literal_errors())
    ok = all(report.ok for report in reports)
    texts = error_texts(args)
    if args.format == "json":
        print(json.dumps({"ok": ok, "groups": [r.to_json() for r in reports]},
                         ensure_ascii=False, indent=2))
    else:
        for report in reports:
            print(report.render(texts))
        missing = sum(len(lang.missing) for r in reports for lang in r.languages.values())
        unused = sum(len(lang.unused) for r in reports for lang in r.languages.values())
        stale = sum(len(lang.stale) for r in reports for lang in r.languages.values())
        other = sum(lang.problems for r in reports for lang in r.languages.values()) - missing \
            - stale
        errors = sum(len(r.errors) for r in reports)
        print("i18n check: " + Keyed(
            f"{missing} missing, {unused} unused, {stale} stale, {other} other problems, "
            f"{errors} load errors" + (" — OK" if ok else ""), "i18n.summary", missing=missing,
            unused=unused, stale=stale, other=other, errors=errors, ok=ok).localized(texts))
    return 0 if ok else 1


def _parse_param(text: str) -> tuple[str, object]:
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise StratagemError(f"--param {text!r} is not NAME=VALUE", hint="e.g. --param n=21",
                             key="i18n.param", params={"param": repr(text)})
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

    raw = load_yaml(path, document=True)
    kind, errors = kind_of(raw, str(path))
    if kind is not None and kind != "locale":
        errors = [StratagemError(f"{path} is not a locale file (it says kind: {kind})",
                                 hint="--locales names a locale file (pl.yaml) or a folder "
                                      "of them", key="i18n.not_locale",
                                 params={"path": str(path), "kind": str(kind)})]
    elif kind == "locale":
        errors = locale_errors(raw, str(path))
    if errors:
        raise ValidationFailed(errors)


def run_show(args: argparse.Namespace) -> int:
    from stratagem.cli.common import chosen_lang
    from stratagem.i18n.catalog import engine_catalog

    places: list[Path] = []
    if args.ruleset:
        places.append(_ruleset_folder(args.ruleset)[1] / "locales")
    for place in args.locales:
        path = Path(place)
        if not path.exists():
            raise StratagemError(f"{place}: no such file or folder",
                                 hint="--locales names a locale file (pl.yaml) or a folder of them",
                                 key="i18n.no_place", params={"place": place})
        if not path.is_dir():
            _check_locale_file(path)
        places.append(path)
    catalog = engine_catalog(chosen_lang(args.lang), *places)
    params: dict[str, Any] = {}
    for name, value in (_parse_param(p) for p in args.param):
        *parents, last = name.split(".")
        target = params
        for part in parents:  # --param check.roll=9 gives {"check": {"roll": 9}}
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                raise StratagemError(f"--param {name}: {part!r} is already a value",
                                     key="i18n.param_value",
                                     params={"param": name, "part": repr(part)})
        target[last] = value
    print(catalog.text(args.key, **params))
    return 0 if catalog.message(args.key) is not None else 1


def run_export(args: argparse.Namespace) -> int:
    import sys

    from stratagem.i18n.exchange import export_po, export_xliff
    from stratagem.render import write_file

    name, folder = _group(args.ruleset)
    english, own = _read(folder, "en"), _read(folder, args.language)
    if args.format == "po":
        data = export_po(args.language, english, own, project=name)
    else:
        data = export_xliff(args.language, english, own, original=name)
    if args.output:
        write_file(args.output, data.decode("utf-8"))
    else:
        sys.stdout.write(data.decode("utf-8"))
    return 0


def run_import(args: argparse.Namespace) -> int:
    from stratagem.i18n.exchange import import_po, import_xliff, locale_text
    from stratagem.render import write_file

    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise StratagemError(f"cannot read the file: {err.strerror or err}",
                             location=Location(str(path)), key="yaml.unreadable",
                             params={"reason": err.strerror or str(err)}) from None
    kind = args.format or ("xliff" if path.suffix.lower() in (".xlf", ".xliff") else "po")
    name, folder = _group(args.ruleset)
    english = _read(folder, "en")
    reader = import_po if kind == "po" else import_xliff
    first = reader(data, english, [], str(path))
    existing = _read(folder, first.language)
    result = reader(data, english, existing, str(path)) if existing else first
    result.name = next((f.name for f in existing if f.name), "")
    target = Path(args.output) if args.output else folder / f"{result.language}.yaml"
    header = (f"# {name} texts in {result.language}, written by `stratagem i18n import` "
              f"from {path.name}.")
    write_file(str(target), locale_text(result, header))
    n = len(result.messages)
    print(f"{target}: " + Keyed(f"{n} texts", "i18n.imported", n=n).localized(error_texts(args)))
    return 0


def run_stamp(args: argparse.Namespace) -> int:
    from stratagem.i18n.catalog import fingerprint
    from stratagem.i18n.exchange import with_sources
    from stratagem.render import write_file

    name, folder = _group(args.ruleset)
    path = folder / f"{args.language}.yaml"
    english = {key: m for f in _read(folder, "en") for key, m in f.messages.items()}
    own = _read(folder, args.language)
    if not own:
        raise StratagemError(f"{path}: no such locale file", location=Location(str(path)),
                             key="i18n.no_locale_file", params={"path": str(path)})
    sources = {key: fingerprint(english[key].source) for key in own[0].messages if key in english}
    write_file(str(path), with_sources(path.read_text(encoding="utf-8"), sources))
    n = len(sources)
    stamped = Keyed(f"{n} texts stamped", "i18n.stamped", n=n)
    print(f"{path}: {stamped.localized(error_texts(args))}")
    return 0
