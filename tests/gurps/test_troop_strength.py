"""Troop Strength (GURPS Mass Combat, «Войсковая Сила (TS)»): every figure its examples state, and the
rules of each line of its tables, computed from army files."""

from __future__ import annotations

import pytest

from .conftest import unit


def test_knights_ts_8_and_11_with_crossbows(army):
    """GURPS Mass Combat, «Тип войска», examples: «Средневековые рыцари — это тяжелая кавалерия, что
    дает им TS 8 (5 за тяжелое оружие и броню и 3 за тяжелых коней). Если они укомплектованы
    арбалетами, то их TS равен 11»."""
    side = army([
        "{name: Knights, troop: heavy_cavalry, count: 1}",
        "{name: Crossbow knights, troop: heavy_cavalry, ranged: crossbow, count: 1}",
        # the same knights from the components of the tables, not the troop type
        "{name: Built knights, troop: creature, equipment: heavy, mobility: heavy_horse, count: 1}",
    ])
    assert unit(side, "Knights").ts == 8
    assert unit(side, "Crossbow knights").ts == 11
    assert unit(side, "Built knights").ts == 8


def test_tl7_air_cavalry_152(army):
    """GURPS Mass Combat, «Тип войска», examples: TL7 air cavalry, «шести легких пехотинцев и
    вертолета ... TS 17 от каждого солдата (3 за легкое оружие и броню, +7 за штурмовую
    винтовку и +7 за мобильность) плюс TS 50 вертолета ... итоговую Войсковую Силу 152»."""
    side = army([("{name: Air cavalry, troop: light_infantry, count: 6, mobility: flying,"
                 " ranged: rifle, attached: helicopter, attached_count: 1}")], tl=7)
    air = unit(side, "Air cavalry")
    assert air.per_man == 17
    assert air.ts == 152


def test_hobbit_infantry_2_and_5(army):
    """GURPS Mass Combat, «Нечеловеческие расы»: «хоббиты — пенальти‑1 ... легкая пехота хоббитов
    будет иметь TS 2, а их же тяжелая пехота с пращами — TS 5»."""
    side = army([
        "{name: Hobbit spears, troop: light_infantry, race: hobbit, count: 1}",
        "{name: Hobbit slingers, troop: heavy_infantry, race: hobbit, ranged: sling, count: 1}",
    ])
    assert unit(side, "Hobbit spears").ts == 2
    assert unit(side, "Hobbit slingers").ts == 5


def test_lizard_men_plus_3(army):
    """GURPS Mass Combat, «Нечеловеческие расы»: «ящеролюди получают бонус +3»."""
    side = army(["{name: Lizards, troop: medium_infantry, race: lizard_man, count: 10}"])
    assert unit(side, "Lizards").ts == 10 * (4 + 3)


def test_racial_modifier_from_st_ht_hits_and_super_strength(army):
    """GURPS Mass Combat, «Нечеловеческие расы»: «половине от (модификатор ST + модификатор HT +
    дополнительные хиты) — причем каждый уровень Сверхчеловеческой Силы добавляет 10 к
    модификатору ST»; «TS не может понизиться меньше чем до 1 из–за расовых пенальти.
    Бонусы за оружие дальнего боя и броню добавляются после»."""
    side = army([
        "{name: Brutes, troop: medium_infantry, st_mod: 3, ht_mod: 2, extra_hp: 1, count: 1}",
        "{name: Super, troop: light_infantry, super_strength: 2, count: 1}",
        "{name: Weaklings, troop: light_infantry, st_mod: -6, ht_mod: -4, count: 1}",
        ("{name: Weak archers, troop: light_infantry, st_mod: -6, ht_mod: -4, ranged: bow,"
        " armour_dr: 4, count: 1}"),
    ])
    assert unit(side, "Brutes").ts == 4 + 3            # (3 + 2 + 1) / 2
    assert unit(side, "Super").ts == 3 + 10            # (2 × 10) / 2
    assert unit(side, "Weaklings").ts == 1             # 3 − 5, but never below 1
    assert unit(side, "Weak archers").ts == 1 + 2 + 2  # then the bow and DR 4 / 2


