"""Entities: the battle state as a tree (battle → sides → units, heroes, ...).

A ruleset declares each kind of entity: its fields (typed, with defaults),
its child collections and its derived values. An :class:`Entity` stores the
field values and computes derived values on demand from compiled
expressions, so they always reflect the current state.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, TYPE_CHECKING

from stratagem.errors import Location, StratagemError, UnknownMember, Word, a_or_an
from stratagem.expr import SAFE_RESULT_TYPES, Expr
from stratagem.expr.bounds import MAX_MAGNITUDE, ValueTooLarge, describe_number, stored
from stratagem.expr.compiled import (
    MAX_COMPREHENSION_ITEMS,
    OWN_FIELD,
    OWN_SELF,
    read_attribute,
)
from stratagem.model.tables import Row
from stratagem.model.values import closest, exact, plain

if TYPE_CHECKING:
    from stratagem.model.ruleset import Ruleset

#: Names an entity answers besides its fields; fields may not use them.
RESERVED: Final = frozenset({"self", "parent", "battle", "kind", "children"})

TYPES = ("int", "number", "bool", "str", "enum", "list", "dice", "any")

#: The Python type of the values a field of each type may take as they are (see
#: :class:`Unchanged`); a list or `any` field takes none but None.
_UNCHANGED_TYPE: Final[dict[str, type]] = {"int": int, "number": int, "bool": bool,
                                            "str": str, "dice": str, "enum": str}
#: The whole numbers a battle keeps (``stratagem.expr.bounds.stored``), as inclusive bounds.
_LOWEST_KEPT: Final = 1 - MAX_MAGNITUDE
_HIGHEST_KEPT: Final = MAX_MAGNITUDE - 1


@dataclass(frozen=True)
class Unchanged:
    """The values a field takes as they are, without :meth:`FieldSpec.check` (its common
    values; any other value is checked, and may still be taken): the values of the Python
    type ``cls`` (int, bool or str; None for none), of which the whole numbers from ``low``
    to ``high`` (both included, and within the sizes a battle keeps) and the texts among
    ``values`` (None: any text); and None when ``none``.

    ``interp.steps.field_value`` reads it for every value a step gives a field, and the
    generated code (``interp.codegen``) writes it as the test that passes a value without
    that call: one rule, stated here."""

    cls: type | None
    low: int
    high: int
    values: tuple[str, ...] | None
    none: bool


def _unchanged(spec: FieldSpec) -> Unchanged:
    """What ``spec`` takes as it is (see :class:`Unchanged`)."""
    kind = spec.type
    cls = _UNCHANGED_TYPE.get(kind)
    low, high = _LOWEST_KEPT, _HIGHEST_KEPT
    if cls is int:
        # the whole numbers between the bounds: a bound past the sizes kept is the size
        # kept, and none are taken when a bound leaves none (or is not a number: NaN)
        minimum, maximum = spec.minimum, spec.maximum
        if minimum is not None and not minimum < _LOWEST_KEPT:
            low = math.ceil(minimum) if minimum <= _HIGHEST_KEPT else _HIGHEST_KEPT + 1
        if maximum is not None and not maximum > _HIGHEST_KEPT:
            high = math.floor(maximum) if maximum >= _LOWEST_KEPT else _LOWEST_KEPT - 1
    return Unchanged(cls, low, high, spec.values if kind == "enum" else None,
                     spec.optional or kind == "any")


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
    #: who states it: "input" (army and scenario files; the battle may change it) or
    #: "battle" (battle state: it starts at its default, and no file may state it)
    owner: str = "input"
    description: str | None = None
    #: the values it takes as they are (made from the above)
    unchanged: Unchanged = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "unchanged", _unchanged(self))

    @property
    def stated(self) -> bool:
        """Whether army and scenario files may state it (it is not battle state)."""
        return self.owner != "battle"

    def check(self, value: Any, where: Location | None, owner: str,
              changed: bool = False) -> Any:
        """Validate and normalise a value written by a user for this field (``changed``: a
        value a step gives it, which is never converted to text or wrapped in a list)."""
        if value is None:
            if self.optional or self.type == "any":
                return None
            raise _field_error("needs a value", where, key="run.field_empty", owner=owner,
                               field=self.name)
        kind = self.type
        if kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                if isinstance(value, (float, Fraction)) and _whole(value):
                    value = int(value)
                else:
                    raise _field_error(f"expected a whole number, got {_shown(value)}", where,
                                       key="run.field_not_int", owner=owner, field=self.name,
                                       value=_shown(value))
        elif kind == "number":
            if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
                raise _field_error(f"expected a number, got {_shown(value)}", where,
                                   key="run.field_not_number", owner=owner, field=self.name,
                                   value=_shown(value))
            value = exact(value)
        elif kind == "bool":
            if not isinstance(value, bool):
                raise _field_error(f"expected true or false, got {_shown(value)}", where,
                                   key="run.field_not_bool", owner=owner, field=self.name,
                                   value=_shown(value))
        elif kind in ("str", "dice"):
            if not isinstance(value, str):
                if changed and (isinstance(value, bool)
                                or not isinstance(value, (int, float, Fraction))):
                    raise _field_error(f"expected text, got {_shown(value)}", where,
                                       key="run.field_not_text", owner=owner,
                                       field=self.name, value=_shown(value))
                value = str(value)
        elif kind == "enum":
            if self.values is not None and value not in self.values:
                allowed = ", ".join(self.values[:20]) + (" …" if len(self.values) > 20 else "")
                hint = closest(value, self.values) or "allowed: " + allowed
                raise _field_error(f"'{value}' is not one of its values", where,
                                   hint=hint, key="run.field_not_value", owner=owner,
                                   field=self.name, value=value, allowed=allowed)
        elif kind == "list":
            if not isinstance(value, list):
                if changed and not isinstance(value, tuple):
                    raise _field_error(f"expected a list, got {_shown(value)}", where,
                                       key="run.field_not_list", owner=owner,
                                       field=self.name, value=_shown(value))
                value = list(value) if isinstance(value, tuple) else [value]
            if self.of is not None:
                value = [self.of.check(v, where, owner, changed) for v in value]
            else:
                value = list(value)
        if kind in ("int", "number"):
            if self.minimum is not None and value < self.minimum:
                raise _field_error(f"must be at least {self.minimum}, got {_shown(value)}", where,
                                   key="run.field_below", owner=owner, field=self.name,
                                   limit=self.minimum, value=value)
            if self.maximum is not None and value > self.maximum:
                raise _field_error(f"must be at most {self.maximum}, got {_shown(value)}", where,
                                   key="run.field_above", owner=owner, field=self.name,
                                   limit=self.maximum, value=value)
        try:
            return stored(value)
        except ValueTooLarge as err:
            raise _field_error(f"cannot hold it: {err.message}", where,
                               hint=err.hint if changed else None, key="run.field_too_large",
                               owner=owner, field=self.name, reason=err.message) from None


def _whole(value: float | Fraction) -> bool:
    return value.denominator == 1 if isinstance(value, Fraction) else value.is_integer()


def _shown(value: Any) -> str:
    """A value in a message: a number by its size when huge, anything else shortened."""
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return describe_number(value)
    text = repr(value.label() if isinstance(value, Entity) else value)
    return text if len(text) <= 60 else text[:60] + "…"


def _field_error(what: str, where: Location | None, hint: str | None = None, *, key: str,
                 owner: str, field: str, **params: object) -> StratagemError:
    """``{owner} field '{field}' {what}``: the text of ``key``, given the owner, the field
    and ``params``."""
    return StratagemError(f"{owner} field '{field}' {what}", location=where, hint=hint,
                          key=key, params={"owner": owner, "field": field, **params})


@dataclass
class EntityKind:
    """The declaration of one kind of entity."""

    name: str
    fields: dict[str, FieldSpec] = field(default_factory=dict)
    children: dict[str, str] = field(default_factory=dict)  # collection name -> kind name
    derived: dict[str, Expr] = field(default_factory=dict)
    location: Location | None = None
    description: str | None = None
    #: derived name -> the list (a child collection or another derived value) it filters
    #: item by item (model/views.py; worked out when the ruleset is compiled)
    views: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    #: of those that list a value of each item (``[f.name for f in ...]``), the filter that
    #: gives the items themselves (model/views.py)
    view_items: dict[str, Expr] = field(default_factory=dict, repr=False, compare=False)
    #: what a change reaches (compile/readers.py): each derived value's slot (its place in
    #: the battle's versions), each field's own readers (derived values of the same entity
    #: that name it, directly or through others), and the slots of the values, of any
    #: entity, that may read it through another entity
    slots: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    readers: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False,
                                                compare=False)
    bumps: dict[str, tuple[int, ...]] = field(default_factory=dict, repr=False, compare=False)
    #: each derived value's expression as a function of the entity (`Evaluator.own_function`),
    #: made when the value is first computed; None: computed through the evaluator (a
    #: filtered collection, a constant, the simpleeval evaluator)
    functions: dict[str, Callable[[Entity, dict[str, Any]], Any] | None] = field(
        default_factory=dict, repr=False, compare=False)
    #: each derived value's readers (`own_reader`, `derived_reader`), made when first asked for
    derived_readers: dict[str, tuple[Callable[[Entity], Any], Callable[[Any], Any]]] = field(
        default_factory=dict, repr=False, compare=False)

    def stated_fields(self) -> dict[str, FieldSpec]:
        """The fields army and scenario files may state (its input fields)."""
        return {name: spec for name, spec in self.fields.items() if spec.stated}

    def member_names(self) -> set[str]:
        return set(self.fields) | set(self.children) | set(self.derived)

    def own_names(self) -> dict[str, str | Callable[[Any], Any]]:
        """How an entity of this kind answers each name its derived values read bare (as
        :func:`_read` and :class:`EntityScope` do, in their order): a field or a collection
        from its fields, a derived value (by its reader, `own_reader`), then ``self``,
        ``parent``, ``battle``. (An entity's fields hold no
        other names: loading, `update` and `create` take only the kind's.) Asked once the
        kind's slots are planned (compile/readers.py)."""
        names: dict[str, str | Callable[[Any], Any]] = {
            "self": OWN_SELF, "parent": "parent", "battle": "battle"}
        names.update({name: own_reader(self, name) for name in self.derived})
        names.update(dict.fromkeys(self.children, OWN_FIELD))
        names.update(dict.fromkeys(self.fields, OWN_FIELD))
        return names


class World:
    """What the entities of one battle share: the versions of the derived values, the
    changes made, the derived values being computed.

    Every derived value is cached. Expressions cannot change the state (they call no
    methods), so every change goes through :meth:`Entity.set` or :meth:`Entity.adopt`, and
    what a change of a field can reach is known from the ruleset (compile/readers.py): the
    entity's own values that read it lose their cached value, and the *slot* of every
    value that may read it through another entity moves on to a new version. A cached value
    is returned as it is while its version is its slot's, computed again otherwise.
    """

    __slots__ = ("changes", "depth", "failed", "follow", "frozen", "twins", "versions")

    def __init__(self, slots: int, follow: bool = True) -> None:
        #: each derived value's version (its slot's: EntityKind.slots)
        self.versions: list[int] = [0] * slots
        #: the entity of every change made, in order (what a filtered collection follows
        #: item by item, `_refresh`), kept only if ``follow``: a ruleset without filtered
        #: collections kept so (``Ruleset.follows_changes``) never reads it
        self.changes: list[Entity] = []
        self.follow = follow
        #: how many derived values are being computed, each reading the next
        self.depth = 0
        #: for a copy of a scenario's template: id(template entity) -> its copy
        self.twins: dict[int, Entity] = {}
        #: a template's world never changes again, so its copies may inherit its values
        self.frozen = False
        #: while a template is warmed (:meth:`Entity.warm`): the values that failed
        #: (id(entity), name), which nothing has changed since, so fail again at once
        self.failed: set[tuple[int, str]] | None = None


_ABSENT: Final = object()


class _Failed(Exception):
    """A value that failed already while its template was warmed."""


#: How deeply derived values may read other derived values being computed.
MAX_DERIVED_DEPTH: Final = 50

#: A filtered collection of fewer items is computed whole: that is cheaper than following
#: its items one by one (measured with benchmarks/bench_battles.py on the shipped 12 v 12
#: scenarios).
VIEW_MIN_ITEMS: Final = 32


#: A cached derived value (`Entity._cache`): ``(value, version)``, the value and the version
#: of its slot it was computed at (current while the slot has not moved on since), or for a
#: filtered collection kept item by item ``(value, version, view)``, its :class:`_View`.
#: A tuple, never changed once made: so a copy of a scenario's template may hold the
#: template's own entries (`Entity.freeze`), and making one costs no call.
Cached = tuple[Any, ...]

#: The entry of a value one of its entity's own fields changed since: never current (every
#: version is at least 0), and never the template's, which a copy without an entry reads.
_CHANGED: Final[Cached] = (None, -1)


class _View:
    """What keeps a filtered collection (model/views.py) up to date item by item: its value,
    the collection's name and list, each item's place in it (the first ``known`` items),
    the items whose condition holds (``chosen``, in order: the value lists them, or the
    value each gives, in the same places), and how many of the battle's changes it has
    seen (``World.changes``: the items changed since are the ones to look at again). Its
    entity's entry holds it (`Cached`); it is never shared with a copy."""

    __slots__ = ("chosen", "inside", "items", "known", "name", "order", "seen", "value")

    def __init__(self, value: list[Any], name: str, items: list[Any],
                 chosen: list[Any], seen: int) -> None:
        self.value = value
        self.name = name
        self.items = items
        self.known = len(items)
        self.order = {id(item): i for i, item in enumerate(items)}
        self.chosen = list(chosen)
        self.inside = {id(item) for item in chosen}
        self.seen = seen


class _Only(Mapping[str, Any]):
    """An entity's names, but its collection ``name`` holds ``only``: a filtered
    collection's comprehension evaluated for one item."""

    __slots__ = ("name", "only", "scope")

    def __init__(self, scope: Mapping[str, Any], name: str) -> None:
        self.scope = scope
        self.name = name
        self.only: list[Any] = []

    def __getitem__(self, name: str) -> Any:
        return self.only if name == self.name else self.scope[name]

    def __contains__(self, name: object) -> bool:
        return name == self.name or name in self.scope

    def __iter__(self) -> Iterator[str]:
        return iter(self.scope)

    def __len__(self) -> int:
        return len(self.scope)


class Entity:
    """One entity of the battle state. Fields, derived values and children are attributes."""

    __slots__ = ("_cache", "_f", "_kept", "_kind", "_origin", "_parent", "_rs", "_scope",
                 "_tpl", "_w")

    def __init__(self, kind: EntityKind, values: dict[str, Any], parent: Entity | None,
                 ruleset: Ruleset, origin: Location | None = None) -> None:
        self._kind = kind
        self._f = values
        self._parent = parent
        self._rs = ruleset
        self._origin = origin
        self._w: World = parent._w if parent is not None else World(
            ruleset.slot_count, ruleset.follows_changes)
        #: derived name -> its cached value
        self._cache: dict[str, Cached] = {}
        #: the template entity this one was copied from (its cached values may serve)
        self._tpl: Entity | None = None
        #: in a template (:meth:`freeze`), the entries its copies start with
        self._kept: dict[str, Cached] | None = None
        #: the names its derived values see (made when one is first computed)
        self._scope: EntityScope | None = None

    # -- access -------------------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        value = _read(self, name)
        return value if value is not _ABSENT else self._reserved(name)

    def _reserved(self, name: str) -> Any:
        """``parent``, ``kind`` or ``battle`` (names no field may take), else the error for
        a name the entity does not have."""
        if name == "parent":
            return self._parent
        if name == "kind":
            return self._kind.name
        if name == "battle":
            return self.root()
        if name.startswith("_"):
            raise AttributeError(name)
        hint = closest(name, self._kind.member_names())
        declared = ", ".join(sorted(self._kind.member_names()))
        raise UnknownMember(
            f"{a_or_an(self._kind.name)} has no field or value '{name}'",
            hint=hint or f"declared: {declared}", key="run.no_member",
            params={"kind": Word(self._kind.name), "name": name, "declared": declared},
        )

    def member(self, name: str) -> Any:
        """A field, a derived value, or one of ``parent``, ``kind``, ``battle``: what a rule
        may read of an entity (never a Python attribute, even one named like a field)."""
        return self.__getattr__(name)

    def _derived(self, name: str, expr: Expr) -> Any:
        """A derived value: its cached value while current; in a copy of a scenario's
        template, the template's while current (as it is, or with the copy's entities in
        it); else computed (again)."""
        version = self._w.versions[self._kind.slots[name]]
        entry = self._cache.get(name)
        if entry is not None:
            if entry[1] == version:
                return entry[0]
        elif self._tpl is not None:
            # one the copy did not start with (`freeze`): it holds entities, or the template
            # computed it later
            kept = self._tpl._cache.get(name)
            if kept is not None and kept[1] == version:
                value = kept[0]
                if _holds_entity(value):
                    value = _moved(value, self._w.twins)
                self._cache[name] = (value, version)
                return value
        return self._compute(name, expr, entry, version)

    def _compute(self, name: str, expr: Expr, entry: Cached | None, version: int) -> Any:
        """Compute a derived value (a filtered collection: item by item, if it can), keep
        it as of ``version``, and return it."""
        w = self._w
        failed = w.failed
        if failed is not None and (id(self), name) in failed:
            raise _Failed(name)
        depth = w.depth
        if depth >= MAX_DERIVED_DEPTH:
            raise StratagemError(
                f"the {self._kind.name} value '{name}' (`{expr.text}`) reads derived values "
                f"{MAX_DERIVED_DEPTH} deep", location=expr.location,
                hint="a derived value that uses itself, directly or through others?",
                key="run.derived_depth", params={"kind": self._kind.name, "name": name,
                                                 "expr": expr.text, "max": MAX_DERIVED_DEPTH})
        try:
            function = self._kind.functions[name]
        except KeyError:
            function = _own_functions(self._kind, self._rs)[name]
        w.depth = depth + 1
        try:
            if function is None:
                return self._evaluate(name, expr, entry, version)
            try:
                value = function(self, self._f)
            except Exception as err:  # noqa: BLE001 - what `Evaluator.eval` raises for it
                scope = self._scope
                if scope is None:
                    scope = self._scope = EntityScope(self)
                raise self._rs.evaluator.failure(err, expr, scope) from None
        except Exception:
            if failed is not None:
                failed.add((id(self), name))
            raise
        finally:
            w.depth = depth
        self._cache[name] = (value, version)
        return value

    def _evaluate(self, name: str, expr: Expr, entry: Cached | None, version: int) -> Any:
        """What :meth:`_compute` computes through the evaluator, in the entity's scope, kept
        as of ``version``; a filtered collection that can follow its items keeps its
        :class:`_View` in the entry (refreshed, or made here)."""
        scope = self._scope
        if scope is None:
            scope = self._scope = EntityScope(self)
        if entry is not None and len(entry) == 3 and _refresh(self, expr, entry[2], scope):
            view = entry[2]
            self._cache[name] = (view.value, version, view)
            return view.value
        value = self._rs.evaluator.eval(expr, scope)
        collection = self._kind.views.get(name)
        if collection is not None:
            items = scope[collection]
            if type(items) is list and type(value) is list and len(items) >= VIEW_MIN_ITEMS \
                    and _viewable(items):
                of_items = self._kind.view_items.get(name)
                # of the values of the items: which items give them
                chosen = value if of_items is None else self._rs.evaluator.eval(of_items, scope)
                self._cache[name] = (value, version, _View(value, collection, items, chosen,
                                                           len(self._w.changes)))
                return value
        self._cache[name] = (value, version)
        return value

    def warm(self) -> None:
        """Compute every derived value of this entity and its descendants that can be
        computed now, so copies of it start with them cached."""
        w = self._w
        w.failed = set()  # a value that fails, fails every reader of it (a chain, once)
        try:
            for entity in self.walk():
                for name, expr in entity._kind.derived.items():
                    try:
                        entity._derived(name, expr)
                    except Exception:  # noqa: BLE001 - a value that needs a battle context
                        w.depth = 0
        finally:
            w.failed = None

    def freeze(self) -> None:
        """Make this battle state a template: it never changes again, and its copies
        (:meth:`clone`) start with the derived values it has computed. Each entity keeps the
        entries a copy starts with (``_kept``): those current (a frozen world's versions
        never move on, so they stay current) whose value holds no entity, shared as they
        are (an entry is never changed once made; a filtered collection's without its
        :class:`_View`, which a copy makes anew). A copy finds any other value of the
        template in :meth:`_derived`."""
        w = self._w
        w.frozen = True
        versions = w.versions
        for entity in self.walk():
            slots = entity._kind.slots
            entity._kept = {name: (entry[0], entry[1]) if len(entry) == 3 else entry
                            for name, entry in entity._cache.items()
                            if entry[1] == versions[slots[name]]
                            and not _holds_entity(entry[0])}

    def set(self, name: str, value: Any) -> None:
        """Change a field (every change of the battle state goes through here, :meth:`update`,
        :meth:`adopt`, or the code generated for an `update` step, which writes out what
        `update` does). Setting a field to the value it has changes nothing; a change
        forgets what read the field: the entity's own values that read it lose their cached
        value, and the slots of the values that may read it through another entity move on
        (``EntityKind.readers``, ``EntityKind.bumps``)."""
        self.update(((name, value),))

    def update(self, values: Iterable[tuple[str, Any]]) -> None:
        """Change fields, one after the other (what :meth:`set` says of one); the entity joins
        the battle's list of changes once, if any changed. (The generated code writes this
        out for the kinds an `update` step knows, interp/codegen.py.)"""
        w = self._w
        if w.frozen:
            raise RuntimeError(f"{self!r} belongs to a template, which never changes")
        fields, kind = self._f, self._kind
        changed = False
        for name, value in values:
            old = fields.get(name, _ABSENT)
            fields[name] = value
            if type(old) is not type(value) or old != value:
                changed = True
                slots = kind.bumps.get(name)
                if slots is not None:
                    versions = w.versions
                    for slot in slots:
                        versions[slot] += 1
                names = kind.readers.get(name)
                if names is not None:
                    cache = self._cache
                    for reader in names:
                        cache[reader] = _CHANGED
        if changed and w.follow:
            w.changes.append(self)

    def adopt(self, collection: str, child: Entity) -> None:
        """Add a child entity to one of this entity's collections (a filtered collection of
        it takes the child in, item by item)."""
        w = self._w
        if w.frozen:
            raise RuntimeError(f"{self!r} belongs to a template, which never changes")
        child._w = w
        for entity in child.walk():
            entity._w = w
        self._f[collection].append(child)
        # what the collection reaches, as in `update`, but a filtered collection of it keeps
        # its items and takes the child in
        versions, cache = w.versions, self._cache
        for slot in self._kind.bumps.get(collection, ()):
            versions[slot] += 1
        for reader in self._kind.readers.get(collection, ()):
            entry = cache.get(reader)
            if entry is not None and len(entry) == 3:
                cache[reader] = (entry[0], -1, entry[2])
            else:
                cache[reader] = _CHANGED

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
        """A deep copy (children included). A copy of a frozen root (a template) starts a
        new world whose entities inherit the derived values their originals computed."""
        twins: dict[int, Entity] = {}
        inherit = parent is None and self._w.frozen
        twin = self._copy(parent, twins, inherit)
        if inherit:
            twin._w.twins = twins
            twin._w.versions = list(self._w.versions)
        return twin

    def _copy(self, parent: Entity | None, twins: dict[int, Entity], inherit: bool) -> Entity:
        # Field values are shared: nothing changes one in place (`set` replaces it, and an
        # expression cannot change anything); only the child collections, which `adopt`
        # appends to, are the copy's own.
        values = dict(self._f)
        twin = Entity(self._kind, values, parent, self._rs, self._origin)
        if inherit:
            twin._tpl = self
            if self._kept:
                twin._cache = dict(self._kept)
        twins[id(self)] = twin
        for key in self._kind.children:
            children = values.get(key)
            if children is not None:
                values[key] = [child._copy(twin, twins, inherit) for child in children]
        return twin

    def to_plain(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in self._f.items():
            if key in self._kind.children:
                out[key] = [child.to_plain() for child in value]
            else:
                out[key] = plain(value)
        return out


def _read(entity: Entity, name: str) -> Any:
    """A field or a derived value of ``entity``; ``_ABSENT`` if it has neither called
    ``name``."""
    value = entity._f.get(name, _ABSENT)
    if value is not _ABSENT:
        return value
    expr = entity._kind.derived.get(name)
    if expr is None:
        return _ABSENT
    entry = entity._cache.get(name)  # as in `read_member`
    if entry is not None and entry[1] == entity._w.versions[entity._kind.slots[name]]:
        return entry[0]
    return entity._derived(name, expr)


def _own_functions(kind: EntityKind, ruleset: Ruleset
                   ) -> dict[str, Callable[[Entity, dict[str, Any]], Any] | None]:
    """The functions that compute the derived values of ``kind`` (`EntityKind.functions`),
    made together when the first is needed (a template warms them all), with the names
    its entities answer worked out once; None for a filtered collection, which its scope
    computes."""
    own = kind.own_names()
    evaluator = ruleset.evaluator
    for name, expr in kind.derived.items():
        function = None
        if name not in kind.views:
            try:
                function = evaluator.own_function(expr, own)
            except Exception:  # noqa: BLE001 - left to the evaluator, which says what is wrong
                function = None
        kind.functions[name] = function
    return kind.functions


def _own_parent(entity: Entity, name: str) -> Any:
    """``parent`` read bare by a derived value."""
    return entity._parent


def _own_battle(entity: Entity, name: str) -> Any:
    """``battle`` read bare by a derived value."""
    return entity.root()


#: How the functions of derived values (`EntityKind.functions`) read ``parent`` and
#: ``battle`` (`EntityKind.own_names`; a derived value, by its `own_reader`).
OWN_READERS: Final[dict[str, Callable[[Entity, str], Any]]] = {
    "parent": _own_parent, "battle": _own_battle}


def _viewable(items: list[Any]) -> bool:
    """Whether a filtered collection can follow ``items`` item by item: a list of entities,
    none twice."""
    return all(type(item) is Entity for item in items) and (
        len({id(item) for item in items}) == len(items))


def _refresh(entity: Entity, expr: Expr, entry: _View, scope: Mapping[str, Any]) -> bool:
    """Bring a filtered collection up to date item by item: the condition of each item
    that changed since (``World.changes``), and of each item added since, is evaluated
    again (in the collection's order), and the item (or the value it gives) enters or
    leaves the list in its place, or its value there changes. False if the value must be
    computed whole: the collection was replaced. (An item's condition reads nothing but
    the item's own members, compile/readers.py: no other change can alter it.)"""
    items = entry.items
    if scope[entry.name] is not items or len(items) > MAX_COMPREHENSION_ITEMS:
        return False
    order = entry.order
    added = items[entry.known:]
    if any(id(item) in order for item in added):
        return False  # an item twice in the collection
    pending: dict[Entity, None] = {}
    for i, item in enumerate(added, entry.known):
        order[id(item)] = i
        pending[item] = None
    entry.known = len(items)
    changes = entity._w.changes
    for i in range(entry.seen, len(changes)):
        changed = changes[i]
        if id(changed) in order:
            pending[changed] = None
    entry.seen = len(changes)
    one = _Only(scope, entry.name)
    evaluate = entity._rs.evaluator.eval
    inside, chosen = entry.inside, entry.chosen
    value: list[Any] | None = None

    def place(e: Entity) -> int:
        return order[id(e)]

    for item in sorted(pending, key=place):
        one.only = [item]
        given = evaluate(expr, one)  # [] or [the item, or the value it gives]
        was = id(item) in inside
        if not given and not was:
            continue
        i = bisect_left(chosen, order[id(item)], key=place)
        if given and was:
            old = (entry.value if value is None else value)[i]
            if given[0] is old or (type(given[0]) is type(old) and given[0] == old):
                continue
        if value is None:
            value = list(entry.value)
        if given and was:
            value[i] = given[0]
        elif given:
            inside.add(id(item))
            chosen.insert(i, item)
            value.insert(i, given[0])
        else:
            inside.discard(id(item))
            del chosen[i]
            del value[i]
    if value is not None:
        entry.value = value
    return True


def _holds_entity(value: Any) -> bool:
    if isinstance(value, Entity):
        return True
    if isinstance(value, (list, tuple)):
        return any(_holds_entity(v) for v in value)
    if isinstance(value, dict):  # group_by()'s map, a dict comprehension
        return any(_holds_entity(k) or _holds_entity(v) for k, v in value.items())
    return False


def _moved(value: Any, twins: dict[int, Entity]) -> Any:
    """A cached value for a copy: entities in it are replaced by their copies."""
    if isinstance(value, Entity):
        return twins.get(id(value), value)
    if isinstance(value, list):
        return [_moved(v, twins) for v in value]
    if isinstance(value, tuple):
        return tuple(_moved(v, twins) for v in value)
    if isinstance(value, dict):
        return {_moved(k, twins): _moved(v, twins) for k, v in value.items()}
    return value


SAFE_RESULT_TYPES.add(Entity)


def read_member(owner: Any, name: str) -> Any:
    """``owner.name`` in a compiled expression. For an entity: a field or a derived value,
    never a method (the common cases, a field or a clean cached value, answered here); for a
    table row, a cell."""
    if type(owner) is not Entity:
        if type(owner) is Row:
            value = owner._cells.get(name, _ABSENT)
            if value is not _ABSENT:
                return value
        return read_attribute(owner, name)
    # `_read`, written out: this is the most frequent call of a battle, and the call saved
    # is 2-3 % of it (benchmarks/compare_revisions.py).
    value = owner._f.get(name, _ABSENT)
    if value is not _ABSENT:
        return value
    expr = owner._kind.derived.get(name)
    if expr is None:
        return owner._reserved(name)
    # The common cases of `Entity._derived`, written out too: a current value (in a copy of
    # a scenario's template, the template's the copy started with, `Entity.freeze`), or one
    # out of date, computed at once.
    version = owner._w.versions[owner._kind.slots[name]]
    entry = owner._cache.get(name)
    if entry is not None:
        if entry[1] == version:
            return entry[0]
        return owner._compute(name, expr, entry, version)  # out of date (`_derived`)
    return owner._derived(name, expr)


def parent_reader(kind: EntityKind) -> Callable[[Any], Any]:
    """``owner.parent`` where the static checks say ``owner`` is an entity of ``kind``, a kind
    with no member named ``parent`` (`compile/typed_reads.py`): `read_member`'s answer, the
    entity's parent, without its lookups; any other owner is read by `read_member`."""
    if "parent" in kind.member_names():
        raise ValueError(f"{kind.name} has a member named parent")

    def read(owner: Any) -> Any:
        if type(owner) is Entity and owner._kind is kind:
            return owner._parent
        return read_member(owner, "parent")

    return read


def derived_reader(kind: EntityKind, name: str) -> Callable[[Any], Any]:
    """``owner.name`` for a derived value ``name`` of ``kind`` (``kind.derived``, not a
    field or collection of it), where the static checks say ``owner`` is an entity of that
    kind (``compile/typed_reads.py``): `read_member`'s answer, with what it looks up
    (the fields, the kind's derived values, the value's slot) known beforehand. An owner
    that is not an entity of that kind is read by `read_member`. (An entity's fields hold
    only its kind's fields and collections: a derived value's name is never among them.)"""
    return _derived_readers(kind, name)[1]


def own_reader(kind: EntityKind, name: str) -> Callable[[Entity], Any]:
    """The derived value ``name`` of an entity of ``kind``, read bare by one of the entity's
    own derived values (`EntityKind.own_names`): `derived_reader`'s answer without its test
    of the owner, which is the entity itself."""
    return _derived_readers(kind, name)[0]


def _derived_readers(kind: EntityKind, name: str
                     ) -> tuple[Callable[[Entity], Any], Callable[[Any], Any]]:
    """`own_reader` and `derived_reader` of ``name``, made once for the kind
    (``kind.derived_readers``): the common cases of `Entity._derived`, written out in both
    (a current value; one out of date, computed at once), the second after its test of the
    owner. Written out rather than the second calling the first: the test alone cost about
    2 % more instructions a battle, in the benchmark that reads most values bare
    (docs/performance.md, "a copy starts with the template's entries"), and a call costs
    about as much."""
    made = kind.derived_readers.get(name)
    if made is not None:
        return made
    expr = kind.derived[name]
    slot = kind.slots[name]

    def own(entity: Entity) -> Any:
        version = entity._w.versions[slot]
        entry = entity._cache.get(name)
        if entry is not None:
            if entry[1] == version:
                return entry[0]
            return entity._compute(name, expr, entry, version)  # out of date
        return entity._derived(name, expr)

    def read(owner: Any) -> Any:
        if type(owner) is not Entity or owner._kind is not kind:
            return read_member(owner, name)
        version = owner._w.versions[slot]
        entry = owner._cache.get(name)
        if entry is not None:
            if entry[1] == version:
                return entry[0]
            return owner._compute(name, expr, entry, version)  # out of date
        return owner._derived(name, expr)

    made = kind.derived_readers[name] = (own, read)
    return made


_SCOPE_NAMES: Final = frozenset({"self", "parent", "battle"})


class EntityScope(Mapping[str, Any]):
    """Names visible inside a derived value: the entity's members, self, parent, battle (the
    evaluator reads the ruleset's constants after these, see expr/compiled.py)."""

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
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        e = self._e
        return name in e._f or name in e._kind.derived or name in _SCOPE_NAMES

    def __iter__(self) -> Iterator[str]:
        return iter(self._e._f)

    def __len__(self) -> int:
        return len(self._e._f)
