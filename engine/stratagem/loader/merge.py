"""Merging an overlay (a setting, a house rule, an included file) over a base document.

The rules (docs/overlays.md shows each with an example):

- maps merge key by key, recursively;
- lists whose items all have an identity (the first of ``id``, ``key``, ``keys``,
  ``range``) merge item by item: an overlay item with the identity of a base item
  merges into it, a new identity is appended;
- every other list, and every scalar, is replaced by the overlay's;
- ``{$replace: VALUE}`` puts VALUE in place instead of merging (also as a list item:
  ``{$replace: {key: knight, ...}}`` replaces the item with that identity);
- ``{$remove: true}`` as a value deletes the key; an item with ``$remove: true``
  beside its identity deletes the item with that identity.

The result is a tree of :class:`PosDict`/:class:`PosList` (the inputs are never
changed; parts an earlier merge built and that stay in place are shared) whose
entries keep the place where each value was written, file included: an error in
merged data points at the file that wrote the value.
"""

from __future__ import annotations

from typing import Any, TypeVar

from stratagem.errors import Location, StratagemError, ValidationFailed, place
from stratagem.loader.yamlio import Pos, PosDict, PosList, child_path

REPLACE = "$replace"
REMOVE = "$remove"
#: The keys that identify an item of a list, in order of preference.
ID_KEYS = ("id", "key", "keys", "range")


def merge(base: Any, overlay: Any) -> Any:
    """Merge ``overlay`` over ``base`` by the overlay rules; raise on a misused marker."""
    merger = _Merger()
    result = merger.merge(base, overlay, _path_of(overlay, _path_of(base, "$")))
    merger.finish()
    return result


def resolve_markers(document: Any) -> Any:
    """A copy of ``document`` (merged over nothing): ``$replace`` unwrapped, ``$remove`` an error."""
    merger = _Merger()
    result = merger.copy(document, _path_of(document, "$"))
    merger.finish()
    return result


def identity(item: Any) -> tuple[str, Any] | None:
    """The identity of a list item (``('key', 'knight')``), or None if it has none."""
    if not isinstance(item, dict):
        return None
    if _is_replace(item) and isinstance(item[REPLACE], dict):
        item = item[REPLACE]
    for name in ID_KEYS:
        if name in item:
            return (name, _freeze(item[name]))
    return None


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value


def _is_replace(value: Any) -> bool:
    return isinstance(value, dict) and REPLACE in value


def _is_remove_value(value: Any) -> bool:
    return isinstance(value, dict) and REMOVE in value


def _pos(container: Any) -> Pos:
    return (getattr(container, "file", None), getattr(container, "line", None),
            getattr(container, "col", None))


def _path_of(value: Any, default: str) -> str:
    return getattr(value, "path", None) or default


def _value_pos(container: Any, key: str) -> Pos:
    """Where the value under ``key`` was written, looking through a ``$replace`` marker."""
    value = container[key]
    if isinstance(value, PosDict) and _is_replace(value):
        inner = value[REPLACE]
        if isinstance(inner, (PosDict, PosList)):
            return inner.pos
        return value.value_pos.get(REPLACE, value.pos)
    if isinstance(value, (PosDict, PosList)):
        return value.pos
    positions = getattr(container, "value_pos", {})
    return positions.get(key, _pos(container))


def _item_pos(container: Any, index: int) -> Pos:
    value = container[index]
    if isinstance(value, PosDict) and _is_replace(value):
        inner = value[REPLACE]
        if isinstance(inner, (PosDict, PosList)):
            return inner.pos
    if isinstance(value, (PosDict, PosList)):
        return value.pos
    positions = getattr(container, "item_pos", [])
    return positions[index] if index < len(positions) else _pos(container)


def _where(container: Any, key: str | int | None = None) -> Location:
    if hasattr(container, "where"):
        return container.where(key)
    return Location()


