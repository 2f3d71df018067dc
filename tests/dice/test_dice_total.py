"""The total alone (``DiceExpr.roll_total``, ``DiceSource.total``): a battle without a trace
keeps only a roll's total, and draws it straight from the generator's bits. It must be the
total the full roll gives, drawn from the very same numbers, the generator left where the
full roll leaves it: same seed, same battle."""

from __future__ import annotations

import random

import pytest

from stratagem.dice import DiceError, DiceLimits, parse_dice
from stratagem.errors import StratagemError
from stratagem.interp.dicesource import (
    DiceSource,
    FirstRoll,
    PromptDice,
    RecordingDice,
    ScriptedDice,
    SeededDice,
    StopAtFirstRoll,
)

#: Every kind of node and die: plain, one die, many sides, keep/drop, exploding (with keep),
#: repetitions, percentages, names, arithmetic, min/max, dice that always show one face.
GRID = [
    ("3d6", {}), ("d6", {}), ("1d20+4", {}), ("d%", {}), ("4d+20%", {}), ("2d1", {}),
    ("0d6+3", {}), ("7", {}), ("-d8", {}), ("1d1000", {}), ("5d7", {}), ("1d2", {}),
    ("2d20kh1", {}), ("2d20kl1", {}), ("4d6kh3", {}), ("4d6dl1", {}), ("4d6dh1", {}),
    ("5d4k2", {}), ("d6!", {}), ("3d6!", {}), ("4d6!kh3", {}), ("6d2!kl2", {}),
    ("2x(1d+2)", {}), ("3x(2d6kh1-1)%", {}), ("2x(3d6!kh2 - DR)", {"DR": 1}),
    ("(TL/2)x(1d6)", {"TL": 7}), ("(TL/2)d - DR", {"TL": 9, "DR": 2}),
    ("1d-DR", {"DR": 3}), ("(N)d6kh(K)", {"N": 5, "K": 2}), ("unit.TL + 1d", {"unit.TL": 4}),
    ("2d6*3", {}), ("d6*d4-d8", {}), ("3d6/2", {}), ("d20/d4", {}), ("ceil(3d6/4)", {}),
    ("floor(2d10/3)", {}), ("max(d8!, d6!)", {}), ("min(d20, d12, 2d6)", {}),
    ("max(1d-2, 1)%", {}), ("d6 - d6 + 2d6 - 3", {}), ("-(2d6 - 10)", {}),
    ("(d6+d4)*(d2+1)", {}), ("max(2d6, 1d12) + min(d4, 2) * 3", {}),
]
SEEDS = range(60)


class ViaRandint:
    """A random.Random asked only for its randint: the reference every draw must match."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.randint = rng.randint


@pytest.mark.parametrize(("text", "names"), GRID, ids=[t for t, _ in GRID])
def test_the_bits_give_the_rolls_and_totals_randint_gives(text, names):
    expr = parse_dice(text)
    for seed in SEEDS:
        reference, full, alone = (random.Random(seed) for _ in range(3))
        expected = [expr.roll(ViaRandint(reference), names) for _ in range(3)]
        rolled = [expr.roll(full, names) for _ in range(3)]  # drawn from the bits
        assert rolled == expected
        assert [r.describe() for r in rolled] == [r.describe() for r in expected]
        assert [expr.roll_total(alone, names) for _ in range(3)] == [r.total for r in expected]
        assert alone.getstate() == full.getstate() == reference.getstate()


@pytest.mark.parametrize(("text", "names"), GRID, ids=[t for t, _ in GRID])
def test_seeded_dice_give_the_total_their_roll_gives(text, names):
    expr = parse_dice(text)
    for seed in range(20):
        rolled, alone = SeededDice(seed), SeededDice(seed)
        for _ in range(3):
            assert alone.total(expr, names, "") == rolled.roll(expr, names, "").total
        assert alone.rng.getstate() == rolled.rng.getstate()


def test_a_battle_of_rolls_keeps_its_draws_whichever_way_each_roll_is_made():
    rng = random.Random(2026)
    exprs = [(parse_dice(text), names) for text, names in GRID]
    plan = [(rng.choice(exprs), rng.random() < 0.5) for _ in range(500)]
    rolled, mixed = SeededDice(11), SeededDice(11)
    for (expr, names), alone in plan:
        expected = rolled.roll(expr, names, "").total
        got = mixed.total(expr, names, "") if alone else mixed.roll(expr, names, "").total
        assert got == expected
    assert mixed.rng.random() == rolled.rng.random()


def test_the_bits_of_a_die_of_every_size_are_the_faces_randint_gives():
    for sides in (*range(1, 70), 99, 100, 101, 127, 128, 129, 255, 256, 1000, 1024, 10000):
        many, one, kept = (parse_dice(f"40d{sides}"), parse_dice(f"d{sides}"),
                                parse_dice(f"3d{sides}kh2"))
        reference, full, alone = (random.Random(sides) for _ in range(3))
        faces = [reference.randint(1, sides) for _ in range(48)]
        assert expr_faces(many.roll(full)) == faces[:40]
        assert [one.roll(full).total for _ in range(5)] == faces[40:45]
        assert expr_faces(kept.roll(full)) == faces[45:]
        assert many.roll_total(alone) == sum(faces[:40])
        assert [one.roll_total(alone) for _ in range(5)] == faces[40:45]
        assert kept.roll_total(alone) == sum(sorted(faces[45:])[1:])
        assert alone.getstate() == full.getstate() == reference.getstate()


def expr_faces(result) -> list[int]:  # type: ignore[no-untyped-def]
    return [face for die in result.dice for face in die.faces]


def test_a_roll_with_other_limits_is_the_same_roll():
    expr = parse_dice("3d6!kh2")
    limits = DiceLimits(max_explosion_depth=1)
    for seed in range(50):
        reference, full, alone = (random.Random(seed) for _ in range(3))
        expected = expr.roll(ViaRandint(reference), limits=limits)
        assert expr.roll(full, limits=limits) == expected
        assert expr.roll_total(alone, limits=limits) == expected.total
        assert alone.getstate() == full.getstate() == reference.getstate()


# -- generators and sources of another kind see every roll as before ----------------------
class Loaded(random.Random):
    """A generator of its own kind: its own randint, which the total must ask too."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls = 0

    def randint(self, a: int, b: int) -> int:
        self.calls += 1
        return b if self.calls % 3 else a


