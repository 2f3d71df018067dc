"""Fuzzing the dice language with token soup and hostile sizes (the grammar's own
expressions are in test_dice_properties.py): any text parses, rolls and has a distribution
or is refused with a DiceError, under the default limits. Derandomized, a fixed budget."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.dice import DiceError, parse_dice

FUZZ = settings(derandomize=True, max_examples=200, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])

TOKENS = ["d", "d6", "d%", "dF", "4d", "10000d6", "d10000", "100000", "9" * 40, "!", "!!",
          "kh", "kl", "kh1", "r1", "x", "3x", "(", ")", "+", "-", "*", "/", "%", "min", "max",
          ",", " ", "A", "0", "1", "2", "e", "."]


@FUZZ
@given(parts=st.lists(st.sampled_from(TOKENS), min_size=1, max_size=14),
       seed=st.integers(0, 2**16))
def test_any_text_rolls_or_is_refused_with_a_dice_error(parts: list[str], seed: int) -> None:
    text = "".join(parts)
    try:
        expr = parse_dice(text)
        names = {name: 3 for name in getattr(expr, "names", ())}
        result = expr.roll(random.Random(seed), names)
        dist = expr.distribution(names)
    except DiceError:
        return
    assert dist.min <= result.total <= dist.max
