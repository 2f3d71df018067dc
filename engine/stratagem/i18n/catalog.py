"""Catalogs: the texts of one language, merged from several locale files.

A locale file (``kind: locale``) holds the texts of one language; its file
name is its language (``ru.yaml``). A catalog for ``ru`` reads, in order, the
``ru.yaml`` of every layer it is given (the engine's own, then the ruleset's,
then an overlay's); a later file's text wins for the same key. It also reads
the ``en.yaml`` files the same way, as the fallback: a key missing in ``ru``
is shown in English, a key missing in both is shown as ``[key]``. Formatting
never raises.

Every message is parsed when its file is read, so a malformed one is a load
error with its file, line and column. What a file read into is kept in the user's cache
(:mod:`stratagem.loader.usercache`) with its whole text and a stamp of the code that read
it: the next run that reads the same text with the same code needs neither the YAML
parser nor the message parser (docs/performance.md, "Start-up"; docs/security.md, "The
user's cache").
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from stratagem import __version__
from stratagem.errors import Either, Location, StratagemError, ValidationFailed
from stratagem.i18n.language import Language, is_number
from stratagem.i18n.messages import (
    BadData,
    Message,
    MessageSyntaxError,
    from_data,
    parse_message,
    to_data,
)
from stratagem.i18n.names import NameBook
from stratagem.i18n.plural import PluralRule
from stratagem.loader.access import STRICT
from stratagem.loader.usercache import cache_folder, read_entry, write_entry
from stratagem.loader.yamlio import child_path, load_yaml, read_text

#: The language every other falls back to.
FALLBACK_LANGUAGE = "en"

#: Where the engine's own locale files live (they travel inside the package).
ENGINE_LOCALES = Path(__file__).resolve().parent.parent / "locales"

_LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*")
_KEY = re.compile(r"[\w-]+(?:\.[\w-]+)*")
_TOP_KEYS = ("kind", "language", "name", "ruleset", "description", "messages", "names",
             "sources")
_HINT_KEYS = "a locale file has kind, language, name, ruleset, description, messages, names, " \
    "sources; see docs/translating.md"
#: Keys of older locale files: CLDR (through Babel) now knows these for every language.
_CLDR_KEYS = ("plural", "decimal", "group", "fraction_digits")


@dataclass
class LocaleFile:
    """One locale file, read and checked: its settings and its parsed messages."""

    path: str
    language: str
    name: str | None = None
    messages: dict[str, Message] = field(default_factory=dict)
    locations: dict[str, Location] = field(default_factory=dict)
    #: key → the fingerprint of the English text each translation was made from (``sources:``).
    sources: dict[str, str] = field(default_factory=dict)
    #: The ``names:`` section: a name as the data writes it → its translation.
    names: dict[str, str] = field(default_factory=dict)
    #: Where ``messages:`` starts (new keys go there).
    messages_at: Location | None = None


def fingerprint(text: str) -> str:
    """The fingerprint ``sources:`` records for an English text: 8 hex digits of its SHA-1."""
    import hashlib

    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def check_language_code(code: str) -> str:
    """Return ``code`` if it looks like a language code (``ru``, ``pt-BR``), else raise."""
    if not isinstance(code, str) or not _LANGUAGE_CODE.fullmatch(code):
        raise StratagemError(
            f"{code!r} is not a language code",
            hint="use a code like en, ru, pl or pt-BR (the name of a locale file without .yaml)",
            key="locale.bad_code", params={"code": repr(code)},
        )
    return code


def _where(doc: object, key: str, source: str) -> Location:
    where = getattr(doc, "where", None)
    if callable(where):
        try:
            location = where(key)
        except LookupError:
            location = None
        if isinstance(location, Location):
            return location
    return Location(file=source)


def message_location(location: Location, text: str, offset: int) -> Location:
    """Point at the faulty character when the message sits on one line of the file as written.

    ``location`` is where the loader says the value is. For a plain or quoted
    one-line value the file's line shows the text itself, so the column can
    be moved to the fault; otherwise (escapes, block scalars) the value's
    position is kept and the error's context shows the caret.
    """
    if not location.file or location.line is None or location.column is None or "\n" in text:
        return location
    line = _source_line(location.file, location.line)
    if line is None:
        return location
    start = location.column - 1
    for skip in (0, 1):  # a plain value, or one in quotes
        if line.startswith(text, start + skip):
            return Location(location.file, location.line, location.column + skip + offset,
                            location.path)
    return location


def _source_line(path: str, line: int) -> str | None:
    try:
        with open(path, encoding="utf-8") as handle:
            for number, text in enumerate(handle, 1):
                if number == line:
                    return text.rstrip("\n")
    except OSError:
        return None
    return None


def parse_locale(doc: Mapping[str, Any], source: str, expected: str | None = None) -> LocaleFile:
    """Check a loaded locale document and parse its messages.

    ``doc`` is what the YAML loader returned (positions come from its
    ``where(key)`` when it has one; a plain dict works too). ``expected`` is
    the language the file name promises. Every fault in the file is
    collected; more than none raises :class:`ValidationFailed`.
    """
    errors: list[StratagemError] = []

    def fail(message: str, where: Location, hint: str | None = None, key: str | None = None,
             **params: object) -> None:
        errors.append(StratagemError(message, location=where, hint=hint, key=key,
                                     params=params))

    top = Location(file=source)
    if not isinstance(doc, Mapping):
        raise StratagemError("a locale file must be a map of keys", location=top,
                             hint=_HINT_KEYS, key="locale.not_a_map",
                             hint_key="locale.keys.hint")
    for key in doc:
        if key in _CLDR_KEYS:
            fail(f"{key!r} is no longer written in a locale file", _where(doc, key, source),
                 "remove the line: plural rules and number formats come from CLDR for every "
                 "language", key="locale.cldr_key", field=key)
        elif key not in _TOP_KEYS:
            fail(f"unknown key {key!r} in a locale file", _where(doc, key, source), _HINT_KEYS,
                 key="locale.unknown_key", field=key)
    if doc.get("kind") != "locale":
        fail("a locale file starts with 'kind: locale'",
             _where(doc, "kind", source) if "kind" in doc else top, "add the line: kind: locale",
             key="locale.kind")
    language = doc.get("language")
    if language is None:
        fail("the locale file does not say its language", top,
             f"add the line: language: {expected or 'xx'}", key="locale.no_language",
             language=expected or "xx")
        language = expected or "?"
    elif not isinstance(language, str) or not _LANGUAGE_CODE.fullmatch(language):
        fail(f"{language!r} is not a language code", _where(doc, "language", source),
             "use a code like en, ru, pl or pt-BR", key="locale.bad_language",
             language=repr(language))
        language = str(language)
    elif expected is not None and language != expected:
        fail(f"the file is named for language {expected!r} but says language: {language}",
             _where(doc, "language", source),
             f"name the file {language}.yaml, or write language: {expected}",
             key="locale.language_differs", expected=expected, language=language)
    result = LocaleFile(path=source, language=language)
    name = doc.get("name")
    if name is not None:
        if isinstance(name, str):
            result.name = name
        else:
            fail("name must be text: the language's own name, e.g. Русский",
                 _where(doc, "name", source), key="locale.name_text")
    for key in ("ruleset", "description"):
        if doc.get(key) is not None and not isinstance(doc[key], str):
            fail(f"{key} must be text", _where(doc, key, source), key="locale.must_be_text",
                 field=key)
    if "messages" in doc:
        result.messages_at = _where(doc, "messages", source)
    sources = doc.get("sources") or {}
    if isinstance(sources, Mapping):
        for key, stamp in sources.items():
            if isinstance(key, str) and isinstance(stamp, str) and re.fullmatch(r"[0-9a-f]{8}",
                                                                               stamp):
                result.sources[key] = stamp
            else:
                fail(f"sources: {key!r} must be 8 hex digits (the fingerprint of the English "
                     "text it was translated from)", _where(sources, key, source),
                     "run `stratagem i18n stamp` to record them", key="locale.bad_source",
                     field=key)
    else:
        fail("sources must be a map of key: fingerprint", _where(doc, "sources", source),
             key="locale.sources_map")
    names = doc.get("names") or {}
    if isinstance(names, Mapping) and all(isinstance(v, str) for v in names.values()):
        result.names = {str(k): v for k, v in names.items()}
    else:
        fail("names must be a map of name: translation, e.g. Orcs: Орки",
             _where(doc, "names", source), key="locale.names_map")
    messages = doc.get("messages", {})
    if messages is None:
        messages = {}
    if not isinstance(messages, Mapping):
        fail("messages must be a map of key: text", _where(doc, "messages", source),
             key="locale.messages_map")
        messages = {}
    for key, text in messages.items():
        where = _where(messages, key, source)
        if not isinstance(key, str) or not _KEY.fullmatch(key):
            fail(f"{key!r} is not a message key", where,
                 "a key is words joined by dots, like report.winner; quote it if YAML reads "
                 "it as a number or yes/no", key="locale.bad_key", field=repr(key))
            continue
        if not isinstance(text, str):
            fail(f"the message {key!r} must be text, not {type(text).__name__}", where,
                 'put the text in quotes: key: "..."', key="locale.message_text", field=key,
                 type=type(text).__name__)
            continue
        try:
            result.messages[key] = parse_message(text)
        except MessageSyntaxError as err:
            err.of_key(key)
            errors.append(err.with_location(message_location(where, text, err.offset)))
            continue
        result.locations[key] = where
    if errors:
        raise ValidationFailed(errors)
    return result


def read_locale(path: Path) -> LocaleFile:
    """Read and check one locale file (cached while the file is unchanged)."""
    path = Path(path)
    try:
        stat = path.stat()
    except OSError as err:
        raise StratagemError(f"cannot read the locale file: {err.strerror}",
                             location=Location(file=str(path)),
                             key="locale.unreadable",
                             params={"reason": str(err.strerror)}) from None
    return _read_locale_cached(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _read_locale_cached(path: str, _mtime: int, _size: int) -> LocaleFile:
    expected = Path(path).stem
    text = read_text(Path(path), path)
    folder = cache_folder("locales") if len(text) <= _CACHED_TEXT else None
    if folder is None:
        return parse_locale(load_yaml(Path(path), text=text), path, expected=expected)
    key = _entry_key(path, text, expected)
    entry, limit = _entry_name(path), _entry_limit(text)
    found = _stored_locale(read_entry(folder, entry, limit), key, path, expected)
    if found is not None:
        return found
    locale = parse_locale(load_yaml(Path(path), text=text), path, expected=expected)
    data = _locale_data(locale, key)
    if data is not None:
        write_entry(folder, entry, data, limit)
    return locale


#: The shape of a cached locale file; raise it when :func:`_locale_data` changes.
CACHE_FORMAT = 1
#: The longest locale file kept in the cache (the engine's own are under 100,000
#: characters): a stranger's larger one is read every time, and fills no disk.
_CACHED_TEXT = 1 << 20


def _entry_key(path: str, text: str, language: str) -> dict[str, object]:
    """What a cache entry must match to be used: :data:`CACHE_FORMAT`, the engine's version
    with the size and time of the modules that read a locale file (an edited checkout reads
    anew, though its version is the same), the file's path, the language its name gives,
    and its whole text (compared, not digested: no two texts can match)."""
    return {"format": CACHE_FORMAT, "code": _code_stamp(), "path": os.path.abspath(path),
            "language": language, "text": text}


#: The modules whose code decides what a locale file reads into.
_READERS = (__name__, parse_message.__module__, load_yaml.__module__, PluralRule.__module__,
            Location.__module__)


@lru_cache(maxsize=1)
def _code_stamp() -> list[str]:
    """The engine's version and the size and time of each of :data:`_READERS`' files."""
    code = [__version__]
    for name in _READERS:
        module = getattr(sys.modules.get(name), "__file__", None) or name
        try:
            info = os.stat(module)
            code.append(f"{module}:{info.st_mtime_ns}:{info.st_size}")
        except (OSError, ValueError):
            code.append(f"{module}:?")
    return code


def _entry_name(path: str) -> str:
    """The cache entry of the file at ``path``: one a file, replaced when its text changes
    (two paths that share a name take turns: the entry holds its path)."""
    import zlib

    where = os.path.abspath(path).encode("utf-8", "surrogatepass")
    return f"{zlib.crc32(where):08x}{zlib.adler32(where):08x}.json"


def _entry_limit(text: str) -> int:
    """The largest cache entry a text of this length can make (its text again, keys, parsed
    parts and positions: a few times the text); a larger one is not read."""
    return 16 * len(text) + 65536


def _locale_data(locale: LocaleFile, key: dict[str, object]) -> dict[str, object] | None:
    """What the cache keeps of ``locale`` (plain JSON data), or None if it cannot. Where
    each message was written is two numbers, line and column, in ``places``: its document
    path is the one ``messages:`` gives it (anything else is not kept)."""
    home = locale.messages_at
    places: list[int] = []
    for name, where in locale.locations.items():
        if home is None or home.path is None or where.file != locale.path or \
                where.line is None or where.column is None or \
                where.path != child_path(home.path, name):
            return None
        places += (where.line, where.column)
    if list(locale.locations) != list(locale.messages) or \
            (home is not None and home.file != locale.path):
        return None
    return {
        **key, "name": locale.name, "sources": locale.sources, "names": locale.names,
        "messages_at": None if home is None else [home.line, home.column, home.path],
        "messages": {name: to_data(message) for name, message in locale.messages.items()},
        "places": places,
    }


def _stored_locale(data: object, key: dict[str, object], path: str,
                   expected: str) -> LocaleFile | None:
    """The locale file a cache entry holds, if it is one :func:`_locale_data` wrote for this
    ``key``: every part of it is checked as a file's would be (a damaged or forged entry
    holds no more than a file could), and anything else is None: the file is read anew."""
    try:
        if not isinstance(data, dict) or any(data.get(k) != v for k, v in key.items()):
            return None
        home = _stored_location(data["messages_at"], path)
        result = LocaleFile(path=path, language=expected, name=_text_or_none(data["name"]),
                            sources=_text_map(data["sources"], _STAMP),
                            names=_text_map(data["names"], None), messages_at=home)
        messages, places = data["messages"], data["places"]
        if type(messages) is not dict or type(places) is not list or \
                len(places) != 2 * len(messages) or (messages and (home is None or
                                                                    home.path is None)):
            return None
        base = home.path if home is not None and home.path is not None else "$"
        for at, (name, message) in enumerate(messages.items()):
            line, column = places[2 * at], places[2 * at + 1]
            if type(line) is not int or type(column) is not int or line < 1 or column < 1 \
                    or not _KEY.fullmatch(name):
                return None
            result.messages[name] = from_data(message)
            result.locations[name] = Location(path, line, column, child_path(base, name))
        return result
    except (BadData, LookupError, TypeError, ValueError):
        return None


_STAMP = re.compile(r"[0-9a-f]{8}")


def _text_or_none(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise BadData("not a text")


def _text_map(value: object, pattern: re.Pattern[str] | None) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
            isinstance(v, str) and (pattern is None or pattern.fullmatch(v))
            for v in value.values()):
        raise BadData("not a map of texts")
    return value


def _stored_location(value: object, path: str) -> Location | None:
    if value is None:
        return None
    line, column, where = value if type(value) is list else ((),) * 3
    if (line is None or (type(line) is int and line > 0)) and (
            column is None or (type(column) is int and column > 0)) and (
            where is None or type(where) is str):
        return Location(path, line, column, where)
    raise BadData("not a place")


def find_locale_files(
    places: Iterable[Path], languages: Iterable[str] | None = None
) -> list[Path]:
    """The locale files in ``places`` (folders or files), in order.

    A folder contributes its ``<lang>.yaml`` files (sorted by name); with
    ``languages`` only those languages'. A file is taken as it is.
    """
    wanted = None if languages is None else set(languages)
    found: list[Path] = []
    for place in places:
        place = Path(place)
        if place.is_dir():
            for path in sorted(place.glob("*.yaml")):
                if (wanted is None or path.stem in wanted) and STRICT.confined(path, place):
                    found.append(path)
        elif wanted is None or place.stem in wanted:
            found.append(place)
    return found


class Catalog:
    """The texts of one language, with English behind it.

    ``text(key, **params)`` formats a key: this language's text, else the
    fallback's (English), else ``[key]``. It never raises.
    """

    def __init__(
        self,
        language: Language,
        messages: Mapping[str, Message],
        *,
        fallback: Catalog | None = None,
        locations: Mapping[str, Location] | None = None,
        files: Iterable[str] = (),
    ) -> None:
        self.lang = language
        self.fallback = fallback
        self._messages = dict(messages)
        self.locations: dict[str, Location] = dict(locations or {})
        #: The files the texts came from, in the order read.
        self.files: tuple[str, ...] = tuple(files)
        #: Names in battles in this language: the locale files' ``names:``, then the battle's.
        self.names = NameBook()

    @property
    def language(self) -> str:
        """The language code (``ru``)."""
        return self.lang.code

    def has(self, key: str) -> bool:
        """True when this language itself has a text for ``key`` (the fallback not counted)."""
        return key in self._messages

    def keys(self) -> set[str]:
        """The keys this language has a text for (the fallback not counted)."""
        return set(self._messages)

    def message(self, key: str) -> tuple[Message, Language] | None:
        """The parsed message for ``key`` and the language it is written in, with fallback."""
        found = self._messages.get(key)
        if found is not None:
            return found, self.lang
        if self.fallback is not None:
            return self.fallback.message(key)
        return None

    def text(self, key: str, /, **params: object) -> str:
        """``key`` formatted with ``params``; ``[key]`` when no language has it."""
        found = self.message(key)
        if found is None:
            return f"[{key}]"
        message, language = found
        return message.format(params, language, self.display)

    def keyed(self, key: str, params: Mapping[str, object]) -> str | None:
        """``key`` formatted with ``params``, or None when no language has it (for errors)."""
        found = self.message(key)
        if found is None:
            return None
        return found[0].format(params, found[1], self.display)

    def display(self, value: object, language: Language) -> str:
        """Text of one ``{name}`` value in a message written in ``language``.

        A label-like value (one with ``.key`` and ``.fallback``, as the trace
        records enum values and names) is shown as the text of its key, else
        as its fallback; anything else as :meth:`Language.format_value` says.
        """
        if isinstance(value, str):
            return self.name(value)
        if is_number(value):
            return language.format_value(value)
        if isinstance(value, Either):
            words = [self.display(term, language) for term in value.terms]
            if len(words) < 2:
                return "".join(words)
            joiner = self.keyed("word.or", {}) or "or"
            return ", ".join(words[:-1]) + f" {joiner} " + words[-1]
        key = getattr(value, "key", None)
        if isinstance(key, str) and hasattr(value, "fallback"):
            found = self.message(key)
            if found is None:
                return str(value.fallback)
            return found[0].format(dict(getattr(value, "params", ())), found[1], self.display)
        return self.name(language.format_value(value))

    def number(self, value: Any) -> str:
        """A number written in this language's style."""
        return self.lang.format_value(value)

    def name(self, name: str) -> str:
        """A name from the data (an army's, a unit's) in this language, if it has one."""
        return self.names.lookup(self.language, name)

    def __repr__(self) -> str:
        return f"Catalog({self.language!r}, {len(self._messages)} texts)"


