"""``stratagem roll EXPR``: roll a dice expression, or show its exact odds.

The dice package is imported inside :func:`run`, so ``stratagem --help`` does
not pay for it.
"""

from __future__ import annotations

import argparse
import json
import random
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from stratagem.cli.common import add_format, add_lang, helps, seed_arg, spoken

if TYPE_CHECKING:
    from stratagem.dice import Distribution

def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``roll`` subcommand."""
    parser = subparsers.add_parser(
        "roll", help=helps("cli.help.roll.about"), description=spoken("cli.help.roll.description"),
        epilog=spoken("cli.help.roll.epilog"), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("expression", metavar="EXPR", help=helps("cli.help.roll.expression"))
    parser.add_argument("--seed", type=seed_arg, help=helps("cli.help.roll.seed"))
    parser.add_argument("--dist", action="store_true", help=helps("cli.help.roll.dist"))
    add_format(parser)
    add_lang(parser)
    parser.add_argument("--set", dest="names", action="append", default=[], metavar="NAME=VALUE",
                        help=helps("cli.help.roll.set"))
    parser.add_argument("--sides", type=int, default=6, metavar="N",
                        help=helps("cli.help.roll.sides", default=6))
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
            message = f"--set expects NAME=WHOLE_NUMBER, not {pair!r}"
            raise DiceValueError(message, hint="e.g. --set TL=6").keyed(
                "cli.roll_set", message, pair=repr(pair))
        names[name] = number
    return names


def run(args: argparse.Namespace) -> int:
    """Roll (or with ``--dist`` describe) the expression and print it."""
    from stratagem.cli.common import chosen_format, chosen_lang, write_out
    from stratagem.dice import DiceDialect, parse_dice

    if args.sides < 1:
        from stratagem.dice import DiceValueError

        message = f"--sides must be at least 1, not {args.sides}"
        raise DiceValueError(message).keyed("cli.roll_sides", message, sides=args.sides)
    names = parse_names(args.names)
    expr = parse_dice(args.expression, DiceDialect(default_sides=args.sides))
    fmt = chosen_format(args)
    if args.dist:
        from stratagem.render.views import dist_view

        dist = expr.distribution(names)
        if fmt == "json":
            write_out(json.dumps(dist_json(expr.text, dist), indent=2), args.output)
            return 0
        view = dist_view(expr.text, dist, chosen_lang(args.lang))
        if fmt == "text":
            write_out(dist_text(view), args.output)
        else:
            from stratagem.render import render

            write_out(render("roll", fmt, view, None), args.output)
        return 0
    if fmt in ("md", "html"):
        from stratagem.dice import DiceValueError

        message = f"--format {fmt} shows a distribution: add --dist"
        raise DiceValueError(message, hint=f"stratagem roll '{args.expression}' --dist "
                             f"--format {fmt}").keyed("cli.roll_dist", message, format=fmt,
                                                      expr=args.expression)
    result = expr.roll(random.Random(args.seed), names)
    write_out(json.dumps(result.to_dict(), indent=2) if fmt == "json" else result.describe(),
              args.output)
    return 0


#: Bits of the parts of an exact fraction `--json` writes (Python writes at most 4,300 digits).
MAX_FRACTION_BITS = 13_000


def _fraction(value: object) -> str:
    from stratagem.dice import DiceLimitError

    top, bottom = value.numerator, value.denominator  # type: ignore[attr-defined]
    if max(top.bit_length(), bottom.bit_length()) > MAX_FRACTION_BITS:
        raise DiceLimitError("the exact chances of this roll have more than 3,900 digits, too "
                             "many to write as fractions",
                             hint="leave out --json: the table shows them as decimals",
                             key="cli.roll_fraction_digits")
    return f"{top}/{bottom}"


def dist_json(text: str, dist: Distribution) -> dict[str, object]:
    """The ``--dist --json`` object: exact probabilities as ``"n/d"`` strings; ``at_least``
    and ``at_most`` are the chances of each outcome or more, or less."""
    below: Fraction | int = 0
    at_least, at_most = {}, {}
    for outcome, p in dist.pmf.items():
        at_least[str(outcome)] = _fraction(1 - below)
        below += p
        at_most[str(outcome)] = _fraction(below)
    return {
        "expression": text,
        "percent": dist.is_percent,
        "repetitions": dist.repetitions,
        "min": dist.min,
        "max": dist.max,
        "mean": _fraction(dist.mean),
        "mean_decimal": float(dist.mean),
        "pmf": {str(outcome): _fraction(p) for outcome, p in dist.pmf.items()},
        "at_least": at_least,
        "at_most": at_most,
    }


def dist_text(view: dict[str, Any]) -> str:
    """A table of each outcome's probability (a fraction, then exactly, at least, at most)
    with a bar chart beside it."""
    text = view["text"]
    head = view["title"] + "".join(f"  ({m})" for m in view["meta"])
    rows = [(text["outcome_col"], "", text["exactly"], text["at_least"], text["at_most"])]
    rows += [(r["outcome"], r["fraction"], r["exactly_text"], r["at_least_text"],
              r["at_most_text"]) for r in view["rows"]]
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = [head]
    for row, bar in zip(rows, [""] + [r["bar"] for r in view["rows"]]):
        cells = "  ".join(cell.rjust(width) for cell, width in zip(row, widths))
        lines.append(f"{cells}  {bar}".rstrip())
    lines.append(f"{text['min']} {view['min']}  {text['max']} {view['max']}  "
                 f"{text['mean']} {view['mean']}")
    return "\n".join(lines)
