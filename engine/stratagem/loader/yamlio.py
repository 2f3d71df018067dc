"""Safe YAML reading that remembers where every value was written.

:func:`load_yaml` turns a file into plain data (``dict``, ``list``, ``str``,
``int``, ``float``, ``bool``, ``None``) whose maps and lists are
:class:`PosDict` and :class:`PosList`: ordinary containers that also know the
file, line and column of themselves and of each entry, so any later check can
point at the exact spot.

Safety: the YAML is composed into nodes by ruamel.yaml and the values are
built here, so no tag can ever construct an object or run code; every tag
outside plain YAML (``!!python/...``, ``!include``, ...) is an error. Aliases
are expanded under a bound (a "billion laughs" file stops with a clear
error), and so are the file size and the nesting depth. YAML 1.2 semantics:
``yes``, ``no``, ``on`` and ``off`` are text. Mapping keys are always text.
"""

from __future__ import annotations

import math
import os
import re
import stat
import sys
import warnings
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO

from stratagem.errors import LimitError, Location, StratagemError, ValidationFailed
from stratagem.loader.limits import DEFAULT_LIMITS, LoadLimits

#: A place in a file: (file, line, column), 1-based.
Pos = tuple[str | None, int | None, int | None]

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_STD = "tag:yaml.org,2002:"
_SCALAR_TAGS = {"str", "int", "float", "bool", "null", "timestamp"}
_MERGE = _STD + "merge"


