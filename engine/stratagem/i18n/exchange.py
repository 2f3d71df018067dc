"""Locale files to and from the formats translators' tools read: PO (gettext) and XLIFF 1.2.

``stratagem i18n export --format po`` writes one language of one group (the
engine's texts, or a ruleset's) as a PO file: each key is a ``msgctxt``, its
English text the ``msgid``, the translation the ``msgstr``. A message that is
one plural and nothing else (``{n, plural, one {# round} other {# rounds}}``)
becomes a PO plural (``msgid``/``msgid_plural``, ``msgstr[0..]``), its forms
placed by the language's gettext plural formula (Babel's): Poedit, Weblate and
Crowdin show them as plural forms. A translation whose English text changed
since it was made (its ``sources:`` fingerprint differs) is marked ``fuzzy``.

``stratagem i18n import FILE`` reads such a file back and writes the
language's locale file; what was exported and not changed comes back the same.
CLDR knows a few plural categories gettext does not (Russian's ``other``, for
fractions): those keep their text from the locale file being replaced, else
take the form gettext uses for 2.
"""

from __future__ import annotations

import gettext
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from xml.etree import ElementTree

from stratagem.errors import Location, StratagemError
from stratagem.i18n.catalog import LocaleFile, fingerprint
from stratagem.i18n.messages import Message, MessageSyntaxError, Plural, parse_message, to_icu
from stratagem.i18n.plural import plural_rule

_XLIFF = "urn:oasis:names:tc:xliff:document:1.2"


@dataclass
class Translations:
    """One language's texts of one group, as an exchange file carries them."""

    language: str
    name: str = ""
    #: key → ICU text, in order.
    messages: dict[str, str] = field(default_factory=dict)
    #: key → fingerprint of the English text each was translated from.
    sources: dict[str, str] = field(default_factory=dict)


def _merged(files: list[LocaleFile]) -> tuple[dict[str, Message], dict[str, str],
                                                dict[str, Location]]:
    messages: dict[str, Message] = {}
    sources: dict[str, str] = {}
    where: dict[str, Location] = {}
    for locale in files:
        messages.update(locale.messages)
        sources.update(locale.sources)
        where.update(locale.locations)
    return messages, sources, where


def _whole_plural(message: Message) -> Plural | None:
    """The plural a message consists of, when it is one plural with named forms only."""
    if len(message.parts) == 1 and isinstance(message.parts[0], Plural):
        plural = message.parts[0]
        if not plural.exact and "other" in plural.forms:
            return plural
    return None


class _Forms:
    """How a language's gettext plural slots (``msgstr[i]``) map to CLDR categories."""

    def __init__(self, language: str) -> None:
        from babel.messages.catalog import Catalog

        catalog = Catalog(locale=_babel_code(language))
        self.count = int(catalog.num_plurals)
        formula: Callable[[int], int] = gettext.c2py(catalog.plural_expr)
        rule = plural_rule(language)
        self.categories: list[str] = []
        for index in range(self.count):
            sample = next((n for n in range(1000) if formula(n) == index), None)
            self.categories.append(rule.category(str(sample)) if sample is not None else "other")
        self.for_two = formula(2)


