"""``stratagem i18n check``: is every language complete and consistent?

For one *group* of locale files (the engine's own, or one ruleset's) and the
set of keys the code or the rules use, :func:`check_locales` reports per
language:

missing
    keys used but without a text in that language (shown in English, or as
    ``[key]``, at run time);
unused
    keys with a text that nothing uses (often a typo in a key);
placeholders
    a text whose parameters differ from the reference language's (English,
    when it has the key): ``{unti}`` for ``{unit}``;
plural forms
    a ``plural`` lacking a form the language's rule produces (tried on
    n = 0..200 and some fractions): Russian needs ``one few many other``;
unknown parameters
    (when the group knows what each key is given) a placeholder that no
    caller passes.

Everything but *unused* is a problem: the command exits 1 when any is found.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratagem.errors import Location, StratagemError, ValidationFailed
from stratagem.i18n.catalog import ENGINE_LOCALES, FALLBACK_LANGUAGE, LocaleFile, read_locale
from stratagem.i18n.engine_keys import ENGINE_MESSAGES
from stratagem.i18n.plural import PluralRule
from stratagem.loader.access import STRICT


@dataclass
class Placeholders:
    """A text whose parameters differ from the reference language's."""

    key: str
    here: list[str]
    reference: list[str]
    reference_language: str

    def render(self) -> str:
        return (f"{self.key} has {_braces(self.here)}; {self.reference_language} has "
                f"{_braces(self.reference)}")


@dataclass
class PluralGap:
    """A plural lacking forms that the language's rule produces."""

    key: str
    argument: str
    lacking: list[str]

    def render(self) -> str:
        return f"{self.key} {{{self.argument}, plural}} lacks {' '.join(self.lacking)}"


@dataclass
class UnknownParameters:
    """Placeholders that no caller fills in."""

    key: str
    names: list[str]
    known: list[str]

    def render(self) -> str:
        known = _braces(self.known) if self.known else "no parameters"
        return f"{self.key} uses {_braces(self.names)}; it is given {known}"


def _braces(names: Iterable[str]) -> str:
    return " ".join(f"{{{name}}}" for name in names) or "no placeholders"


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

    @property
    def problems(self) -> int:
        """How many faults make the check fail (unused keys are only a warning)."""
        return (len(self.missing) + len(self.placeholders) + len(self.plurals)
                + len(self.unknown_parameters))

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "texts": self.texts,
            "missing": self.missing,
            "unused": self.unused,
            "placeholders": [vars(p) for p in self.placeholders],
            "plurals": [vars(p) for p in self.plurals],
            "unknown_parameters": [vars(p) for p in self.unknown_parameters],
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

    def render(self) -> str:
        """The text ``stratagem i18n check`` prints for this group."""
        lines: list[str] = []
        for err in self.errors:
            lines.append(f"[{self.name}] error: {err.render()}")
        for lang, report in self.languages.items():
            lines.append(f"[{self.name}] {lang} ({report.texts} texts)")
            lines.append(f"  missing: {', '.join(report.missing) or 'none'}")
            lines.append(f"  unused: {', '.join(report.unused) or 'none'}")
            for title, items in (
                ("placeholders differ", report.placeholders),
                ("plural forms lacking", report.plurals),
                ("unknown parameters", report.unknown_parameters),
            ):
                for item in items:
                    lines.append(f"  {title}: {item.render()}")
        return "\n".join(lines)


def _read_all(
    paths: Iterable[Path], language: str, errors: list[StratagemError]
) -> list[LocaleFile]:
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
) -> CheckReport:
    """Check the locale files of one group against the keys it uses.

    ``locale_files_by_lang`` maps each language to its files (later ones
    override earlier ones). ``inherited`` files (a ruleset inherits the
    engine's) give texts that count as present, and keys they define are
    never *unused*, but their own faults are not reported here. ``params``
    maps a key to the parameters its caller passes, when that is known.
    Files that fail to load become ``errors`` of the report; the others are
    still checked.
    """
    inherited = inherited or {}
    report = CheckReport(name)
    own: dict[str, list[LocaleFile]] = {}
    base: dict[str, list[LocaleFile]] = {}
    for lang in sorted(set(locale_files_by_lang) | set(inherited)):
        own[lang] = _read_all(locale_files_by_lang.get(lang, []), lang, report.errors)
        base[lang] = _read_all(inherited.get(lang, []), lang, [])
    reference = FALLBACK_LANGUAGE if FALLBACK_LANGUAGE in own else next(iter(own), None)
    ref_texts = _texts(base.get(reference, []) + own.get(reference, [])) if reference else {}
    for lang, files in own.items():
        texts = _texts(files)
        inherited_texts = _texts(base[lang])
        rule = _rule(base[lang] + files)
        lang_report = LanguageReport(lang, files=[f.path for f in files], texts=len(texts))
        lang_report.missing = sorted(used_keys - set(texts) - set(inherited_texts))
        lang_report.unused = sorted(set(texts) - used_keys - set(inherited_texts))
        for key in sorted(texts):
            message = texts[key]
            if lang != reference and key in ref_texts:
                # the parameters each text shows; which of their attributes a language
                # reads (`{side.plural}` for agreement) is its own grammar's business
                here = {a.split(".")[0] for a in message.arguments}
                there = {a.split(".")[0] for a in ref_texts[key].arguments}
                if here != there:
                    lang_report.placeholders.append(
                        Placeholders(key, sorted(here), sorted(there), str(reference))
                    )
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


def _texts(files: list[LocaleFile]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for locale in files:
        merged.update(locale.messages)
    return merged


def _rule(files: list[LocaleFile]) -> PluralRule:
    rule = None
    for locale in files:
        rule = locale.plural or rule
    return rule or PluralRule()


def files_by_language(folder: Path) -> dict[str, list[Path]]:
    """``{lang: [folder/<lang>.yaml]}`` for the locale files in ``folder`` (empty if none;
    a link out of the ruleset's folder is none)."""
    if not folder.is_dir():
        return {}
    return {path.stem: [path] for path in sorted(folder.glob("*.yaml"))
            if STRICT.confined(path, folder.parent)}


def check_engine() -> CheckReport:
    """The engine's own locale files against :data:`ENGINE_MESSAGES`."""
    return check_locales(set(ENGINE_MESSAGES), files_by_language(ENGINE_LOCALES),
                         params=ENGINE_MESSAGES, name="engine")


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
    folder: Path, name: str, keys_of: Callable[[str], set[str]], refs: list[str] | None = None
) -> CheckReport:
    """A ruleset folder's ``locales/`` against the keys the ruleset and its settings use.

    ``keys_of(ref)`` returns the keys one ruleset or setting uses (the
    command line passes ``load_ruleset(ref).message_keys()``); ``refs``
    defaults to :func:`ruleset_refs` of a shipped ruleset called ``name``.
    The engine's locale files are inherited: a ruleset may override an
    engine text, and need not repeat one.
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
    report = check_locales(used, files_by_language(folder / "locales"),
                           inherited=files_by_language(ENGINE_LOCALES), name=name)
    report.errors[:0] = errors
    return report
