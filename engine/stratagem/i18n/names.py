"""Names in data (armies, units, battles) in the reader's language.

An army or scenario file may give a name per language::

    name: {en: Orcs, ru: Орки, de: Orks}

:func:`extract_names` replaces such a map by the name the rules and the
other files use (the English one, else the first written) and records the
others in a :class:`NameBook`; a locale file's ``names:`` section does the
same for names written as plain text (``names: {Orcs: Орки}``), so a
translator need not touch the army files. A scenario keeps the book of its
own files, and its report shows every recorded name in its language; a part
a ruleset splits off (``Orcs (2)``) is named after its whole.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_NUMBERED = re.compile(r"(.+) \((\d+)\)")


class NameBook:
    """Names as the files write them, in other languages: ``book.lookup("de", "Orcs")``."""

    def __init__(self) -> None:
        self._names: dict[str, dict[str, str]] = {}

    def record(self, language: str, name: str, text: str) -> None:
        """Show ``name`` as ``text`` in ``language``."""
        self._names.setdefault(language.lower(), {})[name] = text

    def update(self, other: NameBook) -> None:
        """Take every name ``other`` records (its own win)."""
        for language, names in other._names.items():
            self._names.setdefault(language, {}).update(names)

    def lookup(self, language: str, name: str) -> str:
        """``name`` in ``language`` (or its base language), else ``name`` itself."""
        if not self._names:
            return name
        code = language.lower()
        found = self._names.get(code, {}).get(name)
        if found is None and "-" in code:
            found = self._names.get(code.split("-")[0], {}).get(name)
        if found is None:
            numbered = _NUMBERED.fullmatch(name)
            if numbered is not None:
                whole = self.lookup(language, numbered.group(1))
                if whole != numbered.group(1):
                    return f"{whole} ({numbered.group(2)})"
        return name if found is None else found

    def __bool__(self) -> bool:
        return bool(self._names)


def canonical(value: Mapping[str, Any]) -> str:
    """The name a per-language map stands for in the files: its English one, else the first."""
    text = value.get("en")
    if isinstance(text, str):
        return text
    return str(next(iter(value.values())))


def extract_names(doc: Any, book: NameBook) -> None:
    """Replace every ``name: {lang: text}`` in ``doc`` by its canonical name, recording the
    others in ``book``."""
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            name = node.get("name")
            if isinstance(name, Mapping) and name and all(
                    isinstance(k, str) and isinstance(v, str) for k, v in name.items()):
                shown = canonical(name)
                for language, text in name.items():
                    book.record(language, shown, text)
                node["name"] = shown  # type: ignore[index]
            stack.extend(v for v in node.values() if isinstance(v, (Mapping, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (Mapping, list)))
