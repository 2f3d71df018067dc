"""The immutable syntax tree of a dice expression.

Every node is a frozen, hashable dataclass. ``pos`` fields are 0-based offsets
into the expression text, kept so that an error found later (a name bound to
a negative count, a division by zero) can still put a caret under its cause.

Chains of ``+``/``-`` and of ``*``/``/`` are n-ary (:class:`Sum`,
:class:`Product`) and evaluate left to right, so a long flat sum is a shallow
tree; only parentheses, calls and a unary minus make the tree deeper, and
their nesting is bounded by ``DiceLimits.max_nesting``.

The nodes with sub-expressions are generic in the type of those: a parsed
tree is a :data:`Node` (``Sum[Node]``), and the resolver rebuilds the same
classes over resolved nodes (``Sum[RNode]``, see :mod:`stratagem.dice.resolve`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Generic, TypeAlias, TypeVar

#: The type of a node's sub-expressions: :data:`Node`, or ``RNode`` once resolved.
N = TypeVar("N")


@dataclass(frozen=True, slots=True)
class Const:
    """An integer constant."""

    value: int


@dataclass(frozen=True, slots=True)
class Name:
    """A name bound by the caller (``TL``, ``DR``, ``unit.TL``)."""

    name: str
    pos: int


@dataclass(frozen=True, slots=True)
class Neg(Generic[N]):
    """Unary minus."""

    operand: N


@dataclass(frozen=True, slots=True)
class Sum(Generic[N]):
    """``first (+|-) term ...``; each rest item is ``(op, node, pos of op)``."""

    first: N
    rest: tuple[tuple[str, N, int], ...]


@dataclass(frozen=True, slots=True)
class Product(Generic[N]):
    """``first (*|/) factor ...``; ``/`` divides rounding down (towards minus infinity)."""

    first: N
    rest: tuple[tuple[str, N, int], ...]


@dataclass(frozen=True, slots=True)
class CeilDiv(Generic[N]):
    """``ceil(num / den)``: division rounding up (towards plus infinity)."""

    num: N
    den: N
    pos: int


@dataclass(frozen=True, slots=True)
class Call(Generic[N]):
    """``min(a, b, ...)`` or ``max(a, b, ...)``: the clamps."""

    func: str
    args: tuple[N, ...]
    pos: int


@dataclass(frozen=True, slots=True)
class Keep:
    """A keep/drop suffix: ``kh``, ``kl`` (keep highest/lowest) or ``dh``, ``dl`` (drop)."""

    kind: str
    count: Node
    pos: int


@dataclass(frozen=True, slots=True)
class Die:
    """``count d sides``, optionally exploding (``!``) and with a keep/drop suffix.

    ``count`` and ``sides`` never contain dice (checked when parsing); they may
    contain names. ``percentile`` records that the text said ``d%``.
    """

    count: Node
    sides: Node
    explode: bool
    keep: Keep | None
    pos: int
    percentile: bool = False


Node: TypeAlias = (
    "Const | Name | Neg[Node] | Sum[Node] | Product[Node] | CeilDiv[Node] | Call[Node] | Die"
)


def children(node: Node) -> tuple[Node, ...]:
    """The direct sub-expressions of ``node`` (including a die's count and sides)."""
    if isinstance(node, Neg):
        return (node.operand,)
    if isinstance(node, (Sum, Product)):
        return (node.first, *(item[1] for item in node.rest))
    if isinstance(node, CeilDiv):
        return (node.num, node.den)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, Die):
        extra = (node.keep.count,) if node.keep is not None else ()
        return (node.count, node.sides, *extra)
    return ()


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree, parents before children (iterative: no recursion)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(current)))


def free_names(node: Node) -> frozenset[str]:
    """The names the caller must bind to evaluate ``node``."""
    return frozenset(n.name for n in walk(node) if isinstance(n, Name))


def has_dice(node: Node) -> bool:
    """Whether evaluating ``node`` rolls anything."""
    return any(isinstance(n, Die) for n in walk(node))