def _merge(language: str, files: list[LocaleFile]) -> Catalog:
    """One language's catalog from its files, later files winning."""
    name = ""
    messages: dict[str, Message] = {}
    locations: dict[str, Location] = {}
    for locale in files:
        name = locale.name or name
        messages.update(locale.messages)
        locations.update(locale.locations)
    lang = Language(language, name)
    catalog = Catalog(lang, messages, locations=locations, files=[f.path for f in files])
    for locale in files:
        for shown, text in locale.names.items():
            catalog.names.record(language, shown, text)
    return catalog


def build_catalog(language: str, files: Iterable[LocaleFile]) -> Catalog:
    """A catalog for ``language`` from already read files of any languages.

    Files of ``language`` make the catalog, files of English its fallback;
    files of other languages are ignored.
    """
    files = list(files)
    mine = [f for f in files if f.language == language]
    catalog = _merge(language, mine)
    if language != FALLBACK_LANGUAGE:
        catalog.fallback = _merge(FALLBACK_LANGUAGE,
                                  [f for f in files if f.language == FALLBACK_LANGUAGE])
    return catalog


def load_catalog(lang: str, locale_files: list[Path]) -> Catalog:
    """Read the catalog of ``lang`` from ``locale_files`` (files or folders), in order.

    Only ``<lang>.yaml`` and ``en.yaml`` are read; later files override earlier
    ones key by key. Faults of every file are collected into one
    :class:`ValidationFailed`.
    """
    check_language_code(lang)
    wanted = {lang, FALLBACK_LANGUAGE}
    read: list[LocaleFile] = []
    errors: list[StratagemError] = []
    for path in find_locale_files(locale_files, wanted):
        try:
            read.append(read_locale(path))
        except ValidationFailed as err:
            errors.extend(err.errors)
        except StratagemError as err:
            errors.append(err)
    if errors:
        raise ValidationFailed(errors)
    return build_catalog(lang, read)


