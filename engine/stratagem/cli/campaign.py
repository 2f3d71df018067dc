"""`stratagem campaign fight|advance|status|replay CAMPAIGN`: a war kept in the GM's files."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from stratagem.cli.common import (
    add_allow_path,
    add_lang,
    add_max_seconds,
    add_table_options,
    ask,
    chosen_lang,
    helps,
    limit_seconds,
    parse_decisions,
    parse_dice_list,
    seconds,
    seed_arg,
    spoken,
    whole_number,
)

def register(sub: Any) -> None:
    epilog = spoken("cli.help.campaign.epilog")
    p = sub.add_parser(
        "campaign", help=helps("cli.help.campaign.about"),
        description=spoken("cli.help.campaign.description"), epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = p.add_subparsers(dest="action", metavar="ACTION")

    def common(q: argparse.ArgumentParser, writes: bool) -> None:
        q.add_argument("campaign", help=helps("cli.help.campaign.file"))
        add_lang(q)
        if writes:
            q.add_argument("--dry-run", action="store_true",
                           help=helps("cli.help.campaign.dry_run"))
            q.add_argument("--accept-edits", action="store_true",
                           help=helps("cli.help.campaign.accept_edits"))
            q.add_argument("--seed", type=seed_arg, default=None,
                           help=helps("cli.help.campaign.seed"))
        if writes:
            add_max_seconds(q)
        add_allow_path(q)
        q.add_argument("--wait", type=seconds(24 * 3600), default=0.0, metavar="SECONDS",
                       help=helps("cli.help.campaign.wait"))
        q.set_defaults(run=run)

    f = actions.add_parser("fight", help=helps("cli.help.campaign.fight"), epilog=epilog,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    common(f, True)
    f.add_argument("scenario", help=helps("cli.help.campaign.scenario"))
    add_table_options(f)
    f.add_argument("--explain", action="store_true", help=helps("cli.help.explain"))
    a = actions.add_parser("advance", help=helps("cli.help.campaign.advance"), epilog=epilog,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    common(a, True)
    when = a.add_mutually_exclusive_group(required=True)
    when.add_argument("--days", type=whole_number(0, 10**9), metavar="N",
                      help=helps("cli.help.campaign.days"))
    when.add_argument("--to", type=whole_number(0, 10**12), metavar="DAY",
                      help=helps("cli.help.campaign.to"))
    when.add_argument("--by", metavar="'N UNIT'", help=helps("cli.help.campaign.by"))
    s = actions.add_parser("status", help=helps("cli.help.campaign.status"))
    common(s, False)
    r = actions.add_parser("replay", help=helps("cli.help.campaign.replay"))
    common(r, False)
    p.set_defaults(run=lambda args: _usage(p))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def run(args: argparse.Namespace) -> int:
    from stratagem.campaign import store
    from stratagem.campaign.war import load_campaign

    limit_seconds(args)
    lang = chosen_lang(args.lang)
    path = Path(args.campaign)
    if not path.is_file():
        from stratagem.errors import StratagemError

        raise StratagemError(f"no such campaign file: {path}", hint="check the path",
                             key="campaign.no_file", hint_key="api.check_path.hint",
                             params={"path": str(path)})
    load_campaign(path)  # a campaign file (else no lock file is made beside it)
    with store.locked(path.resolve(), args.wait):
        campaign = load_campaign(path)
        targets = [campaign.path, *campaign.armies.values()]
        history = campaign.path.with_name(f"{campaign.path.stem}.history")
        if history.is_dir():
            targets += [t.with_name(t.name[1:-len(store.TEMP_SUFFIX)])
                        for t in history.rglob(f".*{store.TEMP_SUFFIX}")]
        done = store.recover(campaign.path, targets)
        out: list[str] = []
        t = _translator(campaign, lang)
        if done:
            out.append(t.t(f"campaign.recovered_{done}"))
            campaign = load_campaign(path)
        action = {"fight": _fight, "advance": _advance, "status": _status,
                  "replay": _replay}[args.action]
        code = action(args, campaign, t, lang, out)
    from stratagem.cli.common import write_out

    write_out("\n".join(out))
    return code


def _translator(campaign: Any, lang: str) -> Any:
    from stratagem.report import translator

    return translator(campaign.ruleset, lang)


def _date(campaign: Any, t: Any, day: int) -> str:
    parts = [t.t(f"calendar.{unit}", n=n) if t.catalog.message(f"calendar.{unit}") is not None
             else f"{n} {unit}" for unit, n in campaign.rules.date(day)]
    return ", ".join(parts) or t.t("calendar.day", n=0)


def _write(args: argparse.Namespace, campaign: Any, step: Any, t: Any, out: list[str]) -> None:
    from stratagem.campaign import store
    from stratagem.campaign.war import begin, files_of

    before = campaign.read_armies()
    entries, copies = begin(campaign, before, args.accept_edits)
    if entries:
        # the command's own entry comes after them
        step.entry["n"] = entries[-1]["n"] + 1
    files = files_of(campaign, before, step, entries, copies)
    out.append("")
    out.append(t.t("campaign.changes") if step.changes else t.t("campaign.no_changes"))
    out.extend(f"  {c.line()}" for c in step.changes)
    if step.new:
        out.append(t.t("campaign.scheduled"))
        out.extend("  " + _event(campaign, t, item)
                   for item in sorted(step.new, key=lambda i: i["day"]))
    if args.dry_run:
        out.append(t.t("campaign.dry_run"))
        return
    store.commit(campaign.path, files)
    out.append(t.t("campaign.written", n=len(files),
                   files=", ".join(campaign.relative(p) for p in files)))


def _event(campaign: Any, t: Any, item: dict[str, Any]) -> str:
    return t.t("campaign.event", day=item["day"], date=_date(campaign, t, item["day"]),
               what=item.get("note") or item["call"])


def _fight(args: argparse.Namespace, campaign: Any, t: Any, lang: str, out: list[str]) -> int:
    import functools

    from stratagem.campaign.war import fight
    from stratagem.cli.battle import _ask_decision

    texts = campaign.read_armies()
    _check_edits(campaign, texts, args.accept_edits)
    step = fight(campaign, texts, args.scenario, seed=args.seed,
                 dice=parse_dice_list(args.dice) if args.dice else None,
                 decisions=parse_decisions(args.decide), lang=lang,
                 ask_dice=ask if args.interactive else None,
                 ask_decision=functools.partial(_ask_decision, t) if args.interactive else None,
                 number=_number(campaign, texts))
    out.append(step.battle.report(lang=lang, explain=args.explain).rstrip("\n"))
    out.append(t.t("campaign.title", name=campaign.name, day=campaign.day,
                   date=_date(campaign, t, campaign.day)))
    _write(args, campaign, step, t, out)
    return 0


def _number(campaign: Any, texts: dict[str, str]) -> int:
    """The journal number the command's entry will have (after a start or edit entry)."""
    from stratagem.campaign.store import digest

    last = campaign.last_files()
    extra = 1 if not campaign.journal or any(last.get(k) != digest(v) for k, v in texts.items()
                                             ) else 0
    return len(campaign.journal) + 1 + extra


