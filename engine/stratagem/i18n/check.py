"""``stratagem i18n check``: is every language complete and consistent?

For one *group* of locale files (the engine's own, one ruleset's, or one
overlay's) and the keys its code or rules use, :func:`check_locales` reports,
for each language the group ships, with the file, line and column of each:

missing
    keys used but without a text in that language (shown in English, or as
    ``[key]``, at run time);
unused
    keys with a text that nothing uses (often a typo in a key);
placeholders
    a text whose parameters differ from the reference language's (English,
    when it has the key): ``{unti}`` for ``{unit}``;
plural forms
    a ``plural`` lacking a form the language needs (CLDR's categories):
    Russian needs ``one few many other``;
unknown parameters
    (when the group knows what each key is given) a placeholder that no
    caller passes;
stale
    a translation made from an English text that has changed since (the
    file's ``sources:`` records the fingerprint of the English it was made
    from, as gettext marks such entries *fuzzy*).

It also counts the coverage of each language: the share of used keys it
translates. Everything but *unused* is a problem: the command exits 1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratagem.errors import Keyed, Location, StratagemError, Term, Texts, ValidationFailed
from stratagem.i18n.catalog import (
    ENGINE_LOCALES,
    FALLBACK_LANGUAGE,
    LocaleFile,
    fingerprint,
    read_locale,
)
from stratagem.i18n.engine_keys import engine_keys
from stratagem.i18n.messages import Message
from stratagem.i18n.plural import plural_rule
from stratagem.loader.access import STRICT


@dataclass
class Placeholders:
    """A text whose parameters differ from the reference language's."""

    key: str
    here: list[str]
    reference: list[str]
    reference_language: str

    def render(self) -> str:
        return str(self.said())

    def said(self) -> Term:
        here, reference = _braces(self.here), _braces(self.reference)
        return _term("i18n.finding.placeholders", f"{self.key} has {here}; "
                     f"{self.reference_language} has {reference}", key=self.key, here=here,
                     language=self.reference_language, reference=reference)


@dataclass
class PluralGap:
    """A plural lacking forms that the language needs."""

    key: str
    argument: str
    lacking: list[str]

    def render(self) -> str:
        return str(self.said())

    def said(self) -> Term:
        lacking = " ".join(self.lacking)
        return _term("i18n.finding.plural", f"{self.key} {{{self.argument}, plural}} lacks "
                     f"{lacking}", key=self.key, argument=self.argument, lacking=lacking)


@dataclass
class UnknownParameters:
    """Placeholders that no caller fills in."""

    key: str
    names: list[str]
    known: list[str]

    def render(self) -> str:
        return str(self.said())

    def said(self) -> Term:
        names = _braces(self.names)
        known = (_braces(self.known) if self.known
                 else Term("i18n.finding.no_parameters", "no parameters"))
        return _term("i18n.finding.unknown", f"{self.key} uses {names}; it is given {known}",
                     key=self.key, names=names, known=known)


@dataclass
class Stale:
    """A translation of an English text that has changed since (gettext's *fuzzy*)."""

    key: str
    recorded: str
    now: str

    def render(self) -> str:
        return str(self.said())

    def said(self) -> Term:
        return _term("i18n.finding.stale", f"{self.key}: the English text changed since this "
                     f"was translated; check it, then record sources: {self.key}: {self.now}",
                     key=self.key, now=self.now)


def _term(key: str, english: str, /, **params: object) -> Term:
    return Term(key, english, tuple(params.items()))


def _braces(names: Iterable[str]) -> str | Term:
    return (" ".join(f"{{{name}}}" for name in names)
            or Term("i18n.finding.no_placeholders", "no placeholders"))


#: What each kind of finding is called, in the reader's language.
KINDS = {
    "missing": Term("i18n.kind.missing", "missing"),
    "unused": Term("i18n.kind.unused", "unused"),
    "placeholders differ": Term("i18n.kind.placeholders", "placeholders differ"),
    "plural forms lacking": Term("i18n.kind.plural", "plural forms lacking"),
    "unknown parameters": Term("i18n.kind.unknown", "unknown parameters"),
    "stale": Term("i18n.kind.stale", "stale"),
}


