"""`stratagem sweep SCENARIO --vary FIELD=v1,v2,... -n N`: the odds over a grid of values."""

from __future__ import annotations

import argparse
from typing import Any

from stratagem.cli.common import (
    add_format,
    add_lang,
    chosen_format,
    chosen_lang,
    parse_decisions,
    write_out,
)
from stratagem.cli.odds import between, progress_bar

EPILOG = """examples:
  stratagem sweep my-battle.yaml --vary sides.0.strategy=12,14,16 -n 500
  stratagem sweep my-battle.yaml --vary sides.0.units.1.count=10,20,30 --vary days=1,2 -n 1000
  stratagem sweep my-battle.yaml --vary sides.Red.units.Archers.count=50,100 \\
      -n 2000 --format html -o sweep.html
  stratagem sweep my-battle.yaml --vary sides.1.strategy=10,12 -n 10000 \\
      --cluster tcp://10.0.0.5:8786

FIELD names one value of the scenario by its keys and positions from 0: battle.FIELD (or
FIELD alone), sides.N.FIELD, sides.N.units.M.FIELD, decisions.ID; a side or a unit may be
named instead of numbered. A side that names an army file is changed as if the army were
written in the scenario (the file itself is never changed). Values are written as in YAML:
12, true, veteran, [castle, manor].

Each combination of the values is fought N times with seeds SEED..SEED+N-1, as
`stratagem odds` fights it: its figures are those odds gives for that scenario, for any
number of jobs and on a cluster alike. --cluster needs the `cluster` extra
(pip install 'stratagem[cluster]') and workers that have Stratagem and the scenario's
files at the same paths.
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "sweep", help="the odds over a grid of values (army sizes, skills, options ...)",
        description="Fight every combination of the --vary values N times and show how often "
                    "each outcome happens, as a table and a heat map.", epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", help="scenario file (kind: scenario)")
    p.add_argument("--vary", action="append", metavar="FIELD=V1,V2,...", required=True,
                   help="a field and its values (repeatable: the grid is every combination)")
    p.add_argument("-n", type=between(1, 1_000_000), default=200,
                   help="battles per combination, 1 to 1,000,000 (default 200)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("-j", "--jobs", type=between(1, 256), metavar="N",
                   help="fight in N local processes at once (default: one per CPU core for "
                        "200 battles or more in all)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="fight on the Dask cluster whose scheduler is at ADDRESS "
                        "(e.g. tcp://10.0.0.5:8786) instead of local processes")
    p.add_argument("--decide", action="append", metavar="ID[:WHO]=VALUE",
                   help="a GM decision (repeatable)")
    add_lang(p)
    add_format(p)
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar (there is none when stderr is not a terminal)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import json

    from stratagem.odds import default_jobs
    from stratagem.sweep import grid, in_processes, in_this_process, render_sweep, sweep

    lang = chosen_lang(args.lang)
    fmt = chosen_format(args)
    g = grid(args.scenario, args.vary)
    decisions = parse_decisions(args.decide)
    total = args.n * len(g.combinations)
    if args.cluster:
        runner = on_cluster(args.cluster)
    else:
        jobs = args.jobs or default_jobs(total)
        runner = in_processes(jobs) if jobs > 1 else in_this_process(g)
    rs = g.scenarios[0].ruleset
    with progress_bar(rs, lang, total, quiet=args.quiet) as bar:
        stops: list[Any] = []
        result = sweep(g, args.n, args.seed, decisions, runner,
                       lambda done: bar.update(done - bar.n), stops)
    if fmt == "json":
        result = {"ruleset": rs.ref, "scenario": g.scenarios[0].name, **result}
        write_out(json.dumps(result, ensure_ascii=False, indent=1), args.output)
    else:
        write_out(render_sweep(rs, result, lang, fmt, g.scenarios[0].names), args.output)
    if stops:  # the figures are written, those of a combination that stopped marked
        raise stops[0]
    return 0


def on_cluster(address: str) -> Any:
    """A runner that sends the tasks to the Dask scheduler at ``address`` (the `cluster`
    extra: dask.distributed is imported only here)."""
    from stratagem.errors import StratagemError

    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise StratagemError("--cluster needs Dask: pip install 'stratagem[cluster]'",
                             hint="or leave --cluster out to fight in local processes",
                             key="sweep.no_dask") from None
    from stratagem.sweep import fight_task

    def run(todo: list[Any]) -> Any:
        try:
            client = Client(address, timeout="10s")
        except (OSError, TimeoutError, ValueError) as err:
            raise StratagemError(f"--cluster {address}: no Dask scheduler answers ({err})",
                                 hint="start one (dask scheduler) or check the address",
                                 key="sweep.no_scheduler",
                                 params={"address": address, "error": str(err)}) from None
        try:
            futures = client.map(fight_task, todo, pure=False)
            for future in as_completed(futures):
                yield future.result()
        finally:
            client.close()

    return run
