"""Benchmark of the dice language against d20 (rolling) and icepool (exact distributions).

Run from the repository root:

    python benchmarks/bench_dice.py            # both tables and the hostile inputs
    python benchmarks/bench_dice.py --hostile  # only the hostile inputs
    python benchmarks/bench_dice.py --check    # exit 1 if a goal is missed

d20 and icepool are needed only here (``pip install icepool && pip install --no-deps
d20 cachetools``: d20's own dependency ``lark-parser`` 0.9 installs a second
``lark`` module over ours). Without them the script still times Stratagem
and says which comparison it skipped.

What each side caches (see docs/performance.md):

* rolling — Stratagem: ``parse_dice(text).roll(rng).total``; the parse is an
  LRU cache hit and the plan (names bound, roller compiled) is made at parse
  time; every die is rolled afresh through ``rng.randint``. d20:
  ``d20.roll(text).total``; the parse is a hit in d20's own LFU cache; every
  die is rolled afresh through ``random.randrange``. Neither builds its text
  trace (both build it lazily).
* distributions — Stratagem: ``parse_dice(text).distribution(cached=False).pmf``;
  the parse and plan are cached, the distribution and its fractions are
  computed afresh. icepool: the die is built from scratch and
  ``.probabilities()`` (fractions) computed; icepool's own memoisation
  (``icepool.d``, pools, evaluator caches) stays warm as icepool keeps it,
  which favours icepool.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import timeit
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXPRESSIONS = ["1d20+5", "4d6", "10d6", "4d+20", "12d+60", "2d20kh1"]
#: The same rolls in d20's syntax (it has no default die).
D20_SYNTAX = {"4d+20": "4d6+20", "12d+60": "12d6+60"}
HOSTILE_LIMIT_MS = 100.0


def icepool_die(text: str) -> Callable[[], object]:
    """A function that builds the icepool die of ``text`` from scratch."""
    import icepool

    builders: dict[str, Callable[[], object]] = {
        "1d20+5": lambda: icepool.d(20) + 5,
        "4d6": lambda: 4 @ icepool.d(6),
        "10d6": lambda: 10 @ icepool.d(6),
        "4d+20": lambda: 4 @ icepool.d(6) + 20,
        "12d+60": lambda: 12 @ icepool.d(6) + 60,
        "2d20kh1": lambda: icepool.d(20).highest(2, 1),
    }
    return builders[text]


def per_call_us(fn: Callable[[], object], budget: float) -> float:
    """The best per-call time in microseconds (timeit, best of 5 repeats)."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    number = max(1, int(number * budget))
    return min(timer.repeat(repeat=5, number=number)) / number * 1e6


def optional(module: str) -> object | None:
    try:
        return __import__(module)
    except ImportError:
        return None


def lark_is_ours() -> bool:
    """False when d20's lark-parser 0.9 has replaced lark >= 1.2 (see the module doc)."""
    import lark

    major, minor = (int(part) for part in lark.__version__.split(".")[:2])
    return (major, minor) >= (1, 2)


def bench_rolling(budget: float) -> list[tuple[str, float, float | None]]:
    from stratagem.dice import parse_dice

    d20 = optional("d20")
    rows = []
    for text in EXPRESSIONS:
        rng = random.Random(1)
        parse_dice(text)
        ours = per_call_us(lambda t=text, r=rng: parse_dice(t).roll(r).total, budget)
        theirs = None
        if d20 is not None:
            other = D20_SYNTAX.get(text, text)
            d20.roll(other)  # type: ignore[attr-defined]
            theirs = per_call_us(lambda o=other: d20.roll(o).total, budget)  # type: ignore[attr-defined]
        rows.append((text, ours, theirs))
    return rows


def bench_distributions(budget: float) -> list[tuple[str, float, float | None]]:
    from stratagem.dice import parse_dice

    icepool = optional("icepool")
    rows = []
    for text in EXPRESSIONS:
        ours_dist = parse_dice(text).distribution(cached=False)
        ours = per_call_us(lambda t=text: parse_dice(t).distribution(cached=False).pmf, budget)
        theirs = None
        if icepool is not None:
            build = icepool_die(text)
            die = build()
            expected = dict(zip(die.outcomes(), die.probabilities()))  # type: ignore[attr-defined]
            assert dict(ours_dist.pmf) == expected, f"{text}: the two pmfs differ"
            assert ours_dist.mean == Fraction(die.mean()), text  # type: ignore[attr-defined]
            theirs = per_call_us(lambda b=build: b().probabilities(), budget)  # type: ignore[attr-defined]
        rows.append((text, ours, theirs))
    return rows