def _check_edits(campaign: Any, texts: dict[str, str], accept: bool) -> None:
    from stratagem.campaign.war import begin

    begin(campaign, texts, accept)  # raises for files edited by hand, unless accepted


def _advance(args: argparse.Namespace, campaign: Any, t: Any, lang: str, out: list[str]) -> int:
    from stratagem.campaign.war import advance
    from stratagem.errors import StratagemError

    if args.to is not None:
        to_day = args.to
    elif args.days is not None:
        to_day = campaign.day + args.days
    else:
        amount, _, unit = str(args.by).strip().partition(" ")
        try:
            number = float(amount)
        except ValueError:
            units = ", ".join(campaign.rules.calendar)
            raise StratagemError(f"--by {args.by}: expected a number and a unit",
                                 hint="e.g. --by '2 months'; units: " + units,
                                 key="campaign.by", params={"by": args.by, "units": units}
                                 ) from None
        unit = unit.strip()
        if unit not in campaign.rules.calendar and unit.rstrip("s") in campaign.rules.calendar:
            unit = unit.rstrip("s")
        to_day = campaign.day + campaign.rules.days(number, unit)
    texts = campaign.read_armies()
    _check_edits(campaign, texts, args.accept_edits)
    step = advance(campaign, texts, to_day, seed=args.seed, lang=lang,
                   number=_number(campaign, texts))
    from stratagem.report import message

    out.append(t.t("campaign.advanced", start=campaign.day, day=to_day,
                   date=_date(campaign, t, to_day)))
    for event in step.trace:
        if event.level == "summary":
            out.append("  " + message(t, event))
    if not step.entry["applied"]:
        out.append("  " + t.t("campaign.nothing_due"))
    _write(args, campaign, step, t, out)
    return 0


def _status(args: argparse.Namespace, campaign: Any, t: Any, lang: str, out: list[str]) -> int:
    from stratagem.campaign.store import digest

    out.append(t.t("campaign.title", name=campaign.name, day=campaign.day,
                   date=_date(campaign, t, campaign.day)))
    out.append(t.t("campaign.armies"))
    last = campaign.last_files()
    texts = campaign.read_armies()
    for name, path in campaign.armies.items():
        edited = bool(campaign.journal) and last.get(name) != digest(texts[name])
        out.append(f"  {name}: {campaign.relative(path)}"
                   + (f" ({t.t('campaign.edited')})" if edited else ""))
        out.extend(_army_lines(campaign, path, t))
    out.append(t.t("campaign.scheduled") if campaign.scheduled else t.t("campaign.none_due"))
    out.extend("  " + _event(campaign, t, item) for item in campaign.scheduled)
    out.append(t.t("campaign.journal", n=len(campaign.journal)))
    for entry in campaign.journal:
        out.append("  " + t.t(f"campaign.entry_{entry['did']}", n=entry["n"], day=entry["day"],
                              scenario=entry.get("scenario", ""),
                              outcome=str(entry.get("outcome", "")),
                              changes=len(entry.get("changes") or []),
                              start=entry.get("from", 0)))
    return 0


def _army_lines(campaign: Any, path: Path, t: Any) -> list[str]:
    """Each entity of an army with the fields the ruleset keeps."""
    from stratagem.api import load_army
    from stratagem.report import _fields_line

    army = load_army(path, campaign.ruleset)
    lines = []
    for entity in army.side.walk():
        names = list(campaign.rules.keep.get(entity.kind_name, ()))
        if not names:
            continue
        line = _fields_line(t, None, entity, names, {})
        lines.append(f"    {entity.label()}: {line}")
    return lines


def _replay(args: argparse.Namespace, campaign: Any, t: Any, lang: str, out: list[str]) -> int:
    from stratagem.campaign.war import replay

    n, problems = replay(campaign, lang)
    if problems:
        out.append(t.t("campaign.replay_differs", n=n))
        out.extend(f"  {p}" for p in problems)
        return 1
    out.append(t.t("campaign.replay_ok", n=n))
    return 0
