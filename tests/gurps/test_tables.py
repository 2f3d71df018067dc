"""The battle's tables and the arithmetic of the Strategy modifiers (GURPS Mass Combat, «Битва» to
«Экстраординарные Силы в Бою»; the Casualty Table of GURPS Mass Combat; docs/rulesets/gurps.md, «Readings chosen»)."""

from __future__ import annotations

import pytest

# GURPS Mass Combat, «Таблица Потерь», every row as printed: (lowest, highest difference, loss, least %).
SEED_CASUALTIES = [
    (-25, -19, "12d+60%", 0), (-18, -17, "11d+55%", 0), (-16, -15, "10d+50%", 0),
    (-14, -13, "9d+45%", 0), (-12, -11, "8d+40%", 0), (-10, -9, "7d+35%", 0),
    (-8, -7, "6d+30%", 0), (-6, -5, "5d+25%", 0), (-4, -3, "4d+20%", 0), (-2, -1, "4d+15%", 0),
    (0, 0, "4d+10%", 0), (1, 2, "4d+5%", 0), (3, 4, "(4d)%", 0), (5, 6, "(3d)%", 0),
    (7, 8, "2d+2%", 0), (9, 10, "(2d)%", 0), (11, 12, "1d+2%", 0), (13, 14, "(1d)%", 0),
    (15, 16, "1d-2%", 1), (17, 18, "1d-4%", 1),
]


@pytest.mark.parametrize("low, high, loss, least", SEED_CASUALTIES)
def test_casualty_table_rows(core, low, high, loss, least):
    """GURPS Mass Combat, «Таблица Потерь»: «— 19 или меньше | (12d + 60)%» ... «15, 16 | (1d-2)% (1 %
    мин.)» ... — each row, at both of its differences."""
    for key in (low, high):
        row = core.lookup("casualties", key)
        assert (row.loss.text, row.min, row.none) == (loss, least, False)


def test_casualty_table_ends(core):
    """GURPS Mass Combat: «— 19 или меньше | (12d + 60)%», «19 или больше | потерь нет»."""
    assert core.lookup("casualties", -40).loss.text == "12d+60%"
    assert core.lookup("casualties", 19).none
    assert core.lookup("casualties", 40).none


def test_casualty_rows_of_the_example_margin_3(core):
    """GURPS Mass Combat, «Потери»: «при разности в 3 проигравший ознакомляется с «-3» и теряет
    (4d+20 %) от своего войска, в то время как победитель смотрит на «3» и теряет (4d)%»."""
    assert core.lookup("casualties", -3).loss.text == "4d+20%"
    assert core.lookup("casualties", 3).loss.text == "(4d)%"


@pytest.mark.parametrize("troop, rows", [
    ("heavy_cavalry", 4), ("heavy_infantry", 4), ("medium_cavalry", 2), ("medium_infantry", 2),
    ("light_cavalry", 1), ("light_infantry", 1), ("pikemen", 1), ("irregular_infantry", 0),
    ("irregular_cavalry", 0),
])
def test_armour_moves_down_the_casualty_table(army, troop, rows):
    """GURPS Mass Combat, «Потери»: «Тяжелая Кавалерия и Тяжелая Пехота: спуститесь вниз на 4 строки.
    Средняя ...: на 2 строки. Легкая Кавалерия, Легкая Пехота, Копейщики: на 1 строку»."""
    side = army([f"{{name: U, troop: {troop}, count: 1}}"])
    assert side.units[0].armour_rows == rows


def test_shifted_rows(core):
    """GURPS Mass Combat: moving down the table from «-3»: 1 row «-1, -2» (4d+15)%, 2 rows «0»,
    4 rows «3, 4» — the Caliburn example's «спуская их на одну, две или четыре строчки»."""
    assert core.lookup("casualties", -3, shift=1).loss.text == "4d+15%"
    assert core.lookup("casualties", -3, shift=2).loss.text == "4d+10%"
    assert core.lookup("casualties", -3, shift=4).loss.text == "(4d)%"
    assert core.lookup("casualties", 17, shift=4).none
    assert core.lookup("casualties", -17, shift=-6).loss.text == "12d+60%"


@pytest.mark.parametrize("points, es", [
    (99, 0), (100, 0.5), (150, 1), (200, 2), (249, 2), (250, 3), (300, 5), (350, 8), (400, 12),
    (450, 16), (500, 20), (510, 21), (539, 23),
])
def test_extraordinary_strength_table(core, points, es):
    """GURPS Mass Combat, «Подсчет Экстраординарной Силы»: «100 очков = ½ ES, 150 = 1, 200 = 2,
    250 = 3, 300 = 5, 350 = 8, 400 = 12, 450 = 16, 500 = 20. Добавьте 1 ES за каждые 10 очков
    сверх этого»; fewer than 100 points are too weak."""
    assert core.evaluate("es_for_points(p)", p=points) == pytest.approx(es)


