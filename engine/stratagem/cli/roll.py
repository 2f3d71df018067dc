"""``stratagem roll EXPR``: roll a dice expression, or show its exact odds.

The dice package is imported inside :func:`run`, so ``stratagem --help`` does
not pay for it.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fractions import Fraction

    from stratagem.dice import Distribution

EPILOG = """\
examples:
  stratagem roll 3d6                      roll three six-sided dice
  stratagem roll "4d+20%" --seed 7        a percentage: 4d6+20 percent
  stratagem roll 2d20kh1 --dist           exact odds of the better of two d20
  stratagem roll "(TL/2)d - DR" --set TL=6 --set DR=2
  stratagem roll "2x(1d+2-DR)" --set DR=1 two separate hits and their sum
  stratagem roll 3d --dist --json         odds as JSON (exact fractions as "n/d")
  stratagem roll --seed 1 -- -d6+10       an expression starting with "-" goes last, after --

The dice language is described in docs/dice.md.
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``roll`` subcommand."""
    parser = subparsers.add_parser(
        "roll",
        help="roll a dice expression or show its exact distribution",
        description="Roll a dice expression (4d+20%, 2d20kh1, (TL/2)d-DR, 2x(1d+2), d6!...) "
        "or, with --dist, print its exact distribution.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("expression", metavar="EXPR", help="the dice expression")
    parser.add_argument("--seed", type=int, help="seed the dice, so the same roll comes again")
    parser.add_argument(
        "--dist", action="store_true", help="print the exact distribution instead of rolling"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument(
        "--set",
        dest="names",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="bind a name used by the expression to a whole number (repeatable)",
    )
    parser.add_argument(
        "--sides",
        type=int,
        default=6,
        metavar="N",
        help="the die meant by 'Nd' without sides (default 6)",
    )
    parser.set_defaults(run=run)


def parse_names(pairs: list[str]) -> dict[str, int]:
    """``["TL=6", "DR=2"]`` → ``{"TL": 6, "DR": 2}``, or a clear error."""
    from stratagem.dice import DiceValueError

    names: dict[str, int] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        try:
            number = int(value.strip()) if sep and name else None
        except ValueError:
            number = None
        if number is None:
            raise DiceValueError(
                f"--set expects NAME=WHOLE_NUMBER, not {pair!r}", hint="e.g. --set TL=6"
            )
        names[name] = number
    return names


def run(args: argparse.Namespace) -> int:
    """Roll (or with ``--dist`` describe) the expression and print it."""
    from stratagem.dice import DiceDialect, parse_dice

    if args.sides < 1:
        from stratagem.dice import DiceValueError

        raise DiceValueError(f"--sides must be at least 1, not {args.sides}")
    names = parse_names(args.names)
    expr = parse_dice(args.expression, DiceDialect(default_sides=args.sides))
    if args.dist:
        dist = expr.distribution(names)
        if args.json:
            print(json.dumps(dist_json(expr.text, dist), indent=2))
        else:
            print(dist_text(expr.text, dist))
        return 0
    result = expr.roll(random.Random(args.seed), names)
    print(json.dumps(result.to_dict(), indent=2) if args.json else result.describe())
    return 0


def _fraction(value: object) -> str:
    return f"{value.numerator}/{value.denominator}"  # type: ignore[attr-defined]


def dist_json(text: str, dist: Distribution) -> dict[str, object]:
    """The ``--dist --json`` object: exact probabilities as ``"n/d"`` strings."""
    return {
        "expression": text,
        "percent": dist.is_percent,
        "repetitions": dist.repetitions,
        "min": dist.min,
        "max": dist.max,
        "mean": _fraction(dist.mean),
        "mean_decimal": float(dist.mean),
        "pmf": {str(outcome): _fraction(p) for outcome, p in dist.pmf.items()},
    }


def dist_text(text: str, dist: Distribution) -> str:
    """A table of outcome, probability (fraction and percent) and cumulative percent."""
    pct = "%" if dist.is_percent else ""
    head = text
    if dist.repetitions > 1:
        head += f"  (the sum of {dist.repetitions} results)"
    rows = [("outcome", "probability", "percent", "cumulative")]
    running: int | Fraction = 0
    for outcome, p in dist.pmf.items():
        running += p
        rows.append((f"{outcome}{pct}", _fraction(p), f"{float(p):.4%}", f"{float(running):.4%}"))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [head]
    for row in rows:
        lines.append("  ".join(cell.rjust(width) for cell, width in zip(row, widths)))
    lines.append(
        f"min {dist.min}{pct}  max {dist.max}{pct}  mean {dist.mean} = {float(dist.mean):.4f}{pct}"
    )
    return "\n".join(lines)