@dataclass
class Finding:
    """One finding, placed: what ``i18n check`` prints as ``file:line:col: ...``."""

    kind: str
    key: str
    said: Term
    location: Location | None

    @property
    def text(self) -> str:
        """The finding in English."""
        return str(self.said)

    def render(self, group: str, language: str, texts: Texts | None = None) -> str:
        loc = self.location
        where = str(Location(loc.file, loc.line, loc.column)) if loc is not None else group
        kind, said = (_shown(t, texts) for t in (KINDS[self.kind], self.said))
        return f"{where}: [{group}] {language}: {kind}: {said}"

    def to_json(self) -> dict[str, Any]:
        loc = self.location or Location()
        return {"kind": self.kind, "key": self.key, "text": self.text, "file": loc.file,
                "line": loc.line, "column": loc.column}


def _shown(term: Term, texts: Texts | None) -> str:
    """A term in the language of ``texts`` (its English without)."""
    shown = texts.keyed(term.key, dict(term.params)) if texts is not None else None
    return shown if shown is not None else term.fallback


@dataclass
class LanguageReport:
    """What :func:`check_locales` found for one language of one group."""

    language: str
    files: list[str] = field(default_factory=list)
    texts: int = 0
    missing: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)
    placeholders: list[Placeholders] = field(default_factory=list)
    plurals: list[PluralGap] = field(default_factory=list)
    unknown_parameters: list[UnknownParameters] = field(default_factory=list)
    stale: list[Stale] = field(default_factory=list)
    #: How many keys are used, and how many of them this language translates.
    used: int = 0
    translated: int = 0
    #: key → where the finding about it points (its text here, else where it should go).
    locations: dict[str, Location] = field(default_factory=dict)

    @property
    def problems(self) -> int:
        """How many faults make the check fail (unused keys are only a warning)."""
        return (len(self.missing) + len(self.placeholders) + len(self.plurals)
                + len(self.unknown_parameters) + len(self.stale))

    @property
    def coverage(self) -> float:
        """The percentage of used keys this language translates (100 when none is used)."""
        return 100.0 if not self.used else 100.0 * self.translated / self.used

    def findings(self) -> list[Finding]:
        """Every finding, each with its place."""
        out: list[Finding] = []

        def add(kind: str, key: str, said: Term) -> None:
            out.append(Finding(kind, key, said, self.locations.get(key)))

        for key in self.missing:
            add("missing", key, _term("i18n.finding.missing", f"{key} has no text", key=key))
        for key in self.unused:
            add("unused", key, _term("i18n.finding.unused", f"{key} is used by nothing",
                                     key=key))
        for item in self.placeholders:
            add("placeholders differ", item.key, item.said())
        for gap in self.plurals:
            add("plural forms lacking", gap.key, gap.said())
        for unknown in self.unknown_parameters:
            add("unknown parameters", unknown.key, unknown.said())
        for stale in self.stale:
            add("stale", stale.key, stale.said())
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "texts": self.texts,
            "used": self.used,
            "translated": self.translated,
            "coverage": round(self.coverage, 1),
            "missing": self.missing,
            "unused": self.unused,
            "placeholders": [vars(p) for p in self.placeholders],
            "plurals": [vars(p) for p in self.plurals],
            "unknown_parameters": [vars(p) for p in self.unknown_parameters],
            "stale": [vars(s) for s in self.stale],
            "findings": [f.to_json() for f in self.findings()],
        }


