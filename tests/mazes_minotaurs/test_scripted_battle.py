"""A scripted three-hour battle (tests/mazes_minotaurs/scenarios/scripted-land.yaml).

Dice and decisions are given, so every figure follows from Epic Battles's round sequence
(«Последовательность раундов»): reserves, a 10+ victory and its choice (both options),
the loss of a general and a successor, a failed morale check with 20 % more losses,
and an orderly withdrawal that ends the battle.
"""

from __future__ import annotations

import pytest

from stratagem.api import run_battle

from .conftest import SCENARIOS, events, losses, name, sides, units


@pytest.fixture(scope="module")
def battle():
    return run_battle(SCENARIOS / "scripted-land.yaml")


def test_reserves_take_no_losses_until_committed(battle):
    # «Потери»: "эти потери распределяются поровну между всеми полками действующей армии
    # (подкрепления потерь не несут)". The Horsemen wait one hour, the tragos two.
    reserve = [(name(e["unit"])) for e in events(battle.trace, "strategy.reserve")]
    assert reserve == ["Horsemen", "Tragos mercenaries", "Tragos mercenaries"]
    found = units(battle)
    # the tragos fought only hour 3, lost by 1 at intensity 2: 20 %
    assert found["Tragos mercenaries"].lost == losses(60, 2 * 10)
    # the horsemen fought hours 2 and 3: hour 2 Argos took no losses (its choice), hour 3
    # Argos won: 2 × 5 %
    assert found["Horsemen"].lost == losses(20, 2 * 5)


def test_crushing_victory_choices(battle):
    # «Потери»: "Если бросок победителя, превышает бросок проигравшего на 10 и более,
    # генерал армии может увеличить потери врага на половину (т.е. погибнет ПБ x 15 %
    # существ противника) или свести свои собственные потери к нулю."
    results = events(battle.trace, "resolution.result")
    assert [(name(r["winner"]), r["margin"]) for r in results] == [
        ("Argos", 13), ("Argos", 18), ("Argos", 1)]
    choices = [e["choice"] for e in events(battle.trace, "resolution.choice")]
    assert choices == ["more_enemy_losses", "no_own_losses"]
    side_losses = [(name(e["side"]), e["percent"], e["n"])
                   for e in events(battle.trace, "losses.side")]
    # hour 1, intensity 2: Thebes loses 2 × 15 % of its engaged regiments, Argos 2 × 5 %
    assert side_losses[0] == ("Thebes", 30, losses(120, 30) + losses(40, 30))
    assert side_losses[1] == ("Argos", 10, losses(100, 10))
    # hour 2, intensity 6: Thebes loses 60 %, Argos nothing (no losses reported for it)
    assert side_losses[2][:2] == ("Thebes", 60)
    # hour 3, intensity 2: the tragos lose 20 %, Argos 10 % (now with its horsemen)
    assert side_losses[3:] == [("Thebes", 20, losses(60, 20)),
                               ("Argos", 10, losses(90, 10) + losses(20, 10))]
    assert units(battle)["Hoplites"].lost == losses(100, 10) + losses(90, 10)


def test_the_general_is_taken_and_a_hero_takes_command(battle):
    # «Потеря генерала»: the loser's general makes Danger Evasion against 15 (a roll of 7);
    # "Любой воин-персонаж игрока или главный НИП со значением лидерства 2 или выше, может
    # попытаться взять командование"; the army's morale follows its new general's Leadership.
    captured = events(battle.trace, "general.captured")
    assert [(name(e["side"]), e["general"], e["total"], e["target"]) for e in captured] == [
        ("Thebes", "Kreon", 7, 15)]
    successor = events(battle.trace, "general.successor")
    assert [(name(e["hero"]), e["morale"]) for e in successor] == [("Eteokles", 3)]
    thebes = sides(battle)["Thebes"]
    assert thebes.general == "Eteokles" and thebes.has_general
    # Eteokles is a player character: no Danger Evasion for him in hour 2 (margin 18)
    assert len(captured) == 1 and not events(battle.trace, "general.escaped")


def test_battle_wounds(battle):
    # «Боевые раны»: the enemy's battle roll against the PC's EDC (14): 18 and 20 both hit
    # for 1d6 (3, then 2); a feat needs 1d20 + Melee ≥ the enemy's roll (4 + 3, 1 + 3 fail).
    wounds = [(e["attack"], e["n"]) for e in events(battle.trace, "hero.wounded")]
    assert wounds == [(18, 3), (20, 2)]
    eteokles = sides(battle)["Thebes"].heroes[0]
    assert (eteokles.damage, eteokles.hp_left, eteokles.glory) == (5, 7, 0)
    assert [e["total"] for e in events(battle.trace, "hero.no_feat")] == [7, 4]


def test_failed_morale_check_costs_twenty_percent_more(battle):
    # «Фаза морали»: below half the starting number (106 of 220 after hour 2) the army rolls
    # 1d10 against its morale (3): an 8 fails, and the engaged regiments flee "перенеся к
    # тому же дополнительные потери равные 20 % численности всех отрядов".
    checks = [(name(e["side"]), e["roll"], e["target"], e["held"], e["reason"])
              for e in events(battle.trace, "morale.check")]
    assert checks[0] == ("Thebes", 8, 3, False, "losses")
    spearmen_before_flight = 84 - losses(84, 60)
    peltasts_before_flight = 28 - losses(28, 60)
    fled = events(battle.trace, "side.flees")
    assert [e["n"] for e in fled] == [losses(spearmen_before_flight, 20)
                                      + losses(peltasts_before_flight, 20)]
    found = units(battle)
    assert found["Spearmen"].status == "fled"
    assert found["Spearmen"].count == spearmen_before_flight - losses(spearmen_before_flight, 20)
    assert found["Peltasts"].status == "fled"


def test_withdrawal_ends_the_battle(battle):
    # «Стадия Отступления»: withdrawal needs a morale check; success leaves the field without
    # extra losses; "если никаких резервных сил нет, армия считается побежденной".
    checks = [(e["roll"], e["target"], e["held"], e["reason"])
              for e in events(battle.trace, "morale.check")]
    assert checks[-1] == (3, 3, True, "withdrawal")
    assert events(battle.trace, "side.withdraws")
    found = units(battle)
    assert found["Tragos mercenaries"].status == "withdrawn"
    assert found["Tragos mercenaries"].count == 60 - losses(60, 20)
    assert battle.root.winner == "Argos" and battle.root.result == "victory"
    assert battle.root.round == 3


def test_superiority_is_recomputed_every_round(battle):
    # «Превосходство»: "Премия Превосходства должна рассчитываться повторно в начале каждого
    # раунда". Hour 3: 740 against the tragos' 240 (3.08 : 1) gives Argos +3.
    argos = [e for e in events(battle.trace, "round.modifiers") if name(e["side"]) == "Argos"]
    assert [(e["strength"], e["enemy"], e["superiority"]) for e in argos] == [
        (600, 120 * 6 + 7 + 40 * 4, 0),
        (90 * 6 + 20 * 10, 84 * 6 + 7 + 28 * 4, 0),
        (90 * 6 + 20 * 10, 60 * 4, 3)]
