"""Battles per second, both back-ends side by side, the hand-written reference, memory,
and how the cost grows with the size of the armies, on this machine.

    python benchmarks/bench_battles.py                  # every scenario in benchmarks/scenarios/
    python benchmarks/bench_battles.py -n 1000 FILE...  # chosen scenarios
    python benchmarks/bench_battles.py --rounds 5       # more rounds (the median is shown)
    python benchmarks/bench_battles.py --check          # exit 1 if a goal is missed

For each scenario it loads the scenario once, then fights N seeded battles with no trace
kept (as `stratagem odds` does) through each back-end in turn — the interpreter, which runs
the step records, and the procedures compiled to Python (`interp/codegen.py`) — for
several rounds, and shows the median CPU time of a battle (`time.process_time`: the
machine is shared, and the CPU time of this process is steadier than the wall clock); then
N/10 battles keeping the full trace. Memory is the peak that `tracemalloc` sees during one
battle (the loaded ruleset and scenario not counted). The GURPS battle is compared with
the hand-written reference, `benchmarks/reference_gurps.py`, when it is there ("n/a"
otherwise). The scaling table makes scenarios of 100 and 1,000 units a side from each 12 v
12 one (its units repeated, renamed) and times a few battles of each. Last, `stratagem
--help` and one `stratagem battle` as new processes (best of 5), as a user's second run
finds them: with bytecode (PYTHONDONTWRITEBYTECODE dropped, so the first run writes it) and
the user's cache filled by the first run (in a temporary folder); `bench_startup.py` also
measures them from source. Figures go to stdout as Markdown tables for docs/performance.md.

The goals (issue 17), plain Python with no C compiler: 1,000 battles without a trace of
each 12 v 12 scenario in under 1 s on one core; the GURPS battle within 3x of the
hand-written reference; the cost growing linearly with the units a side.
"""

from __future__ import annotations

import argparse
import copy
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BACKENDS = ("interpreter", "generated")
#: seconds for 1,000 battles without a trace; how many times the hand-written reference's
#: time the GURPS battle may take; seconds for `stratagem --help`
GOAL_BATTLES, GOAL_REFERENCE, GOAL_HELP = 1.0, 3.0, 0.2


def cpu_ms(fight: Callable[[int], Any], n: int) -> float:
    """CPU milliseconds a battle, over ``n`` seeded battles."""
    started = time.process_time()
    for seed in range(n):
        fight(seed)
    return (time.process_time() - started) * 1000 / n


def median_ms(fights: dict[str, Callable[[int], Any]], n: int, rounds: int) -> dict[str, float]:
    """The median over ``rounds`` of each fight's time a battle, the fights taking turns
    in each round (so that a change of the machine's load reaches them all alike)."""
    times: dict[str, list[float]] = {name: [] for name in fights}
    for _ in range(rounds):
        for name, fight in fights.items():
            times[name].append(cpu_ms(fight, n))
    return {name: statistics.median(ts) for name, ts in times.items()}


def peak_kb(fight: Callable[[int], Any], seeds: int = 3) -> float:
    """The largest peak of memory (KB) that one battle of ``seeds`` reaches."""
    peaks = []
    for seed in range(seeds):
        gc.collect()
        tracemalloc.start()
        fight(seed)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return max(peaks) / 1024


def fighter(scenario: Any, backend: str, tracing: bool = False) -> Callable[[int], Any]:
    from stratagem.api import run_battle

    def fight(seed: int) -> Any:
        return run_battle(scenario, seed=seed, tracing=tracing, backend=backend)

    fight(0)  # the generated code is made on first use, once per ruleset
    return fight


def reference() -> Callable[[int], Any] | None:
    """The hand-written GURPS battle's `fight(seed)`, if benchmarks/reference_gurps.py is
    there."""
    sys.path.insert(0, str(HERE))
    try:
        import reference_gurps  # type: ignore[import-not-found]
    except ImportError:
        return None
    finally:
        sys.path.remove(str(HERE))
    return getattr(reference_gurps, "fight", None)