def table(title: str, other: str, rows: list[tuple[str, float, float | None]]) -> str:
    lines = [
        f"| {title} | Stratagem µs | {other} µs | {other} / Stratagem |",
        "| --- | ---: | ---: | ---: |",
    ]
    for text, ours, theirs in rows:
        shown = f"{theirs:.1f}" if theirs is not None else "not installed"
        ratio = f"{theirs / ours:.2f}×" if theirs is not None else "—"
        lines.append(f"| `{text}` | {ours:.1f} | {shown} | {ratio} |")
    return "\n".join(lines)


COLD = """
import time
start = time.perf_counter()
from stratagem.dice import DiceError, parse_dice
try:
    parse_dice("1d0")
except DiceError:
    pass
print((time.perf_counter() - start) * 1000)
"""


def cold_error_ms() -> float:
    """A new process: import the dice package, build the parser, refuse ``1d0``."""
    import subprocess

    out = subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True, check=True)
    return float(out.stdout)


def bench_hostile() -> tuple[str, float, float]:
    """Time each hostile input (caches cleared before each): (text, cold ms, worst ms + build)."""
    sys.path.insert(0, str(ROOT / "tests" / "dice"))
    from dice_helpers import first_error, hostile_inputs

    from stratagem.dice import parser
    from stratagem.dice.builder import lark_parser

    cold = min(cold_error_ms() for _ in range(5))
    lark_parser.cache_clear()
    start = time.perf_counter()
    lark_parser()
    build = (time.perf_counter() - start) * 1000
    rows = []
    for entry in hostile_inputs():
        parser.clear_caches()
        start = time.perf_counter()
        stage, err = first_error(entry)
        elapsed = (time.perf_counter() - start) * 1000
        rows.append((entry["name"], elapsed, stage if err is not None else "ACCEPTED"))
    rows.sort(key=lambda row: -row[1])
    lines = [
        "| hostile input | ms | refused at |",
        "| --- | ---: | --- |",
        *(f"| {name} | {ms:.2f} | {stage} |" for name, ms, stage in rows[:10]),
        f"| ({len(rows) - 10} more, each faster) | | |",
    ]
    accepted = [name for name, _, stage in rows if stage == "ACCEPTED"]
    if accepted:
        lines.append(f"ACCEPTED (should be refused): {', '.join(accepted)}")
    summary = (
        f"{len(rows)} hostile inputs; slowest {rows[0][1]:.2f} ms with the parser built. "
        f"Building the parser (once per process): {build:.1f} ms. "
        f"A new process refusing 1d0 (import + build + error): {cold:.1f} ms."
    )
    return "\n".join(lines) + "\n\n" + summary, cold, rows[0][1] + build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hostile", action="store_true", help="only time the hostile inputs")
    parser.add_argument("--check", action="store_true", help="exit 1 if a goal is missed")
    parser.add_argument("--quick", action="store_true", help="shorter timings (noisier)")
    args = parser.parse_args(argv)
    if not lark_is_ours():
        print(
            "lark >= 1.2 has been replaced by lark-parser 0.9 (pulled in by d20).\n"
            "Repair it with: pip uninstall -y lark-parser && pip install --force-reinstall "
            "--no-deps 'lark>=1.2'\nthen install d20 with: pip install --no-deps d20 cachetools",
            file=sys.stderr,
        )
        return 2
    print(f"python {sys.version.split()[0]} on {sys.platform}")
    missed = []
    if not args.hostile:
        budget = 0.3 if args.quick else 1.0
        for name, title, other, bench in (
            ("d20", "roll", "d20", bench_rolling),
            ("icepool", "exact distribution", "icepool", bench_distributions),
        ):
            if optional(name) is None:
                print(f"\n{name} is not installed: its column is skipped (pip install {name}).")
            rows = bench(budget)
            print("\n" + table(title, other, rows))
            missed += [f"{title} {t}" for t, o, th in rows if th is not None and th < o]
    text, cold, worst = bench_hostile()
    print("\nhostile inputs, slowest first (caches cleared before each)")
    print(text)
    if worst >= HOSTILE_LIMIT_MS or "ACCEPTED" in text:
        missed.append(f"a hostile input took {worst:.1f} ms with the build (cold: {cold:.1f} ms)")
    if missed:
        print("\ngoals missed: " + "; ".join(missed))
    else:
        print("\nall goals met")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
