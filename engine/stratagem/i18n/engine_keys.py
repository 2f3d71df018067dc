"""The message keys the engine uses, found in its code (as ``xgettext`` finds gettext calls).

:func:`engine_keys` reads every module of the package (the syntax tree, no code
runs) and collects:

a *use*
    ``t("report.title", battle=...)``, ``catalog.text(KEY, ...)``, ``keyed(KEY, {...})``,
    ``Keyed(ENGLISH, KEY, ...)`` (a prompt or a note),
    or an error raised with ``key="yaml.duplicate_key"`` and its ``params``: the key is
    needed, and its parameters are known;
a *mention*
    any other string in the code that is spelt like a key (``"check.success"``,
    ``Term("type.number", ...)``) or ends a key's first part (``"check.critical_"``): the
    key is in use, its parameters unknown.

The schemas' own messages and hints are found too (``x-message-key``,
``x-hint-key``). A key's hint (``<key>.hint``) is in use with it. ``stratagem i18n check``
compares the engine's locale files with what this finds: a key the code needs
that a language lacks is *missing*, a text that nothing uses is *unused*. A
ruleset's keys are the ``event:``/``emit``/``message:`` keys it writes plus the
derived keys spelled by :func:`stratagem.i18n.catalog.field_key` and its like.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from stratagem.errors import Location
from stratagem.resources import data_dir

#: The package's own folder (its modules are read, not imported).
PACKAGE = Path(__file__).resolve().parent.parent

_KEY = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+")
_PREFIX = re.compile(r"[a-z][a-z0-9_]*\.(?:[a-z0-9_]+\.)*(?:[a-z0-9_]+_)?")
#: Calls whose first argument is a message key and whose keywords are its parameters.
_TEXT_CALLS = ("t", "text", "spoken", "helps", "_term")
#: Keywords of an error's constructor (or of a helper that builds one) that are not parameters.
_NOT_PARAMS = frozenset(("key", "hint_key", "hint", "location", "context", "params"))


@dataclass
class KeyUse:
    """Where the code uses one key, and the parameters it passes (None: not known)."""

    key: str
    params: set[str] | None = field(default_factory=set)
    needed: bool = False
    locations: list[Location] = field(default_factory=list)


@dataclass
class EngineKeys:
    """What :func:`engine_keys` found."""

    uses: dict[str, KeyUse] = field(default_factory=dict)
    prefixes: set[str] = field(default_factory=set)

    def needed(self) -> set[str]:
        """The keys the code formats for certain."""
        return {key for key, use in self.uses.items() if use.needed}

    def is_used(self, key: str) -> bool:
        """True when the code uses or mentions ``key`` (a hint with its key)."""
        base = key[: -len(".hint")] if key.endswith(".hint") else key
        return (key in self.uses or base in self.uses
                or any(key.startswith(p) for p in self.prefixes))

    def params(self) -> dict[str, tuple[str, ...]]:
        """key → the parameters it is given, for the keys where that is known."""
        out: dict[str, tuple[str, ...]] = {}
        for key, use in self.uses.items():
            if use.params is not None:
                out[key] = tuple(sorted(use.params))
                out.setdefault(key + ".hint", tuple(sorted(use.params)))
        return out


def _use(found: EngineKeys, key: str, where: Location, params: set[str] | None,
         needed: bool) -> None:
    use = found.uses.setdefault(key, KeyUse(key))
    use.locations.append(where)
    if needed:
        use.needed = True
        if use.params is not None and params is not None:
            use.params |= params
        elif params is None:
            use.params = None
    elif not use.needed:
        use.params = None


def _constant(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _dict_keys(node: ast.AST | None) -> set[str] | None:
    if isinstance(node, ast.Dict):
        keys = {_constant(k) for k in node.keys}
        return None if None in keys else {k for k in keys if k is not None}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        return {kw.arg for kw in node.keywords if kw.arg is not None}
    return None


def scan_source(text: str, path: str, found: EngineKeys) -> None:
    """Add the keys one module's text uses to ``found``."""
    tree = ast.parse(text, filename=path)
    claimed: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        where = Location(path, node.lineno, node.col_offset + 1)
        name = node.func.attr if isinstance(node.func, ast.Attribute) else (
            node.func.id if isinstance(node.func, ast.Name) else "")
        keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg is not None}
        first = _constant(node.args[0]) if node.args else None
        if name in _TEXT_CALLS and first is not None and _KEY.fullmatch(first):
            claimed.add(id(node.args[0]))
            _use(found, first, where, {k for k in keywords}, True)
        elif name == "Keyed" and len(node.args) > 1 and _constant(node.args[1]) is not None:
            claimed.add(id(node.args[1]))
            _use(found, str(_constant(node.args[1])), where, set(keywords), True)
        elif name == "keyed" and first is not None and len(node.args) > 1:
            claimed.add(id(node.args[0]))
            _use(found, first, where, _dict_keys(node.args[1]), True)
        key = _constant(keywords.get("key"))
        if key is not None:
            claimed.add(id(keywords["key"]))
            params = _dict_keys(keywords["params"]) if "params" in keywords else set()
            if params is not None:
                params |= {k for k in keywords if k not in _NOT_PARAMS}
            _use(found, key, where, params, True)
    for node in ast.walk(tree):
        text_value = _constant(node)
        if text_value is None or id(node) in claimed:
            continue
        where = Location(path, getattr(node, "lineno", None),
                         getattr(node, "col_offset", -1) + 1)
        if _PREFIX.fullmatch(text_value):
            found.prefixes.add(text_value)
        elif _KEY.fullmatch(text_value):
            _use(found, text_value, where, None, False)


def scan_schema(text: str, path: str, found: EngineKeys) -> None:
    """Add the keys a JSON schema gives its own messages and hints (``x-message-key``,
    ``x-hint-key``) to ``found``."""

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for name in ("x-message-key", "x-hint-key"):
                if isinstance(node.get(name), str):
                    _use(found, node[name], Location(path), set(), True)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(text))


@lru_cache(maxsize=1)
def engine_keys() -> EngineKeys:
    """The keys the engine's modules and schemas use (read once per process)."""
    found = EngineKeys()
    for module in sorted(PACKAGE.rglob("*.py")):
        scan_source(module.read_text(encoding="utf-8"), str(module), found)
    for schema in sorted(data_dir("schemas").glob("*.json")):
        scan_schema(schema.read_text(encoding="utf-8"), str(schema), found)
    return found
