"""`stratagem battle SCENARIO`: fight one battle and print the report."""

from __future__ import annotations

import argparse
import functools
import sys
from typing import TYPE_CHECKING, Any

from stratagem.cli.common import (
    add_allow_path,
    add_format,
    add_lang,
    add_max_seconds,
    add_table_options,
    ask,
    chosen_lang,
    helps,
    limit_seconds,
    parse_decisions,
    parse_dice_list,
    seed_arg,
    spoken,
    write_result,
)
from stratagem.errors import Keyed, StratagemError

if TYPE_CHECKING:
    from stratagem.i18n.catalog import Translator


def register(sub: Any) -> None:
    p = sub.add_parser(
        "battle", help=helps("cli.help.battle.about"),
        description=spoken("cli.help.battle.description"),
        epilog=spoken("cli.help.battle.epilog"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", help=helps("cli.help.scenario"))
    p.add_argument("--seed", type=seed_arg, default=None, help=helps("cli.help.battle.seed"))
    add_lang(p)
    p.add_argument("--explain", action="store_true", help=helps("cli.help.explain"))
    add_format(p)
    add_table_options(p)
    add_allow_path(p)
    p.add_argument("--dice-fallback", action="store_true",
                   help=helps("cli.help.battle.dice_fallback"))
    p.add_argument("--replay", metavar="TRACE.json", help=helps("cli.help.battle.replay"))
    add_max_seconds(p)
    p.set_defaults(run=run, parser=p)


#: How many mistyped answers to one question before the default is taken.
MAX_TRIES = 10


def decision_prompt(decision: str, who: str, info: dict[str, Any]) -> Keyed:
    """What ``--interactive`` asks for a decision (``prompt.decision``)."""
    choices = info.get("choices")
    rng = info.get("range")
    listed = ", ".join(map(str, choices)) if choices else (f"{rng[0]}..{rng[1]}" if rng else None)
    default = info.get("default")
    english = (f"{decision}{f' ({who})' if who else ''}{f' [{listed}]' if listed else ''}"
               f"{f' (default {default})' if default is not None else ''}: ")
    return Keyed(english, "prompt.decision", decision=decision, who=who or None,
                 choices=listed, default=default)


def _ask_decision(t: Translator, decision: str, who: str, info: dict[str, Any]) -> Any:
    """Ask for a decision until the answer is one of the choices (or in the range); an
    empty answer takes the default."""
    from stratagem.cli.common import parse_value

    choices = info.get("choices")
    rng = info.get("range")
    default = info.get("default")
    for _ in range(MAX_TRIES):
        answer = ask(decision_prompt(decision, who, info), t.catalog).strip()
        if not answer:
            return default
        value = parse_value(answer)
        fits = (value in choices) if choices else (
            isinstance(value, int) and not isinstance(value, bool) and rng[0] <= value <= rng[1]
            if rng else True)
        if fits:
            return value
        sys.stderr.write(t.t("decision.invalid_answer", value=answer) + "\n")
    return default


def run(args: argparse.Namespace) -> int:
    from stratagem.api import load_scenario, replay_inputs, run_battle
    from stratagem.i18n.catalog import translator

    limit_seconds(args)
    scenario = load_scenario(args.scenario)
    dice = parse_dice_list(args.dice) if args.dice else None
    decisions = parse_decisions(args.decide)
    if args.replay and (args.seed is not None or args.dice):
        from stratagem.cli import error_texts

        args.parser.error(Keyed("--replay fights the recorded battle again with its own dice: "
                                "leave out --seed and --dice", "cli.replay_alone"
                                ).localized(error_texts(args)))
    if args.replay:
        dice, recorded = replay_inputs(args.replay)
        decisions = {**recorded, **decisions}
    lang = chosen_lang(args.lang)
    t = translator(scenario.ruleset, lang, scenario.names)
    asked = functools.partial(_ask_decision, t)
    result = run_battle(
        scenario, seed=args.seed, dice=dice, decisions=decisions, lang=lang,
        dice_fallback=args.dice_fallback,
        ask_dice=(lambda prompt: ask(prompt, t.catalog)) if args.interactive else None,
        ask_decision=asked if args.interactive else None,
    )
    if args.replay and dice is not None and len(dice) > len(result.dice_log):
        extra = len(dice) - len(result.dice_log)
        raise StratagemError(
            f"the trace {args.replay} holds {extra} more rolls than the battle made: it is the "
            "trace of another battle, or the rules changed since it was written",
            hint="record it again: stratagem battle SCENARIO --json > trace.json",
            key="replay.extra_dice", params={"path": args.replay, "n": extra})
    from stratagem.render.views import battle_view

    write_result(args, result, "battle", battle_view, lang)
    return 0
