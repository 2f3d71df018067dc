"""Exact distributions as integer weight vectors, and the operations on them.

A distribution here is ``(low, weights)``: ``weights[i]`` is the (integer)
weight of the outcome ``low + i``; the probability of an outcome is its weight
over the sum of all weights. The first and last weights are never zero.
Integers keep everything exact; fractions are made only at the edge
(:class:`stratagem.dice.Distribution`).

Sums of dice are polynomial products. Large ones use Kronecker substitution:
a weight vector is packed into one big integer (each weight in a fixed number
of bytes), the big integers are multiplied (or raised to a power) by
CPython's C code, and the bytes are unpacked again — much faster than
convolving lists in Python. Every operation first checks the size of what it
is about to build against :class:`~stratagem.dice.DiceLimits`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from math import comb

from stratagem.dice.config import DiceLimits
from stratagem.dice.errors import DiceLimitError, short

Weights = tuple[int, list[int]]

#: Below this many multiplications a plain Python convolution is faster than packing.
_DIRECT = 64


def point(value: int) -> Weights:
    """The distribution that is always ``value``."""
    return value, [1]


def uniform(sides: int) -> Weights:
    """One fair die with faces 1..sides."""
    return 1, [1] * sides


def exploding(sides: int, depth: int) -> Weights:
    """One die that rolls again and adds on its highest face, at most ``depth`` times.

    A chain of ``k`` highest faces then a face ``f`` below the highest is worth
    ``k*sides + f`` with probability ``sides**-(k+1)``; after ``depth`` extra
    rolls the last face is kept whatever it shows. Weights are over
    ``sides**(depth+1)``.
    """
    weights = [0] * (sides * (depth + 1))
    for level in range(depth):
        weight = sides ** (depth - level)
        for face in range(1, sides):
            weights[level * sides + face - 1] = weight
    for face in range(1, sides + 1):
        weights[depth * sides + face - 1] = 1
    return 1, weights


def check_size(outcomes: int, weight_bits: int, limits: DiceLimits) -> None:
    """Refuse to build a table over the limits (before building it)."""
    if outcomes > limits.max_outcomes:
        raise DiceLimitError(
            f"the exact distribution would have {short(outcomes)} outcomes, more than the limit of "
            f"{limits.max_outcomes}",
            hint="roll it instead, or raise DiceLimits.max_outcomes",
            key="dice.outcomes_limit",
            params={"n": short(outcomes), "max": str(limits.max_outcomes)},
        )
    if outcomes * weight_bits > limits.max_distribution_bits:
        raise DiceLimitError(
            f"the exact distribution is too large to compute ({short(outcomes)} outcomes with "
            f"{short(weight_bits)}-bit exact weights; limit {limits.max_distribution_bits} bits)",
            hint="roll it instead, or raise DiceLimits.max_distribution_bits",
            key="dice.distribution_bits",
            params={"n": short(outcomes), "bits": short(weight_bits),
                    "max": str(limits.max_distribution_bits)},
        )


def check_work(steps: int, limits: DiceLimits) -> None:
    """Refuse a computation of more than ``max_distribution_work`` elementary steps."""
    if steps > limits.max_distribution_work:
        raise DiceLimitError(
            f"the exact distribution needs about {short(steps)} steps, more than the limit of "
            f"{limits.max_distribution_work}",
            hint="roll it instead, or raise DiceLimits.max_distribution_work",
            key="dice.distribution_work",
            params={"n": short(steps), "max": str(limits.max_distribution_work)},
        )


def _pack(weights: list[int], width: int) -> int:
    return int.from_bytes(b"".join(w.to_bytes(width, "little") for w in weights), "little")


def _unpack(number: int, width: int, length: int) -> list[int]:
    data = number.to_bytes(width * length, "little")
    return [int.from_bytes(data[i : i + width], "little") for i in range(0, width * length, width)]


def convolve(a: Weights, b: Weights, limits: DiceLimits) -> Weights:
    """The distribution of the sum of two independent values."""
    (low_a, wa), (low_b, wb) = a, b
    if len(wa) < len(wb):
        (low_a, wa), (low_b, wb) = (low_b, wb), (low_a, wa)
    length = len(wa) + len(wb) - 1
    top = sum(wa) * sum(wb)
    check_size(length, top.bit_length(), limits)
    if len(wb) == 1:
        only = wb[0]
        return low_a + low_b, [w * only for w in wa]
    if len(wa) * len(wb) <= _DIRECT:
        out = [0] * length
        for i, x in enumerate(wa):
            if x:
                for j, y in enumerate(wb):
                    out[i + j] += x * y
        return low_a + low_b, out
    width = top.bit_length() // 8 + 1
    return low_a + low_b, _unpack(_pack(wa, width) * _pack(wb, width), width, length)


def power(a: Weights, n: int, limits: DiceLimits) -> Weights:
    """The distribution of the sum of ``n`` independent copies of ``a``."""
    low, weights = a
    if n == 0:
        return point(0)
    if n == 1 or len(weights) == 1:
        return low * n, [w**n for w in weights]
    length = n * (len(weights) - 1) + 1
    bits = n * sum(weights).bit_length()
    check_size(length, bits, limits)
    width = bits // 8 + 1
    return low * n, _unpack(_pack(weights, width) ** n, width, length)


def negate(a: Weights) -> Weights:
    """The distribution of ``-x``."""
    low, weights = a
    return -(low + len(weights) - 1), weights[::-1]


def scale(a: Weights, factor: int, limits: DiceLimits) -> Weights:
    """The distribution of ``x * factor`` for a constant ``factor``."""
    if factor == 0:
        return point(0)
    if factor < 0:
        return negate(scale(a, -factor, limits))
    low, weights = a
    if factor == 1 or len(weights) == 1:
        return low * factor, list(weights)
    length = (len(weights) - 1) * factor + 1
    check_size(length, sum(weights).bit_length(), limits)
    out = [0] * length
    out[::factor] = weights
    return low * factor, out


def from_mapping(table: dict[int, int], limits: DiceLimits) -> Weights:
    """A dense weight vector from ``{outcome: weight}`` (zero weights ignored)."""
    keys = [k for k, w in table.items() if w]
    low, high = min(keys), max(keys)
    check_size(high - low + 1, max(table.values()).bit_length(), limits)
    out = [0] * (high - low + 1)
    for key in keys:
        out[key - low] = table[key]
    return low, out


def map_values(a: Weights, fn: Callable[[int], int], limits: DiceLimits) -> Weights:
    """The distribution of ``fn(x)``."""
    low, weights = a
    table: dict[int, int] = defaultdict(int)
    for i, w in enumerate(weights):
        if w:
            table[fn(low + i)] += w
    return from_mapping(table, limits)


def combine(a: Weights, b: Weights, fn: Callable[[int, int], int], limits: DiceLimits) -> Weights:
    """The distribution of ``fn(x, y)`` for independent ``x``, ``y`` (pair by pair)."""
    (low_a, wa), (low_b, wb) = a, b
    pairs_a = [(low_a + i, w) for i, w in enumerate(wa) if w]
    pairs_b = [(low_b + j, w) for j, w in enumerate(wb) if w]
    check_work(len(pairs_a) * len(pairs_b), limits)
    table: dict[int, int] = defaultdict(int)
    for x, wx in pairs_a:
        for y, wy in pairs_b:
            table[fn(x, y)] += wx * wy
    return from_mapping(table, limits)


def keep(die: Weights, n: int, k: int, highest: bool, limits: DiceLimits) -> Weights:
    """The sum of the ``k`` highest (or lowest) of ``n`` independent copies of ``die``.

    Outcomes are visited from the best down (highest first for "keep
    highest"). A state is ``(dice placed so far, sum of the kept ones)`` for
    fewer than ``k`` placed; choosing that ``j`` of the ``r`` unplaced dice show
    the current outcome counts ``C(r, j) * weight**j`` ways. Once ``k`` dice
    are placed the sum is final and the other dice may show any worse
    outcome: ``(weight of the worse outcomes) ** (dice left)`` ways.
    """
    if k == n:
        return power(die, n, limits)
    if k == 1:
        return _best_of(die, n, highest)
    low, weights = die
    outcomes = [(low + i, w) for i, w in enumerate(weights) if w]
    if highest:
        outcomes.reverse()
    check_work(len(outcomes) * k * max(1, k * len(weights)) * (n + 1), limits)
    worse = sum(weights)
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    result: dict[int, int] = defaultdict(int)
    for value, weight in outcomes:
        worse -= weight
        powers = [1]
        for _ in range(n):
            powers.append(powers[-1] * weight)
        following: dict[tuple[int, int], int] = defaultdict(int)
        for (placed, total), ways in states.items():
            left = n - placed
            for j in range(left + 1):
                count = ways * comb(left, j) * powers[j]
                if placed + j >= k:
                    rest = worse ** (left - j)
                    if rest:
                        result[total + (k - placed) * value] += count * rest
                elif worse:
                    following[(placed + j, total + j * value)] += count
        states = following
        if not states:
            break
    return from_mapping(result, limits)


def _best_of(die: Weights, n: int, highest: bool) -> Weights:
    """The highest (or lowest) of ``n`` copies: P(max <= v) is P(one <= v) ** n."""
    low, weights = die
    if not highest:
        low, weights = negate((low, weights))
    out, below, previous = [], 0, 0
    for weight in weights:
        below += weight
        current = below**n
        out.append(current - previous)
        previous = current
    return (low, out) if highest else negate((low, out))
