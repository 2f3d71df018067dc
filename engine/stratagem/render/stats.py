"""The statistics of `stratagem odds`: shares with their 95 % intervals, and distributions."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

#: The 97.5th percentile of the standard normal distribution: a 95 % two-sided interval.
Z95 = 1.959963984540054

#: A distribution with more distinct values than this is shown in bins of equal width.
MAX_BARS = 24


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``successes / n``: the shares p whose normal
    test ``|successes/n - p| <= z * sqrt(p (1 - p) / n)`` does not reject."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(ordered: Sequence[float], q: float) -> float:
    """The smallest value with at least ``q`` (0..1) of the values at or below it (the
    nearest rank: always a value that occurred)."""
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def summary(values: Sequence[float]) -> dict[str, Any]:
    """Mean, median, 10th and 90th percentiles, least and greatest value, and a histogram
    (``[{"from", "to", "count"}]``: one bar per value, or equal bins when there are many)."""
    ordered = sorted(values)
    if not ordered:
        return {"battles": 0}
    lo, hi = ordered[0], ordered[-1]
    return {
        "battles": len(ordered),
        "mean": round(math.fsum(ordered) / len(ordered), 3),
        "median": _tidy(percentile(ordered, 0.5)),
        "p10": _tidy(percentile(ordered, 0.1)),
        "p90": _tidy(percentile(ordered, 0.9)),
        "min": _tidy(lo),
        "max": _tidy(hi),
        "histogram": histogram(ordered),
    }


def histogram(ordered: Sequence[float]) -> list[dict[str, Any]]:
    counts = Counter(ordered)
    if len(counts) <= MAX_BARS:
        return [{"from": _tidy(v), "to": _tidy(v), "count": c} for v, c in sorted(counts.items())]
    lo, hi = ordered[0], ordered[-1]
    whole = all(float(v).is_integer() for v in counts)
    width = (hi - lo) / MAX_BARS
    if whole:
        width = max(1, math.ceil(width))
    bins = [0] * (math.floor((hi - lo) / width) + 1)
    for value, count in counts.items():
        bins[min(len(bins) - 1, int((value - lo) // width))] += count
    out = []
    for i, count in enumerate(bins):
        start = lo + i * width
        end = start + width - 1 if whole else start + width
        out.append({"from": _tidy(start), "to": _tidy(min(end, hi)), "count": count})
    return out


def _tidy(value: float) -> float | int:
    """A whole number as an int (so 12.0 reads 12 in JSON), else rounded to 3 places."""
    return int(value) if float(value).is_integer() else round(value, 3)
