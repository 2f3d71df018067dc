"""`stratagem odds SCENARIO -n N`: how often each outcome happens over many battles."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from stratagem.cli.common import add_lang, chosen_lang, parse_decisions, write_out

EPILOG = """examples:
  stratagem odds my-battle.yaml -n 1000
  stratagem odds my-battle.yaml -n 5000 --seed 100 --json
  stratagem odds my-battle.yaml -n 20000 -j 4

Battle i uses seed SEED+i, so the figures are the same for any number of jobs.
Where the scenario's answer to a decision cannot apply in a battle, its `else:` (or the
rule's default) is used, and the output says in how many battles and why. A battle that
cannot be fought stops the run: the figures of the battles before it are printed, marked
as partial, and the command exits with 1.
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "odds", help="simulate a battle many times and show how often each side wins",
        description="Fight the scenario N times with seeds SEED, SEED+1, ... and count outcomes "
                    "(the ruleset's `outcome:`), with the average end value of each reported "
                    "number.", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", help="scenario file (kind: scenario)")
    p.add_argument("-n", type=int, default=1000, help="number of battles (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("-j", "--jobs", type=int, metavar="N",
                   help="fight the battles in N processes at once (default: one per CPU core "
                        "for 200 battles or more)")
    p.add_argument("--decide", action="append", metavar="ID[:WHO]=VALUE",
                   help="a GM decision (repeatable)")
    add_lang(p)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import gc
    import json

    from stratagem.api import load_scenario
    from stratagem.errors import StratagemError
    from stratagem.odds import OddsStopped, default_jobs, simulate

    if args.n < 1 or args.n > 1_000_000:
        raise StratagemError("-n must be between 1 and 1,000,000")
    if args.jobs is not None and not 1 <= args.jobs <= 256:
        raise StratagemError("--jobs must be between 1 and 256")
    scenario = load_scenario(args.scenario)
    # The ruleset and the scenario live as long as the process: the garbage collector
    # need not walk them again after each battle (measured: 5-8 % of the time).
    gc.freeze()
    lang = chosen_lang(args.lang)
    show = not args.quiet and not args.json and sys.stderr.isatty()
    started = time.perf_counter()
    shown = [""]

    if show:
        from stratagem.report import translator

        t = translator(scenario.ruleset, lang)

    def progress(done: int) -> None:
        if show:
            shown[0] = t.t("progress.battles", done=done, n=args.n)
            print(f"\r{shown[0]}", end="", file=sys.stderr, flush=True)

    jobs = args.jobs or default_jobs(args.n)
    stopped: OddsStopped | None = None
    try:
        figures = simulate(scenario, args.n, args.seed, parse_decisions(args.decide),
                           progress, jobs)
    except OddsStopped as err:  # the figures of the battles fought before it, as partial
        stopped, figures = err, err.figures
    finally:
        if show:
            print("\r" + " " * len(shown[0]) + "\r", end="", file=sys.stderr)
    figures["seconds"] = round(time.perf_counter() - started, 3)
    if args.json:
        write_out(json.dumps(figures, ensure_ascii=False, indent=1))
    else:
        from stratagem.odds import render_odds

        write_out(render_odds(scenario.ruleset, figures, lang))
    if stopped is not None:
        raise stopped.error
    return 0
