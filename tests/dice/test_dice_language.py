"""What each form of the language means: a table of expressions and their exact results."""

from __future__ import annotations

import copy
import dataclasses
import logging
import pickle
import random
import subprocess
import sys
from fractions import Fraction

import pytest
from lark import Lark

from stratagem.dice import (
    DiceDialect,
    DiceError,
    DiceExpr,
    DiceLimitError,
    DiceLimits,
    DiceSyntaxError,
    DiceValueError,
    parse_dice,
)
from stratagem.errors import LimitError, StratagemError
from stratagem.resources import data_dir

NAMES = {"TL": 6, "DR": 2, "unit.TL": 5, "dex": 3, "Damage": 4, "N": 2}

#: expression → (min, max) with NAMES bound.
BOUNDS = {
    "d6": (1, 6),
    "D6": (1, 6),
    "3D6": (3, 18),
    "d20": (1, 20),
    "4d": (4, 24),
    "d": (1, 6),
    "D": (1, 6),
    "d%": (1, 100),
    "D%": (1, 100),
    "d100": (1, 100),
    "0d6": (0, 0),
    "(TL/2)d": (3, 18),
    "(2*TL)d": (12, 72),
    "(TL-3)d6": (3, 18),
    "d(N)": (1, 2),
    "1d-DR": (-1, 4),
    "(TL/2)d - DR": (1, 16),
    "dex + d": (4, 9),
    "Damage": (4, 4),
    "unit.TL + 1": (6, 6),
    "2d20kh1": (1, 20),
    "4d6kl3": (3, 18),
    "4d6kh(N)": (2, 12),
    "d6!": (1, 126),
    "3d6!kh1": (1, 126),
    "2x(1d+2-DR)": (2, 12),
    "2x (TL/2)d - DR": (2, 32),
    "(N)x(1d6)": (2, 12),
    "max(1d-2, 1)": (1, 4),
    "min(3d6, 15)": (3, 15),
    "-(1d6)": (-6, -1),
    "-d6+10": (4, 9),
    "1d6*1d4": (1, 24),
    "2d6/2": (1, 6),
    "ceil(2d6/2)": (1, 6),
    "1d6/(1d3+1)": (0, 3),
}


@pytest.mark.parametrize(("text", "bounds"), BOUNDS.items())
def test_bounds_and_distribution_agree(text: str, bounds: tuple[int, int]) -> None:
    expr = parse_dice(text)
    assert expr.bounds(NAMES) == bounds
    dist = expr.distribution(NAMES)
    assert (dist.min, dist.max) == bounds
    assert sum(dist.pmf.values()) == 1


#: Expressions without dice → their value (integer arithmetic as documented).
VALUES = {
    "7/2": 3,
    "-7/2": -4,
    "7/-2": -4,
    "floor(7/2)": 3,
    "ceil(7/2)": 4,
    "ceil(-7/2)": -3,
    "ceil(6/2)": 3,
    "ceil(3*TL/4)": 5,
    "1--1": 2,
    "2*3+4": 10,
    "2*(3+4)": 14,
    "10-2-3": 5,
    "12/2/3": 2,
    "2*3/4": 1,
    "2*(3/4)": 0,
    "max(1, 2, 3)": 3,
    "min(TL, DR)": 2,
    "-(-2)": 2,
    "  4 + 4  ": 8,
}


@pytest.mark.parametrize(("text", "value"), VALUES.items())
def test_arithmetic(text: str, value: int) -> None:
    dist = parse_dice(text).distribution(NAMES)
    assert dist.pmf == {value: 1}


def test_keep_highest_three_of_four() -> None:
    # The classic 4d6 drop lowest: mean 15869/1296.
    for text in ("4d6kh3", "4d6k3", "4d6dl1", "4D6KH3"):
        assert parse_dice(text).distribution().mean == Fraction(15869, 1296)
    assert parse_dice("4d6dh1").distribution() == parse_dice("4d6kl3").distribution()


def test_clamp_as_gurps_writes_minimum_one() -> None:
    pmf = parse_dice("max(1d-2, 1)%").distribution().pmf
    assert pmf == {1: Fraction(1, 2), 2: Fraction(1, 6), 3: Fraction(1, 6), 4: Fraction(1, 6)}


def test_exploding_d6() -> None:
    dist = parse_dice("d6!").distribution()
    assert dist.probability(6) == 0
    assert dist.probability(7) == Fraction(1, 36)
    assert dist.probability(5) == Fraction(1, 6)
    small = parse_dice("d6!", limits=DiceLimits(max_explosion_depth=1)).distribution()
    assert small.max == 12 and small.probability(12) == Fraction(1, 36)


