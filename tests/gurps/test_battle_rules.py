"""The battle procedure rule by rule (GURPS Mass Combat, «Битва» ... «Несколько Противников»), each with
a small scenario and scripted dice."""

from __future__ import annotations

import pytest

from stratagem.api import rate_army
from stratagem.errors import StratagemError

from .conftest import events, one, unit

TWO_SIDES = """
kind: scenario
ruleset: {ruleset}
name: Test
battle: {battle}
sides:
  - name: Red
    role: attacker
    strategy: {red_strategy}
{red_extra}    units:
{red_units}
  - name: Blue
    role: defender
    strategy: {blue_strategy}
{blue_extra}    units:
{blue_units}
"""


def scenario(red_units, blue_units, *, ruleset="gurps-mass-combat", battle="{}", red_strategy=12,
             blue_strategy=12, red_extra="", blue_extra=""):
    def lines(units):
        return "\n".join(f"      - {u}" for u in units)

    def extra(text):
        return "".join(f"    {line}\n" for line in text.splitlines() if line.strip())

    return TWO_SIDES.format(ruleset=ruleset, battle=battle, red_strategy=red_strategy,
                            blue_strategy=blue_strategy, red_extra=extra(red_extra),
                            blue_extra=extra(blue_extra), red_units=lines(red_units),
                            blue_units=lines(blue_units))


RED = ["{name: Red foot, troop: light_infantry, count: 100}"]
BLUE = ["{name: Blue foot, troop: light_infantry, count: 100}"]


def test_defender_behind_a_palisade_consults_row_0(fight):
    """GURPS Mass Combat, «Потери»: «если Обороняющийся провалил бросок на 3, но имел +3 модификатор
    к Стратегии из–за своей позиции, то он должен консультироваться со строкой «0»»; starred
    positions bring Table C when the attacker wins («В. Победил Атакующий», 1–3: both hold)."""
    result = fight(scenario(RED, BLUE, blue_extra="position: [palisade]"),
                   dice=[5, 5, 6, 12, 9, 15])
    assert one(result, "strategy.modifiers", side="Blue")["position"] == 3
    assert result.root.results_table == "c"
    assert one(result, "casualties.side", side="Blue")["key"] == 0
    assert one(result, "casualties.side", side="Blue")["loss"] == "4d+10%"
    assert one(result, "casualties.side", side="Red")["key"] == 3
    assert {u.status for s in result.root.sides for u in s.units} == {"hold"}


def test_table_b_repulse_then_minus_2_morale_and_half_the_army(fight):
    """GURPS Mass Combat, «Б. Победил Оборонявшийся»: «0–3: ... Атакующий был отброшен на исходные
    позиции. Он может атаковать повторно на следующий день с -2 к Морали»; «4–7: Атакующий
    удерживает позицию если хотя бы половина его войск успешно пробрасывает Мораль; в ином
    случая вся армия отступает в хорошем порядке»."""
    result = fight(scenario(RED, BLUE, battle="{days: 2}", blue_extra="position: [castle]"),
                   dice=[5, 5, 10, 16, 14, 3,
                         5, 5, 10, 12, 12, 30, 2])
    day1, day2 = events(result, "results.outcome")
    assert day1["table"].key == "enum.result_table.b" and day1["difference"] == 2
    assert one(result, "side.status", side="Red")["status"].key == "enum.status.repulsed"
    # day one cost Red more: Blue's TS is now 1.1 times Red's, +1 to its Strategy
    assert day2["difference"] == 7
    rolls = [e for e in result.trace if e.key == "morale.roll"]
    assert [(e.params["target"], e.params["total"]) for e in rolls] == [(11, 12)]
    half = one(result, "side.half_check", side="Red")
    assert (half["passed"], half["status"].key) == (0, "enum.status.retreat")
    assert unit(result.root.sides[0], "Red foot").status == "retreat"