def test_es_modifiers(army):
    """GURPS Mass Combat, «Модификаторы Экстраординарной Силы»: «Маг обладает Камнем Силы: +1/10
    очков от емкости», an enchanted item +1..+5, «Низкий уровень маны: х 1/4 ... Очень высокий
    уровень маны: х 2»; psionics do not depend on mana."""
    side = army(["{name: Foot, troop: light_infantry, count: 10}"],
                casters="[{name: Archmage, points: 400, powerstone: 20, item_bonus: 2},"
                        " {name: Psi, points: 200, power: psionics}]")
    assert side.casters[0].es == 12 + 2 + 2
    assert side.casters[1].es == 2
    assert side.es_total == 18


@pytest.mark.parametrize("ratio, gap, bonus", [
    (1, 0, 0), (1.09, 0, 0), (3942 / 3500, 0, 1), (1.5, 0, 2), (2, 0, 3), (3, 0, 4), (4, 0, 5),
    (5, 0, 6), (7, 0, 7), (10, 0, 8), (30, 0, 8), (30, 2, 8), (30, 3, 10), (20, 3, 9),
    (19.9, 3, 8),
])
def test_ts_comparison(core, ratio, gap, bonus):
    """GURPS Mass Combat, «Сравнение Войсковых Сил» and docs/rulesets/gurps.md, «Readings chosen»: +1 at 1.1:1 ... +8 at 10:1, the cap;
    «когда армия TL6 сражается с TL3 феодальной армией, соотношение 30 к 1 даст бонус в +10»;
    the example's 3942/3500 gives +1."""
    assert core.evaluate("ts_comparison_bonus(r, g)", r=ratio, g=gap) == bonus


def test_tl_difference(core):
    """GURPS Mass Combat, «Разница в TL»: «если армия TL5 нападет на армию TL3, то она получит бонус
    +4 к своему уровню навыка Стратегии»."""
    assert core.evaluate("tl_bonus(5, 3)") == 4
    assert core.evaluate("tl_bonus(3, 5)") == 0
    assert core.evaluate("tl_bonus(4, 4)") == 0


def test_castle_on_a_hill_plus_10(core):
    """GURPS Mass Combat, «Оборонительная позиция»: «замок на вершине холма даст +10»; «Уменьшите
    значение модификаторов, помеченных звездочкой (*) на 2, если атакующий имеет артиллерию
    или оборудование для подкопов и экспертов–саперов»."""
    assert core.evaluate("position_total(['castle', 'steep_slope'], 0, false)") == 10
    assert core.evaluate("position_total(['castle', 'steep_slope'], 0, true)") == 8
    assert core.evaluate("starred_total(['castle', 'steep_slope'], 0, false)") == 8
    assert core.evaluate("position_total(['defile', 'attacker_from_cover'], 5, false)") == 4
    assert core.evaluate("position_total(['walled_city'], 0, false)") == 6


def test_home_ground_not_with_a_fortification(core):
    """GURPS Mass Combat, «Особые обстоятельства»: «На родной земле: +2 (не коммулятивно с
    Оборонительным бонусом за деревню, храм, город, поместье или другие укрепления)»."""
    assert core.evaluate("circumstances_total(['home_ground', 'forage_only'], false)") == 1
    assert core.evaluate("circumstances_total(['home_ground', 'forage_only'], true)") == -1
    assert core.evaluate("circumstances_total(['total_surprise', 'forced_march'], false)") == -8


@pytest.mark.parametrize("mine, theirs, bonus", [
    (600, 168, 2), (100, 0, 3), (0, 0, 0), (200, 100, 1), (199, 100, 0), (300, 100, 2),
    (499, 100, 2), (500, 100, 3),
])
def test_special_unit_superiority(core, mine, theirs, bonus):
    """GURPS Mass Combat, «Превосходство Специальных Подразделений» and docs/rulesets/gurps.md, «Readings chosen»: 2:1 +1, 3:1 +2, 5:1
    (or the enemy has none) +3, ratios rounded down; the example: «Мегалос получает +2 за
    превосходство в лучниках (600/168=3.2). Аль — Вазиф получает +3 за кавалерийское
    превосходство, т. к. Мегалос вовсе не имеет кавалерии»."""
    assert core.evaluate("superiority_bonus(a, b)", a=mine, b=theirs) == bonus


@pytest.mark.parametrize("roll, effect, strategy, all_units, unit_morale", [
    (3, "none", 0, 0, 0), (7, "none", 0, 0, 0), (8, "surprise", -1, 0, 0),
    (9, "surprise", -1, 0, 0), (10, "reinforcements", 0, 0, 0), (11, "plans_known", -2, 0, 0),
    (12, "friction", -2, -1, -1), (13, "atrocity", 0, 0, 0), (14, "defection", -2, 0, 0),
    (15, "leader_wounded", 0, -1, -2), (16, "commander_wounded", -2, -3, -3),
    (17, "leader_killed", -2, 0, -3), (18, "commander_killed", 0, -5, -5),
    (21, "commander_killed", 0, -5, -5),
])
def test_catastrophe_table(core, roll, effect, strategy, all_units, unit_morale):
    """GURPS Mass Combat, «Бросок Катастрофы», 3–18 (17 as the worked example reads it: −2 to
    Strategy, −3 to that unit's Morale); a roll pushed past 18 is still 18."""
    row = core.lookup("catastrophes", roll)
    assert (row.effect, row.strategy, row.morale_all, row.morale_unit) == (
        effect, strategy, all_units, unit_morale)