def child_path(parent: str, key: str | int) -> str:
    """The document path of ``parent``'s entry ``key``: ``$.units[3]``, ``$.messages['a.b']``."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if _IDENT.match(key):
        return f"{parent}.{key}"
    return f"{parent}[{key!r}]"


class _Placed:
    """Where a map or list read from a file was written: ``file``, ``line``, ``col`` place
    it; ``path`` is its document path (``$.units[3]``)."""

    file: str | None
    line: int | None
    col: int | None
    path: str
    #: made by a merge (see :mod:`stratagem.loader.merge`), not read from a file
    built: bool = False

    def _place(self, file: str | None, line: int | None, col: int | None, path: str) -> None:
        self.file, self.line, self.col, self.path = file, line, col, path

    @property
    def pos(self) -> Pos:
        return (self.file, self.line, self.col)

    def _here(self) -> Location:
        return Location(self.file, self.line, self.col, self.path)


class PosDict(_Placed, dict[str, Any]):
    """A map read from a file: a plain ``dict`` that knows where it and each entry were written.

    ``key_pos`` and ``value_pos`` hold the place of each key and of each value; entries
    merged in from other files keep their own file.
    """

    def __init__(self, *args: Any, file: str | None = None, line: int | None = None,
                 col: int | None = None, path: str = "$", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._place(file, line, col, path)
        self.key_pos: dict[str, Pos] = {}
        self.value_pos: dict[str, Pos] = {}

    def where(self, key: str | None = None) -> Location:
        """Where the value of ``key`` was written (or the map itself, when ``key`` is None)."""
        if key is None:
            return self._here()
        file, line, col = self.value_pos.get(key, self.pos)
        return Location(file, line, col, child_path(self.path, key))

    def key_where(self, key: str) -> Location:
        """Where the key ``key`` itself was written."""
        file, line, col = self.key_pos.get(key) or self.value_pos.get(key) or self.pos
        return Location(file, line, col, child_path(self.path, key))

    def put(
        self, key: str, value: Any, key_pos: Pos | None = None, value_pos: Pos | None = None
    ) -> None:
        """Set ``key`` to ``value`` and record where both were written."""
        self[key] = value
        if key_pos is not None:
            self.key_pos[key] = key_pos
        if value_pos is not None:
            self.value_pos[key] = value_pos


class PosList(_Placed, list[Any]):
    """A list read from a file: a plain ``list`` that knows where it and each item were written."""

    def __init__(self, *args: Any, file: str | None = None, line: int | None = None,
                 col: int | None = None, path: str = "$") -> None:
        super().__init__(*args)
        self._place(file, line, col, path)
        self.item_pos: list[Pos] = []

    def where(self, index: int | None = None) -> Location:
        """Where item ``index`` was written (or the list itself, when ``index`` is None)."""
        if index is None:
            return self._here()
        file, line, col = (
            self.item_pos[index] if 0 <= index < len(self.item_pos) else self.pos
        )
        return Location(file, line, col, child_path(self.path, index))

    def key_where(self, index: int) -> Location:
        """Same as :meth:`where`: list items have no separate key."""
        return self.where(index)

    def add(self, value: Any, pos: Pos | None = None) -> None:
        """Append ``value`` and record where it was written."""
        self.item_pos.extend([self.pos] * (len(self) - len(self.item_pos)))
        self.append(value)
        self.item_pos.append(pos if pos is not None else self.pos)


def load_yaml(path: Path | str, limits: LoadLimits = DEFAULT_LIMITS, text: str | None = None,
              document: bool = False) -> Any:
    """Read one YAML file safely into plain data with positions.

    ``text`` (if given) is used instead of reading ``path``; ``path`` then only names
    the file in errors. Raises :class:`StratagemError` (or :class:`ValidationFailed`
    holding several) for bad YAML, and :class:`LimitError` when a bound is hit.
    An empty file gives ``None``.

    A ``document`` (a file named as a Stratagem file, not one pulled in by ``include:``)
    that YAML cannot read and that has no ``kind:`` line is not a Stratagem file (someone
    named ``/etc/shadow``): its errors name the file and the problem, never a line, key or
    value of it.
    """
    file = str(path)
    if text is None:
        text = read_text(Path(path), file, limits)
    elif len(text.encode("utf-8", "replace")) > limits.max_file_bytes:
        raise _too_big(file, len(text.encode("utf-8", "replace")), limits)
    if not document or _KIND_LINE.search(text):
        return _parse(file, text, limits)
    try:
        return _parse(file, text, limits)
    except LimitError:
        raise
    except StratagemError as err:
        first = err.errors[0] if isinstance(err, ValidationFailed) and err.errors else err
        loc = first.location or Location(file)
        raise StratagemError(
            "this is not a Stratagem file: YAML cannot read it, and it has no 'kind:' line",
            location=Location(file, loc.line, loc.column),
            hint="name a Stratagem file (a YAML file that starts with e.g. 'kind: army')",
            key="yaml.not_stratagem",
        ) from None


#: A top-level ``kind:`` key, as every Stratagem file (but an included one) starts.
_KIND_LINE = re.compile(r"^[{ ]*[\"']?kind[\"']?[ \t]*:", re.MULTILINE)


def open_regular(path: Path, name: str) -> BinaryIO:
    """``path`` opened to read bytes, if it is a regular file: a FIFO would block, a device
    such as /dev/zero never end (opened without blocking, then checked)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what, kind = (("a named pipe (FIFO)", "fifo") if stat.S_ISFIFO(mode) else
                          ("a device", "device") if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                          else ("a socket", "socket") if stat.S_ISSOCK(mode)
                          else ("not a regular file", "other"))
            raise StratagemError(f"is {what}, not a file Stratagem can read",
                                 location=Location(name), hint="name a file saved on disk",
                                 key="yaml.not_regular", params={"kind": kind})
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _too_big(file: str, size: int, limits: LoadLimits) -> LimitError:
    return LimitError(
        f"file is too large ({_size(size)}; the limit is {_size(limits.max_file_bytes)})",
        location=Location(file),
        hint="split it into several files joined with 'include:', or raise the file-size limit",
        key="yaml.too_large", params={"size": _size(size), "limit": _size(limits.max_file_bytes)},
    )


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB".replace(".0 ", " ")
    if n >= 1024:
        return f"{n / 1024:.1f} KB".replace(".0 ", " ")
    return f"{n} bytes"


