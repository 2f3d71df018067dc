"""Tables: ordered rows matched by key, range, threshold or a pair of keys.

Rows keep their order so a lookup can be shifted "N rows down". Lookups by
a key already seen are answered from a small index built on first use.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from stratagem.errors import Location, StratagemError, UnknownMember
from stratagem.expr import SAFE_RESULT_TYPES
from stratagem.model.values import closest, plain

MATCHES = ("exact", "range", "threshold", "keys")

#: Keys of a range or threshold table whose row is remembered once found (a battle's ratios
#: take many values: without a bound, thousands of battles would grow the index for ever).
MAX_REMEMBERED: Final = 4096


class Row:
    """One table row; its cells are attributes (``row.loss``), plus ``index`` and ``key``."""

    __slots__ = ("_cells", "_index", "_key", "_table")

    def __init__(self, table: str, index: int, key: Any, cells: dict[str, Any]) -> None:
        self._table = table
        self._index = index
        self._key = key
        self._cells = cells

    def __getattr__(self, name: str) -> Any:
        try:
            return self._cells[name]
        except KeyError:
            pass
        if name == "index":
            return self._index
        if name == "key":
            return self._key
        if name == "table":
            return self._table
        if name.startswith("_"):
            raise AttributeError(name)
        columns = ", ".join(self._cells)
        raise UnknownMember(
            f"table '{self._table}' has no column '{name}'",
            hint=closest(name, self._cells) or f"columns: {columns}", key="run.no_column",
            params={"table": self._table, "name": name, "columns": columns},
        )

    def __getitem__(self, name: object) -> Any:
        if not isinstance(name, str):
            raise TypeError(f"'{type(name).__name__}' is not a column's name")
        return self.__getattr__(name)

    def __iter__(self) -> Iterator[Any]:  # a row is no list (not row[0], row[1], ...)
        raise TypeError("'Row' object is not iterable")

    def cells(self) -> dict[str, Any]:
        return dict(self._cells)

    def to_plain(self) -> dict[str, Any]:
        return {"table": self._table, "row": self._index, "key": plain(self._key),
                **{k: plain(v) if not hasattr(v, "text") else v.text
                   for k, v in self._cells.items()}}

    def __repr__(self) -> str:
        return f"<row {self._index} of {self._table}>"


SAFE_RESULT_TYPES.add(Row)


@dataclass
class Table:
    """A compiled table."""

    name: str
    match: str
    rows: list[Row]
    columns: dict[str, str]
    provenance: str | None = None
    source: Any = None
    location: Location | None = None
    _index: dict[Any, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.match in ("exact", "keys"):
            for row in self.rows:
                self._index.setdefault(row._key, row._index)

    def keys(self) -> list[Any]:
        return [row._key for row in self.rows]

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)

    def find(self, keys: tuple[Any, ...]) -> int | None:
        """The index of the row matching ``keys``, or None."""
        if self.match == "keys":
            return self._index.get(tuple(keys))
        if len(keys) != 1:
            return None
        key = keys[0]
        if self.match == "exact":
            try:
                return self._index.get(key)
            except TypeError:
                return None
        try:
            return self._index[key]
        except (KeyError, TypeError):
            pass
        found = self._scan(key)
        if found is not None and len(self._index) < MAX_REMEMBERED:
            try:
                self._index[key] = found
            except TypeError:
                pass
        return found

    def _scan(self, key: Any) -> int | None:
        if isinstance(key, bool) or not isinstance(key, (int, float)) and not hasattr(
                key, "numerator"):
            return None
        if self.match == "range":
            for row in self.rows:
                lo, hi = row._key
                if (lo is None or key >= lo) and (hi is None or key <= hi):
                    return row._index
            return None
        best = None  # threshold: the last row whose bound is <= key
        for row in self.rows:
            if row._key <= key:
                best = row._index
        return best

    def lookup(self, *keys: Any, shift: int = 0) -> Row:
        found = self.find(keys)
        if found is None:
            shown = ", ".join(_shown(k) for k in keys)
            gap = self._gap(keys[0]) if len(keys) == 1 else None
            raise StratagemError(
                f"no row of table '{self.name}' matches {shown}",
                location=self.location,
                hint=gap or "add a row for it, or make the first/last range open-ended with null",
                key="run.table_no_row", params={"table": self.name, "key": shown},
                hint_key="run.table_gap.hint" if gap else None,
            )
        if shift:
            found = max(0, min(len(self.rows) - 1, found + int(shift)))
        return self.rows[found]

    def _gap(self, key: Any) -> str | None:
        """For a range table, the two ranges a number falls between, if it does."""
        if self.match != "range" or self._scan(key) is not None or not _is_number(key):
            return None
        below = [row._key for row in self.rows if row._key[1] is not None and row._key[1] < key]
        above = [row._key for row in self.rows if row._key[0] is not None and row._key[0] > key]
        if not below or not above:
            return None
        low = max(below, key=lambda bounds: bounds[1])
        high = min(above, key=lambda bounds: bounds[0])
        return (f"it falls between the ranges {_range(low)} and {_range(high)}: the key is "
                "not a whole number, so widen one of them (e.g. end the first at "
                f"{_shown(high[0])} and start the next just above, or use a threshold table)")

    def row_by_id(self, key: Any) -> Row:
        found = self._index.get(key) if self.match in ("exact", "keys") else None
        if found is None:
            for row in self.rows:
                if row._key == key or row._cells.get("id") == key:
                    return row
            raise StratagemError(f"table '{self.name}' has no row '{key}'", location=self.location,
                                 key="run.table_no_id", params={"table": self.name, "row": key})
        return self.rows[found]


def _is_number(key: Any) -> bool:
    return not isinstance(key, bool) and (isinstance(key, (int, float)) or hasattr(key, "numerator"))


def _range(bounds: tuple[Any, Any]) -> str:
    low, high = bounds
    return f"[{'null' if low is None else _shown(low)}, {'null' if high is None else _shown(high)}]"


def _shown(key: Any) -> str:
    """A key as a rule writer reads it: ``7/2 (3.5)``, ``'knight'``, ``[1, 2]``."""
    if isinstance(key, Fraction) and key.denominator != 1:
        return f"{key} ({float(key):g})"
    return repr(plain(key))
