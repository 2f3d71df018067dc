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
    helps,
    limit_seconds,
    parse_decisions,
    seed_arg,
    spoken,
    write_out,
)

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
        "odds", help=helps("cli.help.odds.about"),
        description=spoken("cli.help.odds.description"), epilog=spoken("cli.help.odds.epilog"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", help=helps("cli.help.scenario"))
    p.add_argument("-n", type=between(1, 1_000_000), default=1000,
                   help=helps("cli.help.odds.n", low=1, high=1_000_000, default=str(1000)))
    p.add_argument("--seed", type=seed_arg, default=0, help=helps("cli.help.first_seed"))
    p.add_argument("-j", "--jobs", type=between(1, 256), metavar="N",
                   help=helps("cli.help.odds.jobs", battles=200))
    p.add_argument("--decide", action="append", metavar="ID[:WHO]=VALUE",
                   help=helps("cli.help.decide_many"))
    add_lang(p)
    add_format(p)
    p.add_argument("--timings", action="store_true", help=helps("cli.help.odds.timings"))
    p.add_argument("--quiet", action="store_true", help=helps("cli.help.quiet"))
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
