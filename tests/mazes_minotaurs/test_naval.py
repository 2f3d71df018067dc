"""Sea battles (Epic Battles, «Морские сражения»; the weather table from docs/rulesets/mazes-minotaurs.md, «Readings chosen»)."""

from __future__ import annotations

import pytest

from stratagem.api import load_army, rate_army, run_battle
from stratagem.errors import StratagemError

from .conftest import EXAMPLES, SCENARIOS, by_name, events, losses, name, sides, units


def test_fleet_strength_of_the_worked_example():
    # «Боевой Фактор и Сила Флота»: "полностью загруженный торговый корабль (несущий максимум
    # 20 полностью снаряженных солдат с БФ 6 у каждого) имеет Силу 120, в то время как галера
    # (40 ... солдат с БФ 6 у каждого), имеет Силу 360. Флот, например, состоящий из десяти
    # торговых кораблей и пяти галер будет иметь полную Силу равную 3000."
    side = rate_army(EXAMPLES / "seed-fleet.yaml").side
    ships = by_name(side.ships)
    assert ships["Merchant 1"].strength == 120
    assert ships["Galley 1"].strength == 360
    assert side.strength == 3000


def test_ship_damage_by_intensity(rs):
    # «Сражение и Потери»: "если Показатель боя равен 5, каждое судно на стороне проигравших
    # потеряет 3 Пункта Повреждений, а на стороне победителей 1".
    assert rs.evaluate("ship_damage(5, true)") == 3
    assert rs.evaluate("ship_damage(5, false)") == 1
    assert rs.evaluate("ship_damage(2, true)") == 0
    assert rs.evaluate("ship_damage(3, false)") == 0


def test_ship_types_and_capacity(rs):
    # «Отряды, Суда и Флоты»: merchant ship 8 damage points and 20 men, war galley 12 and 40,
    # Atlantean galley 20 and 50; strength × 1, × 1.5, × 2.
    assert [(r.damage_points, r.capacity, r.multiplier) for r in
            (rs.lookup("ship_types", k) for k in
             ("merchant_ship", "war_galley", "atlantean_galley"))] == [
        (8, 20, 1), (12, 40, 1.5), (20, 50, 2)]


def test_berths_by_size(write):
    # «Отряды, Суда и Флоты»: "боевая галера может взять на борт 40 человек, 400 мирмидонов,
    # до 20 титанидов или объединенный отряд из 20 Человек и 10 титанидов" (large × 2).
    text = """
kind: army
ruleset: mazes-minotaurs
name: Loads
leadership: 5
ships:
  - {name: Men, ship_type: war_galley}
  - {name: Myrmidons, ship_type: war_galley}
  - {name: Titanids, ship_type: war_galley}
  - {name: Mixed, ship_type: war_galley}
units:
  - {name: Forty men, creature: human, count: 40, ship: Men}
  - {name: Four hundred myrmidons, creature: myrmidon, count: 400, ship: Myrmidons}
  - {name: Twenty titanids, bf: 8, size: large, count: 20, ship: Titanids}
  - {name: Twenty men, creature: human, count: 20, ship: Mixed}
  - {name: Ten titanids, bf: 8, size: large, count: 10, ship: Mixed}
"""
    ships = by_name(rate_army(load_army(write(text, "army.yaml"))).side.ships)
    assert all(ship.load == ship.capacity == 40 for ship in ships.values())


def _sea(write, units: str, ships: str = "      - {name: Argo, ship_type: war_galley}") -> str:
    return write(f"""
kind: scenario
ruleset: mazes-minotaurs
name: A sea test
battle: {{mode: naval, max_rounds: 1}}
sides:
  - name: Red
    leadership: 5
    ships:
{ships}
    units:
{units}
  - name: Blue
    leadership: 5
    ships:
      - {{name: Kerkyra, ship_type: merchant_ship}}
    units:
      - {{name: Crew, creature: human, count: 20, ship: Kerkyra}}
decisions:
  omens: {{"*": false}}
  oratory: {{"*": false}}
""")


@pytest.mark.parametrize("units, what", [
    ("      - {name: Riders, creature: human, mount: horse, count: 10, ship: Argo}",
     "cavalry and chariots"),
    ("      - {name: Chariots, creature: human, chariot: true, count: 5, ship: Argo}",
     "cavalry and chariots"),
    ("      - {name: Crowd, creature: human, count: 41, ship: Argo}", "room for 40"),
    ("      - {name: Swimmers, creature: human, count: 10}", "must be aboard a ship"),
])
def test_sea_battles_refuse_what_the_seed_forbids(write, units, what):
    # «Боевой Фактор и Сила Флота»: "Кавалерия и колесницы не могут принимать участие в
    # морских сражениях"; a ship carries no more than its capacity.
    path = _sea(write, units)
    with pytest.raises(StratagemError) as err:
        run_battle(path, seed=1)
    assert what in str(err.value)
    # the error points at the offending entry of the user's file, not at the rule
    assert err.value.location.file.endswith(path.name)