def test_catastrophe_details(core):
    """GURPS Mass Combat, «Бросок Катастрофы»: 10 raises the enemy's TS by 10 %; 13 and 14 make every
    unit roll Morale; 15/16 wound with 2d; 17/18 take a PC out; 18 halves the base Strategy."""
    assert core.lookup("catastrophes", 10).enemy_ts == 10
    assert core.lookup("catastrophes", 13).check_all and core.lookup("catastrophes", 14).leaves
    assert core.lookup("catastrophes", 15).wound_dice.text == "2d"
    assert core.lookup("catastrophes", 17).out and core.lookup("catastrophes", 17).lasting
    assert core.lookup("catastrophes", 18).halve


@pytest.mark.parametrize("margin, result, strategy", [
    (10, "covered_in_glory", 2), (9, "great_valour", 1), (7, "great_valour", 1),
    (6, "heroic", 1), (4, "heroic", 1), (3, "competent", 0), (0, "competent", 0),
    (-1, "adequate", 0), (-3, "adequate", 0), (-4, "poor", -1), (-6, "poor", -1),
    (-7, "very_poor", -3),
])
def test_glory_table(core, margin, result, strategy):
    """GURPS Mass Combat, «Бросок Боевого навыка и результат»: critical success +2, margin 7–9 +1,
    4–6 +1, 0–3 and failures by 1–3 nothing, failure by 4–6 −1, by 7+ (or critical) −3."""
    row = core.lookup("glory", margin)
    assert (row.result, row.strategy) == (result, strategy)


def test_glory_strategy_of_the_army_commander(core):
    """GURPS Mass Combat, «Бросок Славы»: «модификаторы к Стратегии используются только если персонаж
    является командиром отряда. Этот бонус к Стратегии на 1 очко больше (а пенальти — на одно
    очко меньше), если персонаж является командиром армии»."""
    assert core.evaluate("glory_strategy(2, 'soldier')") == 0
    assert core.evaluate("glory_strategy(2, 'unit_leader')") == 2
    assert core.evaluate("glory_strategy(2, 'commander')") == 3
    assert core.evaluate("glory_strategy(-3, 'commander')") == -4
    assert core.evaluate("glory_strategy(0, 'commander')") == 0


@pytest.mark.parametrize("margin, result, hits, column", [
    (5, "unhurt", 0, "none"), (1, "one_hit", 1, "none"), (4, "one_hit", 1, "none"),
    (0, "two_hits", 2, "none"), (-1, "column_a", 0, "a"), (-2, "column_a", 0, "a"),
    (-3, "column_b", 0, "b"), (-4, "column_b", 0, "b"), (-5, "column_c", 0, "c"),
    (-6, "column_c", 0, "c"), (-7, "column_d", 0, "d"), (-12, "column_d", 0, "d"),
])
def test_survival_table(core, margin, result, hits, column):
    """docs/rulesets/gurps.md, «Readings chosen», «Survival roll and Damage table — found»: success by 5+ unhurt, 1–4 1 hit,
    exactly 0 2 hits, failure by 1–2 column A, 3–4 B, 5–6 C, 7+ (or critical) D."""
    row = core.lookup("survival", margin)
    assert (row.result, row.hits, row.column) == (result, hits, column)


@pytest.mark.parametrize("tl, a, c", [
    (3, "max(0, 1d+2-DR)", "2x(max(0, 2d+2-DR))"),
    (5, "max(0, (TL/2)d-DR)", "2x(max(0, (TL)d-DR))"),
    (8, "max(0, (TL-3)d-DR)", "2x(max(0, (TL+3)d-DR))"),
    (12, "max(0, (TL)d-DR/2)", "2x(max(0, (2*TL)d-DR/2))"),
    (14, "max(0, (TL)d-DR/5)", "2x(max(0, (2*TL)d-DR/5))"),
    (16, "max(0, (TL)d-DR/10)", "2x(max(0, (2*TL)d-DR/10))"),
])
def test_damage_table(core, tl, a, c):
    """docs/rulesets/gurps.md, «Readings chosen», Damage by the battle's TL; «Check: the worked example fails Survival by 2 at
    TL3 and takes 1d+2 − DR»."""
    row = core.lookup("damage", tl)
    assert (row.a.text, row.c.text) == (a, c)


@pytest.mark.parametrize("skill, result", [(15, 1), (12, 0), (9, -1), (6, -2), (18, 2)])
def test_leadership_bonus(core, skill, result):
    """GURPS Mass Combat, «Командир отряда и Мораль»: +1 per 3 levels above 12, −1 per 3 below
    (docs/rulesets/gurps.md, «Readings chosen»: «Use −1»)."""
    assert core.evaluate("leadership_bonus(s)", s=skill) == result
