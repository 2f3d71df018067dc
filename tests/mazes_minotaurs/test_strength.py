"""Strength of regiments and armies, superiority, unique foes (Epic Battles, «Сила полка»,
«Уникальные Противники», «Превосходство»)."""

from __future__ import annotations

from stratagem.api import load_army, rate_army, run_battle

from .conftest import EXAMPLES, army, by_name, duel, events, losses, name, units


def test_regiment_strength_is_count_times_bf(write):
    # Epic Battles, «Сила полка»: "полк из 100 солдат с БФ равным 6, будет иметь общее количество
    # Силы равной 600 ... может быть раздроблен на два меньших полка из 50 солдат (каждый из
    # которых имеет теперь Силу равную 300)".
    side = rate_army(load_army(write(army("""
  - {name: Whole, creature: human, count: 100}
  - {name: Half A, creature: human, count: 50}
  - {name: Half B, creature: human, count: 50}
"""), "army.yaml"))).side
    found = by_name(side.units)
    assert found["Whole"].strength == 600
    assert found["Half A"].strength == found["Half B"].strength == 300


def test_mixed_regiment(write):
    # Epic Battles, «Сила полка»: "объединенная сила из 100 солдат — людей (Боевой Фактор 6) и
    # 50 Кентавров (Боевой Фактор 8) имели бы общее количество Силы, равное 1000".
    side = rate_army(load_army(write(army("""
  - {name: Men of the phalanx, regiment: Phalanx, creature: human, count: 100}
  - {name: Centaurs of the phalanx, regiment: Phalanx, creature: centaur, bf: 8, count: 50}
"""), "army.yaml"))).side
    found = by_name(side.units)
    assert found["Men of the phalanx"].regiment_strength == 1000
    assert found["Centaurs of the phalanx"].regiment_strength == 1000
    assert side.strength == 1000


def test_army_strength_of_the_worked_example():
    # Epic Battles, «Сила полка»: "общая сила 100 людей-воинов (Сила 600), 100 мирмидонов
    # (Сила 110) и 50 Кентавров с луками (Сила 400) будет равна 1110" (centaurs at the
    # example's BF 8, stated; docs/rulesets/mazes-minotaurs.md, «Readings chosen»).
    side = rate_army(EXAMPLES / "seed-army.yaml").side
    found = by_name(side.units)
    assert found["Human warriors"].strength == 600
    assert found["Myrmidons"].strength == 110
    assert found["Centaur archers"].strength == 400
    assert side.strength == 1110


def test_superiority_table(rs):
    # Epic Battles, «Превосходство»: "отряд из 200 солдат (Сила 1200) против 50 кентавров
    # (Сила 400) получила бы премию Превосходства +3"; the town defence: "800 \ 300 = 2,6
    # ... премию Превосходства +2"; the table runs from "Меньше чем 1.5 к 1 — 0" to
    # "По крайней мере 10 к 1 или более +10".
    assert rs.evaluate("superiority(1200, 400)") == 3
    assert rs.evaluate("superiority(800, 300)") == 2
    assert rs.evaluate("superiority(300, 800)") == 0
    assert rs.evaluate("superiority(149, 100)") == 0
    assert rs.evaluate("superiority(150, 100)") == 1
    for ratio in range(2, 11):
        assert rs.evaluate("superiority(r * 100, 100)", r=ratio) == ratio
    assert rs.evaluate("superiority(3000, 100)") == 10


def test_superiority_in_battle(write):
    # Epic Battles, «Превосходство»: 200 soldiers (1200) against 50 centaurs stated at 400: +3
    # for the stronger side only.
    result = run_battle(write(duel(
        "      - {name: Soldiers, creature: human, count: 200}",
        "      - {name: Centaurs, creature: centaur, bf: 8, count: 50}",
        decisions="  risk: {\"*\": 0}")), dice=[10, 10])
    mods = {name(e["side"]): e for e in events(result.trace, "round.modifiers")}
    assert (mods["Red"]["strength"], mods["Red"]["enemy"]) == (1200, 400)
    assert mods["Red"]["superiority"] == 3
    assert mods["Blue"]["superiority"] == 0


