"""Names in data (armies, units, battles) in the reader's language.

An army or scenario file may give a name per language::

    name: {en: Orcs, ru: Орки, de: Orks}

:func:`extract_names` replaces such a map by the name the rules and the
other files use (the English one, else the first written) and records the
others; a locale file's ``names:`` section does the same for names written
as plain text (``names: {Orcs: Орки}``), so a translator need not touch the
army files. The catalog shows a recorded name in its language wherever a
report or a message prints it. The names of every file loaded in this
process are kept together (a battle's files name each army once).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_NUMBERED = re.compile(r"(.+) \((\d+)\)")

#: language → the name as written → the name in that language.
_NAMES: dict[str, dict[str, str]] = {}


def record(language: str, name: str, text: str) -> None:
    """Show ``name`` as ``text`` in ``language``."""
    _NAMES.setdefault(language.lower(), {})[name] = text


def names_for(language: str) -> Mapping[str, str]:
    """The recorded names of ``language`` (its base language's too: de-AT uses de's)."""
    code = language.lower()
    found = dict(_NAMES.get(code.split("-")[0], {}))
    if "-" in code:
        found.update(_NAMES.get(code, {}))
    return found


def lookup(language: str, name: str) -> str:
    """``name`` in ``language`` (or its base language), else ``name`` itself."""
    if not _NAMES:
        return name
    code = language.lower()
    found = _NAMES.get(code, {}).get(name)
    if found is None and "-" in code:
        found = _NAMES.get(code.split("-")[0], {}).get(name)
    if found is None:
        numbered = _NUMBERED.fullmatch(name)  # a part a ruleset split off: "Orcs (2)"
        if numbered is not None and numbered.group(1) != lookup(language, numbered.group(1)):
            return f"{lookup(language, numbered.group(1))} ({numbered.group(2)})"
    return name if found is None else found


def canonical(value: Mapping[str, Any]) -> str:
    """The name a per-language map stands for in the files: its English one, else the first."""
    text = value.get("en")
    if isinstance(text, str):
        return text
    return str(next(iter(value.values())))


def extract_names(doc: Any) -> None:
    """Replace every ``name: {lang: text}`` in ``doc`` by its canonical name, recording the rest."""
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            name = node.get("name")
            if isinstance(name, Mapping) and name and all(
                    isinstance(k, str) and isinstance(v, str) for k, v in name.items()):
                shown = canonical(name)
                for language, text in name.items():
                    record(language, shown, text)
                node["name"] = shown  # type: ignore[index]
            stack.extend(v for v in node.values() if isinstance(v, (Mapping, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (Mapping, list)))


def record_locale_names(folder: Path) -> None:
    """Record the ``names:`` sections of the locale files in ``folder`` (if it exists)."""
    from stratagem.i18n.catalog import find_locale_files, read_locale

    if not folder.is_dir():
        return
    for path in find_locale_files([folder]):
        locale = read_locale(path)
        for name, text in locale.names.items():
            record(locale.language, name, text)