class _Merger:
    """One merge: collects every misused marker, then raises them together."""

    def __init__(self) -> None:
        self.errors: list[StratagemError] = []

    def finish(self) -> None:
        self.errors.sort(key=place)
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise ValidationFailed(self.errors)

    def error(self, message: str, location: Location, hint: str | None = None,
              key: str | None = None, **params: object) -> None:
        self.errors.append(StratagemError(message, location=location, hint=hint, key=key,
                                          params=params))

    # -- checks on markers ------------------------------------------------------------------

    def check_replace(self, value: Any) -> bool:
        if len(value) != 1:
            self.error(
                f"'{REPLACE}' must be the only key of its map",
                _where(value),
                hint=f"write {{{REPLACE}: NEW_VALUE}} and nothing else beside it",
                key="merge.replace_alone", marker=REPLACE,
            )
            return False
        return True

    def check_remove(self, value: Any) -> bool:
        if value[REMOVE] is not True:
            self.error(
                f"'{REMOVE}' must be true",
                _where(value, REMOVE),
                hint=f"write '{REMOVE}: true' to delete, or drop the key",
                key="merge.remove_true", marker=REMOVE,
            )
            return False
        return True

    # -- merging -----------------------------------------------------------------------------

    def merge(self, base: Any, overlay: Any, path: str) -> Any:
        if _is_replace(overlay):
            if not self.check_replace(overlay):
                return self.copy(base, path)
            return self.copy(overlay[REPLACE], path)
        if isinstance(base, dict) and isinstance(overlay, dict) and not _is_remove_value(overlay):
            return self.merge_maps(base, overlay, path)
        if isinstance(base, list) and isinstance(overlay, list) and _by_identity(base, overlay):
            return self.merge_lists(base, overlay, path)
        return self.copy(overlay, path)

    def merge_maps(self, base: dict[str, Any], overlay: dict[str, Any], path: str) -> PosDict:
        file, line, col = _pos(base)
        result = _built(PosDict(file=file, line=line, col=col, path=path))
        for key, value in base.items():
            key_pos = getattr(base, "key_pos", {}).get(key)
            if key not in overlay:
                merged = self.copy(value, child_path(path, key))
                result.put(key, merged, key_pos, _value_pos(base, key))
                continue
            change = overlay[key]
            if _is_remove_value(change):
                if len(change) != 1:
                    self.error(
                        f"'{REMOVE}' must be the only key of its map when it deletes a key",
                        _where(change),
                        hint=f"write '{key}: {{{REMOVE}: true}}'",
                        key="merge.remove_alone", marker=REMOVE, field=key,
                    )
                else:
                    self.check_remove(change)
                continue
            merged = self.merge(value, change, child_path(path, key))
            key_pos = getattr(overlay, "key_pos", {}).get(key, key_pos)
            if isinstance(merged, (PosDict, PosList)):
                value_pos = merged.pos
            else:
                value_pos = _value_pos(overlay, key)
            result.put(key, merged, key_pos, value_pos)
        for key in overlay:
            if key not in base:
                self.put_copy(result, overlay, key, path)
        return result

    def put_copy(self, result: PosDict, source: Any, key: str, path: str) -> None:
        """Copy ``source[key]`` into ``result``; removing a key the base lacks is an error."""
        change = source[key]
        if _is_remove_value(change):
            self.error(
                f"nothing to remove: '{key}' is not in what this file extends",
                _where(source, key),
                hint="check the spelling of the key, or drop the line",
                key="merge.remove_missing_key", field=key,
            )
            return
        built = self.copy(change, child_path(path, key))
        result.put(key, built, getattr(source, "key_pos", {}).get(key), _value_pos(source, key))

    def merge_lists(self, base: list[Any], overlay: list[Any], path: str) -> PosList:
        items: list[tuple[Any, Any, Pos]] = [
            (identity(item), item, _item_pos(base, i)) for i, item in enumerate(base)
        ]
        for index, change in enumerate(overlay):
            ident = identity(change)
            found = next((i for i, (other, _, _) in enumerate(items) if other == ident), None)
            where = _where(overlay, index)
            if isinstance(change, dict) and REMOVE in change:
                if not self.check_remove(change):
                    continue
                if found is None:
                    name, value = ident if ident is not None else ("identity", None)
                    self.error(
                        f"nothing to remove: no item with {name} {_show(value)} "
                        "in what this file extends",
                        where,
                        hint="check the spelling of the identity, or drop the item",
                        key="merge.remove_missing_item", name=name, value=_show(value),
                    )
                else:
                    del items[found]
                continue
            if _is_replace(change) and not self.check_replace(change):
                continue
            if found is None:
                items.append((ident, change, _item_pos(overlay, index)))
            elif _is_replace(change):
                items[found] = (ident, change, _item_pos(overlay, index))
            else:
                old = items[found]
                items[found] = (ident, _Merged(old[1], change), old[2])
        file, line, col = _pos(base)
        result = _built(PosList(file=file, line=line, col=col, path=path))
        for index, (_, item, pos) in enumerate(items):
            item_path = child_path(path, index)
            if isinstance(item, _Merged):
                built = self.merge(item.base, item.overlay, item_path)
            else:
                built = self.copy(item, item_path)
            result.add(built, built.pos if isinstance(built, (PosDict, PosList)) else pos)
        return result

    def copy(self, value: Any, path: str) -> Any:
        """A fresh copy of ``value`` placed at ``path``, with markers resolved over nothing.
        A tree this module built for that very place is already that, and is shared."""
        if getattr(value, "built", False) and value.path == path:
            return value
        if isinstance(value, dict):
            if _is_replace(value):
                if not self.check_replace(value):
                    return None
                return self.copy(value[REPLACE], path)
            file, line, col = _pos(value)
            result = _built(PosDict(file=file, line=line, col=col, path=path))
            for key in value:
                if key == REMOVE:
                    self.error(
                        "nothing to remove: this item is not in what this file extends",
                        _where(value, key),
                        hint="check its identity (id, key, keys or range), or drop the item",
                        key="merge.remove_no_item",
                    )
                    continue
                self.put_copy(result, value, key, path)
            return result
        if isinstance(value, list):
            file, line, col = _pos(value)
            result_list = _built(PosList(file=file, line=line, col=col, path=path))
            for index, item in enumerate(value):
                built = self.copy(item, child_path(path, index))
                result_list.add(built, _item_pos(value, index))
            return result_list
        return value


_Node = TypeVar("_Node", PosDict, PosList)


def _built(node: _Node) -> _Node:
    """Mark a map or list as built here: its markers are resolved and nothing changes it
    afterwards, so a later merge may share it where it stays in place (a ruleset's
    included files are merged one after the other, each over the result so far)."""
    node.built = True
    return node


class _Merged:
    """A base item and the overlay item that merges into it (built once the order is final)."""

    __slots__ = ("base", "overlay")

    def __init__(self, base: Any, overlay: Any) -> None:
        self.base = base
        self.overlay = overlay


def _by_identity(base: list[Any], overlay: list[Any]) -> bool:
    """True when the lists merge item by item: every overlay item is identified, and so is
    every base item, or (a procedure's steps, of which only some have an `id:`) the overlay
    names at least one of the base's identified items; the others stay as they are."""
    if not overlay or not all(identity(i) is not None for i in overlay):
        return False
    idents = [identity(i) for i in base]
    if all(i is not None for i in idents):
        return True
    return any(identity(i) in idents for i in overlay)


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if value is None:
        return "null"
    return repr(value) if isinstance(value, str) else str(value)