def read_text(path: Path, file: str, limits: LoadLimits = DEFAULT_LIMITS) -> str:
    """The text of the file at ``path`` (``file`` names it in errors), as :func:`load_yaml`
    reads it: a regular file within the size limit, UTF-8, without control characters."""
    try:
        if path.is_dir():
            raise StratagemError(
                "is a folder, not a file",
                location=Location(file),
                hint="name the YAML files themselves, e.g. folder/*.yaml", key="yaml.folder",
            )
        with open_regular(path, file) as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > limits.max_file_bytes:
                raise _too_big(file, size, limits)
            data = handle.read(limits.max_file_bytes + 1)
    except FileNotFoundError:
        raise StratagemError(
            "file not found", location=Location(file), hint="check the path and its spelling",
            key="yaml.not_found",
        ) from None
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else "no such name"
        raise StratagemError(
            f"cannot read the file: {reason}", location=Location(file),
            key="yaml.unreadable", params={"reason": reason},
        ) from None
    if len(data) > limits.max_file_bytes:
        raise _too_big(file, len(data), limits)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or (
            len(data) >= 4 and (data[1:4:2] == b"\0\0" or data[0:4:2] == b"\0\0")):
        raise StratagemError(
            "the file is UTF-16 text, not UTF-8", location=Location(file, 1, 1),
            hint="save the file as UTF-8 (every editor offers it: 'Save with encoding')",
            key="yaml.utf16")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise StratagemError(
            "the file is not UTF-8 text",
            location=Location(file, line, col),
            hint="save the file as UTF-8 (every editor offers it)", key="yaml.not_utf8",
        ) from None
    control = _CONTROL.search(text)
    if control is not None:
        at = control.start()
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        raise StratagemError(
            f"the file holds a control character (U+{ord(control.group()):04X}) that YAML "
            "does not allow",
            location=Location(file, line, col),
            hint="delete it (it is invisible in most editors; a NUL byte often means the file "
            "was saved in another encoding or is not text)",
            key="yaml.control", params={"code": f"U+{ord(control.group()):04X}"})
    return text


#: The characters YAML forbids in a file: C0 controls but tab, line feed and carriage return,
#: DEL, and the C1 controls but NEL.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x84\x86-\x9f]")


#: Use ruamel's pure-Python parser even when its C parser (ruamel.yaml.clib) is installed
#: (the tests check that both read every file alike).
PURE_PYTHON_PARSER = False


def _parse(file: str, text: str, limits: LoadLimits) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    # Compose only (nothing is ever constructed from a tag); with ruamel.yaml.clib the
    # libyaml parser does it, ten times faster than the pure-Python one, same nodes.
    yaml = YAML(typ="safe", pure=PURE_PYTHON_PARSER)
    yaml.Resolver = _resolver()
    try:
        _check_depth(yaml, file, text, limits)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a reused anchor is legal YAML
            node = yaml.compose(text)
    except RecursionError:
        raise _too_deep(Location(file), limits) from None
    except MarkedYAMLError as err:
        raise _syntax_error(file, text, err) from None
    except YAMLError as err:
        raise StratagemError(f"YAML error: {err}", location=Location(file),
                             key="yaml.error", params={"problem": str(err)}) from None
    if node is None:
        return None
    builder = _Builder(file, limits)
    try:
        data = builder.build(node, "$", 0, builder.mark(node), None)
    except RecursionError:
        raise _too_deep(Location(file), limits) from None
    if len(builder.errors) == 1:
        raise builder.errors[0]
    if builder.errors:
        raise ValidationFailed(builder.errors)
    return data


