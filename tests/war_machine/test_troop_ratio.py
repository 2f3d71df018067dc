"""The troop ratio — War Machine, "Шаг 4 ... 1. Соотношение сил" and its "Пояснения".

"+15 если 1,5:1, +30 если 2:1, +45 если 3:1, +60 если 4:1, +70 если 5:1, +80 если 6:1,
+90 если 7:1, +100 если 8-10:1, +110 если 11-15:1, +120 если 16-20:1, +130 если 21-30:1,
+140 если 31-40:1, +150 если 41-50:1, +160 если 51-60:1 и т.д." — "Если получилось от 1,01
до 1,5 используйте модификатор 1,5. Только более многочисленная сторона получает этот бонус".
The ladder goes on +10 for each further 10:1 (the issue; docs/rulesets/war-machine.md, «Readings chosen» reading).
"""

from __future__ import annotations

import pytest

from stratagem.api import run_battle

from .conftest import duel, events, name


@pytest.mark.parametrize("ratio, bonus", [
    (1.2, 15), (2.5, 30), (9, 100), (55, 160), (75, 180),     # the issue's five ratios
])
def test_issue_ratios(rs, ratio, bonus):
    assert rs.evaluate("troop_ratio_bonus(r)", r=ratio) == bonus


@pytest.mark.parametrize("ratio, bonus", [
    (1, 0), (1.01, 15), (1.5, 15), (1.99, 15), (2, 30), (3, 45), (4, 60), (5, 70), (6, 80),
    (7, 90), (8, 100), (10, 100), (11, 110), (15, 110), (16, 120), (20, 120), (21, 130),
    (30, 130), (31, 140), (40, 140), (41, 150), (50, 150), (51, 160), (60, 160),
    (61, 170), (70, 170), (71, 180), (80, 180), (81, 190), (101, 210),
])
def test_the_whole_ladder(rs, ratio, bonus):
    assert rs.evaluate("troop_ratio_bonus(r)", r=ratio) == bonus


@pytest.mark.parametrize("red, blue, bonus", [(1200, 1000, 15), (2500, 1000, 30),
                                              (900, 100, 100), (5500, 100, 160),
                                              (7500, 100, 180)])
def test_in_battle_only_the_larger_force_gains(write, red, blue, bonus):
    text = duel(f"{{name: Red, count: {red}, br: 50}}", f"{{name: Blue, count: {blue}, br: 50}}")
    result = run_battle(write(text), dice=[50, 50], dice_fallback=True)
    ratios = [(name(r["force"]), r["mine"], r["theirs"], r["value"])
              for r in events(result.trace, "battle.troop_ratio")]
    assert ratios == [("Red", red, blue, bonus)]
    first = events(result.trace, "battle.rating")
    assert [(name(r["force"]), r["total"]) for r in first] == [("Red", bonus), ("Blue", 0)]
