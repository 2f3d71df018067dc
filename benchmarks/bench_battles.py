"""Battles per second and start-up time, on this machine.

    python benchmarks/bench_battles.py                 # every scenario in benchmarks/scenarios/
    python benchmarks/bench_battles.py -n 1000 FILE... # chosen scenarios
    python benchmarks/bench_battles.py --check         # exit 1 if a goal is missed

For each scenario it fights N seeded battles in one process with the ruleset
and the scenario loaded once (as `stratagem odds` does: no trace kept), then
N/10 battles keeping the full trace (as `stratagem battle` does). Then it
times `stratagem --help` and one `stratagem battle` as new processes (best of
5). Figures go to stdout as a Markdown table for docs/performance.md.

The goals (issue 3): 1,000 battles without a trace in under 2 s in one process,
for every scenario; `stratagem --help` in under 0.2 s.
"""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: seconds for 1,000 battles without a trace; seconds for `stratagem --help`
GOAL_BATTLES, GOAL_HELP = 2.0, 0.2


def battles_per_second(path: Path, n: int) -> tuple[float, float, float, int]:
    from stratagem.api import load_scenario, run_battle

    started = time.perf_counter()
    scenario = load_scenario(path)
    load = time.perf_counter() - started
    gc.freeze()  # as `stratagem odds` does once the scenario is loaded
    started = time.perf_counter()
    for seed in range(n):
        run_battle(scenario, seed=seed, tracing=False)
    untraced = time.perf_counter() - started
    m = max(1, n // 10)
    started = time.perf_counter()
    for seed in range(m):
        run_battle(scenario, seed=seed, tracing=True)
    traced = (time.perf_counter() - started) * n / m
    units = sum(1 for e in scenario.instantiate().walk()) - 1
    return load, untraced, traced, units


def process_time(args: list[str], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - started)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenarios", nargs="*", type=Path)
    parser.add_argument("-n", type=int, default=1000, help="battles per scenario (default 1000)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a goal is missed")
    args = parser.parse_args()
    scenarios = args.scenarios or sorted((HERE / "scenarios").glob("*.yaml"))
    missed = []
    from stratagem import _native

    print(f"Python {sys.version.split()[0]}, engine: {_native.build()} "
          "(compiled when installed from a wheel: setup.py)\n")
    print(f"| scenario | entities | load (s) | {args.n} battles, no trace (s) | "
          f"battles/s | {args.n} battles, full trace (s) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for path in scenarios:
        load, untraced, traced, units = battles_per_second(path, args.n)
        print(f"| {path.name} | {units} | {load:.3f} | {untraced:.2f} | "
              f"{args.n / untraced:,.0f} | {traced:.2f} |")
        per_thousand = untraced * 1000 / args.n
        if per_thousand >= GOAL_BATTLES:
            missed.append(f"{path.name}: 1,000 battles take {per_thousand:.2f} s "
                          f"(goal {GOAL_BATTLES} s, {per_thousand / GOAL_BATTLES:.2f}x)")
    exe = str(Path(sys.executable).with_name("stratagem"))
    print()
    print("| command | best of 5 (s) |")
    print("| --- | --- |")
    help_time = process_time([exe, "--help"])
    print(f"| `stratagem --help` | {help_time:.3f} |")
    if help_time >= GOAL_HELP:
        missed.append(f"stratagem --help takes {help_time:.3f} s (goal {GOAL_HELP} s)")
    if scenarios:
        print(f"| `stratagem battle {scenarios[0].name}` | "
              f"{process_time([exe, 'battle', str(scenarios[0])]):.3f} |")
    print()
    print("goals missed:\n" + "\n".join(f"- {m}" for m in missed) if missed
          else "all goals met")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