def _shown_path(path: str) -> str:
    """A path relative to the current folder when it lies inside it (PO files travel)."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _babel_code(language: str) -> str:
    from stratagem.i18n.plural import babel_locale

    return str(babel_locale(language))


def export_po(language: str, english: list[LocaleFile], translated: list[LocaleFile],
              *, project: str = "stratagem") -> bytes:
    """The PO file of ``language`` for a group whose English files are ``english``."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    source, _, where = _merged(english)
    texts, stamps, _ = _merged(translated)
    catalog = Catalog(locale=_babel_code(language), project=project, fuzzy=False)
    forms = _Forms(language)
    for key, message in source.items():
        own = texts.get(key)
        fuzzy = own is not None and key in stamps and stamps[key] != fingerprint(message.source)
        flags = ("fuzzy",) if fuzzy else ()
        loc = where.get(key)
        locations = [(_shown_path(loc.file), loc.line or 0)] if loc is not None and loc.file else []
        plural = _whole_plural(message)
        if plural is not None:
            msgid = (to_icu(plural.forms.get("one", plural.forms["other"]), in_plural=True),
                     to_icu(plural.forms["other"], in_plural=True))
            theirs = _whole_plural(own) if own is not None else None
            if own is None:
                msgstr: str | tuple[str, ...] = ("",) * forms.count
            elif theirs is None:
                msgstr = (own.source,) * forms.count
            else:
                msgstr = tuple(
                    to_icu(theirs.forms.get(category, theirs.forms["other"]), in_plural=True)
                    for category in forms.categories)
            entry = catalog.add(msgid, msgstr, context=key, flags=flags, locations=locations,
                                auto_comments=[f"{{{plural.arg.name}, plural}}: # is the number"])
        else:
            entry = catalog.add(message.source, own.source if own is not None else "",
                                context=key, flags=flags, locations=locations)
        if entry is not None:  # ICU MessageFormat, not Python's str.format
            entry.flags.discard("python-brace-format")
            entry.flags.add("icu-message-format")
    out = BytesIO()
    write_po(out, catalog, width=100, omit_header=False, sort_output=False)
    return out.getvalue()


def import_po(data: bytes, english: list[LocaleFile], existing: list[LocaleFile],
              source_name: str) -> Translations:
    """The translations in a PO file (as :func:`export_po` writes them)."""
    from babel.messages.pofile import PoFileError, read_po

    try:
        catalog = read_po(BytesIO(data), abort_invalid=True)
    except (PoFileError, ValueError, UnicodeDecodeError) as err:
        raise StratagemError(f"not a PO file: {err}", location=Location(source_name),
                             hint="export one with stratagem i18n export --format po",
                             key="exchange.not_po", params={"problem": str(err)}) from None
    language = str(catalog.locale_identifier or "").replace("_", "-")
    if not language:
        raise StratagemError("the PO file does not say its language",
                             location=Location(source_name), hint="set its Language: header",
                             key="exchange.po_language")
    source, _, _ = _merged(english)
    old, old_stamps, _ = _merged(existing)
    result = Translations(language)
    forms = _Forms(language)
    for entry in catalog:
        key = entry.context
        if not key or key not in source:
            continue
        english_text = source[key]
        if isinstance(entry.id, (list, tuple)):
            strings = list(entry.string) if isinstance(entry.string, (list, tuple)) else []
            if not any(strings):
                continue
            plural = _whole_plural(english_text)
            name = plural.arg.name if plural is not None else "n"
            text = _plural_text(name, strings, forms, old.get(key))
        else:
            text = str(entry.string or "")
            if not text:
                continue
        _check(text, key, source_name, entry.lineno)
        result.messages[key] = text
        if entry.fuzzy:
            if key in old_stamps:
                result.sources[key] = old_stamps[key]
        else:
            result.sources[key] = fingerprint(english_text.source)
    return result


def _plural_text(name: str, strings: list[str], forms: _Forms, old: Message | None) -> str:
    """``{name, plural, ...}`` from the gettext forms, CLDR-only categories from ``old``."""
    rule_categories = plural_rule_categories(forms)
    previous = _whole_plural(old) if old is not None else None
    branches: dict[str, str] = {}
    for category in rule_categories:
        if category in forms.categories:
            index = forms.categories.index(category)
            branches[category] = strings[index] if index < len(strings) else strings[-1]
        elif previous is not None and category in previous.forms:
            branches[category] = to_icu(previous.forms[category], in_plural=True)
        else:
            branches[category] = strings[min(forms.for_two, len(strings) - 1)]
    return "{" + name + ", plural, " + " ".join(f"{c} {{{t}}}" for c, t in branches.items()) + "}"


def plural_rule_categories(forms: _Forms) -> list[str]:
    """Every CLDR category the language uses ('other' always), in CLDR order."""
    from stratagem.i18n.plural import CATEGORIES

    used = set(forms.categories) | {"other"}
    return [c for c in CATEGORIES if c in used]


def _check(text: str, key: str, source_name: str, line: int | None) -> None:
    try:
        parse_message(text)
    except MessageSyntaxError as err:
        raise err.of_key(key).with_location(Location(source_name, line)) from None