def test_unique_foes_add_strength_but_are_never_casualties(write):
    # Epic Battles, «Уникальные Противники»: monsters add their BF to their regiment's strength;
    # PCs and major NPCs add their individual BF; "уникальные противники никогда не будут
    # подчиняться общей Морали отряда или входить в число его потерь".
    text = duel(
        "      - {name: Spearmen, creature: human, count: 100}",
        "      - {name: Boar-men, bf: 5, count: 100}",
        a_heroes="      - {name: Pyrrhus, regiment: Spearmen, hero_class: spearman, melee: 5,"
                 " equipment: 3}",
        b_heroes="      - {name: Minotaur, regiment: Boar-men, hero_type: monster, bf: 14}",
        decisions="  risk: {Red: 3, Blue: 3}")
    # Red 1d20 = 2, Blue 1d20 = 11: Blue wins by 9; Pyrrhus' feat roll 1 fails; Red, below
    # half its number, holds on a morale roll of 3.
    result = run_battle(write(text), dice=[2, 11, 1, 3])
    mods = {name(e["side"]): e for e in events(result.trace, "round.modifiers")}
    assert mods["Red"]["strength"] == 100 * 6 + (5 + 2 + 3)
    assert mods["Blue"]["strength"] == 100 * 5 + 14
    found = units(result)
    assert found["Spearmen"].count == 100 - losses(100, 6 * 10)
    heroes = {h.name: h for s in result.root.sides for h in s.heroes}
    assert heroes["Pyrrhus"].standing and heroes["Minotaur"].standing
    # the regiment's strength after losses still carries its unique foe, whole
    assert found["Spearmen"].force == found["Spearmen"].count * 6 + 10


def test_followers_take_the_usual_percentage(write):
    # Epic Battles, «Последователи и Главный НИП»: followers count among the % losses; "не имеет
    # никаких эффектов, если последователей меньше чем пять" (20 % of 4 rounds down to 0).
    text = duel(
        "      - {name: Hoplites, creature: human, count: 100}\n"
        "      - {name: Four followers, regiment: Hoplites, creature: human, count: 4,"
        " followers_of: Pyrrhus}\n"
        "      - {name: Five followers, creature: human, count: 5, followers_of: Pyrrhus}",
        "      - {name: Raiders, creature: tragos, count: 100}",
        decisions="  risk: {Red: 1, Blue: 1}")
    # Red 1d20 = 3 (+1 superiority), Blue 1d20 = 12: Blue wins, Red loses 2 × 10 %.
    result = run_battle(write(text), dice=[3, 12])
    found = units(result)
    assert found["Four followers"].count == 4
    assert found["Five followers"].count == 4
    assert found["Hoplites"].count == 80


def test_a_mixed_regiment_is_committed_as_one(write):
    # Epic Battles, «Фаза стратегии»: the general commits regiments or holds them back; the parts
    # of a mixed regiment («Сила полка») move together, by the regiment's name.
    text = duel(
        "      - {name: Men of the phalanx, regiment: Phalanx, creature: human, count: 100}\n"
        "      - {name: Centaurs of the phalanx, regiment: Phalanx, creature: centaur, bf: 8,"
        " count: 50}\n"
        "      - {name: Skirmishers, creature: human, equipment: 0, count: 50}",
        "      - {name: Raiders, creature: tragos, count: 100}",
        decisions="  risk: {\"*\": 0}\n  engage: {Phalanx: false}")
    result = run_battle(write(text), dice=[10, 9])
    reserve = sorted(name(e["unit"]) for e in events(result.trace, "strategy.reserve"))
    assert reserve == ["Centaurs of the phalanx", "Men of the phalanx"]
    asked = [e.values.get("for") for e in result.trace
             if e.step == "decide" and e.values.get("decision") == "engage"
             and e.procedure == "strategy_phase"]
    assert asked == ["Phalanx", "Skirmishers", "Raiders"]