def test_superhuman_armour_and_flight(army):
    """GURPS Mass Combat, «Сверхсила»: high DR uses the high-tech armour rule (+DR/2); a flyer with
    ranged attacks takes the helicopter's TS, one without only the flying mobility (+TL)."""
    side = army([
        "{name: Brick, troop: creature, equipment: heavy, armour_dr: 30, count: 1}",
        "{name: Blaster, troop: creature, equipment: light, special: helicopter, count: 1}",
        "{name: Flyer, troop: creature, equipment: light, mobility: flying, count: 1}",
    ], tl=8)
    assert unit(side, "Brick").ts == 5 + 15
    assert unit(side, "Blaster").ts == 3 + 50
    assert unit(side, "Flyer").ts == 3 + 8


def test_irregulars_lose_a_third_rounded_down(army):
    """GURPS Mass Combat, «Экипировка»: «Иррегуляры‑1/3 TS (округляя вниз)» — a third, rounded down,
    is taken off (Yrth's II 2 and IC 3 from LI 3 and LC 4)."""
    side = army([
        "{name: II, troop: irregular_infantry, count: 1}",
        "{name: IC, troop: irregular_cavalry, count: 1}",
        "{name: Irregular knights, troop: heavy_cavalry, irregular: true, count: 1}",
        "{name: Irregular archers, troop: irregular_infantry, ranged: bow, count: 1}",
    ])
    assert unit(side, "II").ts == 2
    assert unit(side, "IC").ts == 3
    assert unit(side, "Irregular knights").ts == 8 - 2
    assert unit(side, "Irregular archers").ts == 2 + 2


def test_no_stirrups_fine_weapons_experimental_crews(army):
    """GURPS Mass Combat: «Нет стремян ‑1» (mounted only); «Качественное или Высококачественное
    оружие +1»; «Экспериментальное оружие»: «уменьшая вполовину ... его Войсковую Силу»;
    crews acting apart from their engine «TS таких солдат считается равным 2»."""
    side = army([
        "{name: Old knights, troop: heavy_cavalry, stirrups: false, count: 1}",
        "{name: Old foot, troop: heavy_infantry, stirrups: false, count: 1}",
        "{name: Fine swords, troop: medium_infantry, quality_weapons: true, count: 1}",
        ("{name: First tanks, troop: special_weapon, special: light_tank, experimental: true,"
        " count: 10}"),
        "{name: Gunners, troop: crew, count: 4}",
    ], tl=6)
    assert unit(side, "Old knights").ts == 7
    assert unit(side, "Old foot").ts == 5
    assert unit(side, "Fine swords").ts == 5
    assert unit(side, "First tanks").ts == 125
    assert unit(side, "Gunners").ts == 8


@pytest.mark.parametrize("weapon, ts", [
    ("sling", 1), ("bow", 2), ("longbow", 3), ("composite_bow", 3), ("crossbow", 3),
    ("pistol", 3), ("rifle", 6),
])
def test_ranged_weapons(army, weapon, ts):
    """GURPS Mass Combat, «Дальнобойное оружие»: «Праща, дротики +1 / Обычный лук +2 / Длинный лук,
    композитный лук или арбалет +3 / Пистолет ... +3 / Винтовка ... +TL» (here TL6)."""
    side = army([f"{{name: Shooters, troop: light_infantry, ranged: {weapon}, count: 1}}"], tl=6)
    assert unit(side, "Shooters").ts == 3 + ts


@pytest.mark.parametrize("weapon, ts", [
    ("elephant", 100), ("small_ballista", 15), ("light_artillery", 25), ("heavy_artillery", 50),
    ("light_tank", 25), ("medium_tank", 40), ("heavy_tank", 60), ("fighter", 50),
    ("bomber", 100), ("helicopter", 50), ("modern_artillery", 100),
])
def test_special_weapons(army, weapon, ts):
    """GURPS Mass Combat, «Специальное оружие»: the TS of each weapon, its crew included."""
    side = army([f"{{name: Weapons, troop: special_weapon, special: {weapon}, count: 2}}"])
    assert unit(side, "Weapons").ts == 2 * ts