def test_charge_counts_at_sea_only_for_aquatic_or_flying(write):
    # «Боевой Фактор и Сила Флота»: "Атака с ходу не дает премий к БФ в морском бою, если это
    # не водные или летающие отряды." Humans have BF 5 at sea; aquatic tragos keep 4.
    path = _sea(write, "      - {name: Marines, creature: human, count: 40, ship: Argo}\n"
                       "      - {name: Sea-goats, creature: tragos, aquatic: true, count: 10}")
    # weather 5 and 5 (light breeze); battle rolls 3 (+3 superiority) and 10: Blue wins by 4
    result = run_battle(path, dice=[5, 5, 3, 10])
    found = units(result)
    assert found["Marines"].battle_factor == 5
    assert found["Sea-goats"].battle_factor == 4
    mods = {name(e["side"]): e for e in events(result.trace, "round.modifiers")}
    assert mods["Red"]["strength"] == 40 * 5 * 3 / 2 + 10 * 4


@pytest.fixture(scope="module")
def sea():
    return run_battle(SCENARIOS / "scripted-sea.yaml")


def test_weather_modifier_accumulates(sea):
    # «Последовательность раундов и Погода» (docs/rulesets/mazes-minotaurs.md, «Readings chosen»): 1d10 + the cumulative modifier; strong
    # wind +1, storm +2 for the next round; "Если оба адмирала выкинут «Шторм», они оба
    # добавят к броску погодных условий в следующем раунде +4".
    weather = [(name(e["side"]), e["roll"], e["modifier"], e["total"], e["next"])
               for e in events(sea.trace, "weather.result")]
    assert weather == [("Athens", 9, 0, 9, 1), ("Atlantis", 5, 0, 5, 0),
                       ("Athens", 9, 1, 10, 1), ("Atlantis", 8, 1, 9, 1),
                       ("Athens", 8, 3, 11, 2), ("Atlantis", 8, 3, 11, 2)]
    assert [e["modifier"] for e in events(sea.trace, "weather.modifier")] == [1, 3, 7]
    assert sea.root.weather_modifier == 7


def test_intensity_five_damages_ships_three_and_one(sea):
    # «Сражение и Потери»: hour 1 has intensity 2 + 3 = 5; Athens wins: each Atlantean ship
    # loses 5 − 2 = 3 damage points, each Athenian ship 5 − 4 = 1.
    hour1 = [(name(e["ship"]), e["n"]) for e in events(sea.trace, "ship.damaged")][:4]
    assert hour1 == [("Poseidonia", 3), ("Eumoiros", 1), ("Theoris", 1), ("Salaminia", 1)]


def test_storm_stops_the_fight_and_damages_every_ship(sea):
    # «Шторм!»: "Сражаться в этом раунде нельзя. Каждый корабль теряет 1d6 Пунктов
    # повреждений"; "Судно потерявшее все свои пункты повреждений начнет тонуть — вместе со
    # всеми отрядами которое перевозит"; on a 5–6 sea creatures lose 5 %.
    assert len(events(sea.trace, "resolution.result")) == 2  # hours 1 and 2 only
    assert events(sea.trace, "weather.no_battle")
    storm = [(name(e["ship"]), e["n"]) for e in events(sea.trace, "storm.damage")]
    assert storm == [("Eumoiros", 5), ("Theoris", 2), ("Salaminia", 6), ("Poseidonia", 4)]
    ships = {s.name: s for side in sea.root.sides for s in side.ships}
    # Eumoiros: 1 + 2 (hours 1 and 2) + 5 = 8 = its damage points: it sinks
    assert ships["Eumoiros"].damage == 8 and not ships["Eumoiros"].afloat
    assert [name(e["ship"]) for e in events(sea.trace, "ship.sunk")] == ["Eumoiros"]
    found = units(sea)
    assert found["Hoplites of Eumoiros"].count == 0
    assert found["Hoplites of Eumoiros"].status == "sunk"
    # the tritons swim (no ship): their swell roll of 5 costs 5 % of the 20 left
    assert [(name(e["unit"]), e["n"]) for e in events(sea.trace, "storm.sea_losses")] == [
        ("Tritons", losses(20, 5))]


def test_crew_losses_are_three_quarters_dead(sea):
    # «Сражение и Потери»: "Потери понесенные всеми неводными существами рассматриваются как
    # 75 % мертвых и 25% выведенных из строя, у водных соответственно 50% на 50%."
    found = units(sea)
    marines, tritons = found["Atlantean marines"], found["Tritons"]
    # marines: hour 1 loses 50 % of 50, hour 2 60 % of 25
    first, second = losses(50, 50), losses(25, 60)
    assert marines.lost == first + second
    assert marines.disabled == losses(first, 25) + losses(second, 25)
    # tritons (aquatic): 50 % of 100, 60 % of 50, then the storm's 5 % of 20
    t1, t2, t3 = losses(100, 50), losses(50, 60), losses(20, 5)
    assert tritons.lost == t1 + t2 + t3
    assert tritons.disabled == losses(t1, 50) + losses(t2, 50) + losses(t3, 50)


