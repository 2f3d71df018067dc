"""`stratagem odds SCENARIO -n N`: how often each outcome happens over many battles."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from stratagem.cli.common import (
    add_allow_path,
    add_format,
    add_lang,
    add_max_seconds,
    chosen_format,
    chosen_lang,
    limit_seconds,
    parse_decisions,
    seed_arg,
    write_out,
)

EPILOG = """examples:
  stratagem odds my-battle.yaml -n 1000
  stratagem odds my-battle.yaml -n 5000 --seed 100 --json
  stratagem odds my-battle.yaml -n 20000 -j 4
  stratagem odds my-battle.yaml -n 2000 --format html -o odds.html

Shares come with their 95 % (Wilson) intervals; the numbers summarised (median, 10th and
90th percentiles) are those the ruleset's `report.odds` names. The JSON output is described
by schemas/odds.schema.json.

Battle i uses seed SEED+i, so the figures are the same for any number of jobs.
Where the scenario's answer to a decision cannot apply in a battle, its `else:` (or the
rule's default) is used, and the output says in how many battles and why. A battle that
cannot be fought stops the run: the figures of the battles before it are printed, marked
as partial, and the command exits with 1.
"""


def between(lo: int, hi: int) -> Any:
    """An argparse type: a whole number from ``lo`` to ``hi`` (else a usage mistake, exit 2)."""

    from stratagem.cli import common
    from stratagem.errors import Keyed

    def check(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(Keyed(
                f"{text!r} is not a whole number", "cli.not_whole",
                value=repr(text)).localized(common.SPOKEN)) from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(Keyed(
                f"must be between {lo:,} and {hi:,}, got {value}", "cli.between",
                lo=lo, hi=hi, value=str(value)).localized(common.SPOKEN))
        return value

    return check


def register(sub: Any) -> None:
    p = sub.add_parser(
        "odds", help="simulate a battle many times and show how often each side wins",
        description="Fight the scenario N times with seeds SEED, SEED+1, ... and count outcomes "
                    "(the ruleset's `outcome:`), with the distribution of the numbers the "
                    "ruleset summarises (`report.odds`).", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", help="scenario file (kind: scenario)")
    p.add_argument("-n", type=between(1, 1_000_000), default=1000,
                   help="number of battles, 1 to 1,000,000 (default 1000)")
    p.add_argument("--seed", type=seed_arg, default=0, help="first seed (default 0)")
    p.add_argument("-j", "--jobs", type=between(1, 256), metavar="N",
                   help="fight the battles in N processes at once (default: one per CPU core "
                        "for 200 battles or more)")
    p.add_argument("--decide", action="append", metavar="ID[:WHO]=VALUE",
                   help="a GM decision (repeatable)")
    add_lang(p)
    add_format(p)
    p.add_argument("--timings", action="store_true",
                   help="add the seconds taken to the JSON (which is otherwise the same for "
                        "the same battles, byte for byte)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar (there is none when stderr is not a terminal)")
    add_max_seconds(p)
    add_allow_path(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import gc
    import json

    from stratagem.api import load_scenario
    from stratagem.odds import OddsStopped, default_jobs, readable_outcomes, simulate

    limit_seconds(args)
    scenario = load_scenario(args.scenario)
    # The ruleset and the scenario live as long as the process: the garbage collector
    # need not walk them again after each battle (measured: 5-8 % of the time).
    gc.freeze()
    lang = chosen_lang(args.lang)
    fmt = chosen_format(args)
    started = time.perf_counter()
    jobs = args.jobs or default_jobs(args.n)
    stopped: OddsStopped | None = None
    with progress_bar(scenario.ruleset, lang, args.n, quiet=args.quiet) as bar:
        try:
            figures = simulate(scenario, args.n, args.seed, parse_decisions(args.decide),
                               lambda done: bar.update(done - bar.n), jobs)
        except OddsStopped as err:  # the figures of the battles fought before it, as partial
            stopped, figures = err, err.figures
    if fmt == "json":
        figures = {"ruleset": scenario.ruleset.ref, "scenario": scenario.name, **figures}
        figures["outcomes"] = readable_outcomes(scenario.ruleset, figures["outcomes"], lang)
        if args.timings:
            figures["seconds"] = round(time.perf_counter() - started, 3)
        write_out(json.dumps(figures, ensure_ascii=False, indent=1), args.output)
    else:
        from stratagem.odds import render_odds

        write_out(render_odds(scenario.ruleset, figures, lang, fmt, scenario.names),
                  args.output)
    if stopped is not None:
        raise stopped.error
    return 0


#: Seconds between two redraws of the progress bar at most.
REDRAW = 0.2


def progress_bar(ruleset: Any, lang: str, n: int, quiet: bool) -> Any:
    """A progress bar on stderr (percentage, battles a second, time left), only when
    stderr is a terminal."""
    from tqdm import tqdm

    from stratagem.i18n.catalog import translator

    return tqdm(total=n, unit=translator(ruleset, lang).t("progress.unit"), file=sys.stderr,
                disable=quiet or not sys.stderr.isatty(), leave=False, dynamic_ncols=True,
                mininterval=REDRAW)
