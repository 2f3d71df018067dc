"""The engine against the hand-written GURPS battle (benchmarks/reference_gurps.py).

    python benchmarks/compare_reference.py              # 10,000 battles each
    python benchmarks/compare_reference.py -n 2000 --seed 100

Both fight the battle of benchmarks/scenarios/gurps-12v12.yaml N times, the engine with
its seeds SEED..SEED+N-1 and the reference with its own `random.Random` seeded alike (the
dice differ, so the battles do too: what is compared is their distributions). For each
quantity, a chi-square test of homogeneity (two samples, k categories, k - 1 degrees of
freedom) asks whether both could come from the same distribution:

  - the winner (Megalos, Al-Wazif, or no clear winner);
  - the margin: the first side's margin in the Strategy contest less the second's;
  - each side's dead and each side's wounded.

Numbers are put in bins of consecutive values holding at least 1 % of both samples
together (so that every expected count is large enough for the test). Each p-value must
exceed ALPHA (0.001); the script exits 1 if one does not. tests/gurps/
test_reference_oracle.py runs the same test on fewer battles.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import reference_gurps  # noqa: E402  (beside this file)

SCENARIO = HERE / "scenarios" / "gurps-12v12.yaml"
#: The significance: agreement is rejected when a p-value is at or below it.
ALPHA = 0.001


def engine_outcomes(n: int, seed: int) -> list[dict[str, Any]]:
    """The engine's battles with seeds ``seed`` .. ``seed + n - 1``, as reference_gurps.fight
    reports its own."""
    from stratagem.api import load_scenario, run_battle

    scenario = load_scenario(SCENARIO)
    out = []
    for battle_seed in range(seed, seed + n):
        root = run_battle(scenario, seed=battle_seed, tracing=False).root
        sides = [s for s in root.walk() if s.kind_name == "side"]
        out.append({
            "winner": root.member("winner"),
            "margin": sides[0].member("margin") - sides[1].member("margin"),
            "casualties": {s.member("name"): {"dead": s.member("dead"),
                                              "wounded": s.member("wounded")} for s in sides},
        })
    return out


def reference_outcomes(n: int, seed: int) -> list[dict[str, Any]]:
    return [reference_gurps.fight(s) for s in range(seed, seed + n)]


def quantities(outcomes: Sequence[dict[str, Any]]) -> dict[str, list[Hashable]]:
    """The compared quantities, each a list over the battles."""
    found: dict[str, list[Hashable]] = {"winner": [o["winner"] or "—" for o in outcomes],
                                        "margin": [o["margin"] for o in outcomes]}
    for side in outcomes[0]["casualties"] if outcomes else ():
        for what in ("dead", "wounded"):
            found[f"{side} {what}"] = [o["casualties"][side][what] for o in outcomes]
    return found


def binned(a: Sequence[Hashable], b: Sequence[Hashable], numeric: bool,
           share: float = 0.01) -> tuple[list[str], list[int], list[int]]:
    """Counts of ``a`` and ``b`` per category: each value its own, or for numbers bins of
    consecutive values holding at least ``share`` of both samples together."""
    ca, cb = Counter(a), Counter(b)
    values = sorted(set(ca) | set(cb), key=lambda v: (v is None, v) if numeric else str(v))
    if not numeric:
        return [str(v) for v in values], [ca[v] for v in values], [cb[v] for v in values]
    least = max(1, math.ceil(share * (len(a) + len(b))))
    groups: list[list[Any]] = []
    for v in values:
        if not groups or sum(ca[x] + cb[x] for x in groups[-1]) >= least:
            groups.append([])
        groups[-1].append(v)
    if len(groups) > 1 and sum(ca[x] + cb[x] for x in groups[-1]) < least:
        groups[-2].extend(groups.pop())
    names = [f"{g[0]}" if len(g) == 1 else f"{g[0]}..{g[-1]}" for g in groups]
    return names, [sum(ca[x] for x in g) for g in groups], [sum(cb[x] for x in g) for g in groups]


def chi_square(row_a: Sequence[int], row_b: Sequence[int]) -> tuple[float, int]:
    """The statistic and degrees of freedom of the chi-square test of homogeneity of two
    samples' counts over the same categories (empty categories left out)."""
    pairs = [(x, y) for x, y in zip(row_a, row_b) if x + y > 0]
    na, nb = sum(x for x, _ in pairs), sum(y for _, y in pairs)
    total = na + nb
    statistic = 0.0
    for x, y in pairs:
        column = x + y
        for observed, row in ((x, na), (y, nb)):
            expected = row * column / total
            statistic += (observed - expected) ** 2 / expected
    return statistic, max(0, len(pairs) - 1)


