"""Exact distributions: outcome → probability as fractions.

:func:`compute` walks a resolved tree (see :mod:`stratagem.dice.resolve`) and
combines integer weight vectors (:mod:`stratagem.dice.weights`).
:class:`Distribution` is the frozen result the rest of the engine reads:
``pmf``, ``min``, ``max``, ``mean`` and the cumulative helpers.

For a repetition ``Nx(...)`` the distribution is that of the *sum* of the N
results (what ``RollResult.total`` reports); ``per_repetition`` is the
distribution of one of them.
"""

from __future__ import annotations

import operator
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import gcd
from types import MappingProxyType

from stratagem.dice import weights as W
from stratagem.dice.ast import Call, CeilDiv, Const, Neg, Product, Sum
from stratagem.dice.config import DiceLimits
from stratagem.dice.resolve import RDie, RNode


@dataclass(frozen=True)
class Distribution:
    """The exact distribution of a dice expression.

    ``weights[i]`` is the integer weight of the outcome ``low + i`` (reduced
    by their common divisor); probabilities are ``weight / total_weight``.
    Build one with :meth:`from_weights`; read it through the properties.
    """

    low: int
    weights: tuple[int, ...]
    is_percent: bool = False
    #: N for a repetition ``Nx(...)`` (the distribution is that of the sum), else 1.
    repetitions: int = 1
    single: Distribution | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_weights(
        cls,
        low: int,
        weights: list[int] | tuple[int, ...],
        *,
        is_percent: bool = False,
        repetitions: int = 1,
        single: Distribution | None = None,
    ) -> Distribution:
        """A distribution from integer weights of ``low, low+1, ...`` (zeros allowed inside)."""
        divisor = gcd(*weights)
        if divisor > 1:
            weights = [w // divisor for w in weights]
        return cls(low, tuple(weights), is_percent, repetitions, single)

    def __reduce__(self) -> tuple[object, ...]:
        # Leave the cached fractions (a read-only mapping) out of the pickle.
        fields = (self.low, self.weights, self.is_percent, self.repetitions, self.single)
        return Distribution, fields

    @cached_property
    def total_weight(self) -> int:
        """The common denominator of every probability."""
        return sum(self.weights)

    @property
    def min(self) -> int:
        """The least possible outcome."""
        return self.low

    @property
    def max(self) -> int:
        """The greatest possible outcome."""
        return self.low + len(self.weights) - 1

    @cached_property
    def pmf(self) -> Mapping[int, Fraction]:
        """``{outcome: probability}`` for every possible outcome, in increasing order (read-only)."""
        total, low = self.total_weight, self.low
        return MappingProxyType(
            {low + i: Fraction(w, total) for i, w in enumerate(self.weights) if w}
        )

    @cached_property
    def mean(self) -> Fraction:
        """The exact expected value."""
        low = self.low
        return Fraction(sum((low + i) * w for i, w in enumerate(self.weights)), self.total_weight)

    @cached_property
    def _cumulative(self) -> list[int]:
        running, out = 0, []
        for w in self.weights:
            running += w
            out.append(running)
        return out

    def outcomes(self) -> Iterator[int]:
        """Every possible outcome, increasing."""
        low = self.low
        return (low + i for i, w in enumerate(self.weights) if w)

    def probability(self, outcome: int) -> Fraction:
        """P(X = outcome)."""
        index = outcome - self.low
        weight = self.weights[index] if 0 <= index < len(self.weights) else 0
        return Fraction(weight, self.total_weight)

    def probability_at_most(self, outcome: int) -> Fraction:
        """P(X <= outcome), e.g. a 3d roll against a skill."""
        index = min(outcome - self.low, len(self.weights) - 1)
        return Fraction(self._cumulative[index] if index >= 0 else 0, self.total_weight)

    def probability_at_least(self, outcome: int) -> Fraction:
        """P(X >= outcome)."""
        return 1 - self.probability_at_most(outcome - 1)

    def quantile(self, probability: Fraction | float) -> int:
        """The least outcome ``x`` with P(X <= x) >= ``probability``."""
        index = bisect_left(self._cumulative, Fraction(probability) * self.total_weight)
        return self.low + min(index, len(self.weights) - 1)

    @property
    def per_repetition(self) -> Distribution:
        """The distribution of one repetition of ``Nx(...)`` (itself when there is none)."""
        return self.single if self.single is not None else self


def compute(node: RNode, limits: DiceLimits) -> W.Weights:
    """The weight vector of a resolved tree."""
    if isinstance(node, Const):
        return W.point(node.value)
    if isinstance(node, RDie):
        return _die(node, limits)
    if isinstance(node, Neg):
        return W.negate(compute(node.operand, limits))
    if isinstance(node, Sum):
        acc = compute(node.first, limits)
        for op, term, _ in node.rest:
            part = compute(term, limits)
            acc = W.convolve(acc, part if op == "+" else W.negate(part), limits)
        return acc
    if isinstance(node, Product):
        acc = compute(node.first, limits)
        for op, factor, _ in node.rest:
            part = compute(factor, limits)
            acc = _times(acc, part, limits) if op == "*" else _divide(acc, part, False, limits)
        return acc
    if isinstance(node, CeilDiv):
        num = compute(node.num, limits)
        return _divide(num, compute(node.den, limits), True, limits)
    if isinstance(node, Call):
        pick = min if node.func == "min" else max
        acc = compute(node.args[0], limits)
        for arg in node.args[1:]:
            part = compute(arg, limits)
            if len(part[1]) == 1:
                bound = part[0]
                acc = W.map_values(acc, lambda x, b=bound: pick(x, b), limits)  # type: ignore[misc]
            else:
                acc = W.combine(acc, part, pick, limits)
        return acc
    raise TypeError(f"not a resolved dice node: {node!r}")  # pragma: no cover


def _die(node: RDie, limits: DiceLimits) -> W.Weights:
    if node.count == 0:
        return W.point(0)
    if node.depth:  # one exploding die alone may already have too many outcomes
        W.check_size(node.sides * (node.depth + 1), node.sides.bit_length() * node.depth,
                     limits)
    one = W.exploding(node.sides, node.depth) if node.depth else W.uniform(node.sides)
    if node.keep is None:
        return W.power(one, node.count, limits)
    return W.keep(one, node.count, node.keep, node.highest, limits)


def _times(a: W.Weights, b: W.Weights, limits: DiceLimits) -> W.Weights:
    if len(b[1]) == 1:
        return W.scale(a, b[0], limits)
    if len(a[1]) == 1:
        return W.scale(b, a[0], limits)
    return W.combine(a, b, operator.mul, limits)


def _divide(a: W.Weights, b: W.Weights, up: bool, limits: DiceLimits) -> W.Weights:
    def div(x: int, y: int) -> int:
        return -(-x // y) if up else x // y

    if len(b[1]) == 1:
        divisor = b[0]
        return W.map_values(a, lambda x: div(x, divisor), limits)
    return W.combine(a, b, div, limits)