#: The environment variable naming more folders of locale files (``os.pathsep`` between).
LOCALES_VARIABLE = "STRATAGEM_LOCALES"

#: Folders given with ``--locales`` (the command line adds them).
_EXTRA_PLACES: list[Path] = []


def set_locale_places(places: Iterable[Path]) -> None:
    """Read these locale files or folders after every other (``--locales``; replaces the
    places an earlier call set)."""
    _EXTRA_PLACES[:] = [Path(p) for p in places]


def extra_locale_places() -> list[Path]:
    """Locale folders from outside the package: ``$STRATAGEM_LOCALES``, then ``--locales``."""
    import os

    env = [Path(p) for p in os.environ.get(LOCALES_VARIABLE, "").split(os.pathsep) if p]
    return [*env, *_EXTRA_PLACES]


def available_languages(*more: Path) -> list[str]:
    """The languages with locale files in the engine, ``more`` and the extra places."""
    places = [ENGINE_LOCALES, *more, *extra_locale_places()]
    return sorted({path.stem for path in find_locale_files(places)})


def engine_catalog(lang: str, *more: Path) -> Catalog:
    """The engine's own texts in ``lang``, then the files or folders ``more``, then the
    extra places (:func:`extra_locale_places`), each later one winning."""
    return load_catalog(lang, [ENGINE_LOCALES, *more, *extra_locale_places()])


