"""Odds' statistics: the Wilson intervals against an exact binomial computation, and the
percentiles by their definition."""

from __future__ import annotations

import math
import random

import pytest

from stratagem.render.stats import Z95, histogram, percentile, summary, wilson


def binomial_pmf(k: int, n: int, p: float) -> float:
    """C(n, k) p^k (1-p)^(n-k), in logarithms (no overflow of the binomial coefficient)."""
    if p in (0.0, 1.0):
        return float(k == (0 if p == 0.0 else n))
    return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                    + k * math.log(p) + (n - k) * math.log1p(-p))


def tail_at_least(k: int, n: int, p: float) -> float:
    return math.fsum(binomial_pmf(j, n, p) for j in range(k, n + 1))


def clopper_pearson(k: int, n: int) -> tuple[float, float]:
    """The exact interval: the shares p for which k or more (fewer) successes in n are not
    rarer than 2.5 %, found by bisection on the exact binomial tails."""
    def solve(f: object, target: float) -> float:
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if f(mid) < target:  # type: ignore[operator]
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    low = 0.0 if k == 0 else solve(lambda p: tail_at_least(k, n, p), 0.025)
    high = 1.0 if k == n else solve(lambda p: -(1 - tail_at_least(k + 1, n, p)), -0.025)
    return low, high


@pytest.mark.parametrize(("k", "n"), [(0, 20), (3, 20), (10, 20), (558, 1000), (31, 1000),
                                      (1000, 1000), (7, 60)])
def test_wilson_bounds_are_the_shares_the_score_test_does_not_reject(k: int, n: int) -> None:
    low, high = wilson(k, n)
    share = k / n
    for bound in (low, high):
        if 0 < bound < 1:  # on the bound the normal score statistic is exactly z
            assert abs(share - bound) == pytest.approx(Z95 * math.sqrt(bound * (1 - bound) / n))
    assert low <= share <= high


@pytest.mark.parametrize(("k", "n"), [(3, 20), (10, 20), (558, 1000), (31, 1000), (7, 60)])
def test_wilson_is_close_to_the_exact_interval(k: int, n: int) -> None:
    low, high = wilson(k, n)
    exact_low, exact_high = clopper_pearson(k, n)
    # the exact interval is conservative: Wilson's lies inside it, and close to it
    assert exact_low <= low + 1e-9 and high <= exact_high + 1e-9
    assert (exact_high - exact_low) - (high - low) < 0.25 * (exact_high - exact_low)


@pytest.mark.parametrize(("n", "p"), [(100, 0.5), (1000, 0.558), (200, 0.1), (500, 0.3)])
def test_wilson_covers_the_true_share_about_95_percent_of_the_time(n: int, p: float) -> None:
    # exact coverage: the chance, over the binomial distribution of k, that the interval
    # computed from k contains p
    coverage = math.fsum(binomial_pmf(k, n, p) for k in range(n + 1)
                         if wilson(k, n)[0] <= p <= wilson(k, n)[1])
    assert 0.93 <= coverage <= 0.97


def test_the_issues_example_55_8_percent_of_1000_is_about_3_points_either_way() -> None:
    low, high = wilson(558, 1000)
    assert 0.029 < 0.558 - low < 0.032 and 0.029 < high - 0.558 < 0.032


def test_percentiles_are_values_that_occurred_with_that_share_at_or_below() -> None:
    rng = random.Random(5)
    values = sorted(rng.randint(0, 50) for _ in range(333))
    for q in (0.1, 0.5, 0.9):
        v = percentile(values, q)
        assert v in values
        assert sum(x <= v for x in values) >= q * len(values)
        assert sum(x < v for x in values) < q * len(values)


def test_summary_and_histogram_count_every_battle() -> None:
    values = [float(v) for v in range(100)] + [5.0] * 50
    s = summary(values)
    assert s["battles"] == 150 and s["min"] == 0 and s["max"] == 99
    assert s["mean"] == pytest.approx(sum(values) / 150, abs=1e-3)
    bars = s["histogram"]
    assert sum(b["count"] for b in bars) == 150 and len(bars) <= 25
    assert all(a["to"] < b["from"] for a, b in zip(bars, bars[1:]))
    few = histogram(sorted([1.0, 1.0, 2.0, 7.0]))
    assert [(b["from"], b["count"]) for b in few] == [(1, 2), (2, 1), (7, 1)]