# -- bigger armies ------------------------------------------------------------------------
def scaled(path: Path, per_side: int, folder: Path) -> Path:
    """The scenario at ``path`` with ``per_side`` units on each side: each side's list of
    units repeated (renamed ``NAME #k``) to that length, written into ``folder``."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe")
    doc = yaml.load(path.read_text(encoding="utf-8"))
    ruleset = str(doc["ruleset"])
    if ruleset.startswith("."):  # a path from the scenario's own folder
        doc["ruleset"] = str((path.parent / ruleset).resolve())
    for side in doc["sides"]:
        for key, value in side.items():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                units = []
                for k in range(per_side):
                    unit = copy.deepcopy(value[k % len(value)])
                    if "name" in unit:
                        unit["name"] = f"{unit['name']} #{k + 1}"
                    units.append(unit)
                side[key] = units
    target = folder / f"{path.stem}-{per_side}.yaml"
    with target.open("w", encoding="utf-8") as out:
        yaml.dump(doc, out)
    return target


def units_a_side(scenario: Any) -> int:
    root = scenario.instantiate()
    sides = [child for _, items in root.children_of() for child in items]
    return max(sum(1 for _ in side.walk()) - 1 for side in sides)


def process_time(args: list[str], repeat: int = 5) -> float:
    """The best wall time of ``repeat`` runs of ``args``, with bytecode and a user's cache of
    their own (both written by the first run)."""
    best = float("inf")
    with tempfile.TemporaryDirectory(prefix="bench-cache-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["STRATAGEM_CACHE"] = cache
        for _ in range(repeat):
            started = time.perf_counter()
            subprocess.run(args, check=True, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            best = min(best, time.perf_counter() - started)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenarios", nargs="*", type=Path)
    parser.add_argument("-n", type=int, default=1000, help="battles a round (default 1000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median is shown")
    parser.add_argument("--scales", default="12,100,1000",
                        help="units a side for the scaling table (default 12,100,1000)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a goal is missed")
    parser.add_argument("--only", choices=("battles", "scaling"),
                        help="only the battles (12 v 12, the reference) or the scaling table")
    args = parser.parse_args()
    scenarios = args.scenarios or sorted((HERE / "scenarios").glob("*.yaml"))
    from stratagem import _native
    from stratagem.api import load_scenario
    from stratagem.compile import pipeline
    from stratagem.errors import StratagemError
    from stratagem.loader.access import Access

    # The skirmish scenario names the test ruleset (tests/engine/skirmish) by a path out of
    # its folder, which the file-access policy refuses unless allowed (docs/security.md).
    pipeline.DEFAULT.access = Access.allowing([HERE.parent / "tests"])

    missed: list[str] = []
    print(f"Python {sys.version.split()[0]}, engine: {_native.build()} "
          "(compiled when installed from a wheel: setup.py); "
          f"{args.rounds} rounds of {args.n} battles, median CPU time\n")
    if args.only != "scaling":
        print("| scenario | interpreter (ms a battle) | generated (ms a battle) | generated / "
              "interpreter | 1,000 battles, generated (s) | full trace, generated (ms) | "
              "memory a battle (KB) |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    gurps_ms: float | None = None
    for path in scenarios if args.only != "scaling" else ():
        scenario = load_scenario(path)
        gc.freeze()  # as `stratagem odds` does once the scenario is loaded
        times = median_ms({b: fighter(scenario, b) for b in BACKENDS}, args.n, args.rounds)
        traced = median_ms({"traced": fighter(scenario, "generated", tracing=True)},
                           max(1, args.n // 10), args.rounds)["traced"]
        memory = peak_kb(fighter(scenario, "generated"))
        fast = times["generated"]
        print(f"| {path.name} | {times['interpreter']:.3f} | {fast:.3f} | "
              f"{fast / times['interpreter']:.2f} | {fast:.2f} | {traced:.2f} | {memory:,.0f} |")
        if fast >= GOAL_BATTLES:
            missed.append(f"{path.name}: 1,000 battles take {fast:.2f} s (goal "
                          f"{GOAL_BATTLES} s, {fast / GOAL_BATTLES:.1f}x)")
        if path.name.startswith("gurps"):
            gurps_ms = fast

    hand = reference()
    if args.only == "scaling":
        pass
    elif hand is None or gurps_ms is None:
        print("\n| GURPS battle | ms a battle |\n| --- | ---: |")
        print("| hand-written (benchmarks/reference_gurps.py) | n/a |")
        print(f"| generated | {gurps_ms:.3f} |" if gurps_ms is not None else "| generated | n/a |")
        print("| generated / hand-written | n/a |")
    else:
        print("\n| GURPS battle | ms a battle |\n| --- | ---: |")
        hand_ms = median_ms({"hand": hand}, args.n, args.rounds)["hand"]
        print(f"| hand-written (benchmarks/reference_gurps.py) | {hand_ms:.3f} |")
        print(f"| generated | {gurps_ms:.3f} |")
        print(f"| generated / hand-written | {gurps_ms / hand_ms:.1f}x |")
        if gurps_ms / hand_ms > GOAL_REFERENCE:
            missed.append(f"GURPS: {gurps_ms / hand_ms:.1f}x the hand-written battle "
                          f"(goal {GOAL_REFERENCE}x)")

    scales = [int(s) for s in args.scales.split(",") if s] if args.only != "battles" else []
    if scales:
        print("\n| scenario | units a side | battles | generated (ms a battle) | ms a unit | "
              "memory a battle (KB) |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as folder:
        for path in scenarios:
            per_unit = []
            for size in scales:
                scenario = load_scenario(scaled(path, size, Path(folder)))
                gc.freeze()  # as for the 12 v 12 table above
                n = max(3, args.n * 12 // size // 10)
                try:
                    ms = median_ms({"g": fighter(scenario, "generated")}, n, args.rounds)["g"]
                except StratagemError as err:  # the rules' own bounds, e.g. a comprehension's
                    why = " ".join(err.message.split())
                    print(f"| {path.name} | {size} | | fails: {why} | | |")
                    missed.append(f"{path.name}: {size} units a side fail: {why}")
                    break
                units = units_a_side(scenario)
                memory = peak_kb(fighter(scenario, "generated"), 1)
                per_unit.append(ms / units)
                print(f"| {path.name} | {units} | {n} | {ms:.2f} | {ms / units:.3f} | "
                      f"{memory:,.0f} |")
            if len(per_unit) > 1 and per_unit[-1] > 2 * per_unit[0]:
                missed.append(f"{path.name}: a unit costs {per_unit[-1] / per_unit[0]:.1f}x "
                              f"as much at {scales[-1]} units a side as at {scales[0]}")

    exe = str(Path(sys.executable).with_name("stratagem"))
    print("\n| command | best of 5 (s) |\n| --- | --- |")
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