#: The key of a ruleset's own title.
RULESET_TITLE = "ruleset.title"


def field_key(kind: str, field: str) -> str:
    """``field.<kind>.<field>``: the label of an entity field (``field.unit.count``)."""
    return f"field.{kind}.{field}"


def enum_key(enum: str, value: object) -> str:
    """``enum.<enum>.<value>``: an enum value (for a table-backed enum, the table's name)."""
    return f"enum.{enum}.{value}"


def table_key(table: str) -> str:
    """``table.<table>``: the title of a table."""
    return f"table.{table}"


def decision_key(decision: str) -> str:
    """``decision.<id>``: what a ``decide`` step asks."""
    return f"decision.{decision}"


def _humanise(name: object) -> str:
    return str(name).replace("_", " ")


class Translator:
    """What the report calls: ``t(key, **params)`` and labels for derived keys.

    A label whose key no language has falls back to the name itself with
    underscores as spaces (``heavy_infantry`` → ``heavy infantry``), never
    to ``[key]``: a ruleset need not translate every enum value.
    """

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    @property
    def language(self) -> str:
        return self.catalog.language

    def t(self, key: str, /, **params: object) -> str:
        """The text of ``key`` with ``params`` (``[key]`` when no language has it)."""
        return self.catalog.text(key, **params)

    def _label(self, key: str, fallback: object) -> str:
        if self.catalog.message(key) is None:
            return _humanise(fallback)
        return self.catalog.text(key)

    def label(self, kind: str, *names: object) -> str:
        """The label of a derived key, by kind.

        ``label('field', 'unit', 'count')``, ``label('enum', 'quality', 'elite')``,
        ``label('table', 'casualties')``, ``label('decision', 'risk')``,
        ``label('ruleset', default_title)``.
        """
        builders = {"field": field_key, "enum": enum_key, "table": table_key,
                    "decision": decision_key}
        if kind == "ruleset":
            return self.title(str(names[0]) if names else "")
        if kind not in builders:
            raise ValueError(f"unknown label kind {kind!r}")
        return self._label(builders[kind](*names), names[-1])  # type: ignore[operator]

    def field(self, kind: str, name: str) -> str:
        """The label of a field: ``field.<kind>.<name>``."""
        return self._label(field_key(kind, name), name)

    def enum(self, enum: str, value: object) -> str:
        """The label of an enum value: ``enum.<enum>.<value>``."""
        return self._label(enum_key(enum, value), value)

    def table(self, name: str) -> str:
        """The title of a table: ``table.<name>``."""
        return self._label(table_key(name), name)

    def decision(self, name: str) -> str:
        """What a decision asks: ``decision.<id>``."""
        return self._label(decision_key(name), name)

    def title(self, default: str = "") -> str:
        """The ruleset's title (``ruleset.title``), else ``default``."""
        return self._label(RULESET_TITLE, default)

    def number(self, value: Any) -> str:
        """A number in this language's style."""
        return self.catalog.number(value)


class HasLocales(Protocol):
    """What a translator needs of a ruleset: its locale files per language."""

    locale_files: dict[str, list[Path]]


def translator(ruleset: HasLocales, lang: str, names: NameBook | None = None) -> Translator:
    """The engine's texts and a ruleset's (its locale files, base first), in ``lang``, and
    the battle's ``names`` (its armies' and units' names in other languages)."""
    files = list(ruleset.locale_files.get("en", [])) if lang != "en" else []
    files += list(ruleset.locale_files.get(lang, []))
    t = Translator(engine_catalog(lang, *files))
    if names is not None:
        t.catalog.names.update(names)
    return t


def record_locale_names(folder: Path, book: NameBook) -> None:
    """Record in ``book`` the ``names:`` sections of the locale files in ``folder``."""
    if not folder.is_dir():
        return
    for path in find_locale_files([folder]):
        locale = read_locale(path)
        for name, text in locale.names.items():
            book.record(locale.language, name, text)