@lru_cache(maxsize=1)
def _resolver() -> type:
    """ruamel's resolver (which tells a number from a text), finding the YAML version of the
    file once: ruamel's own looks it up anew for every value, through two attributes a
    loader lacks, a third of the time it spends reading a file. The version is read at the
    first value, after the ``%YAML`` line that may set it; each file gets its own resolver."""
    from ruamel.yaml.resolver import VersionedResolver

    class OneVersion(VersionedResolver):
        @property
        def processing_version(self) -> Any:
            found = self.__dict__.get("_stratagem_version")
            if found is None:
                found = self.__dict__["_stratagem_version"] = super().processing_version
            return found

        @property
        def versioned_resolver(self) -> Any:  # the version's rules, as found once
            found = self.__dict__.get("_stratagem_rules")
            if found is None:
                found = self.__dict__["_stratagem_rules"] = super().versioned_resolver
            return found

    return OneVersion


#: A file with fewer characters that can open a map or a list than this is composed at once:
#: it cannot nest deeper (the C composer recurses on the C stack, so a file nested 100,000
#: levels deep would crash it before any bound is checked).
_SAFE_OPENERS = 5000


def _check_depth(yaml: Any, file: str, text: str, limits: LoadLimits) -> None:
    """Refuse a file nested deeper than the bound before it is composed: its events are
    counted, which costs no recursion (only for a file that could nest that deep)."""
    if sum(text.count(c) for c in "[{-?:") <= _SAFE_OPENERS:
        return
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent

    depth = 0
    try:
        for event in yaml.parse(text):
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > limits.max_depth + 1:
                    mark = event.start_mark
                    raise _too_deep(Location(file, mark.line + 1, mark.column + 1), limits)
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    except YAMLError:
        return  # composing reports it, with its place


def _too_deep(location: Location, limits: LoadLimits) -> LimitError:
    """The nesting bound was hit (the path, as deep as the nesting, is left out)."""
    location = Location(location.file, location.line, location.column)
    return LimitError(
        f"maps and lists are nested more than {limits.max_depth} levels deep",
        location=location,
        hint="flatten the structure; no Stratagem file needs such depth",
        key="yaml.too_deep", params={"max": limits.max_depth},
    )


