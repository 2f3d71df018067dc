"""Which derived values a change of a field can reach, worked out when a ruleset is compiled.

Every derived value is cached (``model/entities.py``). A change of a field must make every
cached value that read it, directly or through other values, be computed again when next
read; this module says which, from the expressions alone, so that a battle does no
bookkeeping while it reads:

- a value's *own reads* are the members of its own entity it names bare (``count``, or
  ``ts`` that reads ``count``): a change of ``count`` on an entity makes that entity's
  ``on_field``, ``ts``... be computed again (``EntityKind.readers``);
- a value's *other reads* are the members it reads of other entities (``u.ts``,
  ``side.morale``, a formula's ``x.count``): the value has a *slot*, a version number the
  battle keeps, and a change of ``count`` on any unit moves on the slot of every value that
  may read a unit's ``count`` through another entity (``EntityKind.bumps``); a cached value
  of an older version is computed again.

The type inference of the static checks (``compile.checks``, its ``seen``) says what each
``x.name`` reads from: a table's row, a check's result (which never change: nothing to
follow), an entity of a known kind, or something not known (then the member of that name
of any kind). Both kinds of reads are followed through the derived values they name, and
through the formulas called. What cannot be known (``sorted(xs, key=k)`` with a key that is
not written out) makes the value read everything.

This is a superset of what a value reads in one battle (``a if c else b`` counts both
branches), so a value is never kept past a change that could alter it; at worst it is
computed again for nothing. ``tests/engine/test_readers.py`` checks every cached value
read in every scenario on disk against the value computed afresh.

A filtered collection (``model/views.py``) follows its items one by one only when what its
condition reads of an item is that item's own (every derived value it names reads nothing
of another entity): a change then alters the condition of the item changed, and no other.
The others are computed whole (``EntityKind.views`` keeps only the first kind).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping
from typing import Final

from stratagem.compile.checks import Type
from stratagem.expr import Expr
from stratagem.model.entities import EntityKind
from stratagem.model.ruleset import Ruleset

#: A member read of another entity: (its kind, or "*" when not known; the member's name).
Read = tuple[str, str]
#: Every member of every entity (a key the expression computes as it runs).
EVERYTHING: Read = ("*", "*")
#: What a result read from a check, a contest or a table row holds never changes.
_CONSTANT = ("row", "check", "contest")
#: Built-ins that read a member of each item, named by their `key`.
_KEYED = ("sorted", "group_by", "unique")


#: How many reads the closure may add up before the ruleset is judged too large to follow
#: (thousands of derived values reading one another): then every change makes every
#: derived value be computed again when next read — slower, never wrong (`_coarse`).
MAX_READS: Final = 200_000


class _TooLarge(Exception):
    pass


def plan_readers(rs: Ruleset, formulas: Mapping[str, tuple[list[str], Expr]],
                 types: Mapping[int, Type | None]) -> None:
    """Set each kind's ``slots``, ``readers`` and ``bumps``, drop the filtered collections
    that cannot follow their items one by one from its ``views``, and set the ruleset's
    ``slot_count`` and ``follows_changes`` (``types``: what each member read reads from,
    as the static checks inferred it, ``check_ruleset``'s ``seen``)."""
    kinds = rs.kinds
    called = _formula_reads(formulas, types)
    own: dict[Read, set[str]] = {}
    other: dict[Read, set[Read]] = {}
    for kind in kinds.values():
        members = kind.member_names()
        for name, expr in kind.derived.items():
            names, reads, calls = _reads(expr.node, members, types)
            for function in calls:
                reads |= called.get(function, set())
            own[(kind.name, name)], other[(kind.name, name)] = names, reads
    try:
        _close(kinds, own, other)
        rs.slot_count = _plan(kinds, own, other)
    except _TooLarge:
        rs.slot_count = _coarse(kinds)
    rs.follows_changes = any(kind.views for kind in kinds.values())


def _plan(kinds: Mapping[str, EntityKind], own: Mapping[Read, set[str]],
          other: Mapping[Read, set[Read]]) -> int:
    """Set each kind's slots, readers, bumps and views from the closed reads; the number
    of slots. Derived values that the same fields reach through other entities share one
    slot (a change moves one version for them all, and they are current or not together,
    as they would be apart)."""
    reached: dict[Read, list[Read]] = {}  # a member read -> the derived values that read it
    work = 0
    for key, reads in other.items():
        work += len(reads)
        for read in reads:
            reached.setdefault(read, []).append(key)
    moved: dict[Read, set[Read]] = {key: set() for key in other}  # value -> fields reaching it
    for kind in kinds.values():
        for f in (*kind.fields, *kind.children):
            values = {*reached.get((kind.name, f), ()), *reached.get(("*", f), ()),
                      *reached.get(EVERYTHING, ())}
            work += len(values)
            if work > MAX_READS:
                raise _TooLarge
            for value in values:
                moved[value].add((kind.name, f))
    slots: dict[frozenset[Read], int] = {}
    readers: dict[Read, list[str]] = {}  # (kind, field) -> its own readers
    bumps: dict[Read, list[int]] = {}  # (kind, field) -> the slots it moves on
    for kind in kinds.values():
        kind.slots = {name: slots.setdefault(frozenset(moved[(kind.name, name)]), len(slots))
                      for name in kind.derived}
        for name in kind.derived:
            for f in own[(kind.name, name)]:
                if f not in kind.derived:
                    readers.setdefault((kind.name, f), []).append(name)
    for fields, slot in slots.items():
        for field in fields:
            bumps.setdefault(field, []).append(slot)
    for kind in kinds.values():
        kind.readers = {f: tuple(names) for (k, f), names in readers.items() if k == kind.name}
        kind.bumps = {f: tuple(numbers) for (k, f), numbers in bumps.items() if k == kind.name}
    crossing = {name for (_, name), reads in other.items() if reads}
    for kind in kinds.values():
        kind.views = {name: items for name, items in kind.views.items()
                      if _item_by_item(kind.derived[name].node, crossing)}
    return len(slots)


def _coarse(kinds: Mapping[str, EntityKind]) -> int:
    """Every derived value in one slot, which every change moves on: each is computed again
    after any change (sound for any ruleset; a ruleset too large to follow runs so)."""
    for kind in kinds.values():
        kind.slots = {name: 0 for name in kind.derived}
        kind.readers = {}
        kind.bumps = {f: (0,) for f in (*kind.fields, *kind.children)}
        kind.views = {}
    return 1


def _reads(node: ast.AST, members: Collection[str], types: Mapping[int, Type | None]
           ) -> tuple[set[str], set[Read], set[str]]:
    """The own members an expression names (a comprehension's variable named like one
    counts too: more than it reads, never less), the members it reads of other entities,
    and the functions it calls."""
    own: set[str] = set()
    other: set[Read] = set()
    calls: set[str] = set()
    for part in ast.walk(node):
        if isinstance(part, ast.Name) and part.id in members:
            own.add(part.id)
        elif isinstance(part, ast.Attribute):
            of = types.get(id(part))
            if of is None or of.what not in _CONSTANT:
                other.add((of.name if of is not None and of.what == "entity" else "*",
                           part.attr))
        elif isinstance(part, ast.Call) and isinstance(part.func, ast.Name):
            function = part.func.id
            calls.add(function)
            if function == "str":  # an entity in text is its name
                other.add(("*", "name"))
            if function in _KEYED:
                keys = [kw.value for kw in part.keywords if kw.arg == "key"]
                keys += part.args[1:] if function != "sorted" else []
                for key in keys:
                    other.add(("*", key.value) if isinstance(key, ast.Constant)
                              and isinstance(key.value, str) else EVERYTHING)
    return own, other, calls


def _formula_reads(formulas: Mapping[str, tuple[list[str], Expr]],
                   types: Mapping[int, Type | None]) -> dict[str, set[Read]]:
    """What each formula reads of the entities it is given, with the formulas it calls (a
    formula names only its values and constants bare)."""
    direct = {name: _reads(expr.node, (), types) for name, (_, expr) in formulas.items()}
    out: dict[str, set[Read]] = {}
    for name in direct:
        reads: set[Read] = set()
        seen: set[str] = set()
        todo = [name]
        while todo:
            current = todo.pop()
            if current in seen or current not in direct:
                continue
            seen.add(current)
            _, more, calls = direct[current]
            reads |= more
            todo.extend(calls)
        out[name] = reads
    return out


def _close(kinds: Mapping[str, EntityKind], own: dict[Read, set[str]],
           other: dict[Read, set[Read]]) -> None:
    """Follow reads through the derived values they name, until nothing more is learnt: a
    value that names its own ``ts`` reads what ``ts`` reads; one that reads ``u.ts`` reads,
    of other entities, everything ``ts`` reads. (The values a value names directly are
    enough: theirs are followed in turn. When a value's reads grow, the values that name it
    are looked at again; ``_TooLarge`` past ``MAX_READS``.)"""
    by_name: dict[str, list[Read]] = {}
    for key in own:
        by_name.setdefault(key[1], []).append(key)

    def named(key: Read) -> tuple[list[Read], list[Read]]:
        """The derived values ``key`` names of its own entity, and of others."""
        mine = [(key[0], n) for n in own[key] if (key[0], n) in own]
        theirs: list[Read] = []
        for kind, member in other[key]:
            if kind == "*":
                theirs.extend(by_name.get(member, ()))
            elif (kind, member) in own:
                theirs.append((kind, member))
        return mine, theirs

    users: dict[Read, set[Read]] = {}  # a derived value -> the values that name it
    edges = {key: named(key) for key in own}
    for key, (mine, theirs) in edges.items():
        for value in (*mine, *theirs):
            users.setdefault(value, set()).add(key)
    work = 0
    todo = list(own)
    queued = set(todo)
    while todo:
        key = todo.pop()
        queued.discard(key)
        names, reads = own[key], other[key]
        before = (len(names), len(reads))
        mine, theirs = edges[key]
        for value in mine:
            names |= own[value]
            reads |= other[value]
            work += len(own[value]) + len(other[value])
        for value in theirs:
            reads.update((value[0], n) for n in own[value])
            reads |= other[value]
            work += len(own[value]) + len(other[value])
        if work > MAX_READS:
            raise _TooLarge
        if (len(names), len(reads)) != before:
            for user in users.get(key, ()):
                if user not in queued:
                    queued.add(user)
                    todo.append(user)


def _item_by_item(node: ast.AST, crossing: set[str]) -> bool:
    """Whether a filtered collection's condition (and value) reads only what the item keeps
    itself: no derived value it names (``crossing``: the names of those, of any kind, that
    read another entity) reads anything of another entity."""
    return not any(isinstance(part, ast.Attribute) and part.attr in crossing
                   for part in ast.walk(node))
