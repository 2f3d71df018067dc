"""Which of the engine's functions run as Python bytecode during battles.

    python benchmarks/interpreted.py benchmarks/scenarios/mazes-minotaurs-12v12.yaml
    .venv-compiled/bin/python benchmarks/interpreted.py SCENARIO -n 50

cProfile sees only functions that run as Python bytecode: a module that mypyc compiled
calls no profiler hook. Run with a compiled build's Python (`.ci/run` makes one in
.venv-compiled), this lists the engine's functions that a battle still runs as Python:
each is a module missing from setup.py's COMPILED list, or one that should not be there.
Run with the sources, it lists the hot functions of plain Python. Expressions compiled from
rule files (`<expression …>`) are not the engine's and are left out.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path

import stratagem
from stratagem._native import build
from stratagem.api import load_scenario, run_battle


def interpreted(scenario_path: str, n: int) -> list[tuple[str, int, float]]:
    """(function, calls, own seconds) of the engine's Python functions in ``n`` battles,
    the most called first."""
    scenario = load_scenario(scenario_path)
    run_battle(scenario, seed=0, tracing=False)  # what runs once (imports, caches) is done
    profile = cProfile.Profile()
    profile.enable()
    for seed in range(n):
        run_battle(scenario, seed=seed, tracing=False)
    profile.disable()
    package = str(Path(stratagem.__file__).resolve().parent)
    rows = []
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    for (filename, line, name), (_, calls, own, _, _) in stats.items():
        if filename.startswith(package):
            rows.append((f"{Path(filename).relative_to(package)}:{line}({name})", calls, own))
    return sorted(rows, key=lambda row: -row[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", help="a scenario file")
    parser.add_argument("-n", type=int, default=20, help="battles (default 20)")
    args = parser.parse_args()
    rows = interpreted(args.scenario, args.n)
    print(f"{len(rows)} engine functions ran as Python in {args.n} battles ({build()} engine):")
    for name, calls, own in rows:
        print(f"{calls:>9} calls {own * 1000:>9.1f} ms  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
