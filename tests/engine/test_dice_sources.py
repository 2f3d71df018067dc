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


# -- a step that keeps only the total asks the source for the total ------------------------
TOTALS = """\
kind: ruleset
id: totals
constants: {n: 3}
entities:
  battle:
    fields: {out: {type: any, optional: true}}
tables:
  t:
    provenance: house-rule
    columns: {roll: dice}
    rows:
      - {key: 1, roll: "(n)d6kh2"}
entry: {battle: fight}
procedures:
  fight:
    steps:
      - roll: "3d6"
        as: a
      - roll: "2x(1d6+1)"
      - roll: "2x(d%)"
        as: b
        values_as: bs
      - roll: {from: "lookup('t', 1).roll"}
        as: c
      - roll: "(n)d8!"
        as: d
      - check: {roll: "3d6", target: "10"}
        as: e
      - update: battle
        set: {out: "[a, b, bs, c, d, e.roll]"}
"""


class Asked(SeededDice):
    """Seeded dice that note which of their methods each roll asked."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked: list[str] = []

    def roll(self, expr, names, label):  # type: ignore[no-untyped-def]
        self.asked.append(f"roll {expr.text}")
        return super().roll(expr, names, label)

    def total(self, expr, names, label):  # type: ignore[no-untyped-def]
        self.asked.append(f"total {expr.text}")
        return SeededDice.roll(self, expr, names, label).total


@pytest.mark.parametrize("backend", ["generated", "interpreter"])
def test_a_roll_kept_as_its_total_alone_asks_the_source_for_the_total(backend):
    from stratagem.compile.ruleset import compile_ruleset
    from stratagem.interp.codegen import procedures_for
    from stratagem.interp.context import Decisions, Run
    from stratagem.interp.steps import call
    from stratagem.loader.yamlio import load_yaml

    ruleset = compile_ruleset(load_yaml("totals.yaml", text=TOTALS))
    outs, asked = [], []
    for tracing in (True, False):
        root = ruleset.new_entity(ruleset.kinds["battle"], {}, None)
        source = Asked(5)
        call(Run(ruleset, root, source, Decisions(), tracing=tracing,
                 generated=procedures_for(ruleset, tracing, backend)), "fight", {})
        outs.append(root._f["out"])
        asked.append(source.asked)
    assert outs[0] == outs[1]  # the same battle with a trace and without
    assert asked[0] == ["roll 3d6", "roll 2x(1d6+1)", "roll 2x(d%)", "roll (n)d6kh2",
                        "roll (n)d8!", "roll 3d6"]
    assert asked[1] == ["total 3d6", "total 2x(1d6+1)", "roll 2x(d%)", "total (n)d6kh2",
                        "total (n)d8!", "roll 3d6"]
