"""A parsed dice expression: roll it, ask its exact distribution, or its bounds.

A :class:`DiceExpr` is immutable and hashable (by its text, dialect and
limits: the tree is a function of those). Before it rolls, names are bound and
every fixed value is checked, giving a :class:`Plan` (the resolved tree, its
compiled roller and bounds). An expression without names is planned once, when
it is parsed, so ``1d0`` or ``1000000000d6`` fail at load time; an expression
with names is planned per set of values, and plans are cached.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from random import Random
from typing import Protocol

from stratagem.dice.ast import Node, free_names
from stratagem.dice.config import NO_NAMES, DiceDialect, DiceLimits
from stratagem.dice.distribution import Distribution, compute
from stratagem.dice.errors import DiceLimitError, DiceValueError, short
from stratagem.dice.resolve import Env, Resolver, RNode, bind, bounds
from stratagem.dice.roll import RollResult
from stratagem.dice.roller import Group, Runner, Total, compile_roller, compile_total
from stratagem.dice.weights import power


class RandomSource(Protocol):
    """Anything with ``randint(a, b)``, such as :class:`random.Random`."""

    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True, slots=True)
class Plan:
    """An expression with its names bound and every fixed value checked."""

    body: RNode
    repeat: int
    #: Bounds of one repetition.
    low: int
    high: int
    env: Env
    run: Runner
    limits: DiceLimits
    #: ``run`` drawing from a ``random.Random``'s ``getrandbits`` (``compile_roller``).
    run_bits: Runner
    #: One repetition's total, drawn from ``getrandbits`` (:func:`compile_total`).
    total: Total


def make_plan(expr: DiceExpr, env: Env, limits: DiceLimits) -> Plan:
    """Resolve ``expr`` with the bound names ``env`` under ``limits`` (uncached)."""
    resolver = Resolver(expr.text, env, limits)
    try:
        repeat = 1
        if expr.repeat is not None:
            repeat = resolver.number(expr.repeat)
            if repeat < 1:
                raise DiceValueError(
                    f"the number of repetitions must be at least 1, not {short(repeat)}",
                    text=expr.text,
                    pos=0,
                    key="dice.repeat_positive", params={"repeat": short(repeat)},
                )
            if repeat > limits.max_repeat:
                raise DiceLimitError(
                    f"{short(repeat)} repetitions is more than the limit of {limits.max_repeat}",
                    text=expr.text,
                    pos=0,
                    key="dice.repeat_limit",
                    params={"repeat": short(repeat), "max": str(limits.max_repeat)},
                )
        body = resolver.resolve(expr.body)
        if resolver.dice * repeat > limits.max_dice:
            raise DiceLimitError(
                f"{repeat}x{resolver.dice} = {repeat * resolver.dice} dice is more than the "
                f"limit of {limits.max_dice} dice per roll",
                text=expr.text,
                pos=0,
                key="dice.too_many_repeated",
                params={"repeat": str(repeat), "each": str(resolver.dice),
                        "total": str(repeat * resolver.dice), "max": str(limits.max_dice)},
            )
        low, high = bounds(body)
        return Plan(body, repeat, low, high, env, compile_roller(body), limits,
                    compile_roller(body, bits=True), compile_total(body))
    except RecursionError:
        raise DiceLimitError("the expression nests too deeply", text=expr.text,
                             key="dice.too_deep") from None


_cached_plan = lru_cache(maxsize=4096)(make_plan)


@dataclass(frozen=True, eq=False)
class DiceExpr:
    """A parsed dice expression. Make one with :func:`stratagem.dice.parse_dice`.

    ``text`` is the expression as written, ``body`` its tree, ``repeat`` the
    count of a repetition ``Nx(...)`` (a tree, or ``None``), ``is_percent``
    whether it ends in ``%``, and ``names`` the free names a caller must bind.
    """

    text: str
    body: Node
    repeat: Node | None
    is_percent: bool
    dialect: DiceDialect
    limits: DiceLimits
    names: frozenset[str] = field(init=False)
    _key: tuple[str, DiceDialect, DiceLimits] = field(init=False, repr=False)
    _hash: int = field(init=False, repr=False)
    _plan: Plan | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        names = free_names(self.body)
        if self.repeat is not None:
            names |= free_names(self.repeat)
        key = (self.text, self.dialect, self.limits)
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_hash", hash(key))
        plan = make_plan(self, (), self.limits) if not names else None
        object.__setattr__(self, "_plan", plan)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DiceExpr) and self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, ...]:
        # The compiled roller is made of closures: pickle the tree, plan it again (or
        # take the one this process already has).
        return interned, (self.text, self.body, self.repeat, self.is_percent, self.dialect,
                          self.limits)

    def __copy__(self) -> DiceExpr:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> DiceExpr:
        return self

    def plan(
        self, names: Mapping[str, object] = NO_NAMES, limits: DiceLimits | None = None
    ) -> Plan:
        """The resolved, checked form of this expression for ``names`` (cached)."""
        if limits is None or limits == self.limits:
            if self._plan is not None:
                return self._plan
            limits = self.limits
        env = bind(self.text, self.body, self.names, names) if self.names else ()
        return _cached_plan(self, env, limits)

    def roll(
        self,
        rng: RandomSource,
        names: Mapping[str, object] = NO_NAMES,
        limits: DiceLimits | None = None,
    ) -> RollResult:
        """Roll once with ``rng.randint``; names the expression does not use are ignored.
        A ``random.Random`` itself (not a subclass, which may draw its own way) is asked
        for the bits its ``randint`` would draw, the same numbers in fewer calls."""
        plan = self._plan if self._plan is not None and limits is None else self.plan(names, limits)
        draw: object  # randint, or getrandbits for run_bits
        if type(rng) is Random:
            draw, run = rng.getrandbits, plan.run_bits
        else:
            draw, run = rng.randint, plan.run
        if plan.repeat == 1:
            groups: list[Group] = []
            value = run(draw, groups)
            return RollResult.rolled(self, value, (value,), (tuple(groups),), plan.env)
        values, reps = [], []
        for _ in range(plan.repeat):
            groups = []
            values.append(run(draw, groups))
            reps.append(tuple(groups))
        return RollResult.rolled(self, sum(values), tuple(values), tuple(reps), plan.env)

    def roll_total(
        self,
        rng: RandomSource,
        names: Mapping[str, object] = NO_NAMES,
        limits: DiceLimits | None = None,
    ) -> int:
        """``roll(rng, names, limits).total``, the generator left as ``roll`` leaves it;
        from a ``random.Random`` itself, drawn from its bits with nothing else kept (no
        faces, no result)."""
        if type(rng) is not Random:
            return self.roll(rng, names, limits).total
        plan = self._plan if self._plan is not None and limits is None else self.plan(names, limits)
        total, bits = plan.total, rng.getrandbits
        if plan.repeat == 1:
            return total(bits)
        return sum([total(bits) for _ in range(plan.repeat)])

    def distribution(
        self,
        names: Mapping[str, object] = NO_NAMES,
        limits: DiceLimits | None = None,
        *,
        cached: bool = True,
    ) -> Distribution:
        """The exact distribution of the total (the sum over repetitions).

        Cached per (expression, bound values, limits); ``cached=False``
        computes it afresh (for benchmarks).
        """
        plan = self.plan(names, limits)
        if cached:
            return _cached_distribution(self, plan.env, plan.limits)
        return build_distribution(self, plan)

    def bounds(
        self, names: Mapping[str, object] = NO_NAMES, limits: DiceLimits | None = None
    ) -> tuple[int, int]:
        """``(least, greatest)`` total, without building the distribution."""
        plan = self.plan(names, limits)
        return plan.low * plan.repeat, plan.high * plan.repeat


def build_distribution(expr: DiceExpr, plan: Plan) -> Distribution:
    """The exact distribution of ``expr`` as planned (uncached)."""
    try:
        low, weights = compute(plan.body, plan.limits)
    except RecursionError:
        raise DiceLimitError("the expression nests too deeply", text=expr.text,
                             key="dice.too_deep") from None
    one = Distribution.from_weights(low, weights, is_percent=expr.is_percent)
    if plan.repeat == 1:
        return one
    low, weights = power((low, weights), plan.repeat, plan.limits)
    return Distribution.from_weights(
        low, weights, is_percent=expr.is_percent, repetitions=plan.repeat, single=one
    )


@lru_cache(maxsize=1024)
def _cached_distribution(expr: DiceExpr, env: Env, limits: DiceLimits) -> Distribution:
    return build_distribution(expr, expr.plan(dict(env), limits))


#: Every expression made in this process, by text, dialect and limits: parsing and
#: unpickling the same expression give the same object.
_INTERNED: dict[tuple[str, DiceDialect, DiceLimits], DiceExpr] = {}
_INTERNED_MAX = 4096


def interned(text: str, body: Node, repeat: Node | None, is_percent: bool,
             dialect: DiceDialect, limits: DiceLimits) -> DiceExpr:
    """The expression with this text, dialect and limits: the one made before, if any."""
    key = (text, dialect, limits)
    found = _INTERNED.get(key)
    if found is None:
        if len(_INTERNED) >= _INTERNED_MAX:
            _INTERNED.clear()
        found = _INTERNED[key] = DiceExpr(text, body, repeat, is_percent, dialect, limits)
    return found
