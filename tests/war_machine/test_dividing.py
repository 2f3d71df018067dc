"""Dividing forces and choosing opponents — War Machine, "Разделение отрядов".

"отряд из 1 000 орков (БР 72) встречается с тремя другими отрядами: 200 эльфов (БР 83),
400 людей (БР 70) и 140 дворфов (БР 88). Орков надо поделить на три отряда, у каждого из
которых будет одинаковый БР (72). Например, 100, 100 и 800 ... дворфы выбирают одну группу
из 100 орков. Следующий по рейтингу отряд это эльфы, они выбирают другую группу из 100 орков.
Третьи по рейтингу это орки ... 800 орков будут сражаться с 400 людьми."
"""

from __future__ import annotations

import pytest

from stratagem.api import run_battle

from .conftest import EXAMPLES, events, name

ORCS = EXAMPLES / "orcs.yaml"


@pytest.fixture(scope="module")
def battle():
    return run_battle(ORCS, seed=7)


def _round_one(trace, key):
    """Events with ``key`` before the first fight."""
    out = []
    for event in trace:
        if event.key == "battle.fight":
            break
        if event.key == key:
            out.append(event.params)
    return out


def test_orcs_split_into_three_forces_of_br_72(battle):
    splits = _round_one(battle.trace, "battle.split")
    assert [(name(s["force"]), name(s["part"]), s["size"], s["rest"]) for s in splits] == [
        ("Orcs", "Orcs (2)", 100, 900),
        ("Orcs", "Orcs (3)", 100, 800),
    ]
    orcs = battle.root.sides[0].forces
    assert [f.name for f in orcs][:3] == ["Orcs", "Orcs (2)", "Orcs (3)"]
    assert all(f.br == 72 for f in orcs)
    assert [s["br"] for s in splits] == [72, 72]


def test_pairing_follows_dwarves_elves_orcs(battle):
    pairs = [(name(p["chooser"]), p["chooser_br"], name(p["foe"]), p["foe_br"])
             for p in _round_one(battle.trace, "battle.pairing")]
    assert pairs == [
        ("Dwarves", 88, "Orcs (2)", 72),   # "дворфы выбирают одну группу из 100 орков"
        ("Elves", 83, "Orcs (3)", 72),     # "эльфы ... выбирают другую группу из 100 орков"
        ("Orcs", 72, "Men", 70),           # "800 орков будут сражаться с 400 людьми"
    ]


def test_the_first_fights_match_the_pairs(battle):
    fights = [(name(f["a"]), name(f["b"])) for f in events(battle.trace, "battle.fight")][:3]
    assert sorted(fights) == [("Orcs", "Men"), ("Orcs (2)", "Dwarves"), ("Orcs (3)", "Elves")]


def test_troop_ratio_of_the_800_against_the_400(battle):
    # 800 : 400 = 2 : 1 -> "+30 если 2:1", for the larger force only.
    ratios = [(name(r["force"]), r["value"]) for r in events(battle.trace, "battle.troop_ratio")]
    assert ("Orcs", 30) in ratios
    assert ("Men", 30) not in ratios


def test_default_split_is_even(write):
    # Without the GM's sizes the force splits as evenly as it can: 1,000 -> 333, 333, 334.
    text = ORCS.read_text(encoding="utf-8").replace(
        "  split_size: {Orcs: [100, 100]}     # \"100, 100 и 800\"\n", "")
    text = text.replace("army: orc-horde.yaml", f"army: {EXAMPLES / 'orc-horde.yaml'}")
    text = text.replace("army: alliance.yaml", f"army: {EXAMPLES / 'alliance.yaml'}")
    result = run_battle(write(text), seed=1)
    sizes = [s["size"] for s in _round_one(result.trace, "battle.split")]
    rests = [s["rest"] for s in _round_one(result.trace, "battle.split")]
    assert sizes == [333, 333] and rests[-1] == 334


def test_each_part_keeps_at_least_10(write):
    # "пока в каждом отряде остается не менее 10 комбатантов": 25 troops against three forces
    # make 10 + 15 and can split no further; the third enemy force finds no opponent.
    from .conftest import duel

    text = duel("{name: Few, count: 25, br: 50}", "{name: A, count: 10, br: 50}").replace(
        "    forces: [{name: A, count: 10, br: 50}]",
        "    forces: [{name: A, count: 10, br: 50}, {name: B, count: 10, br: 50},"
        " {name: C, count: 10, br: 50}]")
    result = run_battle(write(text), seed=3)
    splits = _round_one(result.trace, "battle.split")
    assert [(s["size"], s["rest"]) for s in splits] == [(10, 15)]
    assert [name(p["side"]) for p in _round_one(result.trace, "battle.cannot_split")] == [
        "Red side"]
    assert len(_round_one(result.trace, "battle.unmatched")) == 1


def test_a_split_size_below_10_is_refused(write):
    from stratagem.errors import StratagemError

    text = ORCS.read_text(encoding="utf-8").replace("[100, 100]", "[5, 100]")
    text = text.replace("army: orc-horde.yaml", f"army: {EXAMPLES / 'orc-horde.yaml'}")
    text = text.replace("army: alliance.yaml", f"army: {EXAMPLES / 'alliance.yaml'}")
    with pytest.raises(StratagemError, match="split_size"):
        run_battle(write(text), seed=1)