class OwnBits(random.Random):
    """A generator whose bits are its own: never drawn around its randint."""

    def getrandbits(self, k: int) -> int:
        return super().getrandbits(k) ^ 1 if k > 1 else super().getrandbits(k)


class Counter:
    """Not a random.Random at all: a plain object with randint."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.calls.append((a, b))
        return (len(self.calls) % b) + a


@pytest.mark.parametrize("make", [lambda: Loaded(5), lambda: OwnBits(5), Counter],
                         ids=["own-randint", "own-bits", "not-a-random"])
def test_a_generator_of_another_kind_is_asked_for_its_own_randint(make):
    for text, names in GRID:
        expr = parse_dice(text)
        rolled, alone = SeededDice(rng=make()), SeededDice(rng=make())
        for _ in range(3):
            assert alone.total(expr, names, "") == rolled.roll(expr, names, "").total
        if isinstance(rolled.rng, random.Random):
            assert alone.rng.getstate() == rolled.rng.getstate()
        if isinstance(rolled.rng, Counter):
            assert alone.rng.calls == rolled.rng.calls
        if isinstance(rolled.rng, Loaded):
            assert alone.rng.calls == rolled.rng.calls


def test_a_source_made_from_seeded_dice_is_asked_its_own_roll():
    class Loud(SeededDice):
        def __init__(self, seed: int) -> None:
            super().__init__(seed)
            self.heard: list[str] = []

        def roll(self, expr, names, label):  # type: ignore[no-untyped-def]
            self.heard.append(label)
            return super().roll(expr, names, label)

    loud = Loud(3)
    assert loud.total(parse_dice("3d6"), {}, "Red: casualties") == SeededDice(3).total(
        parse_dice("3d6"), {}, "")
    assert loud.heard == ["Red: casualties"]


def test_every_other_source_gives_the_total_of_its_roll():
    expr = parse_dice("2x(1d6+1)")
    recording = RecordingDice(SeededDice(8))
    assert recording.total(expr, {}, "a") == SeededDice(8).roll(expr, {}, "").total
    assert recording.log == [[d.faces[0] for d in SeededDice(8).roll(expr, {}, "").dice]]

    scripted = ScriptedDice([{"values": [3, 5]}, 4])
    assert scripted.total(expr, {}, "a") == 8 and scripted.unused == 1
    with pytest.raises(StratagemError, match="scripted roll #2"):
        scripted.total(expr, {}, "b")  # one total for two repetitions

    asked: list[str] = []
    prompt = PromptDice(lambda p: asked.append(str(p)) or "6", SeededDice(1))
    assert prompt.total(parse_dice("2d6"), {}, "Red: rout") == 6
    assert asked == ["Red: rout: roll 2d6 (Enter rolls for you): "]

    with pytest.raises(FirstRoll):
        StopAtFirstRoll().total(expr, {}, "a")
    with pytest.raises(NotImplementedError):
        DiceSource().total(expr, {}, "a")


@pytest.mark.parametrize(("text", "names"), [
    ("(N)d6", {"N": 10**9}),  # a limit
    ("(N)d6", {}),  # a name not given
    ("(N)x(1d6)", {"N": 0}),  # repetitions out of range
    ("4d6kh(K)", {"K": 5}),  # keeping more than were rolled
])
def test_an_error_is_the_same_error(text, names):
    expr = parse_dice(text)
    with pytest.raises(DiceError) as full:
        SeededDice(1).roll(expr, names, "")
    with pytest.raises(DiceError) as alone:
        SeededDice(1).total(expr, names, "")
    assert type(alone.value) is type(full.value)
    assert str(alone.value) == str(full.value) and alone.value.key == full.value.key
