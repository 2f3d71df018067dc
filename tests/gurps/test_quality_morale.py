"""Troop Quality and Morale, raising and paying troops (GURPS Mass Combat, «Качество Войска и Мораль»,
«Создание и поддержка Армии»; the reconstructed tables of docs/rulesets/gurps.md, «Readings chosen»)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.api import load_scenario, run_battle

from .conftest import one, unit


@pytest.mark.parametrize("quality, morale, mult, battles", [
    ("untrained", 8, 0.5, 0), ("inexperienced", 9, 0.5, 0), ("green", 11, 0.8, 1),
    ("average", 13, 1, 3), ("seasoned", 14, 1.2, 6), ("veteran", 15, 1.5, 10),
    ("elite", 16, 2, 20),
])
def test_troop_quality_table(core, quality, morale, mult, battles):
    """docs/rulesets/gurps.md, «Readings chosen», «Troop Quality table — reconstructed»: base morale 8/9/11/13/14/15/16, TS
    ×1/2, 1/2, 0.8, 1, 1.2, 1.5, 2; battles none/0/1–2/3–5/6–9/10–19/20+."""
    row = core.lookup("troop_quality", quality)
    assert (row.morale, row.ts, row.battles) == (morale, pytest.approx(mult), battles)


@pytest.mark.parametrize("roll, quality", [
    (3, "inexperienced"), (5, "inexperienced"), (6, "green"), (8, "green"), (9, "average"),
    (12, "average"), (13, "seasoned"), (15, "seasoned"), (16, "veteran"), (17, "veteran"),
    (18, "elite"),
])
def test_troop_quality_roll(core, roll, quality):
    """docs/rulesets/gurps.md, «Readings chosen», Troop Quality table: 3d 3–5 Inexperienced, 6–8 Green, 9–12 Average, 13–15
    Seasoned, 16–17 Veteran*, 18 Elite*."""
    assert core.lookup("quality_roll", roll).quality == quality


@pytest.mark.parametrize("quality, skill, reflexes, commander", [
    ("inexperienced", 10, False, 8), ("green", 11, False, 10), ("average", 12, False, 12),
    ("seasoned", 13, False, 14), ("veteran", 14, True, 16), ("elite", 15, True, 18),
])
def test_typical_skills_and_commanders(core, quality, skill, reflexes, commander):
    """docs/rulesets/gurps.md, «Readings chosen», «Typical Skills» (Veteran and Elite have Combat Reflexes) and «Unit Commander
    Experience» (the example's seasoned commander has Strategy 14, the veteran 16)."""
    row = core.lookup("troop_quality", quality)
    assert (row.skill, row.combat_reflexes, row.commander) == (skill, reflexes, commander)


def test_leadership_15_and_9_for_seasoned_troops(army):
    """GURPS Mass Combat, «Командир отряда и Мораль»: «Бывалый отряд с командиром с Лидерством 15 (+1)
    будет иметь Мораль 15, а командир с Лидерством 9 (-1) уменьшит Мораль до 13» (−1 per 3
    levels below 12, as docs/rulesets/gurps.md, «Readings chosen» corrects the text's −3)."""
    side = army([
        "{name: Good, troop: medium_infantry, quality: seasoned, leadership: 15, count: 20}",
        "{name: Poor, troop: medium_infantry, quality: seasoned, leadership: 9, count: 20}",
        "{name: Plain, troop: medium_infantry, quality: seasoned, leadership: 13, count: 20}",
        "{name: Great, troop: medium_infantry, quality: seasoned, leadership: 18, count: 20}",
        ("{name: NPC, troop: medium_infantry, quality: seasoned, commander_quality: veteran,"
        " count: 20}"),
    ])
    assert unit(side, "Good").morale == 15
    assert unit(side, "Poor").morale == 13
    assert unit(side, "Plain").morale == 14
    assert unit(side, "Great").morale == 16
    assert unit(side, "NPC").morale == 15    # a Veteran NPC commander: Leadership 16


def test_thirty_veteran_heavy_infantry_225_and_180_at_morale_13(army):
    """GURPS Mass Combat, «Мораль отряда и Войсковая Сила», example: «взвод Ветеранов Тяжелой Пехоты
    (30 солдат с общим TS 225 и базовой Моралью 15) имеет эффективную Мораль 13 ... TS этого
    отряда станет равным 180»."""
    side = army([
        "{name: Veterans, troop: heavy_infantry, quality: veteran, count: 30}",
        ("{name: Beaten veterans, troop: heavy_infantry, quality: veteran, count: 30,"
        " morale_mod: -2}"),
    ])
    assert unit(side, "Veterans").ts == 225
    assert unit(side, "Veterans").base_morale == 15
    beaten = unit(side, "Beaten veterans")
    assert beaten.morale == 13
    assert beaten.ts == 180


def test_morale_and_ts_optional(tmp_path: Path):
    """GURPS Mass Combat: «По желанию ГМа Войсковая Сила деморализованных отрядов может быть
    уменьшена» — battle.morale_affects_ts: false turns the rule off."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "kind: scenario\nruleset: gurps-mass-combat\nbattle: {morale_affects_ts: false}\n"
        "sides:\n  - name: A\n    strategy: 12\n    units:\n"
        "      - {name: V, troop: heavy_infantry, quality: veteran, count: 30, morale_mod: -2}\n"
        "  - name: B\n    strategy: 12\n    units: [{name: W, troop: light_infantry, count: 9}]\n",
        encoding="utf-8")
    root = load_scenario(path).instantiate()
    assert unit(root.sides[0], "V").ts == 225


def test_untested_irregulars_lose_3_morale(army):
    """GURPS Mass Combat, Troop Quality table: «(t) — не имеет боевого опыта. Если войска этого
    качества к тому же являются иррегулярами, то их мораль дополнительно уменьшается на‑3»;
    the Caliburn example: «Базовая Мораль головорезов — всего лишь 6»."""
    side = army([
        "{name: Thugs, troop: irregular_infantry, quality: inexperienced, count: 15}",
        "{name: Peasants, troop: irregular_infantry, quality: untrained, count: 15}",
        "{name: Recruits, troop: light_infantry, quality: inexperienced, count: 15}",
        "{name: Bandits, troop: irregular_infantry, quality: green, count: 15}",
    ])
    assert unit(side, "Thugs").base_morale == 6
    assert unit(side, "Thugs").ts == 15
    assert unit(side, "Peasants").base_morale == 5
    assert unit(side, "Recruits").base_morale == 9
    assert unit(side, "Bandits").base_morale == 11


def test_new_commander_lowers_quality_one_step(army):
    """GURPS Mass Combat: «Когда отряд получает нового командира ... уменьшите его Войсковое Качество
    на один уровень (кроме как у Неопытных, когда меньше уже некуда)»."""
    side = army([
        "{name: Vets, troop: heavy_infantry, quality: veteran, new_commander: true, count: 10}",
        ("{name: Fresh, troop: heavy_infantry, quality: inexperienced, new_commander: true,"
        " count: 10}"),
    ])
    vets = unit(side, "Vets")
    assert vets.quality_now == "seasoned"
    assert vets.ts == 60 and vets.base_morale == 14
    assert unit(side, "Fresh").quality_now == "inexperienced"


def test_titus_company_averages_8_battles_then_veteran_after_two_more(army, tmp_path: Path):
    """GURPS Mass Combat, «Изменение Качества Войска», example: «87 х 10 для старых солдат. 11 х 1
    (используйте нижнюю границу опытности в таблице) для новых людей. 870 плюс 11 равно 881.
    Разделим на 98 человек ... Округлим до 8. Рота теперь имеет среднюю опытность 8, что
    делает их всего лишь «бывалыми». Еще два боя вернет им статус «ветеранов»»."""
    side = army([("{name: Titus's company, troop: heavy_infantry, quality: veteran, battles: 10,"
                 " count: 87, replacements: 11, replacement_quality: green}")])
    company = unit(side, "Titus's company")
    assert company.count == 98
    assert company.battles == 8
    assert company.quality == "seasoned"
    # two more battles, each counted once however many days it lasts
    battles, quality = 8, "seasoned"
    for n in (1, 2):
        path = tmp_path / f"battle{n}.yaml"
        path.write_text(
            "kind: scenario\nruleset: gurps-mass-combat\nbattle: {days: 2}\nsides:\n"
            "  - name: Megalos\n    strategy: 14\n    units:\n"
            f"      - {{name: Titus, troop: heavy_infantry, quality: {quality},"
            f" battles: {battles}, count: 98}}\n"
            "  - name: Raiders\n    strategy: 10\n    units:\n"
            "      - {name: Bandits, troop: irregular_infantry, count: 100}\n",
            encoding="utf-8")
        titus = unit(run_battle(path, seed=n).root.sides[0], "Titus")
        battles, quality = titus.battles, titus.quality
    assert (battles, quality) == (10, "veteran")


def test_training(army):
    """GURPS Mass Combat: «Шесть месяцев военных тренировок превратит Нетренированные войска в
    категорию Неопытных. Год тренировок сделает их Зелеными. Никакие дальнейшие повышения
    качества не могут быть произведены без настоящего боевого опыта»."""
    side = army([
        "{name: Six, troop: light_infantry, quality: untrained, training_months: 6, count: 10}",
        "{name: Year, troop: light_infantry, quality: untrained, training_months: 12, count: 10}",
        ("{name: Two years, troop: light_infantry, quality: untrained, training_months: 24,"
        " count: 10}"),
        "{name: Green, troop: light_infantry, quality: green, training_months: 24, count: 10}",
    ])
    assert unit(side, "Six").quality == "inexperienced"
    assert unit(side, "Year").quality == "green"
    assert unit(side, "Two years").quality == "green"
    assert unit(side, "Green").quality == "green"


def test_raising_cost_upkeep_and_pay(army):
    """GURPS Mass Combat, Yrth, «Стоимость войск»: HI $9000, LI $1500, HC $14000; «Добавьте ... $1500 —
    лучниками с композитными луками, ростовыми луками или арбалетами»; «Стоимость поддержания
    солдата в полевых условиях — $200; рыцаря с лошадью — $800. Месячная плата ожидается в
    размере 10 % от стоимости найма» (× the quality's pay multiplier)."""
    side = army([
        "{name: Foot, troop: heavy_infantry, count: 10}",
        "{name: Longbows, troop: light_infantry, ranged: longbow, count: 10}",
        "{name: Knights, troop: heavy_cavalry, quality: elite, count: 5}",
    ], ruleset="gurps-mass-combat/yrth")
    foot, bows, knights = (unit(side, n) for n in ("Foot", "Longbows", "Knights"))
    assert foot.raising_cost == 90000 and foot.monthly_upkeep == 2000
    assert foot.monthly_pay == 9000
    assert bows.raising_cost == 30000
    assert knights.raising_cost == 70000 and knights.monthly_upkeep == 4000
    assert knights.monthly_pay == 14000          # Elite: ×2
    assert side.raising_cost == 190000


def test_missed_pay_extra_pay_and_conscripts(army):
    """GURPS Mass Combat, «Оплата и поддержание войск»: «Мораль падает на 1 после первого
    неоплаченного дня и на 2 за каждый последующий»; «Каждый второй день после выплаты повышает
    мораль на 1, но это действует только на уничтожение негативных моральных эффектов»;
    «Ограничьте уровень падения Морали Ветеранов и Элиты 14‑тью»; «Дополнительные 50 %
    увеличат Мораль на 1 ...; дополнительные 100 % или более ... на 2»; «— 1 — оплачиваемые
    призывники, — 2 или меньше — неоплачиваемые призывники»."""
    side = army([
        "{name: One, troop: light_infantry, missed_paydays: 1, count: 10}",
        "{name: Two, troop: light_infantry, missed_paydays: 2, count: 10}",
        ("{name: Paid back, troop: light_infantry, missed_paydays: 2, days_since_pay: 4,"
        " count: 10}"),
        ("{name: Long paid, troop: light_infantry, missed_paydays: 1, days_since_pay: 40,"
        " count: 10}"),
        "{name: Vets, troop: light_infantry, quality: veteran, missed_paydays: 3, count: 10}",
        "{name: Bonus, troop: light_infantry, extra_pay: 50, count: 10}",
        "{name: Double, troop: light_infantry, extra_pay: 150, count: 10}",
        "{name: Paid levy, troop: light_infantry, conscript: paid, count: 10}",
        "{name: Unpaid levy, troop: light_infantry, conscript: unpaid, count: 10}",
    ])
    morale = {u.name: u.morale for u in side.units}
    assert morale == {"One": 12, "Two": 10, "Paid back": 12, "Long paid": 13, "Vets": 14,
                      "Bonus": 14, "Double": 15, "Paid levy": 12, "Unpaid levy": 11}


def test_random_quality_rerolls_veterans_for_a_new_unit(tmp_path: Path):
    """GURPS Mass Combat, Troop Quality table: «* — бросьте повторно, если Вы создаете новый отряд»:
    a newly raised unit rolling 17 (Veteran) rolls again and a 10 makes it Average; a unit
    that is not new keeps the Veteran it rolled."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "kind: scenario\nruleset: gurps-mass-combat\nsides:\n"
        "  - name: A\n    strategy: 12\n    units:\n"
        "      - {name: Levy, troop: light_infantry, count: 50, roll_quality: true, raised: true}\n"
        "      - {name: Old, troop: light_infantry, count: 50, roll_quality: true}\n"
        "  - name: B\n    strategy: 12\n    units: [{name: W, troop: light_infantry, count: 50}]\n",
        encoding="utf-8")
    result = run_battle(path, dice=[17, 10, 17], dice_fallback=True, seed=1)
    rolls = [(e.values["for"], e.values["total"]) for e in result.trace
             if e.step == "roll" and e.values.get("for") in ("Levy", "Old")]
    assert rolls[:3] == [("Levy", 17), ("Levy", 10), ("Old", 17)]
    assert one(result, "muster.quality", unit="Levy")["quality"].key == "enum.quality.average"
    assert one(result, "muster.quality", unit="Old")["quality"].key == "enum.quality.veteran"


def test_titus_morale_example(tmp_path: Path):
    """GURPS Mass Combat, «Мораль», example: «Титус Мегалосский управляет отрядом ветеранов — базовая
    Мораль 15. Грабеж в этом месяце выдался на славу, что даст +1 к Морали ... В первый же час
    битвы Титус был ранен (-1 к Морали). Поэтому ее ээфективный уровень снова стал равным 15.
    Но после битвы Мораль вновь поднимется до 16.» — a campaign modifier stays, a wounded
    leader's (Catastrophe 15) lasts only the battle."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "kind: scenario\nruleset: gurps-mass-combat\nsides:\n"
        "  - name: Megalos\n    strategy: 14\n    units:\n"
        "      - {name: Titus's veterans, troop: heavy_infantry, quality: veteran, count: 50,"
        " morale_mod: 1}\n"
        "      - {name: Legion, troop: heavy_infantry, count: 200}\n"
        "  - name: Raiders\n    strategy: 12\n    units:\n"
        "      - {name: Bandits, troop: light_infantry, count: 400}\n", encoding="utf-8")
    # Catastrophe 15 (the Legion's leader wounded), a draw on Table A: every unit rolls Morale
    result = run_battle(path, dice=[15, 5, 12, 11, 10, 10, 10], dice_fallback=True, seed=3,
                        decisions={"catastrophe_unit": {"Megalos": "Legion"}})
    assert unit(result.start.sides[0], "Titus's veterans").morale == 16
    assert one(result, "results.outcome")["outcome"].key == "enum.outcome.no_clear_winner"
    rolls = [e.params["target"] for e in result.trace
             if e.key == "morale.roll" and e.params["unit"].name == "Titus's veterans"]
    assert rolls == [15]
    assert unit(result.root.sides[0], "Titus's veterans").morale == 16
