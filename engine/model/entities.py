"""Entities: the battle state as a tree (battle → sides → units, heroes, ...).

A ruleset declares each kind of entity: its fields (typed, with defaults),
its child collections and its derived values. An :class:`Entity` stores the
field values and computes derived values on demand from compiled
expressions, so they always reflect the current state.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from stratagem.errors import Location, StratagemError, UnknownMember
from stratagem.expr import SAFE_RESULT_TYPES, Expr
from stratagem.model.values import closest, exact

if TYPE_CHECKING:
    from stratagem.model.ruleset import Ruleset

#: Names an entity answers besides its fields; fields may not use them.
RESERVED = frozenset({"self", "parent", "battle", "kind", "children"})

TYPES = ("int", "number", "bool", "str", "enum", "list", "dice", "any")


@dataclass(frozen=True)
class FieldSpec:
    """One declared field of an entity kind."""

    name: str
    type: str
    default: Any = None
    required: bool = False
    optional: bool = False
    minimum: Any = None
    maximum: Any = None
    values: tuple[str, ...] | None = None  # allowed enum values (resolved at compile)
    of: FieldSpec | None = None  # element spec of a list
    enum_key: str | None = None  # locale prefix of enum values: enum.<name>
    location: Location | None = None

    def check(self, value: Any, where: Location | None, owner: str) -> Any:
        """Validate and normalise a value written by a user for this field."""
        if value is None:
            if self.optional or self.type == "any":
                return None
            raise _field_error(owner, self, "needs a value", where)
        kind = self.type
        if kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                if isinstance(value, float) and value.is_integer():
                    value = int(value)
                else:
                    raise _field_error(owner, self, f"expected a whole number, got {value!r}",
                                       where)
        elif kind == "number":
            if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
                raise _field_error(owner, self, f"expected a number, got {value!r}", where)
            value = exact(value)
        elif kind == "bool":
            if not isinstance(value, bool):
                raise _field_error(owner, self, f"expected true or false, got {value!r}", where)
        elif kind in ("str", "dice"):
            if not isinstance(value, str):
                value = str(value)
        elif kind == "enum":
            if self.values is not None and value not in self.values:
                hint = closest(value, self.values) or (
                    "allowed: " + ", ".join(self.values[:20])
                    + (" …" if len(self.values) > 20 else ""))
                raise _field_error(owner, self, f"'{value}' is not one of its values", where,
                                   hint=hint)
        elif kind == "list":
            if not isinstance(value, list):
                value = [value]
            if self.of is not None:
                value = [self.of.check(v, where, owner) for v in value]
            else:
                value = list(value)
        if kind in ("int", "number"):
            if self.minimum is not None and value < self.minimum:
                raise _field_error(owner, self, f"must be at least {self.minimum}, got {value}",
                                   where)
            if self.maximum is not None and value > self.maximum:
                raise _field_error(owner, self, f"must be at most {self.maximum}, got {value}",
                                   where)
        return value


def _field_error(owner: str, spec: FieldSpec, what: str, where: Location | None,
                 hint: str | None = None) -> StratagemError:
    return StratagemError(f"{owner} field '{spec.name}' {what}", location=where, hint=hint)


@dataclass
class EntityKind:
    """The declaration of one kind of entity."""

    name: str
    fields: dict[str, FieldSpec] = field(default_factory=dict)
    children: dict[str, str] = field(default_factory=dict)  # collection name -> kind name
    derived: dict[str, Expr] = field(default_factory=dict)
    location: Location | None = None

    def member_names(self) -> set[str]:
        return set(self.fields) | set(self.children) | set(self.derived)


class World:
    """What the entities of one battle share: dependency collectors and a change counter.

    A derived value is cached with what it read: fields (entity, name, version of the
    field) and other derived values (entity, "=name", version of that value). It is
    recomputed only when one of them changed. Expressions cannot change the state (they
    call no methods), so every change goes through :meth:`Entity.set` or
    :meth:`Entity.adopt`, which bump the field's version and the world's ``changes``;
    while ``changes`` stands still, a cached value is valid without looking at its inputs.
    """

    __slots__ = ("changes", "stack", "twins")

    def __init__(self) -> None:
        self.stack: list[set[tuple[Entity, str]]] = []
        #: for a copy of a scenario's template: id(template entity) -> its copy
        self.twins: dict[int, Entity] = {}
        self.changes = 0


Deps = tuple[tuple["Entity", str, int], ...]
_ABSENT = object()


class _Cached:
    """A derived value, what it was computed from, when it was last known valid, and its
    own version (bumped when a recomputation gives a different value)."""

    __slots__ = ("checked", "deps", "value", "version")

    def __init__(self, value: Any, deps: Deps, checked: int, version: int) -> None:
        self.value = value
        self.deps = deps
        self.checked = checked
        self.version = version


class Entity:
    """One entity of the battle state. Fields, derived values and children are attributes."""

    __slots__ = ("_cache", "_f", "_fv", "_kind", "_origin", "_parent", "_rs", "_tpl", "_w")

    def __init__(self, kind: EntityKind, values: dict[str, Any], parent: Entity | None,
                 ruleset: Ruleset, origin: Location | None = None) -> None:
        self._kind = kind
        self._f = values
        self._parent = parent
        self._rs = ruleset
        self._origin = origin
        self._w = parent._w if parent is not None else World()
        #: derived name -> its cached value
        self._cache: dict[str, _Cached] = {}
        #: field name -> how many times it changed
        self._fv: dict[str, int] = {}
        #: the template entity this one was copied from (its cached values may serve)
        self._tpl: Entity | None = None

    # -- access -------------------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        value = _read(self, name)
        if value is not _ABSENT:
            return value
        if name == "parent":
            return self._parent
        if name == "kind":
            return self._kind.name
        if name == "battle":
            return self.root()
        if name.startswith("_"):
            raise AttributeError(name)
        hint = closest(name, self._kind.member_names())
        raise UnknownMember(
            f"a {self._kind.name} has no field or value '{name}'",
            hint=hint or f"declared: {', '.join(sorted(self._kind.member_names()))}",
        )

    def _derived(self, name: str, expr: Expr) -> Any:
        entry = self._current(name, expr)
        stack = self._w.stack
        if stack:
            stack[-1].add((self, "=" + name))
        return entry.value

    def _version_of(self, key: str) -> int:
        """The version of a field, or (for "=name") of a derived value brought up to date."""
        if key[0] != "=":
            return self._fv.get(key, 0)
        name = key[1:]
        return self._current(name, self._kind.derived[name]).version

    def _current(self, name: str, expr: Expr) -> _Cached:
        """The cached entry of a derived value, recomputed if what it read has changed."""
        w = self._w
        entry = self._cache.get(name)
        if entry is None and self._tpl is not None:
            entry = self._inherit(name)
        if entry is not None:
            if entry.checked == w.changes:
                return entry
            for e, key, version in entry.deps:
                if e._version_of(key) != version:
                    break
            else:
                entry.checked = w.changes
                return entry
        read: set[tuple[Entity, str]] = set()
        w.stack.append(read)
        try:
            value = self._rs.evaluator.eval(expr, EntityScope(self))
        finally:
            w.stack.pop()
        version = 0
        if entry is not None:
            same = type(value) is type(entry.value) and value == entry.value
            version = entry.version if same else entry.version + 1
        deps = tuple((e, key, e._version_of(key)) for e, key in read)
        fresh = _Cached(value, deps, w.changes, version)
        self._cache[name] = fresh
        return fresh

    def _inherit(self, name: str) -> _Cached | None:
        """The template's cached value, moved to this copy (checked before use)."""
        cached = self._tpl._cache.get(name) if self._tpl is not None else None
        if cached is None:
            return None
        twins = self._w.twins
        moved = []
        for e, key, version in cached.deps:
            twin = twins.get(id(e))
            if twin is None:
                return None
            moved.append((twin, key, version))
        entry = _Cached(_moved(cached.value, twins), tuple(moved), -1, cached.version)
        self._cache[name] = entry
        return entry

    def warm(self) -> None:
        """Compute every derived value of this entity and its descendants that can be
        computed now, so copies of it start with them cached."""
        for entity in self.walk():
            for name, expr in entity._kind.derived.items():
                try:
                    entity._derived(name, expr)
                except Exception:  # noqa: BLE001 - a value that needs a battle context
                    entity._w.stack.clear()

    def set(self, name: str, value: Any) -> None:
        """Change a field (every change of the battle state goes through here). Setting a
        field to the value it has changes nothing."""
        old = self._f.get(name, _ABSENT)
        self._f[name] = value
        if type(old) is type(value) and old == value:
            return
        self._fv[name] = self._fv.get(name, 0) + 1
        self._w.changes += 1

    def adopt(self, collection: str, child: Entity) -> None:
        """Add a child entity to one of this entity's collections."""
        child._w = self._w
        for entity in child.walk():
            entity._w = self._w
        self._f[collection].append(child)
        self._fv[collection] = self._fv.get(collection, 0) + 1
        self._w.changes += 1

    def root(self) -> Entity:
        node = self
        while node._parent is not None:
            node = node._parent
        return node

    @property
    def kind_name(self) -> str:
        return self._kind.name

    @property
    def declaration(self) -> EntityKind:
        return self._kind

    @property
    def origin(self) -> Location | None:
        return self._origin

    def children_of(self) -> Iterator[tuple[str, list[Entity]]]:
        for coll in self._kind.children:
            yield coll, self._f.get(coll, [])

    def walk(self) -> Iterator[Entity]:
        """This entity and all its descendants, depth first, in order."""
        yield self
        for _, items in self.children_of():
            for child in items:
                yield from child.walk()

    def label(self) -> str:
        name = self._f.get("name")
        return str(name) if name else self._kind.name

    def __repr__(self) -> str:
        return f"<{self._kind.name} {self.label()}>"

    def __str__(self) -> str:
        return self.label()

    # -- copying (several battles from one scenario) --------------------------------------
    def clone(self, parent: Entity | None = None) -> Entity:
        """A deep copy (children included). A copy of a root starts a new world whose
        entities may reuse the derived values their originals have computed."""
        twins: dict[int, Entity] = {}
        twin = self._copy(parent, twins)
        if parent is None:
            twin._w.twins = twins
        return twin

    def _copy(self, parent: Entity | None, twins: dict[int, Entity]) -> Entity:
        values: dict[str, Any] = {}
        twin = Entity(self._kind, values, parent, self._rs, self._origin)
        twin._tpl = self
        twin._fv = dict(self._fv)
        twins[id(self)] = twin
        for key, value in self._f.items():
            if key in self._kind.children:
                values[key] = [child._copy(twin, twins) for child in value]
            elif isinstance(value, list):
                values[key] = list(value)
            else:
                values[key] = value
        return twin

    def to_plain(self) -> dict[str, Any]:
        from stratagem.model.values import plain

        out: dict[str, Any] = {}
        for key, value in self._f.items():
            if key in self._kind.children:
                out[key] = [child.to_plain() for child in value]
            else:
                out[key] = plain(value)
        return out


