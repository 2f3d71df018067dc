"""What a command costs before it does its work: new processes, best of N runs.

    python benchmarks/bench_startup.py                    # the work tree: --help and others
    python benchmarks/bench_startup.py --against 9396304  # that revision and the work tree
    python benchmarks/bench_startup.py -n 9 -- roll 2d6   # another command

Each engine (the work tree's `engine/stratagem` copied as it is, a revision's by `git
archive`) is put in a temporary folder and run as `python -m stratagem` with that folder
first on PYTHONPATH, two ways: from bytecode (the folder's `__pycache__`, written by a run
before) and from source (PYTHONDONTWRITEBYTECODE=1 and the folder's `__pycache__` removed
before each run: every module of the engine compiled again, as in a checkout where no
bytecode is written; the standard library and other packages keep theirs). The user's cache
(STRATAGEM_CACHE) is a temporary folder of each engine, filled by the first run, as every
run after a user's first finds it; `--cold` empties it before each run. The runs take turns
(each engine, each way, each round), so that a change of the machine's load reaches them
alike. Prints, in seconds, the best and the median wall time and the best CPU time (user
and system) of each, as a Markdown table for docs/performance.md.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [["--help"], ["--lang", "ru", "--help"], ["battle", "--help"]]


def export(revision: str | None, folder: Path) -> Path:
    """The engine of ``revision`` (None: the work tree as it is) in ``folder``; returns the
    folder to put on PYTHONPATH."""
    if revision is None:
        shutil.copytree(ROOT / "engine" / "stratagem", folder / "stratagem",
                        ignore=shutil.ignore_patterns("__pycache__"))
        return folder
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision,
                          "engine/stratagem"], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(folder, filter="data")
    return folder / "engine"


class Engine:
    def __init__(self, name: str, path: Path, cache: Path) -> None:
        self.name, self.path, self.cache = name, path, cache
        self.wall: dict[str, list[float]] = {"bytecode": [], "source": []}
        self.cpu: dict[str, list[float]] = {"bytecode": [], "source": []}

    def run(self, argv: list[str], way: str, cold: bool, record: bool = True) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPATH=str(self.path), STRATAGEM_CACHE=str(self.cache))
        if way == "source":
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            for cached in self.path.rglob("__pycache__"):
                shutil.rmtree(cached)
        if cold:
            shutil.rmtree(self.cache, ignore_errors=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "stratagem", *argv], env=env, check=True,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if record:
            self.wall[way].append(wall)
            self.cpu[way].append(after.ru_utime - before.ru_utime
                                 + after.ru_stime - before.ru_stime)


def measure(engines: list[Engine], argv: list[str], n: int, cold: bool) -> None:
    for _ in range(n):
        for engine in engines:  # bytecode written (and the cache filled) before it counts
            engine.run(argv, "bytecode", cold, record=False)
        for engine in engines:
            engine.run(argv, "bytecode", cold)
        for engine in engines:
            engine.run(argv, "source", cold)
    print(f"\n`stratagem {' '.join(argv)}`, best of {n} (s)\n")
    print("| engine | from | wall, best | wall, median | CPU, best |")
    print("| --- | --- | ---: | ---: | ---: |")
    for engine in engines:
        for way in ("bytecode", "source"):
            wall, cpu = engine.wall[way], engine.cpu[way]
            print(f"| {engine.name} | {way} | {min(wall):.3f} | {statistics.median(wall):.3f} | "
                  f"{min(cpu):.3f} |")
            wall.clear()
            cpu.clear()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="*", help="a command's arguments (after --)")
    parser.add_argument("-n", type=int, default=7, help="runs of each (default 7)")
    parser.add_argument("--against", metavar="REV", help="measure this revision too")
    parser.add_argument("--cold", action="store_true", help="empty the cache before each run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as scratch:
        engines = []
        for name, revision in ([(args.against, args.against)] if args.against else []) + \
                [("work tree", None)]:
            folder = Path(scratch) / str(len(engines))
            engines.append(Engine(name, export(revision, folder / "tree"), folder / "cache"))
        for argv in [args.command] if args.command else COMMANDS:
            measure(engines, argv, args.n, args.cold)
    return 0


if __name__ == "__main__":
    sys.exit(main())
