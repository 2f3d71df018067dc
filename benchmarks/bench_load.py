"""What loading a scenario costs, phase by phase: what every command pays before a battle.

    python benchmarks/bench_load.py                      # every scenario in benchmarks/scenarios/
    python benchmarks/bench_load.py --rounds 5 FILE...   # chosen scenarios, more rounds
    python benchmarks/bench_load.py --schema-of 498c118  # JSON Schema: that revision's schema
                                                         # against the work tree's

Each round loads the scenario afresh (the compile pipeline's cache and the locale cache
emptied first, the user's cache of locale files off) and adds up the CPU time
(`time.process_time`) spent in each phase: reading YAML (`loader.yamlio`), checking JSON
Schema (`loader.schema.validate_document`), compiling the ruleset
(`compile.ruleset.compile_ruleset`) and checking its messages
(`compile.messages.check_messages`); "all" is the whole load. The best round of each
counts. Figures in ms, as a Markdown table for docs/performance.md. Run it from an editable
install (the sources): a compiled build hides the phases it compiled.

`--schema-of REV` times instead JSON Schema alone on each shipped ruleset (its files merged
as the loader merges them), with the ruleset schema of revision REV and with the work
tree's in turn, in one process (best of the rounds, 5 by default).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
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
os.environ["STRATAGEM_CACHE"] = "off"  # every round reads and checks every locale file
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


def compare_schemas(revision: str, rounds: int) -> None:
    from jsonschema import Draft202012Validator

    from stratagem.loader.resolve import load_document_chain
    from stratagem.loader.schema import static_schema

    old = json.loads(subprocess.run(["git", "-C", str(ROOT), "show",
                                     f"{revision}:schemas/ruleset.schema.json"],
                                    check=True, capture_output=True, text=True).stdout)
    validators = {revision: Draft202012Validator(old),
                  "work tree": Draft202012Validator(static_schema("ruleset"))}
    print(f"| ruleset | {revision} (ms) | work tree (ms) | work tree / {revision} |")
    print("| --- | ---: | ---: | ---: |")
    for path in sorted((ROOT / "rulesets").glob("*/ruleset.yaml")):
        doc, _ = load_document_chain(path, pipeline.DEFAULT.limits, access=pipeline.DEFAULT.access)
        best = dict.fromkeys(validators, float("inf"))
        for _ in range(rounds):
            for name, validator in validators.items():
                started = time.process_time()
                errors = list(validator.iter_errors(doc))
                best[name] = min(best[name], time.process_time() - started)
                if errors:
                    raise SystemExit(f"{path}: {name}'s schema refuses it: {errors[0].message}")
        a, b = best[revision], best["work tree"]
        print(f"| {path.parent.name} | {a * 1000:.0f} | {b * 1000:.0f} | {b / a:.2f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenarios", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, help="loads of each (default 3; 5 with --schema-of)")
    parser.add_argument("--schema-of", metavar="REV",
                        help="time JSON Schema with REV's ruleset schema against the work tree's")
    args = parser.parse_args()
    if args.schema_of:
        compare_schemas(args.schema_of, args.rounds or 5)
        return 0
    args.rounds = args.rounds or 3
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
