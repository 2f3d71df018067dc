"""Property tests: expressions generated from the grammar, rule for rule (dice_helpers).

Every generated expression either parses, rolls and has a distribution whose
support holds every roll, or is refused with a DiceError. Nothing else may
escape: no other exception, no hang.
"""

from __future__ import annotations

import random
from fractions import Fraction

from dice_helpers import DICE_SETTINGS, NAMES, enumerate_pmf, expressions
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.dice import DiceError, DiceLimits, RollResult, parse_dice

SMALL = DiceLimits(max_explosion_depth=2, max_dice=40, max_distribution_work=200_000)


@DICE_SETTINGS
@given(text=expressions(), seed=st.integers(0, 2**32))
def test_rolls_fall_inside_their_own_distribution(text: str, seed: int) -> None:
    try:
        expr = parse_dice(text, limits=SMALL)
        dist = expr.distribution(NAMES)
    except DiceError:
        return
    assert sum(dist.pmf.values()) == 1
    assert dist.mean == sum(outcome * p for outcome, p in dist.pmf.items())
    assert expr.bounds(NAMES) == (dist.min, dist.max)
    assert dist.min in dist.pmf and dist.max in dist.pmf
    rng = random.Random(seed)
    for _ in range(5):
        result = expr.roll(rng, NAMES)
        assert dist.min <= result.total <= dist.max
        assert dist.pmf.get(result.total, 0) > 0
        assert result.total == sum(result.values)
        assert result.is_percent == expr.is_percent == dist.is_percent
        assert result.describe().startswith(expr.text + " = ")


@DICE_SETTINGS
@given(text=expressions(), seed=st.integers(0, 2**32))
def test_replaying_the_faces_of_a_roll_gives_the_same_roll(text: str, seed: int) -> None:
    try:
        expr = parse_dice(text, limits=SMALL)
        result = expr.roll(random.Random(seed), NAMES)
    except DiceError:
        return
    faces = [face for die in result.dice for face in die.faces]
    again = RollResult.from_faces(expr, faces, NAMES)
    assert (again.values, again.describe()) == (result.values, result.describe())


@settings(DICE_SETTINGS, max_examples=120)
@given(text=expressions(depth=1))
def test_distribution_equals_brute_force(text: str) -> None:
    try:
        expr = parse_dice(text, limits=SMALL)
        dist = expr.distribution(NAMES)
    except DiceError:
        return
    expected = enumerate_pmf(expr, NAMES, budget=3_000)
    if expected is not None:
        assert dict(dist.pmf) == expected


@DICE_SETTINGS
@given(text=st.text(max_size=40))
def test_any_text_parses_or_gets_a_dice_error(text: str) -> None:
    try:
        expr = parse_dice(text)
    except DiceError as err:
        assert err.message
        return
    assert isinstance(expr.names, frozenset)


@DICE_SETTINGS
@given(
    text=st.text(alphabet="0123456789dDkhlx!%+-*/(), TLDR", max_size=30),
    seed=st.integers(0, 1000),
)
def test_dice_alphabet_soup_never_crashes(text: str, seed: int) -> None:
    try:
        expr = parse_dice(text, limits=SMALL)
        expr.roll(random.Random(seed), {"TL": 3, "DR": 1})
        dist = expr.distribution({"TL": 3, "DR": 1})
    except DiceError:
        return
    assert sum(dist.pmf.values()) == Fraction(1)