class _Builder:
    """Turns composed YAML nodes into PosDict/PosList/scalars, checking tags and bounds."""

    def __init__(self, file: str, limits: LoadLimits) -> None:
        self.file = file
        self.limits = limits
        self.errors: list[StratagemError] = []
        self.alias_nodes = 0
        self.seen: set[int] = set()
        self.active: set[int] = set()

    def mark(self, node: Any) -> Pos:
        return (self.file, node.start_mark.line + 1, node.start_mark.column + 1)

    def loc(self, node: Any, path: str | None = None) -> Location:
        _, line, col = self.mark(node)
        return Location(self.file, line, col, path)

    def build(self, node: Any, path: str, depth: int, here: Pos, alias_from: Pos | None) -> Any:
        """Build ``node`` found at ``path``; ``here`` is where it was placed (for alias errors)."""
        if depth > self.limits.max_depth:
            raise _too_deep(self.loc(node, path), self.limits)
        ident = id(node)
        if ident in self.active:
            raise StratagemError(
                "an alias refers to the map or list that contains it (an endless loop)",
                location=Location(*here, path),
                hint="an alias (*name) may only repeat a value defined outside itself",
                key="yaml.alias_loop",
            )
        # A node met a second time is an alias's (composers share the anchored node).
        if ident in self.seen:
            if alias_from is None:
                alias_from = here
        else:
            self.seen.add(ident)
        if alias_from is not None:
            self.alias_nodes += 1
            if self.alias_nodes > self.limits.max_alias_nodes:
                raise LimitError(
                    f"aliases expand to more than {self.limits.max_alias_nodes} values "
                    "(the alias expansion limit)",
                    location=Location(*alias_from, path),
                    hint="this looks like an 'alias bomb'; write the values out, or use "
                    "fewer nested aliases", key="yaml.alias_bomb",
                    params={"max": str(self.limits.max_alias_nodes)},
                )
        kind = type(node).__name__
        tag = _tag(node)
        if kind == "ScalarNode":
            return self.scalar(node, tag, path)
        expected = "map" if kind == "MappingNode" else "seq"
        if tag != _STD + expected:
            self.unknown_tag(node, tag, path)
        self.active.add(ident)
        try:
            if kind == "MappingNode":
                return self.mapping(node, path, depth, alias_from)
            return self.sequence(node, path, depth, alias_from)
        finally:
            self.active.discard(ident)

    def mapping(self, node: Any, path: str, depth: int, alias_from: Pos | None) -> PosDict:
        file, line, col = self.mark(node)
        result = PosDict(file=file, line=line, col=col, path=path)
        merges = []
        for key_node, value_node in node.value:
            key_tag = _tag(key_node)
            if key_tag == _MERGE:
                merges.append((key_node, value_node))
                continue
            key = self.key(key_node, key_tag, path)
            if key is None:
                continue
            key_pos = self.mark(key_node)
            if key in result:
                first = result.key_pos[key]
                self.errors.append(
                    StratagemError(
                        f"duplicate key '{key}' (first written at line {first[1]})",
                        location=Location(*key_pos, child_path(path, key)),
                        hint="a key may appear once in a map; remove or rename one of them",
                        key="yaml.duplicate_key", params={"key": key, "line": first[1]},
                    )
                )
                continue
            value = self.build(value_node, child_path(path, key), depth + 1, key_pos, alias_from)
            result.put(key, value, key_pos, self.mark(value_node))
        for key_node, value_node in merges:
            self.merge_key(result, key_node, value_node, path, depth, alias_from)
        return result

    def merge_key(
        self, result: PosDict, key_node: Any, value_node: Any, path: str, depth: int,
        alias_from: Pos | None,
    ) -> None:
        """YAML merge key ``<<: *base``: copy entries the map does not state itself."""
        sources = value_node.value if type(value_node).__name__ == "SequenceNode" else [value_node]
        key_pos = self.mark(key_node)
        for source in sources:
            if type(source).__name__ != "MappingNode":
                self.errors.append(
                    StratagemError(
                        "'<<' must be followed by a map or an alias of a map",
                        location=self.loc(source, path),
                        key="yaml.merge_key",
                    )
                )
                continue
            built = self.build(source, path, depth, key_pos, alias_from)
            for key, value in built.items():
                if key not in result:
                    result.put(key, value, built.key_pos.get(key), built.value_pos.get(key))

    def sequence(self, node: Any, path: str, depth: int, alias_from: Pos | None) -> PosList:
        file, line, col = self.mark(node)
        result = PosList(file=file, line=line, col=col, path=path)
        for index, item in enumerate(node.value):
            here = self.mark(node) if id(item) in self.seen else self.mark(item)
            value = self.build(item, child_path(path, index), depth + 1, here, alias_from)
            result.add(value, self.mark(item))
        return result

    def key(self, node: Any, tag: str, path: str) -> str | None:
        if type(node).__name__ != "ScalarNode":
            self.errors.append(
                StratagemError(
                    "a key must be plain text, not a list or a map",
                    location=self.loc(node, path),
                    hint="write the key as a name, e.g. 'troop: knight'", key="yaml.complex_key",
                )
            )
            return None
        if not tag.startswith(_STD) or tag[len(_STD):] not in _SCALAR_TAGS:
            self.unknown_tag(node, tag, path)
            return None
        return sys.intern(str(node.value))

    def scalar(self, node: Any, tag: str, path: str) -> Any:
        name = tag[len(_STD):] if tag.startswith(_STD) else None
        if name not in _SCALAR_TAGS:
            self.unknown_tag(node, tag, path)
            return None
        text = node.value
        if getattr(node, "style", None) == ">":
            text = text.replace("\a", "")  # ruamel marks fold points of folded scalars
        try:
            return _SCALARS[str(name)](text)
        except ValueError:
            self.errors.append(
                StratagemError(
                    f"'{text}' is not a valid {_SCALAR_NAMES[str(name)]}",
                    location=self.loc(node, path),
                    hint="remove the explicit tag, or fix the value", key="yaml.bad_tagged_value",
                    params={"value": text, "type": _SCALAR_NAMES[str(name)]},
                )
            )
            return None

    def unknown_tag(self, node: Any, tag: str, path: str) -> None:
        shown = "!!" + tag[len(_STD):] if tag.startswith(_STD) else tag
        if "python" in tag:
            hint = "Python tags could run code, so they are never loaded; write plain values"
            hint_key = "yaml.python_tag.hint"
        else:
            hint = "Stratagem files use plain YAML maps, lists and values; remove the tag"
            hint_key = "yaml.unknown_tag.hint"
        self.errors.append(
            StratagemError(f"unknown YAML tag '{shown}'", location=self.loc(node, path), hint=hint,
                           key="yaml.unknown_tag", hint_key=hint_key, params={"tag": shown})
        )


