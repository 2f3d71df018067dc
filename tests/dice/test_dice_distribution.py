"""Exact distributions, checked against brute force (every sequence of faces)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from dice_helpers import enumerate_pmf

from stratagem.dice import DiceLimitError, DiceLimits, Distribution, parse_dice

SMALL = DiceLimits(max_explosion_depth=2)
NAMES = {"N": 2, "DR": 1}

ORACLE = [
    "3d6",
    "2d20kh1",
    "2d20kl1",
    "4d6kh3",
    "4d6dl1",
    "3d4kl2",
    "d6!",
    "2d4!",
    "2d4!kh1",
    "3d3!kl2",
    "max(1d6-2, 1)",
    "min(2d4, 1d6)",
    "max(1d4, 1d4, 1d4)",
    "1d6*1d4",
    "-(1d4)*2",
    "1d6/2",
    "(1d6-4)/2",
    "ceil(1d6/4)",
    "ceil((1d6-4)/3)",
    "2d6/1d3",
    "ceil(2d6/-(1d3))",
    "-(1d4)+1d6",
    "2x(1d4-1)",
    "3x(1d3)",
    "(N)d4 - DR",
    "1d6*1d6-1d6",
    "d%",
    "0d6+1d4",
    "1d6*3+1",
    "(N)x(d4!)",
]


@pytest.mark.parametrize("text", ORACLE)
def test_distribution_matches_brute_force(text: str) -> None:
    expr = parse_dice(text, limits=SMALL)
    expected = enumerate_pmf(expr, NAMES)
    assert expected is not None, "the oracle's budget is too small for this case"
    dist = expr.distribution(NAMES)
    assert dict(dist.pmf) == expected
    assert dist.mean == sum(k * p for k, p in expected.items())


def test_probability_helpers() -> None:
    dist = parse_dice("3d").distribution()
    assert dist.probability_at_most(10) == Fraction(1, 2)
    assert dist.probability_at_least(11) == Fraction(1, 2)
    assert dist.probability_at_most(2) == 0 and dist.probability_at_most(18) == 1
    assert dist.probability_at_least(3) == 1 and dist.probability_at_least(19) == 0
    assert dist.probability(10) == Fraction(27, 216)
    assert dist.probability(2) == 0 and dist.probability(100) == 0
    assert dist.quantile(Fraction(1, 2)) == 10
    assert dist.quantile(0) == 3 and dist.quantile(1) == 18
    assert list(dist.outcomes()) == list(range(3, 19))


def test_pmf_is_read_only_and_sorted() -> None:
    dist = parse_dice("2d6-7").distribution()
    assert list(dist.pmf) == sorted(dist.pmf)
    with pytest.raises(TypeError):
        dist.pmf[0] = Fraction(1)  # type: ignore[index]


def test_weights_are_reduced() -> None:
    dist = Distribution.from_weights(1, [2, 4, 2])
    assert dist.weights == (1, 2, 1) and dist.total_weight == 4
    assert dist == Distribution.from_weights(1, [1, 2, 1])


def test_distributions_are_cached_per_names() -> None:
    expr = parse_dice("(TL/2)d - DR")
    first = expr.distribution({"TL": 6, "DR": 2})
    assert expr.distribution({"TL": 6, "DR": 2, "other": 1}) is first
    assert expr.distribution({"TL": 8, "DR": 2}) != first
    fresh = expr.distribution({"TL": 6, "DR": 2}, cached=False)
    assert fresh is not first and fresh == first


def test_large_sums_are_exact() -> None:
    # 100d6 goes through big-integer packing; compare with a plain convolution.
    dist = parse_dice("100d6").distribution()
    weights = [1]
    for _ in range(100):
        out = [0] * (len(weights) + 5)
        for i, w in enumerate(weights):
            for face in range(6):
                out[i + face] += w
        weights = out
    assert dist.weights == tuple(weights)
    assert dist.mean == 350 and (dist.min, dist.max) == (100, 600)


def test_repetition_is_the_sum_of_independent_results() -> None:
    dist = parse_dice("3x(1d6)").distribution()
    assert dist.pmf == parse_dice("3d6").distribution().pmf and dist.repetitions == 3
    assert dist.per_repetition == parse_dice("1d6").distribution()


@pytest.mark.parametrize(
    ("text", "limits", "message"),
    [
        ("1000d1000", DiceLimits(), "outcomes"),
        ("1000d6", DiceLimits(max_distribution_bits=1 << 20), "too large to compute"),
        ("100d100kh50", DiceLimits(), "steps"),
        ("1d6*100000", DiceLimits(), "outcomes"),
        ("1d2000*1d2000", DiceLimits(), "steps"),
        ("3d6", DiceLimits(max_outcomes=10), "more than the limit of 10"),
    ],
)
def test_distribution_limits(text: str, limits: DiceLimits, message: str) -> None:
    expr = parse_dice(text, limits=limits)
    with pytest.raises(DiceLimitError, match=message):
        expr.distribution()
    expr.roll(__import__("random").Random(1))  # still rolls