def chi_square_p(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square with ``dof`` degrees of freedom: the regularised
    upper incomplete gamma function Q(dof/2, statistic/2), by its power series below
    a + 1 and by its continued fraction (Lentz's method) above."""
    if dof <= 0:
        return 1.0
    a, x = dof / 2, statistic / 2
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # P(a, x) = x^a e^-x / Γ(a+1) · Σ x^n / ((a+1)…(a+n))
        term = total = 1.0 / a
        k = a
        while abs(term) > abs(total) * 1e-15:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def compare(engine: Sequence[dict[str, Any]], reference: Sequence[dict[str, Any]],
            share: float = 0.01) -> list[dict[str, Any]]:
    """One row per quantity: its bins, both samples' counts, the statistic, its degrees of
    freedom and p-value."""
    qa, qb = quantities(engine), quantities(reference)
    rows = []
    for name in qa:
        bins, ca, cb = binned(qa[name], qb[name], numeric=name != "winner", share=share)
        statistic, dof = chi_square(ca, cb)
        rows.append({"quantity": name, "bins": bins, "engine": ca, "reference": cb,
                     "chi2": statistic, "dof": dof, "p": chi_square_p(statistic, dof),
                     "engine_mean": _mean(qa[name]), "reference_mean": _mean(qb[name])})
    return rows


def _mean(values: Sequence[Hashable]) -> float | None:
    numbers = [v for v in values if isinstance(v, (int, float))]
    return sum(numbers) / len(numbers) if numbers and len(numbers) == len(values) else None


def _timed(what: Callable[[], Any]) -> tuple[Any, float]:
    """The result and the CPU seconds it took (the wall time on a shared machine counts
    the other processes too)."""
    started = time.process_time()
    return what(), time.process_time() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=10_000, help="battles each (default 10,000)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    args = parser.parse_args(argv)
    engine, engine_s = _timed(lambda: engine_outcomes(args.n, args.seed))
    reference, reference_s = _timed(lambda: reference_outcomes(args.n, args.seed))
    rows = compare(engine, reference)
    print(f"{args.n:,} battles each, seeds {args.seed}..{args.seed + args.n - 1}; "
          f"CPU time: engine {engine_s:.1f} s, reference {reference_s:.1f} s\n")
    print("| quantity | bins | engine mean | reference mean | chi² | dof | p |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        means = ("", "") if r["engine_mean"] is None else (
            f"{r['engine_mean']:.2f}", f"{r['reference_mean']:.2f}")
        print(f"| {r['quantity']} | {len(r['bins'])} | {means[0]} | {means[1]} | "
              f"{r['chi2']:.1f} | {r['dof']} | {r['p']:.3f} |")
    winners = next(r for r in rows if r["quantity"] == "winner")
    print("\nwinner: " + ", ".join(f"{b} {e} / {f}" for b, e, f in
                                   zip(winners["bins"], winners["engine"], winners["reference"]))
          + " (engine / reference)")
    failed = [r["quantity"] for r in rows if r["p"] <= ALPHA]
    print(f"\nagreement at p > {ALPHA}: " + ("yes" if not failed else "NO: " + ", ".join(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
