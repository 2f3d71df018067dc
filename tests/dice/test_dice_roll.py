"""Rolling: faces, flags, traces, the caller's random source, and dice from the table."""

from __future__ import annotations

import dataclasses
import random

import pytest

from stratagem.dice import (
    DiceLimitError,
    DiceLimits,
    DiceValueError,
    DieRecord,
    RollResult,
    parse_dice,
)


class Faces:
    """A random source that returns the given faces and records each call."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.calls: list[tuple[int, int]] = []

    def randint(self, low: int, high: int) -> int:
        self.calls.append((low, high))
        return self.faces.pop(0)


def test_trace_of_a_percentage() -> None:
    result = parse_dice("4d+20%").roll(Faces(3, 5, 1, 6))
    assert result.describe() == "4d+20% = [3,5,1,6]+20 = 35%"
    assert result.total == 35 and result.values == (35,) and result.is_percent
    assert [d.face for d in result.dice] == [3, 5, 1, 6]
    assert all(d.sides == 6 and d.kept and not d.exploded for d in result.dice)


def test_every_face_comes_from_randint_with_the_die_size() -> None:
    rng = Faces(1, 2, 3, 4, 20, 7)
    parse_dice("3d6 + d4 + d20 + d%").roll(rng)
    assert rng.calls == [(1, 6), (1, 6), (1, 6), (1, 4), (1, 20), (1, 100)]


def test_the_global_random_state_is_untouched() -> None:
    random.seed(1234)
    state = random.getstate()
    parse_dice("10d6!kh3 + 2d20").roll(random.Random(5))
    assert random.getstate() == state


def test_same_seed_same_roll() -> None:
    expr = parse_dice("2x(3d6!kh2 - DR)")
    first = expr.roll(random.Random(42), {"DR": 1})
    again = expr.roll(random.Random(42), {"DR": 1})
    assert first == again and first.describe() == again.describe()


def test_keep_highest_marks_the_dropped_die() -> None:
    result = parse_dice("2d20kh1").roll(Faces(5, 19))
    assert result.total == 19
    assert result.describe() == "2d20kh1 = [~5,19] = 19"
    assert [(d.face, d.kept, d.dropped) for d in result.dice] == [
        (5, False, True),
        (19, True, False),
    ]


def test_keep_ties_keep_the_earlier_die() -> None:
    result = parse_dice("3d6kl2").roll(Faces(2, 2, 2))
    assert [d.kept for d in result.dice] == [True, True, False]


def test_exploding_die_chains() -> None:
    result = parse_dice("d6!+1").roll(Faces(6, 6, 2))
    assert result.total == 15
    assert result.describe() == "d6!+1 = [6!6!2]+1 = 15"
    (die,) = result.dice
    assert die == DieRecord(6, (6, 6, 2), True, 0)
    assert die.exploded and die.value == 14 and die.face == 6


def test_explosion_stops_at_the_cap() -> None:
    expr = parse_dice("d6!", limits=DiceLimits(max_explosion_depth=2))
    rng = Faces(6, 6, 6, 6)
    assert expr.roll(rng).total == 18
    assert len(rng.calls) == 3


def test_names_show_their_values_in_the_trace() -> None:
    expr = parse_dice("(TL/2)d - DR")
    result = expr.roll(Faces(1, 2, 3), {"TL": 6, "DR": 2, "unused": 99})
    assert result.describe() == "(TL/2)d - DR = [1,2,3]-2 = 4"
    negative = parse_dice("1d-DR").roll(Faces(3), {"DR": -2})
    assert negative.describe() == "1d-DR = [3]-(-2) = 5"


def test_clamp_trace() -> None:
    result = parse_dice("max(1d-2, 1)%").roll(Faces(2))
    assert result.describe() == "max(1d-2, 1)% = max([2]-2,1) = 1%"


def test_repetition_gives_separate_results_and_their_sum() -> None:
    result = parse_dice("2x(1d+2-DR)").roll(Faces(4, 6), {"DR": 1})
    assert result.values == (5, 7) and result.total == 12
    assert result.describe() == "2x(1d+2-DR) = [4]+2-1 = 5; [6]+2-1 = 7; total 12"
    assert [d.repetition for d in result.dice] == [0, 1]


def test_constant_trace() -> None:
    assert parse_dice("2+3").roll(Faces()).describe() == "2+3 = 5"
    assert parse_dice("5").roll(Faces()).describe() == "5 = 5"


def test_rolls_stay_within_bounds() -> None:
    rng = random.Random(7)
    for text in ("3d", "4d+20%", "2d20kh1", "d6!", "2x(1d+2-DR)", "max(1d-4, 1)", "1d6/(1d3+1)"):
        expr = parse_dice(text)
        low, high = expr.bounds({"DR": 3})
        support = expr.distribution({"DR": 3}).pmf
        for _ in range(300):
            total = expr.roll(rng, {"DR": 3}).total
            assert low <= total <= high and total in support


def test_results_are_frozen_and_serialisable() -> None:
    result = parse_dice("4d6kh3").roll(random.Random(1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.total = 3  # type: ignore[misc]
    data = result.to_dict()
    assert data["total"] == result.total and len(data["dice"]) == 4  # type: ignore[arg-type]
    assert data["trace"] == result.describe()


def test_roll_checks_names() -> None:
    expr = parse_dice("(TL)d6")
    with pytest.raises(DiceValueError, match="unbound name: TL"):
        expr.roll(random.Random(1))
    with pytest.raises(DiceValueError, match="whole number"):
        expr.roll(random.Random(1), {"TL": 2.5})
    with pytest.raises(DiceValueError, match="whole number"):
        expr.roll(random.Random(1), {"TL": True})
    with pytest.raises(DiceValueError, match="negative number of dice"):
        expr.roll(random.Random(1), {"TL": -1})
    with pytest.raises(DiceLimitError):
        expr.roll(random.Random(1), {"TL": 50}, limits=DiceLimits(max_dice=10))


# --- dice rolled at the table -------------------------------------------------------------


def test_from_faces_replays_the_given_faces() -> None:
    expr = parse_dice("4d+20%")
    result = RollResult.from_faces(expr, [3, 5, 1, 6])
    assert result.total == 35 and result.source == "faces"
    assert result.describe() == "4d+20% = [3,5,1,6]+20 = 35%"
    exploding = RollResult.from_faces(parse_dice("2d6!"), [6, 3, 2])
    assert exploding.values == (11,) and exploding.dice[0].faces == (6, 3)


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ([3, 5, 1], "rolls more dice than the 3 faces given"),
        ([3, 5, 1, 6, 2], "5 faces were given but 4d\\+20% rolls only 4 dice"),
        ([3, 7, 1, 6], "face 7 \\(number 2\\) is impossible on a d6"),
        ([3, 0, 1, 6], "impossible on a d6"),
        ([3, "5", 1, 6], "impossible on a d6"),
    ],
)
def test_from_faces_refuses_impossible_faces(faces: list[int], message: str) -> None:
    with pytest.raises(DiceValueError, match=message):
        RollResult.from_faces(parse_dice("4d+20%"), faces)


def test_from_total_checks_the_range() -> None:
    expr = parse_dice("3d")
    with pytest.raises(DiceValueError, match=r"^3d cannot roll 19 \(range 3\.\.18\)$"):
        RollResult.from_total(expr, 19)
    result = RollResult.from_total(expr, 12)
    assert result.total == 12 and result.dice == () and result.source == "stated"
    assert result.describe() == "3d = 12 (stated)"


def test_from_total_checks_holes_in_the_range() -> None:
    with pytest.raises(DiceValueError, match="2\\*1d6 cannot roll 7"):
        RollResult.from_total(parse_dice("2*1d6"), 7)


def test_stated_results_of_a_repetition() -> None:
    expr = parse_dice("2x(1d+2-DR)")
    with pytest.raises(DiceValueError, match="gives 2 separate results"):
        RollResult.from_total(expr, 8, {"DR": 1})
    result = RollResult.from_values(expr, [5, 7], {"DR": 1})
    assert result.total == 12 and result.describe() == "2x(1d+2-DR) = 5, 7 (stated); total 12"
    with pytest.raises(DiceValueError, match="but 1 were stated"):
        RollResult.from_values(expr, [5], {"DR": 1})
    with pytest.raises(DiceValueError, match="cannot roll 8"):
        RollResult.from_values(expr, [5, 8], {"DR": 1})
