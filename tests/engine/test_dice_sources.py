"""Seeded dice draw exactly what random.Random.randint would, so a seed keeps its battle."""

from __future__ import annotations

import random

import pytest

from stratagem.dice import parse_dice
from stratagem.interp.dicesource import SeededDice


@pytest.mark.parametrize("sides", [1, 2, 3, 6, 7, 20, 100, 1000])
def test_seeded_dice_roll_the_faces_randint_would(sides):
    expected = random.Random(42)
    rolled = SeededDice(42).roll(parse_dice(f"50d{sides}"), {}, "")
    assert [d.faces[0] for d in rolled.dice] == [expected.randint(1, sides) for _ in range(50)]


def test_the_generator_moves_on_as_randint_moves_it():
    seeded, expected = SeededDice(7), random.Random(7)
    seeded.roll(parse_dice("3d6+1d20"), {}, "")
    for sides in (6, 6, 6, 20):
        expected.randint(1, sides)
    assert seeded.rng.random() == expected.random()


def test_a_generator_of_another_kind_is_asked_for_its_own_randint():
    class Loaded(random.Random):
        def randint(self, a: int, b: int) -> int:
            return b

    rolled = SeededDice(rng=Loaded(3)).roll(parse_dice("4d6"), {}, "")
    assert [d.faces[0] for d in rolled.dice] == [6, 6, 6, 6]