def _read(entity: Entity, name: str) -> Any:
    """A field (noted as read by the derived value being computed, if any) or a derived
    value of ``entity``; ``_ABSENT`` if it has neither called ``name``."""
    fields = entity._f
    if name in fields:
        stack = entity._w.stack
        if stack:
            stack[-1].add((entity, name))
        return fields[name]
    expr = entity._kind.derived.get(name)
    if expr is not None:
        return entity._derived(name, expr)
    return _ABSENT


def _moved(value: Any, twins: dict[int, Entity]) -> Any:
    """A cached value for a copy: entities in it are replaced by their copies."""
    if isinstance(value, Entity):
        return twins.get(id(value), value)
    if isinstance(value, list):
        return [_moved(v, twins) for v in value]
    if isinstance(value, tuple):
        return tuple(_moved(v, twins) for v in value)
    return value


SAFE_RESULT_TYPES.add(Entity)


class EntityScope(Mapping[str, Any]):
    """Names visible inside a derived value: the entity's members, self, parent, battle, constants."""

    __slots__ = ("_e",)

    def __init__(self, entity: Entity) -> None:
        self._e = entity

    def __getitem__(self, name: str) -> Any:
        e = self._e
        value = _read(e, name)
        if value is not _ABSENT:
            return value
        if name == "self":
            return e
        if name == "parent":
            return e._parent
        if name == "battle":
            return e.root()
        return e._rs.constants[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._e._f)

    def __len__(self) -> int:
        return len(self._e._f)
