"""Steps 1-3 of War Machine (BFR, troop class, BR) and the quick BR.

Source: the War Machine chapter of the Rules Cyclopedia (its Russian translation); where the
printed figures differ: docs/rulesets/war-machine.md, «Where the printed figures differ».
"""

from __future__ import annotations

import pytest

from stratagem.api import load_army, load_ruleset, rate_army
from stratagem.cli import main

from .conftest import EXAMPLES, events

ELVES = EXAMPLES / "elves.yaml"

# War Machine, "Шаг 3", the example: bonus 10 added "за a. ..., c. и d. ..., h. и i. ...,
# j. и k. ... и l." — plus e. (12 of 500 elves have magic items, 2.4 % >= 1 %; docs/rulesets/war-machine.md, «Readings chosen»).
ELF_STATEMENTS = {"a": True, "b": False, "c": True, "d": True, "e": True, "f": False,
                  "g": False, "h": True, "i": True, "j": True, "k": True, "l": True}


@pytest.fixture(scope="module")
def elves():
    return rate_army(load_army(ELVES), explain=True)


def test_elf_prince_bfr_96_class_good(elves):
    # War Machine, "Шаг 3", example: "БРО равен 96 и класс отряда "хороший"".
    force = elves.side.forces[0]
    assert force.count == 500  # "отряд из 500 эльфов"
    assert force.bfr == 96
    assert force.computed_bfr == 96  # computed from the army's inputs, not stated
    assert force.troop_class == "good"


def test_elf_prince_bfr_comes_from_the_five_factors(elves):
    # The inputs documented in examples/war-machine/elves.yaml: leadership 10 + 2 + 1 + 3,
    # experience 6 + 4 + 3, training 20 + 20 + 12, equipment 5 + 5 + 5, no special troops.
    force = elves.side.forces[0]
    parts = (force.leadership, force.experience, force.training, force.equipment, force.special)
    assert parts == (16, 13, 52, 15, 0)
    assert sum(parts) == force.bfr


def test_elf_prince_bonus_10_and_br_186(elves):
    # War Machine: "Бонус равен 10% от 96: 9,6, что округляется до 10." The seed prints BR 176
    # (eight statements); docs/rulesets/war-machine.md, «Readings chosen»: statement e holds too, "bonus 10 applied nine times, BR 186".
    force = elves.side.forces[0]
    assert force.bonus == 10
    assert force.statements == 9
    assert force.br == 96 + 10 * 9 == 186


def test_elf_prince_statements_a_to_l(elves):
    found = {p["letter"]: p["holds"] for p in events(elves.trace, "rate.statement")}
    assert found == ELF_STATEMENTS


@pytest.mark.parametrize("lang, yes, no, klass", [("ru", "да", "нет", "хороший"),
                                                   ("en", "true", "false", "good")])
def test_rate_explain_lists_each_statement(capsys, lang, yes, no, klass):
    # `stratagem rate --explain` lists statements a-l with true/false (the demand).
    assert main(["rate", str(ELVES), "--explain", "--lang", lang]) == 0
    out = capsys.readouterr().out
    for letter, holds in ELF_STATEMENTS.items():
        lines = [ln.strip() for ln in out.splitlines() if ln.strip().startswith(f"{letter}. ")]
        assert len(lines) == 1, (letter, lines)
        assert lines[0].endswith(": " + (yes if holds else no))
    assert f"«{klass}»" in out if lang == "ru" else f"troop class {klass}" in out
    assert "186" in out


def test_stated_bfr_gives_the_same_br(write):
    # The rules let the book's example state BFR 96 instead of its inputs.
    army = write("""
kind: army
ruleset: war-machine
name: Stated
forces:
  - {name: Elves, count: 500, bfr: 96, mounted: 100, flyers: 100, missile: 500,
     long_range_missile: 500, magical: 12, spellcasters: 500, speed: 8}
""", "army.yaml")
    force = rate_army(army).side.forces[0]
    assert (force.bfr, force.troop_class, force.bonus, force.br) == (96, "good", 10, 186)


def _force(write, fields: str):
    army = write(f"""
kind: army
ruleset: war-machine
name: Test
forces:
  - {{name: Test, {fields}}}
""", "army.yaml")
    return rate_army(army).side.forces[0]


def test_leadership_name_level_troops(write):
    # "Уровень опыта лидера + модификаторы Интеллекта, Мудрости и Харизмы + 2 за каждый 1%
    # войск 9-го уровня и выше". 12 of 500 is 2.4 %: two whole percents, +4.
    force = _force(write, "count: 500, leader_level: 9, leader_int: 16, leader_wis: 8, "
                          "leader_cha: 18, name_level_troops: 12")
    assert force.leadership == 9 + 3 - 1 + 4 + 2 * 2


def test_experience_needs_one_officer_per_40_troops(write):
    # "В отряде должен быть как минимум один офицер на 40 солдат или эта часть расчета опыта
    # считается равной 0." 412 soldiers need 11 officers (10 x 40 = 400 < 412).
    short = _force(write, "count: 422, officers: 10, officer_level: 3, troop_level: 1")
    enough = _force(write, "count: 423, officers: 11, officer_level: 3, troop_level: 1")
    assert short.officer_experience == 0
    assert short.experience == 0 + 1 * 2
    assert enough.officer_experience == 3 * 3
    assert enough.experience == 9 + 2


