"""The Combat Results table — War Machine, "Применение результатов боя".

"Вычтите исход проигравшего из исхода победителя. Найдите разность в левой колонке таблицы
Результаты боя. Примените потери, усталость и локацию к победившему (W) и проигравшему (L)".
Every row is reached by a scripted battle whose difference falls in it (both ends of each
row), and its casualties, fatigue and location are checked on both forces.
"""

from __future__ import annotations

import pytest

from stratagem.api import run_battle

from .conftest import duel, events, forces, name

# The book's table as printed: difference -> W %, L %, W fatigue, L fatigue, W place, L place.
# N/M/S = no / moderate / serious fatigue; F, F+#, R, R+#, "Бегство" (rout), "-" (destroyed).
SEED_TABLE = [
    ((1, 8), 0, 10, "N", "N", "F", "R"),
    ((9, 15), 0, 20, "N", "N", "F", "R"),
    ((16, 24), 10, 20, "N", "M", "F", "R"),
    ((25, 30), 10, 30, "N", "M", "F", "R+1"),
    ((31, 38), 20, 40, "M", "S", "R", "R"),
    ((39, 50), 0, 30, "N", "S", "F", "R+2"),
    ((51, 63), 20, 50, "M", "S", "F+1", "R+3"),
    ((64, 80), 30, 60, "M", "S", "F+1", "R+3"),
    ((81, 90), 10, 50, "N", "S", "F+3", "R+2"),
    ((91, 100), 0, 30, "N", "Бегство", "F+3", "Бегство"),
    ((101, 120), 20, 70, "N", "Бегство", "F+3", "Бегство"),
    ((121, 150), 10, 70, "N", "Бегство", "F+3", "Бегство"),
    ((151, 199), 10, 100, "N", "-", "F+5", "-"),       # "150+"
]
FATIGUE = {"N": "none", "M": "moderate", "S": "serious"}
TROOPS = 1000


def _cases():
    for (low, high), *row in SEED_TABLE:
        for difference in (low, high):
            yield pytest.param(difference, *row, id=f"diff{difference}")


def _place(code: str) -> tuple[str, int]:
    if code == "Бегство":
        return "rout", 0
    if code == "-":
        return "destroyed", 0
    where = {"F": "field", "R": "retreat"}[code[0]]
    return where, int(code[2:]) if "+" in code else 0


def _fight(write, difference: int):
    """Red beats Blue by exactly ``difference``: BR 100 vs 100 (or 200 vs 100 past 99)."""
    red_br = 100 if difference < 100 else 200
    red_roll = difference - (red_br - 100) + 1
    text = duel(f"{{name: Red, count: {TROOPS}, br: {red_br}}}",
                f"{{name: Blue, count: {TROOPS}, br: 100}}")
    return run_battle(write(text), dice=[red_roll, 1], dice_fallback=True)


@pytest.mark.parametrize("difference, w_loss, l_loss, w_fat, l_fat, w_place, l_place",
                         list(_cases()))
