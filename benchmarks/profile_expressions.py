"""Which expressions a battle evaluates most, and where the time goes.

    python benchmarks/profile_expressions.py benchmarks/scenarios/war-machine-12v12.yaml -n 20

Prints the expressions evaluated most often per battle (with their place in the rule
files), then cProfile's top functions. Use it before changing a ruleset for speed: a
formula called thousands of times a battle is usually better as a derived value, which
is cached until a field it reads changes.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from collections import Counter
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", type=Path)
    parser.add_argument("-n", type=int, default=20, help="battles (default 20)")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()

    # cProfile cannot see inside the compiled engine, nor can it be patched: run this
    # from an editable install or a checkout, which always run the sources
    import stratagem.expr.core as expr_module
    from stratagem.api import load_scenario, run_battle

    scenario = load_scenario(args.scenario)
    counts: Counter[tuple[str, str]] = Counter()
    original = expr_module.Evaluator.eval

    def counting(self, expr, scope):  # type: ignore[no-untyped-def]
        counts[(str(expr.location or ""), expr.text.replace("\n", " ")[:80])] += 1
        return original(self, expr, scope)

    expr_module.Evaluator.eval = counting  # type: ignore[method-assign]
    for seed in range(args.n):
        run_battle(scenario, seed=seed, tracing=False)
    expr_module.Evaluator.eval = original  # type: ignore[method-assign]
    total = sum(counts.values()) / args.n
    print(f"{total:,.0f} expression evaluations per battle")
    for (where, text), n in counts.most_common(args.top):
        print(f"{n / args.n:8.0f}  {text}   [{where.split('/rulesets/')[-1]}]")
    print()
    profile = cProfile.Profile()
    profile.enable()
    for seed in range(args.n):
        run_battle(scenario, seed=seed, tracing=False)
    profile.disable()
    pstats.Stats(profile).sort_stats("tottime").print_stats(12)
    return 0


if __name__ == "__main__":
    sys.exit(main())