def test_chariots_add_an_extra_shooter(army):
    """GURPS Mass Combat, «Специальное оружие»: «Легкие колесницы (TL2-) (добавьте TS дополнительного
    Легкого стрелка) +15» — the driver (light, bow) 5, the chariot 15, the shooter 5."""
    side = army([("{name: Chariots, troop: light_infantry, special: light_chariot, ranged: bow,"
                 " count: 4}")], tl=2)
    assert unit(side, "Chariots").per_man == 25
    assert "cavalry" in unit(side, "Chariots").kinds


@pytest.mark.parametrize("troop, ts", [
    ("heavy_cavalry", 8), ("medium_cavalry", 6), ("light_cavalry", 4), ("irregular_cavalry", 3),
    ("heavy_infantry", 6), ("medium_infantry", 4), ("light_infantry", 3),
    ("irregular_infantry", 2), ("pikemen", 3), ("sappers", 2), ("small_engine", 25),
    ("large_engine", 50), ("dragon_hatchling", 15), ("dragon_young", 30), ("dragon_juvenile", 45),
    ("dragon_adult", 60), ("dragon_monstrous", 80), ("were_wolf", 5), ("were_bear", 10),
    ("were_boar", 10), ("were_tiger", 15), ("were_eagle", 7),
])
def test_yrth_troop_types(army, troop, ts):
    """GURPS Mass Combat, «Армии Yrth`а — Типы войск», and the dragons and shapeshifters of
    «Нечеловеческие расы»: each type's printed TS."""
    side = army([f"{{name: U, troop: {troop}, count: 1}}"], ruleset="gurps-mass-combat/yrth")
    assert unit(side, "U").ts == ts


@pytest.mark.parametrize("race, mod", [
    ("centaur", 2), ("dwarf", 1), ("elf", 0), ("giant", 11), ("gnome", 0), ("goblin", -1),
    ("hobgoblin", 0), ("kobold", -1), ("minotaur", 3), ("ogre", 7), ("orc", 1),
    ("lizard_man", 3), ("zombie", 3), ("skeleton", -1),
])
def test_yrth_races(army, race, mod):
    """GURPS Mass Combat, «Армии Yrth`а — Нечеловеческие расы»: «Расовый модификатор TS ...»."""
    side = army([f"{{name: U, troop: medium_infantry, race: {race}, count: 1}}"],
                ruleset="gurps-mass-combat/yrth")
    assert unit(side, "U").ts == 4 + mod


def test_centaurs_as_irregular_cavalry(army):
    """GURPS Mass Combat, Yrth: «Кентавры: Считайте их Иррегулярной Кавалерией (IC) ... Расовый
    модификатор TS +2» — IC 3 + 2."""
    side = army(["{name: Herd, troop: irregular_cavalry, race: centaur, count: 10}"],
                ruleset="gurps-mass-combat/yrth")
    assert unit(side, "Herd").ts == 50


def test_undead_have_no_morale(army):
    """GURPS Mass Combat, Yrth: «Зомби не подвержены действию Морали»: their TS ignores Morale."""
    side = army([("{name: Zombies, troop: medium_infantry, race: zombie, count: 10,"
                 " morale_mod: -5}")], ruleset="gurps-mass-combat/yrth")
    zombies = unit(side, "Zombies")
    assert not zombies.has_morale
    assert zombies.ts == 70