def test_table_c_no_escape_hold_or_surrender(fight):
    """GURPS Mass Combat, «В. Победил Атакующий», 13–16: «Каждый отряд Обороняющегося отступает* в
    хорошем порядке, если сделал успешную проверку Морали. Провалившие ее бегут или, если нет
    возможности спастись, сдаются»; «* ... каждый его отряд делает второй бросок Морали с +2.
    Успех означает что отряд удерживает позицию ... Провал вынуждает их сдаться»."""
    blue = ["{name: Keep guard, troop: light_infantry, count: 50}",
            "{name: Wall guard, troop: light_infantry, count: 50}"]
    result = fight(scenario(RED, blue, red_strategy=16, blue_strategy=10,
                            blue_extra="position: [palisade]\ncan_retreat: false"),
                   dice=[5, 5, 3, 13, 10, 9, 16, 2, 40, 40])
    assert result.root.results_table == "c" and result.root.difference == 13
    blue_side = result.root.sides[1]
    assert unit(blue_side, "Keep guard").status == "hold"
    assert unit(blue_side, "Wall guard").status == "surrender"
    second = [e.params for e in result.trace if e.key == "morale.roll"][1]
    assert second["target"] == 13 + 2


def test_rout_moves_up_1d_rows_and_second_survival(fight):
    """GURPS Mass Combat: «Если отряд бежит в панике, то бросьте кубик и поднимитесь на число строк»;
    «Второй бросок Выживания»: «Уменьшите этот бросок на‑1 за каждые 3 очка разности ...
    Если отряд персонажа игрока бежит, то второй бросок Выживания идет с -2»."""
    blue_extra = ("heroes:\n  - {name: Sir Bob, unit: Blue foot, battle_skill: 12, ht: 10}")
    result = fight(scenario(RED, BLUE, red_strategy=15, blue_extra=blue_extra),
                   dice=[5, 5, 10, 10, 5, 12, 17, 3, 3, 60, 9, [3]])
    assert one(result, "results.outcome")["outcome"].key == "enum.outcome.significant"
    assert unit(result.root.sides[1], "Blue foot").status == "rout"
    blue = one(result, "casualties.unit", unit="Blue foot")
    assert blue["shift"] == 1 - 3
    assert blue["loss"] == "9d+45%"
    second = one(result, "hero.second_survival", hero="Sir Bob")
    assert (second["modifier"], second["target"]) == (-(10 // 3) - 2, 12 - 5)
    survivals = events(result, "hero.survival", hero="Sir Bob")
    assert [s["damage"] for s in survivals] == [1, 3 + 2]     # column A at TL3: 1d+2 − DR
    assert result.root.sides[1].heroes[0].current_hp == 10 - 6


def test_intense_battle_moves_both_sides_up(fight):
    """GURPS Mass Combat: «Если ГМ считает, что битва велась очень интенсивно, то результаты потерь
    обеих сторон могут быть подняты на одну или более строк»."""
    result = fight(scenario(RED, BLUE, battle="{intensity: 2}", red_strategy=15),
                   dice=[5, 5, 5, 12, 10, 6, 60])
    assert one(result, "casualties.unit", unit="Red foot")["shift"] == 1 - 2
    assert one(result, "casualties.unit", unit="Blue foot")["shift"] == 1 - 2


def test_captured_artillery_and_loot(fight):
    """GURPS Mass Combat: «Потерянная артиллерия становится добычей победителя»; «Грабеж»: «средняя
    стоимость снятой с убитого ... экипировки равна 1/3 от стоимости его найма ... Его удастся
    продать ... только за 20 % от исходной цены»."""
    red = ["{name: Red foot, troop: medium_infantry, count: 100}"]
    blue = ["{name: Blue foot, troop: medium_infantry, count: 100}",
            "{name: Blue engines, troop: small_engine, count: 2}"]
    result = fight(scenario(red, blue, ruleset="gurps-mass-combat/yrth", red_strategy=16),
                   dice=[5, 5, 11, 12, 10, 9, 5, 25, 40])
    assert one(result, "results.outcome")["outcome"].key == "enum.outcome.minor"
    red_side, blue_side = result.root.sides
    prize = [u for u in red_side.units if u.captured_from == "Blue"]
    assert len(prize) == 1 and prize[0].count == 1 and prize[0].troop == "small_engine"
    assert unit(blue_side, "Blue engines").count == 1
    assert result.root.field_held_by == "Red"
    dead = unit(blue_side, "Blue foot").dead
    assert dead == 12
    assert red_side.loot_value == dead * 5000 // 3
    assert red_side.loot_sale_value == dead * 5000 * 20 // 100


def test_after_a_draw_each_side_keeps_half_its_lost_artillery(fight):
    """GURPS Mass Combat: «после "ничейной" битвы каждая сторона сохраняет половину из потерянной
    артиллерии, остальная считается безвозвратно уничтоженной»."""
    blue = ["{name: Blue foot, troop: medium_infantry, count: 100}",
            "{name: Blue engines, troop: small_engine, count: 4}"]
    red = ["{name: Red foot, troop: medium_infantry, count: 100}"]
    result = fight(scenario(red, blue, ruleset="gurps-mass-combat/yrth"),
                   dice=[5, 5, 10, 11, 10, 10, 10, 10, 10, 30])
    assert one(result, "results.outcome")["outcome"].key == "enum.outcome.no_clear_winner"
    engines = unit(result.root.sides[1], "Blue engines")
    assert engines.engines_lost == 2 and engines.count == 2 + 1
    assert one(result, "artillery.kept")["destroyed"] == 1


def test_tactics_under_200_men_and_a_killed_commander(fight):
    """GURPS Mass Combat: «в битвах, включающий меньше 200 человек, используйте Тактику вместо
    Стратегии»; Catastrophe 18: «Командир армии убит ... Базовый бросок Стратегии уменьшен
    вполовину (округляя вверх), — 5 к Морали всех отрядов»."""
    red = ["{name: Red foot, troop: light_infantry, count: 50}"]
    blue = ["{name: Blue foot, troop: light_infantry, count: 50}"]
    result = fight(scenario(red, blue, red_strategy="16\n    tactics: 11"),
                   dice=[18, 5], dice_fallback=True, seed=1)
    total = one(result, "strategy.total", side="Red")
    assert total["tactics"] and total["skill"] == 6
    assert unit(result.start.sides[0], "Red foot").morale == 13
    assert one(result, "catastrophe.result", side="Red")["roll"] == 18
    assert result.root.sides[0].commander_out


def test_reinforcements_and_defection(fight):
    """Catastrophe 10: «Враг получает неожиданное подкрепление ... Повысьте его Войсковую Силу
    на 10 %»; 14: «Союзник или командир отряда переходит на сторону врага ... Пересчитайте
    Войсковую Силу армии, — 2 к броску Стратегии»; «Предательства всегда вынуждают делать
    остальных бросок Морали. Провал понижает ее на 1. Успех — повышает на 1 в гневе»."""
    blue = ["{name: Loyal, troop: light_infantry, count: 100}",
            "{name: Traitors, troop: light_infantry, count: 50}",
            "{name: Wavering, troop: light_infantry, count: 50}"]
    result = fight(scenario(RED, blue), dice=[10, 14, 8, 15], dice_fallback=True, seed=2,
                   decisions={"catastrophe_unit": {"Blue": "Traitors"}})
    blue_side = result.root.sides[1]
    assert unit(blue_side, "Traitors").status == "defected"
    anger = events(result, "catastrophe.anger")
    assert [(a["unit"].name, a["success"]) for a in anger] == [("Loyal", True),
                                                               ("Wavering", False)]
    mods = one(result, "strategy.modifiers", side="Blue")
    assert mods["catastrophe"] == -2
    # Blue after the traitors left: Loyal 300 (+1 Morale in anger: 330), Wavering 150
    # (−1 Morale: 135), +10 % for Red's Catastrophe 10: 511 against Red's 300
    assert mods["ratio"] == pytest.approx(511 / 300)


def test_es_catastrophe_push_ward_and_recon(fight):
    """GURPS Mass Combat, «Катастрофы»: «Каждые 2 вложенных очка дадут пенальти в +1 к его броску
    Катастрофы»; «Защита от влияний "общего действия" (например, Катастроф) стоит в два раза
    дороже»; «Разведка»: «+1 к Стратегии каждые вложенные 3 очка ES»."""
    result = fight(scenario(RED, BLUE, red_extra="es: 10", blue_extra="es: 2"),
                   dice=[5, 5], dice_fallback=True, seed=3,
                   decisions={"es_catastrophe": {"Red": 4}, "es_recon": {"Red": 6},
                              "es_ward": {"Blue": 2}})
    push = one(result, "es.catastrophe", side="Blue")
    assert (push["points"], push["blocked"], push["push"]) == (4, 1, 1)
    assert one(result, "catastrophe.result", side="Blue")["roll"] == 5 + 1
    assert one(result, "es.recon", side="Red")["bonus"] == 2
    assert one(result, "strategy.modifiers", side="Red")["es"] == 2


def test_es_plus_minus_2_morale(fight):
    """GURPS Mass Combat, «Влияние на Мораль»: «отряд из 20 Зеленых Тяжелых Пехотинцев (Общая TS 100;
    Мораль 11+) могут повысить ее на +2, что даст им Мораль Средних солдат (13+), или
    понизить на‑2, что сделает их Мораль такой как у Неопытных солдат (+9), и все это за 2
    очка»."""
    red = ["{name: Red guard, troop: heavy_infantry, quality: green, count: 20}"]
    blue = ["{name: Blue guard, troop: heavy_infantry, quality: green, count: 20}"]
    result = fight(scenario(red, blue, red_extra="es: 2", blue_extra="es: 2"),
                   dice=[5, 5], dice_fallback=True, seed=4,
                   decisions={"es_raise": {"Red guard": 2}, "es_lower": {"Red guard": 0,
                                                                         "Blue guard": 0}})
    assert one(result, "es.unit", unit="Red guard")["morale"] == 2
    result = fight(scenario(red, blue, red_extra="es: 2", blue_extra="es: 2"),
                   dice=[5, 5], dice_fallback=True, seed=4,
                   decisions={"es_lower": {"Red guard": 2}})
    assert one(result, "es.unit", unit="Red guard")["morale"] == -2
    assert result.ruleset.evaluate("es_effect(2, 100)") == 2
    assert result.ruleset.lookup("troop_quality", "green").morale + 2 == 13
    assert result.ruleset.lookup("troop_quality", "green").morale - 2 == 9


def test_es_overspent_is_an_error(fight):
    """«Каждый игрок секретно помечает число очков, которое он вложит» — no more than the
    side has."""
    with pytest.raises(StratagemError, match="spends 5 points of Extraordinary Strength"):
        fight(scenario(RED, BLUE, red_extra="es: 4"), seed=1,
              decisions={"es_recon": {"Red": 3}, "es_strike": {"Blue foot": 2}})


@pytest.mark.parametrize("temperament, risk", [("cowardly", -2), ("overconfident", 2),
                                               ("berserk", 1)])
def test_risk_limits(fight, temperament, risk):
    """GURPS Mass Combat, «Риск»: «Трусливые персонажи ... не должны выбирать фактор Риска ниже‑1.
    Самоуверенные ... не выше +1. Персонажи–берсерки не должны выбирать Риск выше 0»."""
    hero = f"heroes:\n  - {{name: Hero, temperament: {temperament}}}"
    with pytest.raises(StratagemError, match=rf"Decision risk \(Hero, seed 1, day 1\): {risk} is "
                                             "not from"):
        fight(scenario(RED, BLUE, red_extra=hero), seed=1, decisions={"risk": {"Hero": risk}})


def test_reserve_risk_limit(fight):
    """GURPS Mass Combat, «Риск»: «те, чьи отряды находятся в резерве ... не должны выбирать фактор
    Риска ниже‑1»."""
    hero = "heroes:\n  - {name: Hero, in_reserve: true}"
    with pytest.raises(StratagemError, match="from -1 to 6"):
        fight(scenario(RED, BLUE, red_extra=hero), seed=1, decisions={"risk": {"Hero": -3}})


def test_battle_skill_and_cap_16(fight):
    """GURPS Mass Combat, «Возможности персонажей игроков»: «среднему арифметическому от навыка
    Тактика (умолчание — IQ‑6) и его основного оружейного навыка, +2 если ... Боевые Рефлексы
    и +1 ... Чувство Опасности ... Боевой навык ограничен уровнем 16 ... модификаторы
    учитываются еще до ограничения»."""
    heroes = ("heroes:\n  - {name: Ace, tactics: 16, weapon_skill: 18, combat_reflexes: true,"
              " danger_sense: true}\n  - {name: Squire, iq: 11, weapon_skill: 12}")
    result = fight(scenario(RED, BLUE, red_extra=heroes), dice=[5, 5], dice_fallback=True,
                   seed=5, decisions={"risk": {"Ace": -4, "Squire": 2}})
    ace = one(result, "hero.rolls", hero="Ace")
    assert (ace["skill"], ace["survival"], ace["glory"]) == (20, 16, 16)
    squire = one(result, "hero.rolls", hero="Squire")
    assert (squire["skill"], squire["survival"], squire["glory"]) == (8, 10, 6)


def test_luck_takes_the_best_of_three(fight):
    """GURPS Mass Combat: «Командующий армией может использовать Удачу, если обладает этим
    преимуществом, для переброски результата Соревнования» (GURPS Luck: the best of three)."""
    result = fight(scenario(RED, BLUE, red_extra="luck: true"),
                   dice=[5, 5, 15, 9, 6, 12], dice_fallback=True, seed=6,
                   decisions={"luck_contest": {"Red": True}})
    red = one(result, "contest.roll", side="Red")
    assert (red["roll"], red["margin"]) == (6, 6)


def test_recovery_of_the_wounded(fight):
    """GURPS Mass Combat: «Вторая половина станет боеспособной на (2+TL)% от изначального отряда за
    день отдыха или на 2 за день марша. Если доступно магическое лечение, то добавьте 1d% ...
    Расы с Медленным Заживлением восстанавливаются вполовину медленнее»."""
    red = ["{name: Red foot, troop: light_infantry, count: 200}",
           "{name: Red slow, troop: light_infantry, count: 200, healing: slow}"]
    result = fight(scenario(red, BLUE, battle="{rest_days: 2, march_days: 1}",
                            red_extra="magical_healing: true"),
                   dice=[5, 5, 12, 6, 10, 10, 10, 20, 20, 15, 3, 3])
    foot, slow = (unit(result.root.sides[0], n) for n in ("Red foot", "Red slow"))
    # (2 + 3) % × 2 days + 2 % × 1 day + 1d% (3) × 3 days = 21 % of 200
    assert one(result, "unit.recovered", unit="Red foot")["percent"] == 21
    assert one(result, "unit.recovered", unit="Red slow")["percent"] == pytest.approx(15)
    assert foot.recovered == min(foot.recovered + foot.wounded, 42)
    assert slow.recovered == min(slow.recovered + slow.wounded, 30)


def test_special_unit_superiority_and_neutralisers(fight):
    """GURPS Mass Combat, «Нейтрализация Специальных Подразделений»: «копейщики могут нейтрализовать
    лобовую атаку кавалерии ... копейщики не могут дать Вашей кавалерии превосходства, но
    способны нейтрализовать превосходство врага»; each type counts separately («если у Вас
    есть конные стрелки, а враг не имеет ни кавалерии, ни стрелков, то Вы имеете превосходство
    5 к 1 и за дальнобойное оружие, и за кавалерию»)."""
    red = ["{name: Horse archers, troop: light_cavalry, ranged: bow, count: 100}"]
    blue = ["{name: Foot, troop: light_infantry, count: 100}"]
    result = fight(scenario(red, blue), dice=[5, 5], dice_fallback=True, seed=7)
    assert one(result, "strategy.modifiers", side="Red")["superiority"] == 6
    blue = ["{name: Pikes, troop: pikemen, neutralizes: cavalry, count: 100}"]
    result = fight(scenario(red, blue), dice=[5, 5], dice_fallback=True, seed=7)
    # cavalry 600 against pikemen 300: 2:1 (+1); ranged 600 against none (+3)
    assert one(result, "strategy.modifiers", side="Red")["superiority"] == 1 + 3
    assert one(result, "strategy.modifiers", side="Blue")["superiority"] == 0


def test_siege_cavalry_counts_as_infantry_artillery_counts(fight):
    """GURPS Mass Combat: «В осадной ситуации вся кавалерия считается пехотой»; artillery superiority
    at TL5- «только в осадных ситуациях»."""
    red = ["{name: Knights, troop: heavy_cavalry, count: 50}",
           "{name: Catapults, troop: small_engine, count: 2}"]
    blue = ["{name: Garrison, troop: light_infantry, count: 100}"]
    result = fight(scenario(red, blue, ruleset="gurps-mass-combat/yrth",
                            battle="{siege: true}"), dice=[5, 5], dice_fallback=True, seed=8)
    assert one(result, "strategy.modifiers", side="Red")["superiority"] == 3   # artillery only
    result = fight(scenario(red, blue, ruleset="gurps-mass-combat/yrth"),
                   dice=[5, 5], dice_fallback=True, seed=8)
    assert one(result, "strategy.modifiers", side="Red")["superiority"] == 3   # cavalry only


def test_sappers_reduce_starred_positions(fight):
    """GURPS Mass Combat: «Уменьшите значение модификаторов, помеченных звездочкой (*) на 2, если
    атакующий имеет артиллерию или оборудование для подкопов и экспертов–саперов»."""
    red = RED + ["{name: Miners, troop: sappers, count: 10}"]
    result = fight(scenario(red, BLUE, ruleset="gurps-mass-combat/yrth",
                            blue_extra="position: [castle, steep_slope]"),
                   dice=[5, 5], dice_fallback=True, seed=9)
    assert one(result, "strategy.modifiers", side="Blue")["position"] == 8


def test_tl_difference_and_30_to_1(fight):
    """GURPS Mass Combat, «Разница в TL» and «Сравнение Войсковых Сил»: TL6 against TL3 at 30:1 — +10
    for the TS comparison and +5 for the TL difference."""
    red = ["{name: Riflemen, troop: light_infantry, ranged: rifle, count: 100}"]   # TS 900
    blue = ["{name: Levy, troop: irregular_infantry, count: 15}"]                  # TS 30
    result = fight(scenario(red, blue, red_extra="tl: 6"), dice=[5, 5], dice_fallback=True,
                   seed=10)
    mods = one(result, "strategy.modifiers", side="Red")
    assert (mods["ts"], mods["tl"]) == (10, 5)


def test_several_opponents_average_ts(fight):
    """GURPS Mass Combat, «Несколько Противников»: «проведите Соревнование в Стратегии для всех их —
    победивший в нем удержит за собой поле боя, остальные понесут потери ... при Сравнении
    Войсковых Сил учитывается среднее арифметическое от TS всех противников»."""
    text = """
kind: scenario
ruleset: gurps-mass-combat
sides:
  - {name: A, strategy: 12, units: [{name: A foot, troop: light_infantry, count: 300}]}
  - {name: B, strategy: 12, units: [{name: B foot, troop: light_infantry, count: 100}]}
  - {name: C, strategy: 12, units: [{name: C foot, troop: light_infantry, count: 200}]}
"""
    result = fight(text, dice=[5, 5, 5, 4, 12, 10], dice_fallback=True, seed=11)
    assert one(result, "strategy.modifiers", side="A")["ratio"] == pytest.approx(900 / 450)
    assert one(result, "strategy.modifiers", side="A")["ts"] == 3
    assert result.root.winner in ("A", None)
    assert one(result, "contest.result")["winner"].name == "A"
    keys = {e["side"].name: e["key"] for e in events(result, "casualties.side")}
    assert keys["B"] == -(11 - 0) and keys["C"] == -(11 - 2) and keys["A"] == 11 - 2


def test_es_disruption_ward_and_shield(fight):
    """GURPS Mass Combat, «Создание помех врагу»: «ГМ ... назначит стоимость в очках ES и вероятный
    модификатор Стратегии»; «Защита от Враждебных Сил»: «Каждое очко, отведенное на защиту,
    блокирует одно очко ES оппонента ... Защита от влияний "общего действия" ... стоит в два
    раза дороже»; Healing «отклоняет выбор противником «Удара по врагу» и отклоняется им»."""
    blue = ["{name: Blue foot, troop: light_infantry, count: 30}"]             # TS 90
    decisions = {"es_disruption_cost": {"Red": 3}, "es_disruption": {"Red": -2},
                 "es_strike": {"Blue foot": 3}, "es_shield": {"Blue foot": 1}}
    result = fight(scenario(RED, blue, red_extra="es: 6", blue_extra="es: 1"),
                   dice=[5, 5], dice_fallback=True, seed=12, decisions=decisions)
    assert one(result, "es.disruption", side="Red")["modifier"] == -2
    assert one(result, "strategy.modifiers", side="Blue")["es"] == -2
    struck = one(result, "es.unit", unit="Blue foot")
    assert (struck["blocked"], struck["rows"]) == (1, -(2 * 100 // 90))
    decisions["es_ward"] = {"Blue": 1}
    decisions["es_shield"] = {"Blue foot": 0}
    result = fight(scenario(RED, blue, red_extra="es: 6", blue_extra="es: 1"),
                   dice=[5, 5], dice_fallback=True, seed=12, decisions=decisions)
    # a ward of 1 point blocks nothing general (2 points a block): the disruption stands
    assert one(result, "strategy.modifiers", side="Blue")["es"] == -2
    result = fight(scenario(RED, blue, red_extra="es: 6", blue_extra="es: 2"),
                   dice=[5, 5], dice_fallback=True, seed=12,
                   decisions={**decisions, "es_ward": {"Blue": 2}})
    assert events(result, "es.disruption_blocked", side="Red")
    assert one(result, "strategy.modifiers", side="Blue")["es"] == 0


@pytest.mark.parametrize("seer, bonus, skill", [
    ("success", 1, 16), ("critical_success", 2, 16), ("failure", 0, 13),
    ("failure_believed", 0, 10), ("failure_rejected", 0, 16),
])
def test_seers(fight, seer, bonus, skill):
    """GURPS Mass Combat, «Предсказатели»: «предсказатель, который сделает удачный бросок своего
    навыка, дает +1 к броску Стратегии командующего, или +2 при критическом успехе. Если
    предсказатель ошибся, то возьмите среднее арифметическое от его Стратегии и собственной
    Стратегии командующего, если только последний ни верит каждому слову предсказателя
    (используйте Стратегию предсказателя) или отвергает предсказание целиком»."""
    result = fight(scenario(RED, BLUE, red_strategy="16\n    seer_strategy: 10"),
                   dice=[5, 5], dice_fallback=True, seed=13, decisions={"seer": {"Red": seer}})
    total = one(result, "strategy.total", side="Red")
    assert one(result, "strategy.modifiers", side="Red")["seer"] == bonus
    assert total["skill"] == skill


def test_special_forces(fight):
    """GURPS Mass Combat, «Войска специального назначения»: «Разведка ... даст +1 или, если
    использовалось много коммандос, +2 к Стратегии»; «Убийство вражеского лидера будет
    Катастрофой для противника, если удастся ... если провалится, то Мораль врага будет
    повышена, особенно если ваших шпионов публично казнят»."""
    result = fight(scenario(RED, BLUE), dice=[5], dice_fallback=True, seed=14,
                   decisions={"special_forces": {"Red": "assassination", "Blue": "commandos"}})
    assert one(result, "catastrophe.assassination", side="Blue")
    assert one(result, "catastrophe.result", side="Blue")["roll"] == 18
    assert result.root.sides[1].commander_out
    assert one(result, "strategy.modifiers", side="Blue")["forces"] == 2
    result = fight(scenario(RED, BLUE), dice=[5, 5], dice_fallback=True, seed=14,
                   decisions={"special_forces": {"Red": "assassination_executed"}})
    assert one(result, "plans.spies_caught", side="Blue")["morale"] == 2


def test_yrth_doctrines_and_low_mana(fight, army_file):
    """GURPS Mass Combat, Yrth, «Мегалос»: «Мегалосская военная тактика сильно зависит от магии,
    поэтому они будут иметь пенальти к Стратегии на территориях без маны или с низким уровнем
    маны» (−2, this ruleset's number); «Кайтнесс не использует магии в битвах»; the nations'
    troops and qualities as data (`stratagem rate` says when an army departs from them)."""
    result = fight(scenario(RED, BLUE, ruleset="gurps-mass-combat/yrth", battle="{mana: low}",
                            red_extra="nation: megalos"), dice=[5, 5], dice_fallback=True,
                   seed=15)
    assert one(result, "strategy.modifiers", side="Red")["setting"] == -2
    assert one(result, "strategy.modifiers", side="Blue")["setting"] == 0
    rated = rate_army(army_file(["{name: Knights, troop: heavy_cavalry, quality: green, count: 10}",
                                 "{name: Pikes, troop: pikemen, count: 10}",
                                 "{name: Orcs, troop: heavy_cavalry, race: orc, count: 10}"],
                                ruleset="gurps-mass-combat/yrth", nation="caithness", es=2))
    assert one(rated, "yrth.untypical_quality", unit="Knights")
    assert one(rated, "yrth.untypical_troop", unit="Pikes")
    assert one(rated, "yrth.untypical_troop_race", unit="Orcs")
    assert one(rated, "yrth.no_magic", side="Test army")
