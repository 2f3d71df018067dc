"""What loading a scenario costs, phase by phase: what every command pays before a battle.

    python benchmarks/bench_load.py                      # every scenario in benchmarks/scenarios/
    python benchmarks/bench_load.py --rounds 5 FILE...   # chosen scenarios, more rounds

Each round loads the scenario afresh (the compile pipeline's cache and the locale cache
emptied first) and adds up the CPU time (`time.process_time`) spent in each phase: reading
YAML (`loader.yamlio`), checking JSON Schema (`loader.schema.validate_document`),
compiling the ruleset (`compile.ruleset.compile_ruleset`) and checking its messages
(`compile.messages.check_messages`); "all" is the whole load. The best round of each
counts. Figures in ms, as a Markdown table for docs/performance.md. Run it from an editable
install (the sources): a compiled build hides the phases it compiled.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stratagem.api import load_scenario
from stratagem.compile import pipeline
from stratagem.i18n import catalog
from stratagem.loader import yamlio
from stratagem.loader.access import Access

ROOT = Path(__file__).resolve().parent.parent
# The skirmish scenario names the test ruleset (tests/engine/skirmish), outside its folder.
pipeline.DEFAULT.access = Access.allowing([ROOT / "tests"])
PHASES = {"YAML": (yamlio, "_parse"), "JSON Schema": (pipeline, "validate_document"),
          "compile": (pipeline, "compile_ruleset"), "messages": (pipeline, "check_messages")}


def timed(spent: dict[str, float], phase: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[phase] += time.process_time() - started
    return wrapper


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenarios", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=3, help="loads of each (default 3)")
    args = parser.parse_args()
    scenarios = args.scenarios or sorted((ROOT / "benchmarks" / "scenarios").glob("*.yaml"))
    spent = dict.fromkeys(PHASES, 0.0)
    for phase, (module, name) in PHASES.items():
        setattr(module, name, timed(spent, phase, getattr(module, name)))
    print("| scenario | " + " | ".join(PHASES) + " | all (ms) |")
    print("| --- |" + " ---: |" * (len(PHASES) + 1))
    for path in scenarios:
        best: dict[str, float] = {}
        for _ in range(args.rounds):
            pipeline._CACHE.clear()
            catalog._read_locale_cached.cache_clear()
            for phase in spent:
                spent[phase] = 0.0
            started = time.process_time()
            load_scenario(path)
            figures = {**spent, "all": time.process_time() - started}
            best = figures if not best or figures["all"] < best["all"] else best
        print(f"| {path.name} | " + " | ".join(f"{best[p] * 1000:.0f}" for p in [*PHASES, "all"])
              + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
