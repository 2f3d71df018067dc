"""Binding names and checking values: the step between parsing and rolling.

:func:`bind` checks that the caller gave a whole number for every free name.
:class:`Resolver` then evaluates every part of the tree that does not roll
(dice counts, sides, keep counts, constants, names), folds it into a
:class:`Const`, replaces each :class:`~stratagem.dice.ast.Die` with an
:class:`RDie` of plain integers, and checks every value and limit on the way.
Rolling and exact distributions both work on this *resolved* tree, so they
can never disagree about what is allowed.

:func:`bounds` gives the exact least and greatest value of a resolved tree by
interval arithmetic: every die appears once and dice are independent, so the
corners of the intervals are reachable.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias

from stratagem.dice.ast import (
    Call,
    CeilDiv,
    Const,
    Die,
    Name,
    Neg,
    Node,
    Product,
    Sum,
    free_names,
    walk,
)
from stratagem.dice.config import DiceLimits
from stratagem.dice.errors import DiceLimitError, DiceValueError, short

Env = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class RDie:
    """A die with every number known: ``count`` dice of ``sides`` sides.

    ``depth`` is how many extra rolls an exploding die may add (0: it does not
    explode). ``keep`` is how many dice count (``None``: all), the highest
    ones when ``highest`` else the lowest ones.
    """

    count: int
    sides: int
    depth: int
    keep: int | None
    highest: bool
    pos: int


RNode: TypeAlias = (
    "Const | RDie | Neg[RNode] | Sum[RNode] | Product[RNode] | CeilDiv[RNode] | Call[RNode]"
)


def bind(text: str, body: Node, needed: frozenset[str], names: Mapping[str, object]) -> Env:
    """The values of the ``needed`` names, sorted, each checked to be a whole number."""
    missing = sorted(name for name in needed if name not in names)
    if missing:
        first = min(
            (n for n in walk(body) if isinstance(n, Name) and n.name in missing),
            key=lambda n: n.pos,
            default=None,
        )
        listed = ", ".join(missing)
        hint = f"give a value for {listed} (on the command line: --set {missing[0]}=3)"
        hint_key, params = "dice.unbound.hint", {"n": len(missing), "names": listed,
                                                 "first": missing[0]}
        if first is not None and (split := _glued_die(first.name)):
            hint = f"to roll {split[0]} dice write ({split[0]})d{split[1]}; " + hint
            hint_key = "dice.unbound_glued"
            params.update(count=split[0], sides=split[1])
        raise DiceValueError(
            f"unbound name{'s' if len(missing) > 1 else ''}: {listed}",
            hint=hint,
            text=text,
            pos=first.pos if first else None,
            key="dice.unbound", hint_key=hint_key, params=params,
        )
    env = []
    for name in sorted(needed):
        value = names[name]
        if isinstance(value, bool) or not hasattr(type(value), "__index__"):
            raise DiceValueError(
                f"the name {name} must be a whole number, not {value!r}",
                hint="round it first, e.g. with // or math.ceil",
                text=text,
                key="dice.name_not_whole", params={"name": name, "value": repr(value)},
            )
        env.append((name, operator.index(value)))  # type: ignore[arg-type]
    return tuple(env)


def _glued_die(name: str) -> tuple[str, str] | None:
    """``"TLd6"`` → ``("TL", "6")``: a name written straight before a die."""
    match = _GLUED.fullmatch(name)
    return (match.group(1), match.group(2) or "6") if match else None


_GLUED = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*?)[dD]([0-9]*)")


class Resolver:
    """Evaluates what does not roll and validates every value (see the module doc)."""

    def __init__(self, text: str, env: Env, limits: DiceLimits) -> None:
        self.text = text
        self.env = dict(env)
        self.limits = limits
        #: Dice thrown by one evaluation of the resolved tree, not counting explosions.
        self.dice = 0

    def _value_error(
        self, message: str, pos: int | None, node: Node | None = None
    ) -> DiceValueError:
        hint = None
        if node is not None:
            used = sorted(free_names(node))
            if used:
                hint = "with " + ", ".join(f"{n}={short(self.env[n])}" for n in used)
        return DiceValueError(message, hint=hint, text=self.text, pos=pos)

    def number(self, node: Node) -> int:
        """The value of a sub-expression that does not roll."""
        resolved = self.resolve(node)
        assert isinstance(resolved, Const), "parser guarantees no dice here"
        return resolved.value

    def resolve(self, node: Node) -> RNode:
        """``node`` with names bound, fixed parts folded and dice made concrete."""
        if isinstance(node, Const):
            return node
        if isinstance(node, Name):
            return Const(self.env[node.name])
        if isinstance(node, Die):
            return self._die(node)
        if isinstance(node, Neg):
            operand = self.resolve(node.operand)
            return Const(-operand.value) if isinstance(operand, Const) else Neg(operand)
        if isinstance(node, Sum):
            first = self.resolve(node.first)
            rest = tuple((op, self.resolve(n), pos) for op, n, pos in node.rest)
            if isinstance(first, Const) and all(isinstance(n, Const) for _, n, _ in rest):
                total = first.value
                for op, n, _ in rest:
                    total = total + n.value if op == "+" else total - n.value  # type: ignore[union-attr]
                return Const(total)
            return Sum(first, rest)
        if isinstance(node, Product):
            return self._product(node)
        if isinstance(node, CeilDiv):
            num, den = self.resolve(node.num), self.resolve(node.den)
            self._check_divisor(den, node.pos, node.den)
            if isinstance(num, Const) and isinstance(den, Const):
                return Const(-(-num.value // den.value))
            return CeilDiv(num, den, node.pos)
        if isinstance(node, Call):
            args = tuple(self.resolve(a) for a in node.args)
            if all(isinstance(a, Const) for a in args):
                pick = min if node.func == "min" else max
                return Const(pick(a.value for a in args))  # type: ignore[union-attr]
            return Call(node.func, args, node.pos)
        raise TypeError(f"not a dice AST node: {node!r}")  # pragma: no cover

    def _product(self, node: Product[Node]) -> RNode:
        first = self.resolve(node.first)
        rest = []
        for op, factor, pos in node.rest:
            resolved = self.resolve(factor)
            if op == "/":
                self._check_divisor(resolved, pos, factor)
            rest.append((op, resolved, pos))
        if isinstance(first, Const) and all(isinstance(n, Const) for _, n, _ in rest):
            value = first.value
            for op, n, _ in rest:
                value = value * n.value if op == "*" else value // n.value  # type: ignore[union-attr]
            return Const(value)
        return Product(first, tuple(rest))

    def _check_divisor(self, divisor: RNode, pos: int, source: Node) -> None:
        low, high = bounds(divisor)
        if low <= 0 <= high:
            what = "by zero" if low == high else f"by zero (the divisor ranges {low}..{high})"
            raise self._value_error(f"division {what}", pos, source)

    def _die(self, node: Die) -> RDie:
        limits = self.limits
        count = self.number(node.count)
        sides = self.number(node.sides)
        if sides < 1:
            raise self._value_error(
                f"a die needs at least 1 side, not {short(sides)}", node.pos, node.sides
            )
        if sides > limits.max_sides:
            raise DiceLimitError(
                f"a d{short(sides)} has more sides than the limit of {limits.max_sides}",
                hint="raise DiceLimits.max_sides if the ruleset really needs it",
                text=self.text,
                pos=node.pos,
                key="dice.sides_limit",
                params={"sides": short(sides), "max": str(limits.max_sides)},
            )
        if count < 0:
            raise self._value_error(
                f"cannot roll a negative number of dice ({short(count)})", node.pos, node.count
            )
        self.dice += count
        if count > limits.max_dice or self.dice > limits.max_dice:
            raise DiceLimitError(
                f"{short(max(count, self.dice))} dice is more than the limit of "
                f"{limits.max_dice} dice per roll",
                text=self.text,
                pos=node.pos,
                key="dice.count_limit",
                params={"n": short(max(count, self.dice)), "max": str(limits.max_dice)},
            )
        depth = 0
        if node.explode:
            if sides == 1:
                raise self._value_error(
                    "a 1-sided die always shows its highest face, so it would explode forever",
                    node.pos,
                    node.sides,
                )
            depth = limits.max_explosion_depth
        keep, highest = self._keep(node, count)
        return RDie(count, sides, depth, keep, highest, node.pos)

    def _keep(self, node: Die, count: int) -> tuple[int | None, bool]:
        if node.keep is None:
            return None, True
        kind, number = node.keep.kind, self.number(node.keep.count)
        if kind in ("kh", "kl"):
            if not 1 <= number <= count:
                raise self._value_error(
                    f"cannot keep {short(number)} of {count} dice (keep 1 to {count})",
                    node.keep.pos,
                    node.keep.count,
                )
            return number, kind == "kh"
        if not 0 <= number < count:
            raise self._value_error(
                f"cannot drop {short(number)} of {count} dice (drop 0 to {count - 1})",
                node.keep.pos,
                node.keep.count,
            )
        return count - number, kind == "dl"


def bounds(node: RNode) -> tuple[int, int]:
    """The exact least and greatest value of a resolved tree."""
    if isinstance(node, Const):
        return node.value, node.value
    if isinstance(node, RDie):
        kept = node.count if node.keep is None else node.keep
        return kept, kept * node.sides * (node.depth + 1)
    if isinstance(node, Neg):
        low, high = bounds(node.operand)
        return -high, -low
    if isinstance(node, Sum):
        low, high = bounds(node.first)
        for op, term, _ in node.rest:
            t_low, t_high = bounds(term)
            low, high = (low + t_low, high + t_high) if op == "+" else (low - t_high, high - t_low)
        return low, high
    if isinstance(node, Product):
        low, high = bounds(node.first)
        for op, factor, _ in node.rest:
            f_low, f_high = bounds(factor)
            fn = operator.mul if op == "*" else operator.floordiv
            corners = [fn(a, b) for a in (low, high) for b in (f_low, f_high)]
            low, high = min(corners), max(corners)
        return low, high
    if isinstance(node, CeilDiv):
        (n_low, n_high), (d_low, d_high) = bounds(node.num), bounds(node.den)
        corners = [-(-a // b) for a in (n_low, n_high) for b in (d_low, d_high)]
        return min(corners), max(corners)
    if isinstance(node, Call):
        pairs = [bounds(a) for a in node.args]
        pick = min if node.func == "min" else max
        return pick(p[0] for p in pairs), pick(p[1] for p in pairs)
    raise TypeError(f"not a resolved dice node: {node!r}")  # pragma: no cover
