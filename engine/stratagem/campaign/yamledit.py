"""Editing a person's YAML file in place: only the values that change are rewritten.

ruamel.yaml composes the text into nodes that know where each value starts and ends; an
edit replaces exactly those characters (a scalar keeps its quoting), adds a key on a line
of its own beside its siblings (or inside the braces of a flow map), or appends an item to
a list. Everything else — comments, key order, quoting, blank lines, odd indentation — is
the text as it was, byte for byte. Each edited text is read back and checked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ruamel.yaml import YAML

from stratagem.errors import StratagemError

Path_ = Sequence[Any]

_PLAIN = re.compile(r"^[A-Za-z_\u00c0-\uffff][\w .()'/\u00c0-\uffff-]*$")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "~"}


def scalar(value: Any, style: str | None = None) -> str:
    """A value as YAML text: numbers and booleans plain, text plain when it reads back the
    same, else quoted (``style`` keeps the quotes the person used)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        value = int(value) if value.denominator == 1 else float(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(scalar(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{scalar(str(k))}: {scalar(v)}" for k, v in value.items()) + "}"
    text = str(value)
    if style == "'" and "\n" not in text:
        return "'" + text.replace("'", "''") + "'"
    if style == '"' or not _PLAIN.match(text) or text.lower() in _RESERVED \
            or text != text.strip() or ": " in text or " #" in text:
        return json.dumps(text, ensure_ascii=False)
    return text


def block(value: Any, indent: int = 0) -> str:
    """Plain data as block YAML lines (maps and lists of maps in blocks, short lists and
    the leaves in flow style), each line indented by ``indent``."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            head = f"{pad}{scalar(str(key))}:"
            if _nested(item):
                lines.append(head)
                lines.append(block(item, indent + 2))
            else:
                lines.append(f"{head} {scalar(item)}")
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, Mapping) and item and _nested(item):
                inner = block(item, indent + 2).split("\n")
                lines.append(f"{pad}- {inner[0].lstrip()}")
                lines.extend(inner[1:])
            else:
                lines.append(f"{pad}- {scalar(item)}")
    return "\n".join(lines)


def _nested(value: Any) -> bool:
    if isinstance(value, Mapping):
        return bool(value) and (len(scalar(value)) > 72 or any(_nested(v) for v in
                                                                 value.values()))
    if isinstance(value, (list, tuple)):
        return bool(value) and (len(scalar(value)) > 72
                                or any(isinstance(v, (Mapping, list, tuple)) for v in value))
    return False


class Editor:
    """Edits of one YAML text, applied together by :meth:`text`."""

    def __init__(self, text: str, name: str = "<file>") -> None:
        self.source = text
        self.name = name
        self.root = YAML(typ="rt").compose(text)
        self.splices: list[tuple[int, int, str]] = []

    # -- finding nodes ---------------------------------------------------------------
    def node(self, path: Path_) -> Any:
        node = self.root
        for step in path:
            node = self._child(node, step)
            if node is None:
                return None
        return node

    @staticmethod
    def _child(node: Any, step: Any) -> Any:
        if node is None:
            return None
        if isinstance(step, int):
            items = node.value if _is_seq(node) else None
            return items[step] if items is not None and 0 <= step < len(items) else None
        if _is_map(node):
            for key, value in node.value:
                if key.value == step:
                    return value
        return None

    # -- edits -------------------------------------------------------------------------
    def set(self, path: Path_, key: str, value: Any) -> None:
        """Give ``key`` of the map at ``path`` a new value (adding the key if it is absent)."""
        owner = self.node(path)
        if not _is_map(owner):
            raise StratagemError(f"{self.name}: expected a map at {_show(path)}",
                                 key="campaign.edit_not_map",
                                 params={"file": self.name, "at": _show(path)})
        for knode, vnode in owner.value:
            if knode.value == key:
                style = getattr(vnode, "style", None) if _is_scalar(vnode) else None
                start, end = vnode.start_mark.index, _end(self.source, vnode)
                self.splices.append(self._aligned(start, end, scalar(value, style)))
                return
        self._add_key(owner, key, scalar(value))

    def replace(self, path: Path_, key: str, rendered_block: str) -> None:
        """Replace the whole value of ``key`` (a top-level key, say) with block lines, or
        add the key at the end of the map."""
        owner = self.node(path)
        for knode, vnode in owner.value:
            if knode.value == key:
                start = knode.end_mark.index
                colon = self.source.index(":", start)
                end = _end(self.source, vnode)
                self.splices.append((colon + 1, end, _joined(rendered_block)))
                return
        pos = len(self.source.rstrip("\n"))
        indent = owner.value[0][0].start_mark.column if owner.value else 0
        self.splices.append((pos, pos, f"\n{' ' * indent}{key}:{_joined(rendered_block)}"))

    def append(self, path: Path_, item: Mapping[str, Any]) -> None:
        """Add an item (a map, written in flow style) at the end of the list at ``path``."""
        seq = self.node(path)
        if not _is_seq(seq):
            raise StratagemError(f"{self.name}: expected a list at {_show(path)}",
                                 key="campaign.edit_not_list",
                                 params={"file": self.name, "at": _show(path)})
        text = scalar(item)
        if seq.flow_style or not seq.value:
            if not seq.value:
                close = _end(self.source, seq) - 1
                self.splices.append((close, close, text))
            else:
                pos = _end(self.source, seq.value[-1])
                self.splices.append((pos, pos, ", " + text))
            return
        col = seq.start_mark.column
        pos = _line_end(self.source, _last_end(self.source, seq))
        self.splices.append((pos, pos, f"\n{' ' * col}- {text}"))

    def _aligned(self, start: int, end: int, new: str) -> tuple[int, int, str]:
        """A replacement that keeps a comment after the value in its column."""
        gap = len(self.source[end:]) - len(self.source[end:].lstrip(" "))
        if gap and self.source[end + gap:end + gap + 1] == "#":
            spaces = max(1, gap + (end - start) - len(new))
            return start, end + gap, new + " " * spaces
        return start, end, new

    def _add_key(self, owner: Any, key: str, value: str) -> None:
        if owner.flow_style or not owner.value:
            if owner.value:
                pos = _end(self.source, owner.value[-1][1])
                self.splices.append((pos, pos, f", {key}: {value}"))
            else:
                close = _end(self.source, owner) - 1
                self.splices.append((close, close, f"{key}: {value}"))
            return
        col = owner.value[0][0].start_mark.column
        pos = _line_end(self.source, _last_end(self.source, owner))
        self.splices.append((pos, pos, f"\n{' ' * col}{key}: {value}"))

    def text(self) -> str:
        out = self.source
        for start, end, new in sorted(self.splices, key=lambda s: (s[0], s[1]), reverse=True):
            out = out[:start] + new + out[end:]
        return out


def _joined(rendered: str) -> str:
    return " []" if not rendered else "\n" + rendered


def _is_map(node: Any) -> bool:
    return type(node).__name__ == "MappingNode"


def _is_seq(node: Any) -> bool:
    return type(node).__name__ == "SequenceNode"


def _is_scalar(node: Any) -> bool:
    return type(node).__name__ == "ScalarNode"


def _end(text: str, node: Any) -> int:
    """Where a node's own characters end (a block collection's end mark may lie past the
    blank lines and comments after it)."""
    if _is_scalar(node) or getattr(node, "flow_style", False):
        return int(node.end_mark.index)
    return _last_end(text, node)


def _last_end(text: str, node: Any) -> int:
    """The end of the last scalar (or flow collection) inside a node."""
    while not _is_scalar(node) and not getattr(node, "flow_style", False) and node.value:
        last = node.value[-1]
        node = last[1] if isinstance(last, tuple) else last
    end, start = int(node.end_mark.index), int(node.start_mark.index)
    while end > start and text[end - 1] in " \n\r":  # a block scalar ends past its lines
        end -= 1
    return end


def _line_end(text: str, pos: int) -> int:
    newline = text.find("\n", pos)
    return len(text) if newline < 0 else newline


def _show(path: Path_) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
