"""Battle speed of two revisions of the engine, measured side by side.

    python benchmarks/compare_revisions.py HEAD~1            # HEAD~1 against the work tree
    python benchmarks/compare_revisions.py abc123 HEAD -n 400 --rounds 4

A machine shared with other work drifts by several per cent over minutes, more
than most single changes gain. So each revision is exported to its own folder
(`git archive`; the work tree is copied as it is), and the two are timed in
turns: for every scenario, ROUNDS times revision A then revision B, each run a
new process fighting N battles without a trace after loading the scenario
(as `bench_battles.py` does). The best run of each counts. Prints ms a battle
and the ratio B/A (below 1: B is faster).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ("gurps", "mazes-minotaurs", "war-machine", "skirmish")

# Run in a new process with the exported tree first on sys.path.
CHILD = """
import gc, sys, time
sys.path.insert(0, sys.argv[1])
from stratagem.api import load_scenario, run_battle
scenario = load_scenario(sys.argv[2])
gc.freeze()
n = int(sys.argv[3])
started = time.perf_counter()
for seed in range(n):
    run_battle(scenario, seed=seed, tracing=False)
print((time.perf_counter() - started) / n * 1000)
"""


def export(revision: str | None, into: Path) -> Path:
    """The engine at ``revision`` (None: the work tree) in ``into``, importable as
    ``stratagem`` from ``into/pkgroot``."""
    if revision is None:
        shutil.copytree(ROOT, into, ignore=shutil.ignore_patterns(".git", ".venv", "*.pyc"))
    else:
        into.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "pkgroot").mkdir()
    (into / "pkgroot" / "stratagem").symlink_to(into / "engine", target_is_directory=True)
    return into


def ms_per_battle(tree: Path, scenario: str, n: int) -> float:
    path = tree / "benchmarks" / "scenarios" / f"{scenario}-12v12.yaml"
    out = subprocess.run([sys.executable, "-c", CHILD, str(tree / "pkgroot"), str(path), str(n)],
                         check=True, capture_output=True, text=True, cwd=tree).stdout
    return float(out.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", help="revision A (e.g. HEAD~1)")
    parser.add_argument("b", nargs="?", help="revision B (default: the work tree)")
    parser.add_argument("-n", type=int, default=300, help="battles a run (default 300)")
    parser.add_argument("--rounds", type=int, default=4, help="runs of each (default 4)")
    parser.add_argument("--scenario", action="append", choices=SCENARIOS,
                        help="only these scenarios (repeatable; default: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tree_a = export(args.a, Path(tmp) / "a")
        tree_b = export(args.b, Path(tmp) / "b")
        print(f"| scenario | A {args.a} (ms) | B {args.b or 'work tree'} (ms) | B/A |")
        print("| --- | ---: | ---: | ---: |")
        for scenario in args.scenario or SCENARIOS:
            best_a = best_b = float("inf")
            for _ in range(args.rounds):
                best_a = min(best_a, ms_per_battle(tree_a, scenario, args.n))
                best_b = min(best_b, ms_per_battle(tree_b, scenario, args.n))
            print(f"| {scenario} | {best_a:.3f} | {best_b:.3f} | {best_b / best_a:.3f} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
