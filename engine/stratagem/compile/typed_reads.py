"""Member reads compiled for the type the static checks infer of their owner.

Compiled code reads ``a.b`` through the evaluator's reader (``model.entities.read_member``),
which asks what ``a`` is and what ``b`` is of it on every read. Where the type inference of
the static checks (``compile.checks``, its ``seen``) says ``a`` is an entity of a kind, or a
row of a table, the answer is mostly known when the ruleset loads:

- a field or a collection of the kind is ``a._f['b']`` (``read_member`` answers an entity's
  field first, from that dict);
- a derived value of the kind is read by a reader made for that kind and name
  (``model.entities.derived_reader``), which knows the value's expression and slot, and
  hands any other owner to ``read_member``;
- ``a.parent``, of a kind with no member of that name, by a reader made for the kind
  (``model.entities.parent_reader``) that answers the entity's parent;
- a column that every row of the table has is ``a._cells['b']`` (``read_member`` answers a
  row's cell first, from that dict).

What ``a`` holds as a battle runs is not taken on trust: a store read (``_f``, ``_cells``)
of an owner that lacks the store or the key fails, and the expression is then computed by
its function without typed reads (``expr.compiled.compile_function``); the readers test
the owner themselves. So the inference decides only how fast a read is, never its value.
Everything else (``a.kind``, ``a.battle``, a check's result, an owner of unknown type) is read as
before. Names reach the compiled code only as constants of its tree.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import Any

from stratagem.compile.checks import Type
from stratagem.model.entities import EntityKind, derived_reader, parent_reader
from stratagem.model.ruleset import Ruleset

#: How a typed read is written: a store of ``expr.compiled.STORES``, or a reader.
How = str | Callable[[Any], Any]


def typed_reads(rs: Ruleset, types: Mapping[int, Type | None],
                nodes: Mapping[int, ast.AST]) -> dict[int, tuple[ast.AST, How]]:
    """Each member read the ruleset's expressions make whose owner's type is known
    (``types``, by the id of its ``ast.Attribute`` node, ``nodes`` the nodes), with how to
    read it (``Evaluator.set_reads``). Call it once the ruleset's slots are planned
    (``compile.readers``): a derived value's reader keeps its slot."""
    parents: dict[str, Callable[[Any], Any]] = {}  # each kind's `parent_reader`
    columns: dict[str, set[str]] = {}
    out: dict[int, tuple[ast.AST, How]] = {}
    for key, of in types.items():
        node = nodes.get(key)
        if of is None or not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if of.what == "entity":
            kind = rs.kinds.get(of.name)
            if kind is None:
                continue
            how = _entity_read(kind, name, parents)
            if how is not None:
                out[key] = (node, how)
        elif of.what == "row":
            if name in _columns(rs, of.name, columns):
                out[key] = (node, "_cells")
    return out


def _entity_read(kind: EntityKind, name: str,
                 parents: dict[str, Callable[[Any], Any]]) -> How | None:
    if name in kind.fields or name in kind.children:
        return "_f"
    if name in kind.derived:
        return derived_reader(kind, name)
    if name == "parent" and name not in kind.member_names():
        reader = parents.get(kind.name)
        if reader is None:
            reader = parents[kind.name] = parent_reader(kind)
        return reader
    return None


def _columns(rs: Ruleset, table: str, known: dict[str, set[str]]) -> set[str]:
    """The columns every row of ``table`` has a cell in."""
    found = known.get(table)
    if found is None:
        rows = rs.tables[table].rows if table in rs.tables else []
        found = set(rows[0].cells()) if rows else set()
        for row in rows[1:]:
            found &= set(row.cells())
        known[table] = found
    return found