@dataclass
class CheckReport:
    """The findings for one group of locale files, language by language."""

    name: str
    languages: dict[str, LanguageReport] = field(default_factory=dict)
    errors: list[StratagemError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing is missing, broken or inconsistent (unused keys allowed)."""
        return not self.errors and all(r.problems == 0 for r in self.languages.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "ok": self.ok,
            "errors": [err.to_json() for err in self.errors],
            "languages": {lang: r.to_json() for lang, r in self.languages.items()},
        }

    def render(self, texts: Texts | None = None) -> str:
        """The text ``stratagem i18n check`` prints for this group, in the language of
        ``texts``."""
        lines: list[str] = []
        for err in self.errors:
            lines.append(f"[{self.name}] " + Keyed(
                f"error: {err.render(texts)}", "i18n.group_error", error=err.render(texts)
            ).localized(texts))
        for lang, report in self.languages.items():
            coverage = f"{report.coverage:.0f}"
            lines.append(f"[{self.name}] {lang}: " + Keyed(
                f"{report.texts} texts, {report.translated} of {report.used} used keys "
                f"({coverage}%)", "i18n.coverage", texts=report.texts,
                translated=report.translated, used=report.used, percent=coverage
            ).localized(texts))
            lines.extend("  " + f.render(self.name, lang, texts) for f in report.findings())
        return "\n".join(lines)


def read_locales(
    paths: Iterable[Path], language: str, errors: list[StratagemError]
) -> list[LocaleFile]:
    """The locale files of one language that read; the errors of the others go into
    ``errors``."""
    read: list[LocaleFile] = []
    for path in paths:
        try:
            locale = read_locale(Path(path))
        except ValidationFailed as err:
            errors.extend(err.errors)
            continue
        except StratagemError as err:
            errors.append(err)
            continue
        if locale.language != language:
            errors.append(StratagemError(
                f"this file is listed for language {language!r} but is {locale.language!r}",
                location=Location(file=locale.path),
                key="locale.other_language",
                params={"listed": repr(language), "found": repr(locale.language)},
            ))
            continue
        read.append(locale)
    return read


def check_locales(
    used_keys: set[str],
    locale_files_by_lang: Mapping[str, list[Path]],
    *,
    inherited: Mapping[str, list[Path]] | None = None,
    params: Mapping[str, Iterable[str]] | None = None,
    name: str = "locales",
    is_used: Callable[[str], bool] | None = None,
    code_locations: Mapping[str, Location] | None = None,
) -> CheckReport:
    """Check the locale files of one group against the keys it uses.

    ``locale_files_by_lang`` maps each language the group ships to its files
    (later ones override earlier ones); only those languages are checked.
    ``inherited`` files (a ruleset inherits the engine's) give texts that
    count as present, and keys they define are never *unused*, but their own
    faults are not reported here. ``params`` maps a key to the parameters its
    caller passes, when that is known. ``is_used(key)`` says whether a text
    serves anything (default: ``key in used_keys``); ``code_locations`` are
    where the code uses each key (a missing English text points there).
    Files that fail to load become ``errors`` of the report; the others are
    still checked.
    """
    inherited = inherited or {}
    used = is_used or used_keys.__contains__
    report = CheckReport(name)
    own: dict[str, list[LocaleFile]] = {}
    base: dict[str, list[LocaleFile]] = {}
    for lang in sorted(locale_files_by_lang):
        own[lang] = read_locales(locale_files_by_lang.get(lang, []), lang, report.errors)
        base[lang] = read_locales(inherited.get(lang, []), lang, [])
    reference = FALLBACK_LANGUAGE
    ref_files = (read_locales(inherited.get(reference, []), reference, [])
                 + own.get(reference, []))
    ref_texts = _texts(ref_files)
    ref_where = _where_in(ref_files)
    for lang, files in own.items():
        texts = _texts(files)
        inherited_texts = _texts(base[lang])
        rule = plural_rule(lang)
        lang_report = LanguageReport(lang, files=[f.path for f in files], texts=len(texts))
        lang_report.locations = _where_in(files)
        needed = used_keys | {k for k in ref_texts if used(k)}
        have = set(texts) | set(inherited_texts)
        lang_report.missing = sorted(needed - have)
        lang_report.used, lang_report.translated = len(needed), len(needed & have)
        lang_report.unused = sorted(k for k in texts if not used(k) and k not in inherited_texts)
        for key in lang_report.missing:
            home = next((f.messages_at for f in reversed(files) if f.messages_at), None)
            there = ref_where.get(key) or (code_locations or {}).get(key)
            lang_report.locations[key] = (there if lang == reference or home is None
                                          else home) or Location(file=name)
        stamps = {key: stamp for f in files for key, stamp in f.sources.items()}
        for key in sorted(texts):
            message = texts[key]
            if lang != reference and key in ref_texts:
                # the parameters each text shows; which of their attributes a language
                # reads (`{side.plural}` for agreement) is its own grammar's business
                here = {a.split(".")[0] for a in message.arguments}
                there_args = {a.split(".")[0] for a in ref_texts[key].arguments}
                if here != there_args:
                    lang_report.placeholders.append(
                        Placeholders(key, sorted(here), sorted(there_args), reference)
                    )
                now = fingerprint(ref_texts[key].source)
                if key in stamps and stamps[key] != now:
                    lang_report.stale.append(Stale(key, stamps[key], now))
            for argument, forms in message.plurals:
                lacking = [c for c in rule.categories if c not in forms]
                if lacking:
                    lang_report.plurals.append(PluralGap(key, argument, lacking))
            if params is not None and key in params:
                known = set(params[key])
                unknown = sorted(a for a in message.arguments if a.split(".")[0] not in known)
                if unknown:
                    lang_report.unknown_parameters.append(
                        UnknownParameters(key, unknown, sorted(known))
                    )
        report.languages[lang] = lang_report
    return report


def _texts(files: list[LocaleFile]) -> dict[str, Message]:
    merged: dict[str, Message] = {}
    for locale in files:
        merged.update(locale.messages)
    return merged


def _where_in(files: list[LocaleFile]) -> dict[str, Location]:
    merged: dict[str, Location] = {}
    for locale in files:
        merged.update(locale.locations)
    return merged


def files_by_language(folder: Path) -> dict[str, list[Path]]:
    """``{lang: [folder/<lang>.yaml]}`` for the locale files in ``folder`` (empty if none;
    a link out of the ruleset's folder is none)."""
    if not folder.is_dir():
        return {}
    return {path.stem: [path] for path in sorted(folder.glob("*.yaml"))
            if STRICT.confined(path, folder.parent)}


def check_engine(extra: Mapping[str, list[Path]] | None = None) -> CheckReport:
    """The engine's own locale files against the keys its code uses (:func:`engine_keys`).

    ``extra`` adds languages (a ruleset's) the engine must speak too: a
    language with no engine file misses every engine text.
    """
    found = engine_keys()
    files = files_by_language(ENGINE_LOCALES)
    for lang in extra or {}:
        files.setdefault(lang, [])
    locations = {key: use.locations[0] for key, use in found.uses.items() if use.locations}
    return check_locales(found.needed(), files, params=found.params(), name="engine",
                         is_used=found.is_used, code_locations=locations)


def ruleset_refs(folder: Path, ruleset_id: str | None = None) -> list[str]:
    """The rulesets and settings whose keys a ruleset folder's locale files serve.

    A setting writes its texts into its ruleset's locale files, so the folder
    serves the ruleset and each ``settings/*.yaml``. With ``ruleset_id`` (a
    shipped ruleset) the references are ``id`` and ``id/setting``; without,
    they are the paths of ``ruleset.yaml`` and of each setting file.
    """
    settings_dir = folder / "settings"
    settings = sorted(settings_dir.glob("*.yaml")) if settings_dir.is_dir() else []
    if ruleset_id is not None:
        return [ruleset_id] + [f"{ruleset_id}/{path.stem}" for path in settings]
    return [str(folder / "ruleset.yaml")] + [str(path) for path in settings]


def check_ruleset(
    folder: Path, name: str, keys_of: Callable[[str], set[str]], refs: list[str] | None = None,
    *, locales: Path | None = None, inherited: Mapping[str, list[Path]] | None = None,
) -> CheckReport:
    """A ruleset's (or an overlay's) locale files against the keys it and its settings use.

    ``keys_of(ref)`` returns the keys one ruleset or setting uses (the
    command line passes ``load_ruleset(ref).message_keys()``); ``refs``
    defaults to :func:`ruleset_refs` of a shipped ruleset called ``name``.
    ``locales`` is the folder of its own files (default ``folder/locales``);
    only the languages it ships are checked. The engine's locale files (and
    ``inherited`` ones: an overlay inherits its ruleset's) count as present:
    a ruleset may override an engine text, and need not repeat one.
    """
    used: set[str] = set()
    errors: list[StratagemError] = []
    for ref in refs if refs is not None else ruleset_refs(folder, name):
        try:
            used |= set(keys_of(ref))
        except ValidationFailed as err:
            errors.extend(err.errors)
        except StratagemError as err:
            errors.append(err)
    base = {lang: list(paths) for lang, paths in files_by_language(ENGINE_LOCALES).items()}
    for lang, paths in (inherited or {}).items():
        base.setdefault(lang, []).extend(paths)
    report = check_locales(used, files_by_language(locales or folder / "locales"),
                           inherited=base, name=name)
    report.errors[:0] = errors
    return report