def test_dialects() -> None:
    assert parse_dice("2d", DiceDialect(default_sides=10)).bounds() == (2, 20)
    no_default = DiceDialect(default_sides=None)
    assert parse_dice("4d%", no_default).bounds() == (4, 400)
    assert parse_dice("d%", no_default).bounds() == (1, 100)
    with pytest.raises(DiceSyntaxError, match="a die needs a number of sides, e.g. 1d6"):
        parse_dice("4d+2", no_default)
    with pytest.raises(DiceSyntaxError, match="ambiguous"):
        parse_dice("4d%")
    with pytest.raises(DiceValueError):
        DiceDialect(default_sides=0)


def test_percent_and_repetition_flags() -> None:
    expr = parse_dice("2x(1d+2)%")
    assert expr.is_percent and expr.repeat is not None
    dist = expr.distribution()
    assert dist.is_percent and dist.repetitions == 2
    assert dist.per_repetition.pmf == {k: Fraction(1, 6) for k in range(3, 9)}
    assert dist.pmf == parse_dice("2d+4").distribution().pmf
    plain = parse_dice("4d+20")
    assert not plain.is_percent and plain.repeat is None
    assert plain.distribution().per_repetition is plain.distribution()


def test_typographic_signs_read_as_plain() -> None:
    assert parse_dice("2× (1d+2 − DR)").distribution({"DR": 1}) == parse_dice(
        "2x(1d+2-DR)"
    ).distribution({"DR": 1})
    assert parse_dice("1d–1").bounds() == (0, 5)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("1d-DR", {"DR"}),
        ("(TL/2)d - DR", {"TL", "DR"}),
        ("dex+d6", {"dex"}),
        ("Damage*d", {"Damage"}),
        ("d_bonus + D", {"d_bonus"}),
        ("unit.TL + unit.DR", {"unit.TL", "unit.DR"}),
        ("2x(1d+2-DR)", {"DR"}),
        ("(N)x(1d6)", {"N"}),
        ("khan + dl", {"khan", "dl"}),
        ("max + min", {"max", "min"}),
        ("x + X", {"x", "X"}),
        ("4d6", set()),
    ],
)
def test_the_dice_letter_and_names(text: str, names: set[str]) -> None:
    assert parse_dice(text).names == frozenset(names)


def test_expressions_are_immutable_hashable_and_cached() -> None:
    expr = parse_dice("(TL/2)d - DR")
    assert isinstance(expr, DiceExpr)
    assert parse_dice("(TL/2)d - DR") is expr
    assert expr == parse_dice("(TL/2)d - DR", DiceDialect(), DiceLimits())
    assert hash(expr) == hash(parse_dice("(TL/2)d - DR"))
    assert expr != parse_dice("(TL/2)d - DR", DiceDialect(default_sides=8))
    assert {expr: 1}[parse_dice("(TL/2)d - DR")] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        expr.text = "3d6"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        expr.body.first = None  # type: ignore[union-attr]
    assert hash(expr.body) == hash(parse_dice("(TL/2)d - DR", DiceDialect(default_sides=6)).body)


def test_values_survive_pickle_and_copy() -> None:
    expr = parse_dice("2x(1d+2-DR)%")
    assert pickle.loads(pickle.dumps(expr)) is expr  # the parse cache hands back the same one
    assert copy.deepcopy(expr) is expr
    result = expr.roll(random.Random(3), {"DR": 1})
    again = pickle.loads(pickle.dumps(result))
    assert again == result and again.describe() == result.describe()
    dist = expr.distribution({"DR": 1})
    assert dist.pmf and pickle.loads(pickle.dumps(dist)) == dist


def test_integers_are_accepted_as_expressions() -> None:
    assert parse_dice(5).bounds() == (5, 5)  # type: ignore[arg-type]
    with pytest.raises(DiceSyntaxError, match="must be text"):
        parse_dice(None)  # type: ignore[arg-type]


def test_error_classes() -> None:
    assert issubclass(DiceError, StratagemError)
    assert issubclass(DiceLimitError, LimitError) and issubclass(DiceLimitError, DiceError)
    with pytest.raises(DiceValueError):
        DiceLimits(max_dice=0)


def test_syntax_errors_carry_a_caret_and_column() -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse_dice("4d+*2")
    err = info.value
    assert err.column == 4
    assert err.context == "  4d+*2\n     ^"
    assert "hint:" in err.render()
    assert err.to_json()["expression_column"] == 4


def test_the_grammar_is_conflict_free(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="lark")
    Lark.open(str(data_dir("grammar") / "dice.lark"), parser="lalr", debug=True)
    assert "conflict" not in caplog.text.lower()


def test_importing_the_package_does_not_build_the_parser() -> None:
    code = (
        "import sys, stratagem.dice, stratagem.cli; stratagem.cli.build_parser();"
        "print('lark' in sys.modules, 'stratagem.dice.builder' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
    code = "import sys, stratagem.cli; stratagem.cli.build_parser(); print('stratagem.dice' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