def _tag(node: Any) -> str:
    tag = node.tag
    return tag if isinstance(tag, str) else str(getattr(tag, "value", tag))


def _int(text: str) -> int:
    clean = text.replace("_", "")
    try:
        return int(clean, 10)
    except ValueError:
        return int(clean, 0)


def _float(text: str) -> float:
    clean = text.replace("_", "").lower()
    if clean in (".inf", "+.inf"):
        return math.inf
    if clean == "-.inf":
        return -math.inf
    if clean == ".nan":
        return math.nan
    return float(clean)


def _bool(text: str) -> bool:
    low = text.lower()
    if low in ("true", "yes", "on", "y"):
        return True
    if low in ("false", "no", "off", "n"):
        return False
    raise ValueError(text)


def _null(text: str) -> None:
    return None


def _str(text: str) -> str:
    """Text as written. A name (a key, a field, an enum value) is interned: the engine finds
    it in its dicts and compares it with the names in expressions by identity first."""
    return sys.intern(text) if len(text) <= 64 and text.isidentifier() else str(text)


_SCALARS: dict[str, Callable[[str], Any]] = {
    "str": _str, "timestamp": str, "int": _int, "float": _float, "bool": _bool, "null": _null,
}
_SCALAR_NAMES = {"str": "text", "timestamp": "date", "int": "whole number", "float": "number",
                 "bool": "true/false value", "null": "null"}


#: The message keys of YAML syntax errors (their hints are ``<key>.hint``).
_SYNTAX_KEYS = ("yaml.colon", "yaml.unclosed_list", "yaml.unclosed_map", "yaml.unclosed_quote",
                "yaml.unknown_alias", "yaml.two_documents", "yaml.bad_indent",
                "yaml.expected_key", "yaml.syntax_in", "yaml.syntax")