def test_row(write, difference, w_loss, l_loss, w_fat, l_fat, w_place, l_place):
    result = _fight(write, difference)
    fight = events(result.trace, "battle.fight")[0]
    assert name(fight["winner"]) == "Red" and fight["difference"] == difference
    red, blue = forces(result)["Red"], forces(result)["Blue"]
    for force, loss, fat, code in ((red, w_loss, w_fat, w_place), (blue, l_loss, l_fat, l_place)):
        lost = TROOPS * loss // 100
        where, move = _place(code)
        assert force.count == TROOPS - lost, force.name
        assert (force.location, force.move) == (where, move), force.name
        if fat in FATIGUE:
            assert force.fatigue == FATIGUE[fat], force.name
        # "считайте половину убитыми, а половину раненными ... Если отряд отступает с поля
        # боя, считайте всех раненных убитыми."
        if where == "field":
            assert (force.dead, force.wounded) == (lost // 2, lost // 2), force.name
        else:
            assert (force.dead, force.wounded) == (lost, 0), force.name


def test_wounded_return_in_1d4_months_when_holding_the_field(write):
    # Difference 57 (row 51-63): Red holds (F+1) with 200 casualties, 100 of them wounded.
    # Dice after the two d100: Red's fatigue 1d4 = 2, Blue's serious fatigue 1d4 = 3 and 1d4
    # = 4, then the wounded 1d4 = 3 months.
    text = duel("{name: Red, count: 1000, br: 100}", "{name: Blue, count: 1000, br: 100}")
    result = run_battle(write(text), dice=[58, 1, 2, 3, 4, 3])
    assert events(result.trace, "battle.fatigue_moderate")[0]["days"] == 2
    serious = events(result.trace, "battle.fatigue_serious")[0]
    assert (serious["to_moderate"], serious["to_rested"]) == (3, 4)
    back = events(result.trace, "battle.wounded_return")
    assert [(name(b["force"]), b["wounded"], b["months"]) for b in back] == [("Red", 100, 3)]


def test_rout_survivors_go_home_in_1d10_weeks(write):
    # Difference 95 (row 91-100): Blue loses 30 % and routs; "Выжившие через 1к10 недель
    # возвращаются по домам."
    text = duel("{name: Red, count: 1000, br: 100}", "{name: Blue, count: 1000, br: 100}")
    result = run_battle(write(text), dice=[96, 1, 7])
    rout = events(result.trace, "battle.rout")
    assert [(name(r["force"]), r["survivors"], r["weeks"]) for r in rout] == [("Blue", 700, 7)]


def test_ties_are_rolled_again(write):
    text = duel("{name: Red, count: 1000, br: 100}", "{name: Blue, count: 1000, br: 100}")
    result = run_battle(write(text), dice=[40, 40, 30, 35], dice_fallback=True)
    fight = events(result.trace, "battle.fight")[0]
    assert name(fight["winner"]) == "Blue" and fight["difference"] == 5


def test_casualties_round_up(write):
    # "#% - процент убитых и раненных. Дробные доли округляются в сторону увеличения."
    # 155 troops x 10 % = 15.5 -> 16 (the loser retreats: all 16 dead).
    text = duel("{name: Red, count: 155, br: 100}", "{name: Blue, count: 155, br: 100}")
    result = run_battle(write(text), dice=[6, 1], dice_fallback=True)
    blue = forces(result)["Blue"]
    assert (blue.count, blue.dead) == (155 - 16, 16)


TWO_ROUNDS = """
kind: scenario
ruleset: war-machine
name: Two rounds
sides:
  - name: Red side
    forces: [{name: Red A, count: 100, br: 60}, {name: Red B, count: 100, br: 50}]
  - name: Blue side
    forces: [{name: Blue A, count: 100, br: 55}, {name: Blue B, count: 100, br: 65}]
"""


def test_a_new_round_while_both_sides_hold_the_field(write):
    # "Если сражается несколько отрядов и 1 и более на каждой стороне удерживает поле боя,
    # между ними можно провести еще один раунд битвы." Blue B (BR 65) chooses first and takes
    # Red A; Red B is left with Blue A. Round 1: Blue B beats Red A, Red B beats Blue A (both
    # by 5, row 1-8). Red B and Blue B still hold the field: round 2.
    text = TWO_ROUNDS
    result = run_battle(write(text), dice=[10, 10, 20, 10], dice_fallback=True)
    fights = [(name(f["a"]), name(f["b"]), name(f["winner"]))
              for f in events(result.trace, "battle.fight")]
    assert fights[:2] == [("Red A", "Blue B", "Blue B"), ("Red B", "Blue A", "Red B")]
    assert fights[2][:2] == ("Red B", "Blue B")
    assert len(fights) == 3
    assert [e["round"] for e in events(result.trace, "battle.round")] == [1, 2]
    # "Если все вражеские отряды покинули единицу местности ... битва на этот день завершена."
    assert events(result.trace, "battle.day_over")[-1]["outcome"] == "one"


def test_forces_may_withdraw_to_avoid_another_round(write):
    # "Если часть отрядов игрока бежали или отступили, оставшиеся тоже могут отступить, чтобы
    # избежать еще одной битвы." As above, but Red B wins by 20 (row 16-24: W 10 %, 5 dead and
    # 5 wounded) and then withdraws: no round 2.
    text = """
kind: scenario
ruleset: war-machine
name: Withdraw
sides:
  - name: Red side
    forces: [{name: Red A, count: 100, br: 60}, {name: Red B, count: 100, br: 50}]
  - name: Blue side
    forces: [{name: Blue A, count: 100, br: 55}, {name: Blue B, count: 100, br: 65}]
decisions:
  withdraw: {Red B: true}
"""
    result = run_battle(write(text), dice=[10, 10, 35, 10], dice_fallback=True)
    assert len(events(result.trace, "battle.fight")) == 2
    assert [name(w["force"]) for w in events(result.trace, "battle.withdrawal")] == ["Red B"]
    red_b = forces(result)["Red B"]
    # it leaves the field, so its wounded count as dead
    assert (red_b.location, red_b.wounded, red_b.dead) == ("retreat", 0, 10)


def test_ally_routed_costs_10_in_the_next_round(write):
    # "-10 если любой из союзных отрядов бежал": Blue A routs in round 1 (difference 95);
    # in round 2 Blue B fights with -10.
    text = """
kind: scenario
ruleset: war-machine
name: Rout
sides:
  - name: Red side
    forces: [{name: Red A, count: 100, br: 100}, {name: Red B, count: 100, br: 50}]
  - name: Blue side
    forces: [{name: Blue A, count: 100, br: 5}, {name: Blue B, count: 100, br: 65}]
"""
    result = run_battle(write(text), dice=[1, 1, 10, 10], dice_fallback=True)
    assert forces(result)["Blue A"].location == "rout"
    reasons = [(name(m["force"]), str(m["reason"]), m["value"])
               for m in events(result.trace, "battle.modifier")]
    assert ("Blue B", "ally_routed", -10) in reasons


def test_wounded_of_an_earlier_round_die_when_the_force_retreats(write):
    # Round 1: Red B beats Blue A by 20 (row 16-24: W 10 % = 5 dead, 5 wounded; Blue A is
    # moderately fatigued, 1d4 = 2 days). Round 2: Blue B (65 + 50, +15 for 100 against 90)
    # beats Red B (50 + 1) by 79 (row 64-80: L 60 %, R+3). Red B leaves the field, so its 54
    # casualties and the 5 wounded of round 1 all count as dead.
    text = TWO_ROUNDS
    result = run_battle(write(text), dice=[10, 10, 35, 10, 2, 1, 50], dice_fallback=True)
    fights = [(name(f["a"]), name(f["b"]), f["difference"])
              for f in events(result.trace, "battle.fight")]
    assert fights == [("Red A", "Blue B", 5), ("Red B", "Blue A", 20), ("Red B", "Blue B", 79)]
    lost = events(result.trace, "battle.wounded_lost")
    assert [(name(w["force"]), w["wounded"]) for w in lost] == [("Red B", 5)]
    red_b = forces(result)["Red B"]
    assert (red_b.count, red_b.dead, red_b.wounded, red_b.location, red_b.move) == (
        36, 5 + 54 + 5, 0, "retreat", 3)
