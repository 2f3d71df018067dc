"""Battles per second and start-up time, on this machine.

    python benchmarks/bench_battles.py                 # every scenario in benchmarks/scenarios/
    python benchmarks/bench_battles.py -n 1000 FILE... # chosen scenarios

For each scenario it fights N seeded battles in one process with the ruleset
and the scenario loaded once (as `stratagem odds` does: no trace kept), then
N/10 battles keeping the full trace (as `stratagem battle` does). Then it
times `stratagem --help` and one `stratagem battle` as new processes (best of
5). Figures go to stdout as a Markdown table for docs/performance.md.
"""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


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
    args = parser.parse_args()
    scenarios = args.scenarios or sorted((HERE / "scenarios").glob("*.yaml"))
    print(f"| scenario | entities | load (s) | {args.n} battles, no trace (s) | "
          f"battles/s | {args.n} battles, full trace (s) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for path in scenarios:
        load, untraced, traced, units = battles_per_second(path, args.n)
        print(f"| {path.name} | {units} | {load:.3f} | {untraced:.2f} | "
              f"{args.n / untraced:,.0f} | {traced:.2f} |")
    exe = str(Path(sys.executable).with_name("stratagem"))
    print()
    print("| command | best of 5 (s) |")
    print("| --- | --- |")
    print(f"| `stratagem --help` | {process_time([exe, '--help']):.3f} |")
    if scenarios:
        print(f"| `stratagem battle {scenarios[0].name}` | "
              f"{process_time([exe, 'battle', str(scenarios[0])]):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
