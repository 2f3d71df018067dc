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

A revision with setup.py is compiled as its install compiles it (mypyc: a wheel since
the src layout, `engine/stratagem/`; before it, in place), unless --pure is given: then
both run their sources as plain Python. The table says which engine each ran.

A revision's figures include what its rulesets do. `--rules-of a` (or `b`) gives both
engines the rulesets and scenarios of one revision, so the table measures the engines
alone (an older engine may refuse a newer ruleset: then use the older one's, which are
rewritten in the newer syntax where it changed without changing a battle: upgrade_rules).

On a machine busy with other work, `--instructions` counts instructions instead of
seconds (valgrind's callgrind, run with 20 + N battles and with 20: the difference over N,
the cost of a battle once the process is warm), the same count on every run, whatever else
the machine is doing (every child runs with PYTHONHASHSEED=0 and without the user's
cache); one round suffices.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ("gurps", "mazes-minotaurs", "war-machine", "skirmish")
#: what locale files wrote before the engine took them from CLDR
CLDR_KEYS = ("plural", "decimal", "group", "fraction_digits")

# Run in a new process with the exported tree first on sys.path.
CHILD = """
import gc, sys, time
sys.path.insert(0, sys.argv[1])
import stratagem
from stratagem.api import load_scenario, run_battle
try:  # the skirmish scenario names tests/engine/skirmish: allowed where a policy exists
    from pathlib import Path
    from stratagem.compile import pipeline
    from stratagem.loader.access import Access
    pipeline.DEFAULT.access = Access.allowing([Path.cwd() / "tests"])
except ImportError:
    pass
scenario = load_scenario(sys.argv[2])
gc.freeze()
n = int(sys.argv[3])
started = time.perf_counter()
for seed in range(n):
    run_battle(scenario, seed=seed, tracing=False)
try:
    from stratagem._native import build
    engine = build()
except ImportError:
    engine = getattr(stratagem, "BUILD", "plain")
print(engine, (time.perf_counter() - started) / max(n, 1) * 1000)
"""


def export(revision: str | None, into: Path, compile_: bool) -> Path:
    """The engine at ``revision`` (None: the work tree) in ``into``, importable as
    ``stratagem`` from ``into/pkgroot``, compiled if ``compile_`` and it can be."""
    if revision is None:
        shutil.copytree(ROOT, into, ignore=shutil.ignore_patterns(
            ".git", ".venv", "*.pyc", "build", "*.so", "*.pyd", "compiled.json"))
    else:
        into.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    src_layout = (into / "engine" / "stratagem").is_dir()
    (into / "pkgroot").mkdir()
    if not compile_ or not (into / "setup.py").is_file():
        package = into / "engine" / "stratagem" if src_layout else into / "engine"
        (into / "pkgroot" / "stratagem").symlink_to(package, target_is_directory=True)
    elif src_layout:  # compiled only into a wheel: build it, unpack it
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                        str(into / "dist"), str(into)], check=True, capture_output=True)
        wheel = next((into / "dist").glob("*.whl"))
        shutil.unpack_archive(wheel, into / "pkgroot", format="zip")
    else:  # an older revision compiled in place
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=into,
                       check=True, capture_output=True)
        (into / "pkgroot" / "stratagem").symlink_to(into / "engine", target_is_directory=True)
    return into


def rulesets_of(tree: Path) -> Path:
    """Where the engine in ``tree`` reads its shipped rulesets."""
    installed = tree / "pkgroot" / "stratagem" / "_data" / "rulesets"
    return installed if installed.is_dir() else tree / "rulesets"


def share_rules(source: Path, target: Path) -> None:
    """Give the engine in ``target`` the rulesets and benchmark scenarios of ``source``
    (with the test ruleset the skirmish scenario names)."""
    pairs = [(rulesets_of(target), rulesets_of(source))]
    pairs += [(target / folder, source / folder)
              for folder in ("benchmarks/scenarios", "tests/engine/skirmish")]
    for ours, theirs in pairs:
        shutil.rmtree(ours, ignore_errors=True)
        if theirs.is_dir():
            shutil.copytree(theirs, ours)