def export_xliff(language: str, english: list[LocaleFile], translated: list[LocaleFile],
                 *, original: str = "stratagem") -> bytes:
    """An XLIFF 1.2 file of ``language``: one ``trans-unit`` per key, ICU text as it is."""
    source, _, _ = _merged(english)
    texts, stamps, _ = _merged(translated)
    ElementTree.register_namespace("", _XLIFF)
    root = ElementTree.Element(f"{{{_XLIFF}}}xliff", version="1.2")
    file = ElementTree.SubElement(root, f"{{{_XLIFF}}}file", {
        "source-language": "en", "target-language": language, "datatype": "plaintext",
        "original": original})
    body = ElementTree.SubElement(file, f"{{{_XLIFF}}}body")
    for key, message in source.items():
        unit = ElementTree.SubElement(body, f"{{{_XLIFF}}}trans-unit", id=key)
        ElementTree.SubElement(unit, f"{{{_XLIFF}}}source").text = message.source
        own = texts.get(key)
        if own is not None:
            stale = key in stamps and stamps[key] != fingerprint(message.source)
            target = ElementTree.SubElement(unit, f"{{{_XLIFF}}}target", state=(
                "needs-review-translation" if stale else "translated"))
            target.text = own.source
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def import_xliff(data: bytes, english: list[LocaleFile], existing: list[LocaleFile],
                 source_name: str) -> Translations:
    """The translations in an XLIFF 1.2 file (as :func:`export_xliff` writes them)."""
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as err:
        line, column = err.position
        raise StratagemError(f"not an XLIFF file: {err}",
                             location=Location(source_name, line, column + 1),
                             key="exchange.not_xliff", params={"problem": str(err)}) from None
    file = root.find(f"{{{_XLIFF}}}file")
    language = file.get("target-language", "") if file is not None else ""
    if not language:
        raise StratagemError("the XLIFF file does not say its target-language",
                             location=Location(source_name),
                             key="exchange.xliff_language")
    source, _, _ = _merged(english)
    _, old_stamps, _ = _merged(existing)
    result = Translations(language)
    for unit in root.iter(f"{{{_XLIFF}}}trans-unit"):
        key = unit.get("id", "")
        target = unit.find(f"{{{_XLIFF}}}target")
        if key not in source or target is None or not target.text:
            continue
        _check(target.text, key, source_name, None)
        result.messages[key] = target.text
        if target.get("state") == "needs-review-translation":
            if key in old_stamps:
                result.sources[key] = old_stamps[key]
        else:
            result.sources[key] = fingerprint(source[key].source)
    return result


def locale_text(translations: Translations, header: str = "") -> str:
    """A locale file holding ``translations`` (each text in JSON quotes, which YAML reads)."""
    lines = [header.rstrip("\n")] if header else []
    lines += ["kind: locale", f"language: {translations.language}"]
    if translations.name:
        lines.append(f"name: {json.dumps(translations.name, ensure_ascii=False)}")
    lines.append("messages:" if translations.messages else "messages: {}")
    for key, text in translations.messages.items():
        lines.append(f"  {key}: {json.dumps(text, ensure_ascii=False)}")
    lines.append(sources_block(translations.sources))
    return "\n".join(lines).rstrip("\n") + "\n"


def sources_block(sources: Mapping[str, str]) -> str:
    """The ``sources:`` section: which English text each translation was made from."""
    if not sources:
        return ""
    lines = ["# The fingerprint of the English text each translation was made from "
             "(stratagem i18n stamp).", "sources:"]
    lines += [f"  {key}: \"{stamp}\"" for key, stamp in sources.items()]
    return "\n".join(lines) + "\n"


def with_sources(text: str, sources: Mapping[str, str]) -> str:
    """A locale file's text with its ``sources:`` section replaced (the rest kept as written)."""
    lines = text.splitlines()
    kept: list[str] = []
    skipping = False
    for line in lines:
        if line.startswith("sources:"):
            skipping = True
            if kept and kept[-1].startswith("# The fingerprint of the English text"):
                kept.pop()
            continue
        if skipping and (line.startswith((" ", "\t")) or not line.strip()):
            continue
        skipping = False
        kept.append(line)
    body = "\n".join(kept).rstrip("\n") + "\n"
    block = sources_block(sources)
    return body + ("\n" + block if block else "")