def _syntax_error(file: str, text: str, err: Any) -> StratagemError:
    """Turn a ruamel.yaml error into one a person can act on."""
    mark = err.problem_mark or err.context_mark
    line, col = (mark.line, mark.column) if mark is not None else (0, 0)
    lines = text.splitlines()
    source = lines[line] if line < len(lines) else ""
    problem = str(err.problem or "")
    context = str(err.context or "")
    indent = source[: len(source) - len(source.lstrip(" \t"))]
    if "\t" in indent or "\\t" in problem:
        if "\t" in indent:
            col = indent.index("\t")
            message, key = "YAML does not allow tabs for indentation; use spaces", "yaml.tab_indent"
        else:
            message, key = "YAML does not allow a tab here; use spaces", "yaml.tab"
        return StratagemError(
            message,
            location=Location(file, line + 1, col + 1),
            hint="replace the tab with spaces (editors can convert indentation to spaces)",
            context=_caret(source, col), key=key, hint_key="yaml.tab.hint",
        )
    opener = err.context_mark
    at = f"line {opener.line + 1}, column {opener.column + 1}" if opener is not None else ""
    hint = None
    seen = f"line {line + 1}, column {col + 1}"
    params: dict[str, object] = {"at": at, "seen": seen, "problem": problem, "context": context,
                                 "line": line + 1, "column": col + 1}
    if opener is not None:
        params.update(at_line=opener.line + 1, at_column=opener.column + 1)
    key = _SYNTAX_KEYS[0]
    if "mapping values are not allowed" in problem:
        message = "unexpected ':' (text containing ': ' must be quoted, or the indentation is wrong)"
        hint = "put the value in quotes, or line this key up with the keys above it"
    elif opener is not None and any(
        what in context for what in ("flow sequence", "flow mapping", "quoted scalar")
    ):
        if "flow sequence" in context:
            key = _SYNTAX_KEYS[1]
            message = "this list '[' is not closed"
            hint = f"close it with ']' (items are separated by commas); YAML read on to {seen}"
        elif "flow mapping" in context:
            key = _SYNTAX_KEYS[2]
            message = "this map '{' is not closed"
            hint = f"close it with '}}' (entries are separated by commas); YAML read on to {seen}"
        else:
            key = _SYNTAX_KEYS[3]
            message = "this quoted text is not closed"
            hint = f"add the closing quote; YAML read on to {seen}"
        line, col = opener.line, opener.column
        source = lines[line] if line < len(lines) else ""
    elif "undefined alias" in problem:
        name = re.match(r"\*([^\s,\]}]+)", source[col:])
        key, params["name"] = _SYNTAX_KEYS[4], name.group(1) if name else source[col:].strip()
        message = f"unknown alias: '{params['name']}'"
        hint = "define the anchor (&name) before using it (*name)"
    elif "single document" in context:
        key = _SYNTAX_KEYS[5]
        message = "a file holds one YAML document, but a second one starts here"
        hint = "remove the '---' line, or split the file in two"
    elif ("block mapping" in context or "block collection" in context) and (
            opened := _quote_opened_above(lines, line, col)) is not None:
        # a quote left open ran on to the next quote, some lines below, where YAML stopped
        key = "yaml.quote_runs_on"
        message = "this quoted text is not closed on its line"
        hint = (f"add the closing quote; YAML read on to the quote at line {line + 1}, "
                f"column {col}")
        params.update(quote_line=line + 1, quote_column=col)
        line, col = opened
        source = lines[line]
    elif "block mapping" in context or "block collection" in context:
        key = _SYNTAX_KEYS[6]
        message = f"this line is indented wrongly (the block at {at} expects its entries lined up)"
        hint = "indent with spaces so that keys of the same map start in the same column"
    elif "could not find expected ':'" in problem:
        key = _SYNTAX_KEYS[7]
        message = "expected 'key: value' here"
        hint = "check for a missing ':' or a wrongly indented line"
    else:
        key = _SYNTAX_KEYS[8] if context else _SYNTAX_KEYS[9]
        message = f"YAML syntax error: {problem}" + (f" ({context} at {at})" if context else "")
    return StratagemError(
        message, location=Location(file, line + 1, col + 1), hint=hint, key=key, params=params,
        context=_caret(source, col) if source.strip() else None,
    )


def _quote_opened_above(lines: list[str], line: int, col: int) -> tuple[int, int] | None:
    """Where a quote opened that YAML read across lines, when it stopped just after the quote
    that closed it (``(line, column)``, 0-based), else None."""
    before = lines[line][:col].rstrip() if line < len(lines) else ""
    if not before or before[-1] not in "\"'":
        return None
    quote = before[-1]
    for n in range(line - 1, max(-1, line - 100), -1):
        code = lines[n].split(" #", 1)[0]
        if code.count(quote) % 2 == 1:
            return n, code.index(quote)
    return None


def _caret(source: str, col: int) -> str:
    """The source line and a caret under column ``col`` (0-based), clipped to 100 characters."""
    start = max(0, col - 60)
    shown = source[start : start + 100].replace("\t", " ")
    return f"  {shown}\n  {' ' * (col - start)}^"