def test_experience_victories_and_retreats_are_capped(write):
    # "+1 за победу (до +10)", "-1 за отступление (до -10)"; averages rounded up (2.5 x 2 = 5).
    force = _force(write, "count: 100, troop_level: 2.5, victories: 14, retreats: 3")
    assert force.experience == 5 + 10 - 3
    force = _force(write, "count: 100, troop_level: 1, victories: 2, retreats: 25")
    assert force.experience == 2 + 2 - 10


def test_training_caps(write):
    # "+1 за неделю тренировок (до 20)", "(до 20)" with the leader, "+1 за месяц (до 12)".
    force = _force(write, "count: 100, weeks_trained: 30, weeks_with_leader: 8, "
                          "months_together: 18")
    assert force.training == 20 + 8 + 12


def test_training_cost_note(write):
    # "войска, ведущий интенсивные тренировки требуют дополнительных затрат +1/4 обычных в
    # неделю": 8 weeks at 100 gp a week cost 8 x 25 = 200 gp more.
    army = write("""
kind: army
ruleset: war-machine
name: Test
forces:
  - {name: Test, count: 100, weeks_trained: 8, weekly_cost: 100}
""", "army.yaml")
    rated = rate_army(army)
    assert rated.side.forces[0].training_cost == 200
    assert events(rated.trace, "rate.training_cost")[0]["cost"] == 200


@pytest.mark.parametrize("fields, expected", [
    ("weapons: average", 5),                                         # "Используйте 5"
    ("weapons: good", 10),                                           # "10 ... хорошее"
    ("weapons: excellent, second_weapon: true", 20),                 # "15 ... отличное" + 5
    ("weapons: good, troop_level: 3, armour_class: 17", 15),         # AC 17 >= 14 + 3
    ("weapons: good, troop_level: 3, armour_class: 16", 10),         # AC 16 < 14 + 3
    ("weapons: excellent, second_weapon: true, troop_level: 1, armour_class: 15", 25),
])
def test_equipment(write, fields, expected):
    assert _force(write, "count: 100, " + fields).equipment == expected


def test_special_troops(write):
    # "за каждый 1% таких существ в отряде ... прибавляются 2 очка": 30 of 200 = 15 %.
    assert _force(write, "count: 200, special_troops: 30").special == 30


@pytest.mark.parametrize("bfr, klass", [
    (0, "untrained"), (20, "untrained"), (21, "poor"), (35, "poor"), (36, "below_average"),
    (55, "below_average"), (56, "fair"), (70, "fair"), (71, "average"), (80, "average"),
    (81, "good"), (100, "good"), (101, "excellent"), (125, "excellent"), (126, "elite"),
    (300, "elite"),
])
def test_troop_class_table(rs, bfr, klass):
    # War Machine, "Таблица класса отряда": 0-20 ... 126+.
    assert rs.lookup("class_by_bfr", bfr).troop_class == klass


@pytest.mark.parametrize("bfr, bonus", [(96, 10), (90, 9), (91, 10), (7, 1), (130, 13)])
def test_bonus_is_bfr_over_10_rounded_up(rs, bfr, bonus):
    # "Разделите БРО на 10, округлив в сторону увеличения."
    assert rs.evaluate("br_bonus(x)", x=bfr) == bonus


def test_bonus_added_up_to_twelve_times(write):
    # "Поскольку возможно прибавить бонус до 12 раз, суммарный бонус может превысить БРО."
    force = _force(write, "count: 100, bfr: 50, mounted: 100, missile: 100, "
                          "long_range_missile: 100, magical: 100, spellcasters: 100, "
                          "flyers: 100, speed: 12")
    assert force.statements == 12
    assert force.br == 50 + 5 * 12


def test_quick_br_seed_bands(write):
    # War Machine, "Быстрый боевой рейтинг": leader's level 5 + level 1-2: +20 + archers +10
    # + flyers +10 + maximum damage 8.
    force = _force(write, "count: 200, rating: quick, leader_level: 5, troop_level: 2, "
                          "missile: 50, flyers: 10, max_damage: 8")
    assert force.br == 5 + 20 + 10 + 10 + 8


@pytest.mark.parametrize("level, seed_bonus, original_bonus", [
    (0.5, 20, 20), (1, 20, 30), (2, 20, 30), (3, 30, 40), (4, 30, 40), (5, 55, 55),
    (6, 55, 55), (7, 65, 65), (8, 65, 65), (9, 80, 80), (14, 80, 80),
])
def test_quick_br_bands_seed_and_original(level, seed_bonus, original_bonus):
    # docs/rulesets/war-machine.md, «Readings chosen»: the book's bands (1-2: +20, 3-4: +30, 5-6: +55, 7-8: +65, 9+: +80) and the
    # English original's (under 1 HD: 20, 1-2: 30, 3-4: 40, 5-6: 55, 7-8: 65, 9+: 80).
    seed = load_ruleset("war-machine")
    original = load_ruleset("war-machine/original-quick-br")
    assert seed.evaluate("quick_level_bonus(x)", x=level) == seed_bonus
    assert original.evaluate("quick_level_bonus(x)", x=level) == original_bonus


def test_stated_br_is_kept(write):
    # War Machine, "Разделение отрядов": "отряд из 1 000 орков (БР 72)" — a BR the GM states.
    force = _force(write, "count: 1000, br: 72")
    assert force.br == 72 and force.bfr is None
