"""`stratagem sweep SCENARIO --vary FIELD=v1,v2,... -n N`: the odds over a grid of values."""

from __future__ import annotations

import argparse
from typing import Any

from stratagem.cli.common import (
    add_format,
    add_lang,
    chosen_format,
    chosen_lang,
    helps,
    parse_decisions,
    spoken,
    write_out,
)
from stratagem.cli.odds import between, progress_bar

def register(sub: Any) -> None:
    p = sub.add_parser(
        "sweep", help=helps("cli.help.sweep.about"),
        description=spoken("cli.help.sweep.description"),
        epilog=spoken("cli.help.sweep.epilog"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", help=helps("cli.help.scenario"))
    p.add_argument("--vary", action="append", metavar="FIELD=V1,V2,...", required=True,
                   help=helps("cli.help.sweep.vary"))
    p.add_argument("-n", type=between(1, 1_000_000), default=200,
                   help=helps("cli.help.sweep.n", low=1, high=1_000_000, default=str(200)))
    p.add_argument("--seed", type=int, default=0, help=helps("cli.help.first_seed"))
    p.add_argument("-j", "--jobs", type=between(1, 256), metavar="N",
                   help=helps("cli.help.sweep.jobs", battles=200))
    p.add_argument("--cluster", metavar="ADDRESS", help=helps("cli.help.sweep.cluster"))
    p.add_argument("--decide", action="append", metavar="ID[:WHO]=VALUE",
                   help=helps("cli.help.decide_many"))
    add_lang(p)
    add_format(p)
    p.add_argument("--quiet", action="store_true", help=helps("cli.help.quiet"))
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