def test_sappers_in_a_siege_and_their_limit(tmp_path):
    """GURPS Mass Combat, Yrth, «Саперы (MN)»: «TS 2 при битве "в чистом поле" и TS 8 в случае осады.
    Саперы с TS 8 могут составлять не более чем 10 % (до 1000) ... Саперы сверх этой величины
    имеют TS 2»; dwarven sappers «имеют TS 10 при осаде»."""
    from stratagem.api import load_scenario

    path = tmp_path / "siege.yaml"
    path.write_text(
        "kind: scenario\nruleset: gurps-mass-combat/yrth\nbattle: {siege: true}\nsides:\n"
        "  - name: Besiegers\n    strategy: 12\n    units:\n"
        "      - {name: Foot, troop: medium_infantry, count: 200}\n"
        "      - {name: Miners, troop: sappers, count: 20}\n"
        "      - {name: Dwarves, troop: dwarven_sappers, race: dwarf, count: 1}\n"
        "  - name: Garrison\n    role: defender\n    strategy: 12\n    units:\n"
        "      - {name: Guards, troop: medium_infantry, count: 50}\n", encoding="utf-8")
    root = load_scenario(path).instantiate()
    besiegers = root.sides[0]
    assert unit(besiegers, "Miners").ts == 160
    assert unit(besiegers, "Dwarves").ts == 10
    # 800 TS of infantry: sappers at TS 8 may be 10 % of the army, 800 / 9 = 88 TS;
    # the other 82 TS of sappers count a quarter (TS 2 instead of 8).
    assert besiegers.unit_ts == 970
    assert besiegers.ts == 970 - (170 - 88) * 3 // 4


def test_engines_limited_to_a_tenth_of_a_field_army(army):
    """GURPS Mass Combat, Yrth: «Осадные Машины обоих размеров не могут составлять больше чем 10 % от
    TS полевой армии»."""
    side = army(["{name: Foot, troop: medium_infantry, count: 225}",
                 "{name: Catapults, troop: small_engine, count: 10}"],
                ruleset="gurps-mass-combat/yrth")
    assert side.unit_ts == 900 + 250
    assert side.ts == 900 + 100


@pytest.mark.parametrize("troop, extra, ts", [
    ("light_cavalry", "", 10), ("light_infantry", "", 9), ("irregular_infantry", "", 2),
    ("irregular_infantry", ", ranged: rifle", 8), ("light_armour", "", 15),
    ("fighter_aircraft", "", 25), ("modern_artillery", "", 100),
])
def test_ww1_troop_types(army, troop, extra, ts):
    """GURPS Mass Combat, «Армии Первой Мировой войны»: LC TS 10, LI TS 9, II TS 2 «Добавьте бонусы за
    дальнобойное оружие, если оно доступно», LA TS 15, FA TS 25, MA TS 100 (a TL6 army)."""
    side = army([f"{{name: U, troop: {troop}, count: 1{extra}}}"], ruleset="gurps-mass-combat/ww1")
    assert side.tl == 6
    assert unit(side, "U").ts == ts


def test_ww1_artillery_limit(army):
    """GURPS Mass Combat, WWI: «Артиллерия не может представлять более чем 10 % от TS полевой армии»."""
    side = army(["{name: Rifles, troop: light_infantry, count: 100}",
                 "{name: Guns, troop: modern_artillery, count: 2}"],
                ruleset="gurps-mass-combat/ww1")
    assert side.unit_ts == 1100
    assert side.ts == 900 + 100


def test_quick_and_dirty_equivalences(core):
    """GURPS Mass Combat, «"Быстрый и Грязный" Массовый Бой»: «500 Иррегулярных Пехотинцев
    приблизительно равны ... 125 Тяжелым Кавалеристам»; «500 Неопытных рекрутов
    приблизительно равны 300 Зеленым солдатам, 250 Средним ... 125 Элитным»."""
    assert core.evaluate("quick_equivalent('heavy_cavalry', 'average', 125)") == 500
    assert core.evaluate("quick_equivalent('medium_infantry', 'average', 250)") == 500
    # 125 Elite = 500 Inexperienced = 250 Average men of the same type
    assert core.evaluate("quick_equivalent('irregular_infantry', 'elite', 125)") == 250
    assert core.evaluate("quick_equivalent('irregular_infantry', 'inexperienced', 500)") == 250
    assert core.lookup("quick_troops", "siege_engine").men == 20
    assert core.lookup("quick_quality", "green").men == 300