def upgrade_rules(tree: Path) -> None:
    """Rewrite older rule files (shared from revision A) in the syntax the newer engine
    reads, without changing a battle: `state: true` in a field declaration was
    documentation only (it became `owner: battle`, which a scenario may not state, so it is
    dropped rather than translated), and a locale file's hand-typed plural rule and number
    format are what CLDR gives the engine now."""
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.width = 4096
    folders = [rulesets_of(tree), tree / "tests" / "engine" / "skirmish"]
    for path in [p for folder in folders if folder.is_dir() for p in folder.rglob("*.yaml")]:
        text = path.read_text(encoding="utf-8")
        new = re.sub(r",\s*state: true\b|\bstate: true,\s*|^\s*state: true\s*\n", "", text,
                     flags=re.M)
        doc = yaml.load(new) if "locales" in path.parts else None
        if doc is not None and any(key in doc for key in CLDR_KEYS):
            for key in CLDR_KEYS:
                doc.pop(key, None)
            with path.open("w", encoding="utf-8") as out:
                yaml.dump(doc, out)
        elif new != text:
            path.write_text(new, encoding="utf-8")


def child(tree: Path, scenario: str, n: int,
          prefix: list[str]) -> subprocess.CompletedProcess[str]:
    path = tree / "benchmarks" / "scenarios" / f"{scenario}-12v12.yaml"
    # A fixed hash seed: the battle state walks sets of readers, whose order (and so the
    # instructions counted, by up to 2 %) would otherwise change from one process to the next.
    # No user cache: a first run that fills it would count more than a later one that reads
    # it, and the two runs of --instructions are subtracted.
    env = {**os.environ, "PYTHONHASHSEED": "0", "STRATAGEM_CACHE": "off"}
    done = subprocess.run([*prefix, sys.executable, "-c", CHILD, str(tree / "pkgroot"),
                           str(path), str(n)], capture_output=True, text=True, cwd=tree, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{tree.name} could not fight {path.name} (exit {done.returncode}):\n"
                         f"{done.stderr[-3000:]}")
    return done


def ms_per_battle(tree: Path, scenario: str, n: int) -> tuple[str, float]:
    """Which engine ran, and its ms a battle."""
    out = child(tree, scenario, n, []).stdout
    build, ms = out.strip().splitlines()[-1].split()
    return build, float(ms)


#: Battles fought before counting: a process's first battles also compile expressions
#: and fill the formulas' memory (GURPS: about twice a later battle's instructions).
WARM = 20


def instructions_per_battle(tree: Path, scenario: str, n: int) -> tuple[str, float]:
    """Which engine ran, and the millions of instructions a battle takes once the process
    is warm (battles WARM+1 to WARM+n: the run with WARM+n battles less the run with
    WARM)."""
    counts = []
    for battles in (WARM, WARM + n):
        with tempfile.TemporaryDirectory() as tmp:
            done = child(tree, scenario, battles, [
                "valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out"])
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise SystemExit(f"valgrind printed no count:\n{done.stderr[-2000:]}")
        counts.append(int(found.group(1)))
    build = done.stdout.strip().splitlines()[-1].split()[0]
    return build, (counts[1] - counts[0]) / n / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", help="revision A (e.g. HEAD~1)")
    parser.add_argument("b", nargs="?", help="revision B (default: the work tree)")
    parser.add_argument("-n", type=int, default=300, help="battles a run (default 300)")
    parser.add_argument("--rounds", type=int, default=4, help="runs of each (default 4)")
    parser.add_argument("--scenario", action="append", choices=SCENARIOS,
                        help="only these scenarios (repeatable; default: all)")
    parser.add_argument("--pure", action="store_true",
                        help="run both as plain Python (do not compile either)")
    parser.add_argument("--rules-of", choices=("a", "b"),
                        help="run both engines on the rulesets and scenarios of A or B")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions (valgrind) instead of timing")
    args = parser.parse_args()
    measure = instructions_per_battle if args.instructions else ms_per_battle
    unit = "M instructions" if args.instructions else "ms"
    with tempfile.TemporaryDirectory() as tmp:
        tree_a = export(args.a, Path(tmp) / "a", not args.pure)
        tree_b = export(args.b, Path(tmp) / "b", not args.pure)
        if args.rules_of == "a":
            share_rules(tree_a, tree_b)
            upgrade_rules(tree_b)
        elif args.rules_of == "b":
            share_rules(tree_b, tree_a)
        print(f"| scenario | A {args.a} ({unit}) | B {args.b or 'work tree'} ({unit}) | B/A |")
        print("| --- | ---: | ---: | ---: |")
        for scenario in args.scenario or SCENARIOS:
            best_a = best_b = float("inf")
            for _ in range(1 if args.instructions else args.rounds):
                build_a, cost = measure(tree_a, scenario, args.n)
                best_a = min(best_a, cost)
                build_b, cost = measure(tree_b, scenario, args.n)
                best_b = min(best_b, cost)
            print(f"| {scenario} | {best_a:.3f} ({build_a}) | {best_b:.3f} ({build_b}) | "
                  f"{best_b / best_a:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
