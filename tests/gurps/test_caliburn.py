"""The worked example of GURPS Mass Combat, «Пример боя: Калибурн Храбрый идет на войну», fought from
examples/gurps/caliburn.yaml with the example's dice: every figure it prints."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest

from stratagem.api import run_battle

from .conftest import EXAMPLES, events, one, unit


@pytest.fixture(scope="module")
def battle():
    return run_battle(EXAMPLES / "caliburn.yaml")


def day(result, n):
    """The events of day ``n`` (from its `day.start` to the next), as a result-like object."""
    starts = [i for i, e in enumerate(result.trace) if e.key == "day.start"]
    starts.append(len(result.trace))
    return SimpleNamespace(trace=result.trace[starts[n - 1]:starts[n]])


def test_armies_before_the_battle(battle):
    """«Их 15, каждый имеет TS 2, уменьшим эту сумму вдвое из–за их Неопытности и получим
    результат — TS 15»; «городское ополчение (включающее 120 лучников — TS 600) ... что дает
    ей TS 3500»; «40 Легких Кавалерийских стрелков (TS 240), что дает ей общий TS 4000»."""
    bannock, wazif = battle.start.sides
    assert unit(bannock, "Caliburn's thugs").ts == 15
    assert unit(bannock, "Militia archers").ts == 600
    assert bannock.ts == 3500
    assert unit(wazif, "Horse archers").ts == 240
    assert wazif.ts == 4000
    assert bannock.es_total == 4 and wazif.es_total == 3


def test_extraordinary_strength(battle):
    """«Понижение Морали одного из Бывалых отрядов Средней Пехоты из 20 человек (TS 96
    уменьшается до TS 86)»; «Повышения Морали отряду Средней Средней Пехоты на 2 (TS 48
    повышается до TS 48)» — 57 (docs/rulesets/gurps.md, «Readings chosen»: +20 %, rounded down); the healed platoon's Healing
    and the Strike cancel."""
    d1 = day(battle, 1)
    lowered = one(d1, "es.unit", unit="Seasoned infantry")
    assert (lowered["ts_before"], lowered["ts"], lowered["morale"]) == (96, 86, -1)
    raised = one(d1, "es.unit", unit="Average infantry")
    assert (raised["ts_before"], raised["ts"], raised["morale"]) == (48, 57, 2)
    # Healing and the Strike cancel: no change, so no line (the rows still count: see below)
    assert not events(d1, "es.unit", unit="Mercenary platoon A")
    assert one(d1, "es.unit", unit="Mercenary platoon B")["rows"] == -1
    assert one(d1, "es.unit", unit="Guard infantry")["rows"] == -1


def test_catastrophes(battle):
    """«Командир Баннока выбрасывает 8, что означает неожиданность со стороны врага и дает‑1 к
    броску Стратегии»; «Командир Аль — Вазифа выбрасывает 17, что означает гибель командира
    отряда ... ГМ определяет, что это был отряд Легких Кавалерийских стрелков (TS 240 падает
    до 168)»."""
    d1 = day(battle, 1)
    assert one(d1, "catastrophe.result", side="Bannock")["roll"] == 8
    assert one(d1, "catastrophe.result", side="Al-Wazif")["roll"] == 17
    assert one(d1, "catastrophe.unit", side="Al-Wazif")["unit"].name == "Horse archers"
    # 4000 − 72 (240 → 168) − 10 (96 → 86) + 9 (48 → 57) against 3500
    ratio = one(d1, "strategy.modifiers", side="Al-Wazif")["ratio"]
    assert Fraction(ratio).limit_denominator(10000) == Fraction(3927, 3500)


def test_strategy_bonuses_plus_2_and_plus_3(battle):
    """«Сравнение Войсковой Силы: Аль — Вазиф получает +1 ... Превосходство Специальных
    Подразделений: Мегалос получает +2 за превосходство в лучниках ... Аль — Вазиф получает
    +3 за кавалерийское превосходство ... Армия Мегалоса находится на родной земле и имеет
    бонус +2 ... Итоговый бонус к Стратегии — +2 для Аль — Вазифа и +3 для Мегалоса»."""
    d1 = day(battle, 1)
    wazif = one(d1, "strategy.modifiers", side="Al-Wazif")
    assert (wazif["ts"], wazif["superiority"], wazif["catastrophe"]) == (1, 3, -2)
    bannock = one(d1, "strategy.modifiers", side="Bannock")
    assert (bannock["superiority"], bannock["circumstances"], bannock["catastrophe"]) == (2, 2, -1)
    assert one(d1, "strategy.total", side="Al-Wazif")["bonus"] == 2
    assert one(d1, "strategy.total", side="Bannock")["bonus"] == 3


def test_quick_contest_margin_3_table_a_no_clear_winner(battle):
    """«командир Вазифа выбрасывает 14 (с запасом в 4), командир Мегалоса — 10 (с запасом в
    7), что дает разность в 3 в пользу Мегалоса. Т. к. это была битва «в чистом поле», то
    используется Таблица А, указывающая на ничейный результат»."""
    d1 = day(battle, 1)
    assert one(d1, "contest.roll", side="Bannock")["margin"] == 7
    assert one(d1, "contest.roll", side="Al-Wazif")["margin"] == 4
    result = one(d1, "contest.result")
    assert (result["winner"].name, result["difference"]) == ("Bannock", 3)
    assert result["table"].key == "enum.result_table.a"
    assert one(d1, "results.outcome")["outcome"].key == "enum.outcome.no_clear_winner"


def test_caliburn_day_one(battle):
    """«Его Боевой навык в таком случае равен (6+15)/2=10.5, округляя вниз — 10. Игрок
    выбирает Риск с -2, что дает ему бросок Выживания 8 и бросок Славы 12. После этого он
    выбрасывает 10 на Выживание (провал на 2) и 11 на Славу (запас в 1). Смотря в Столбец А в
    Таблице Повреждений на TL3, Калибурн получает 1d+2–DR (4 очка повреждений), но сражается
    компетентно»."""
    d1 = day(battle, 1)
    rolls = one(d1, "hero.rolls", hero="Caliburn")
    assert (rolls["skill"], rolls["risk"], rolls["survival"], rolls["glory"]) == (10, -2, 8, 12)
    survival = one(d1, "hero.survival", hero="Caliburn")
    assert (survival["roll"], survival["margin"]) == (10, -2)
    assert survival["result"].key == "enum.survival.column_a"
    assert survival["damage"] == 4
    damage = [e for e in d1.trace if e.step == "roll" and e.values.get("for") == "Caliburn"
              and "DR" in e.values["dice"]]
    assert damage[0].values["dice"] == "max(0, 1d+2-DR)"
    glory = one(d1, "hero.glory", hero="Caliburn")
    assert (glory["roll"], glory["margin"]) == (11, 1)
    assert glory["result"].key == "enum.glory.competent"


def test_morale_of_the_thugs_and_the_horse_archers(battle):
    """«Базовая Мораль головорезов — всего лишь 6, но она получает +3 из–за того, что они
    сражаются на родной земле с заклятым врагом. При броске 8 они удерживают позицию.»
    «Отряд Вазифа, потерявший командира, имеет Мораль, пониженную до 11 (+1 за заклятого
    врага). Они выбрасывают 15, что означает их отступление в хорошем порядке. Если бы не
    исконность их борьбы, они обратились бы в позорное бегство.»"""
    d1 = day(battle, 1)
    assert unit(battle.start.sides[0], "Caliburn's thugs").base_morale == 6
    thugs = one(d1, "unit.morale_result", unit="Caliburn's thugs")
    assert (thugs["target"], thugs["margin"]) == (9, 1)
    assert thugs["status"].key == "enum.status.hold"
    archers = one(d1, "unit.morale_result", unit="Horse archers")
    assert (archers["target"], archers["margin"]) == (11, -4)
    assert archers["status"].key == "enum.status.retreat"
    # without the sworn enemy: Morale 10, failed by 5 — a rout on Table A
    assert battle.ruleset.lookup("results_a", 3).rout_at == 5


def test_casualty_rows_3_and_minus_3(battle):
    """«Т. к. армия Баннока выиграла Соревнование в Стратегии на 3, они сверяются с графой «3»
    в Таблице Потерь (4d%), в то время как армия Вазифа сверяется с графой «-3» (4d+20 %), что
    дает им значения потерь в 13 % ... (без учета бронированности войск). Конкретные отряды
    изменяют значения потерь (спуская их на одну, две или четыре строчки ...). Отряды,
    подверженные магическим Ударам, поднимают значение потерь на одну строку, а магически
    Излеченные — спускают ее на одну строку.»"""
    d1 = day(battle, 1)
    bannock = one(d1, "casualties.side", side="Bannock")
    assert (bannock["key"], bannock["loss"]) == (3, "(4d)%")
    wazif = one(d1, "casualties.side", side="Al-Wazif")
    assert (wazif["key"], wazif["loss"]) == (-3, "4d+20%")
    thugs = one(d1, "casualties.unit", unit="Caliburn's thugs")
    assert (thugs["shift"], thugs["percent"], thugs["lost"]) == (0, 13, 2)
    assert one(d1, "casualties.unit", unit="Warhammer cohorts")["shift"] == 4
    assert one(d1, "casualties.unit", unit="Mercenary platoon A")["shift"] == 2 + 1 - 1
    assert one(d1, "casualties.unit", unit="Guard infantry")["shift"] == 4 - 1
    assert one(d1, "casualties.unit", unit="Horse archers")["loss"] == "4d+15%"


def test_caliburn_day_two(battle):
    """«На следующий день Калибурн был более осторожен и выбрал Риск с -1, что дало ему
    бросок Выживания 9 и бросок Славы 11 ... Калибурн выбрасывает 13 на Выживание (провал на 4)
    и 10 на Славу (запас в 1). Он ранен дважды (на 3 хита в сумме), и снова сражался
    компетентно.»"""
    d2 = day(battle, 2)
    rolls = one(d2, "hero.rolls", hero="Caliburn")
    assert (rolls["risk"], rolls["survival"], rolls["glory"]) == (-1, 9, 11)
    survival = one(d2, "hero.survival", hero="Caliburn")
    assert (survival["roll"], survival["margin"]) == (13, -4)
    assert survival["result"].key == "enum.survival.column_b"
    assert (survival["hits"], survival["damage"]) == (2, 3)
    glory = one(d2, "hero.glory", hero="Caliburn")
    assert glory["margin"] == 1 and glory["result"].key == "enum.glory.competent"
    assert battle.root.sides[0].heroes[0].damage == 4 + 3


def test_day_two_significant_victory_and_retreat(battle):
    """«Сегодня Мегалос одерживает Значительную Победу и Аль — Вазиф отступает.»"""
    d2 = day(battle, 2)
    assert one(d2, "results.outcome")["outcome"].key == "enum.outcome.significant"
    assert battle.root.winner == "Bannock"
    assert battle.root.field_held_by == "Bannock"
    wazif = battle.root.sides[1]
    assert {u.status for u in wazif.units} == {"retreat"}
    assert all(e["status"].key == "enum.status.retreat"
               for e in events(d2, "unit.morale_result"))


def test_the_thugs_come_home_green_ts_20(battle):
    """«Еще один из головорезов был убит, другие стали более опытными и теперь считаются
    Зелеными войсками, что поднимает их TS до 80 % от базового (13х 2х 0,8) дает TS 20.
    Калибурн и его 12 друзей возвращаются в город»."""
    thugs = unit(battle.root.sides[0], "Caliburn's thugs")
    assert thugs.dead == 2
    assert thugs.count == 13
    assert thugs.quality == "green"
    assert thugs.ts == 20
