"""Fatigue (Epic Battles, «Фаза стратегии: Усталость»)."""

from __future__ import annotations

from stratagem.api import run_battle

from .conftest import duel, events, name

FOUR_HOURS = "{mode: land, max_rounds: 4}"


def _fatigue(result, side: str) -> list[int]:
    return [e["fatigue"] for e in events(result.trace, "round.modifiers")
            if name(e["side"]) == side]


def test_fatigue_after_more_rounds_than_bf(write):
    # "войска могут быть утомлены, если они сражаются уже в течении большого количества
    # последовательных раундов (больше их Боевого Фактора) и серьезно утомленны, если
    # сражаются уже в течении количества раундов, привышающих их Боевой Фактор в два раза";
    # "Армия умеренно утомлена -2; Армия серьезно утомлена -4"; "Существа со
    # Сверхъестественной выносливостью ... иммунны". BF 1: tired in hour 3 (2 rounds > 1),
    # seriously in hour 4 (3 rounds > 2). Risk 0: nobody loses anyone.
    text = duel("      - {name: Peasants, bf: 1, count: 100}",
                "      - {name: Golems, bf: 1, abilities: [supernatural_endurance], count: 100}",
                battle=FOUR_HOURS, decisions='  risk: {"*": 0}')
    result = run_battle(write(text), dice=[10, 5] * 4)
    assert _fatigue(result, "Red") == [0, 0, -2, -4]
    assert _fatigue(result, "Blue") == [0, 0, 0, 0]


def test_a_round_in_reserve_rests_a_regiment(write):
    # "последовательных раундов": the reading chosen (docs/rulesets/mazes-minotaurs.md) is that
    # a round in reserve breaks the run. Two BF 1 regiments take turns: never fatigued.
    text = duel("      - {name: Peasants, bf: 1, count: 100}\n"
                "      - {name: Militia, bf: 1, count: 100}",
                "      - {name: Golems, bf: 1, abilities: [supernatural_endurance], count: 100}",
                battle=FOUR_HOURS,
                decisions='  risk: {"*": 0}\n'
                          "  engage: {Peasants: [true, false, true, false],"
                          " Militia: [false, true, false, true]}")
    result = run_battle(write(text), dice=[10, 5] * 4)
    assert _fatigue(result, "Red") == [0, 0, 0, 0]
    reserve = [name(e["unit"]) for e in events(result.trace, "strategy.reserve")]
    assert reserve == ["Militia", "Peasants", "Militia", "Peasants"]