def test_undecided_after_the_last_hour(sea):
    assert sea.root.result == "undecided" and sea.root.winner is None
    assert sides(sea)["Athens"].on_field and sides(sea)["Atlantis"].on_field


def _weather_duel(write, withdraw: str = "true", rounds: int = 1, pc_ship: str = "false") -> str:
    return write(f"""
kind: scenario
ruleset: mazes-minotaurs
name: Becalmed
battle: {{mode: naval, max_rounds: {rounds}}}
sides:
  - name: Red
    leadership: 5
    ships:
      - {{name: Trireme, ship_type: war_galley}}
      - {{name: Atlantean, ship_type: atlantean_galley, pc_ship: {pc_ship}}}
    units:
      - {{name: Rowers, creature: human, count: 40, ship: Trireme}}
      - {{name: Atlanteans, creature: human, count: 50, ship: Atlantean}}
      - {{name: Tritons, bf: 4, aquatic: true, count: 10}}
  - name: Blue
    leadership: 5
    ships:
      - {{name: Hulk, ship_type: merchant_ship}}
    units:
      - {{name: Crew, creature: human, count: 20, ship: Hulk}}
decisions:
  omens: {{"*": false}}
  oratory: {{"*": false}}
  risk: {{"*": 0}}
  withdraw: {{Red: {withdraw}}}
  storm_check: {{Atlantean: true}}
""")


def test_dead_calm_halves_strength_and_tires_the_rowers(write):
    # «Мертвый штиль»: "Все ваши флоты получают один уровень усталости в конце раунда и делят
    # показатель Силы на два. На водные отряды и боевые галеры атлантов это не
    # распространяется." Red rolls 2 (dead calm), Blue 6; the battle rolls 1 and 5 (Red wins
    # by less than 10). «Отступление»: withdrawing in a calm costs −2 morale unless the ship is
    # an Atlantean galley (Red's fleet is not all Atlantean): 7 against 5 − 2 fails.
    result = run_battle(_weather_duel(write, withdraw="false"), dice=[2, 6, 1, 5])
    red = next(e for e in events(result.trace, "round.modifiers") if name(e["side"]) == "Red")
    assert red["strength"] == 40 * 5 * 3 / 2 / 2 + 50 * 5 * 2 + 10 * 4
    found = units(result)
    assert found["Rowers"].fatigue == 1
    assert found["Atlanteans"].fatigue == 0 and found["Tritons"].fatigue == 0
    result = run_battle(_weather_duel(write), dice=[2, 6, 1, 5, 7])
    attempt = events(result.trace, "withdraw.attempt")
    assert [e["penalty"] for e in attempt] == [-2]
    check = events(result.trace, "morale.check")[-1]
    assert (check["roll"], check["target"], check["held"]) == (7, 5 - 2, False)


def test_adverse_wind_costs_a_fifth(write):
    # «Неблагоприятный ветер»: "Все ваши флоты имеют Силу уменьшенную на 20%" (not the
    # Atlantean galley, not the tritons). Red rolls 3, Blue 6.
    result = run_battle(_weather_duel(write), dice=[3, 6, 1, 5, 1])
    red = next(e for e in events(result.trace, "round.modifiers") if name(e["side"]) == "Red")
    assert red["strength"] == 40 * 5 * 3 / 2 * 4 / 5 + 50 * 5 * 2 + 10 * 4
    # no penalty to withdraw in an adverse wind
    assert [e["penalty"] for e in events(result.trace, "withdraw.attempt")] == [0]


def test_storm_penalises_every_withdrawal_and_heroes_may_weather_it(write):
    # «Отступление»: "Шторм причиняет штраф -2 к морали при отступлении для всех типов судов";
    # «Шторм!»: "Суда персонажей игроков и важных НИП, могут сделать проверку против шторма
    # согласно обычным правилам" — the GM rules it and gives the result (storm_check).
    # Hour 1: weather 10 and 10 (+2 next round); battle 1 (+6) against 5. Hour 2: Red rolls
    # 9 + 2 = 11, a storm (Blue 1 + 2, adverse wind): no battle; the Trireme takes 1d6 = 1,
    # the hero's Atlantean galley passes its check, the tritons' swell is 1. Red withdraws:
    # 3 against 5 − 2 holds.
    path = _weather_duel(write, withdraw="[false, true]", rounds=2, pc_ship="true")
    result = run_battle(path, dice=[10, 10, 1, 5, 9, 1, 1, 1, 3])
    assert [name(e["ship"]) for e in events(result.trace, "storm.damage")] == ["Trireme"]
    assert [name(e["ship"]) for e in events(result.trace, "storm.weathered")] == ["Atlantean"]
    assert [e["penalty"] for e in events(result.trace, "withdraw.attempt")] == [-2]
    check = events(result.trace, "morale.check")[-1]
    assert (check["roll"], check["target"], check["held"]) == (3, 3, True)
    assert result.root.winner == "Blue"
