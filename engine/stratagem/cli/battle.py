"""`stratagem battle SCENARIO`: fight one battle and print the report."""

from __future__ import annotations

import argparse
from typing import Any

from stratagem.cli.common import (
    add_lang,
    add_table_options,
    ask,
    chosen_lang,
    parse_decisions,
    parse_dice_list,
    write_out,
)

EPILOG = """examples:
  stratagem battle my-battle.yaml --lang ru --explain          # why did I lose?
  stratagem battle my-battle.yaml --seed 7 --json > trace.json # the whole trace
  stratagem battle my-battle.yaml --replay trace.json          # the same battle again
  stratagem battle my-battle.yaml --dice 14,10,8,[3,5,1,6]     # the dice rolled at the table
  stratagem battle my-battle.yaml --decide risk:Aldric=-2      # a GM decision
  stratagem battle my-battle.yaml --interactive                # be asked for dice and decisions

The shipped examples are in the examples/ folder of the source tree.
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "battle", help="fight a battle from a scenario file and print the report",
        description="Fight one battle: the same scenario and seed always give the same battle.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", help="scenario file (kind: scenario)")
    p.add_argument("--seed", type=int, default=None,
                   help="seed of the dice (default: the scenario's `seed:`, else 0)")
    add_lang(p)
    p.add_argument("--explain", action="store_true", help="show how every number arose")
    p.add_argument("--json", action="store_true", help="print the whole trace as JSON")
    add_table_options(p)
    p.add_argument("--dice-fallback", action="store_true",
                   help="after the scripted dice run out, roll seeded dice")
    p.add_argument("--replay", metavar="TRACE.json",
                   help="fight again with the dice and decisions recorded by --json")
    p.set_defaults(run=run)


def _ask_decision(decision: str, who: str, info: dict[str, Any]) -> Any:
    from stratagem.cli.common import parse_value

    choices = info.get("choices")
    rng = info.get("range")
    hint = f" [{', '.join(map(str, choices))}]" if choices else (
        f" [{rng[0]}..{rng[1]}]" if rng else "")
    default = info.get("default")
    answer = ask(f"{decision}{f' ({who})' if who else ''}{hint}"
                 f"{f' (default {default})' if default is not None else ''}: ").strip()
    return parse_value(answer) if answer else default


def run(args: argparse.Namespace) -> int:
    from stratagem.api import load_scenario, replay_inputs, run_battle

    scenario = load_scenario(args.scenario)
    dice = parse_dice_list(args.dice) if args.dice else None
    decisions = parse_decisions(args.decide)
    if args.replay:
        dice, recorded = replay_inputs(args.replay)
        decisions = {**recorded, **decisions}
    lang = chosen_lang(args.lang)
    result = run_battle(
        scenario, seed=args.seed, dice=dice, decisions=decisions, lang=lang,
        dice_fallback=args.dice_fallback,
        ask_dice=ask if args.interactive else None,
        ask_decision=_ask_decision if args.interactive else None,
    )
    if args.json:
        write_out(result.to_json())
    else:
        write_out(result.report(lang=lang, explain=args.explain))
    return 0
