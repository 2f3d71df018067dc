"""The heroes phase (Epic Battles, «Фаза героев»: «Боевые раны», «Боевые подвиги»)."""

from __future__ import annotations

import pytest

from stratagem.api import run_battle

from .conftest import duel, events, name, sides

PHALANX = "      - {name: Phalanx, creature: human, count: 100}"
RAIDERS = "      - {name: Raiders, creature: tragos, count: 100}"
ACHILLES = ("      - {name: Achilles, regiment: Phalanx, hero_class: spearman, melee: 6,"
            " defence: 8, hp: HP}")
QUIET = '  risk: {"*": 0}'  # intensity 0: nobody loses soldiers, only heroes bleed


def _heroes(hp: int = 30, extra: str = "", red: str = "", battle: str = "") -> str:
    return duel(PHALANX, RAIDERS, a_heroes=ACHILLES.replace("HP", str(hp)) + extra,
                a_extra=red, decisions=QUIET,
                battle=battle or "{mode: land, max_rounds: 1}")


def test_grave_wound_and_a_feat_of_arms(write):
    # «Боевые раны»: "Если бросок равен или выше ЭКЗ персонажа, то он потеряет 1D6 хитов.
    # Если бросок превышает ЭКЗ персонажа на 10 и более, то наносит ему уже 2D6";
    # «Боевые подвиги»: 1d20 + Melee ≥ the enemy's roll earns "очков Славы, равное 20 %
    # (одной пятой) от значения текущей Силы вражеской армии".
    # Red 5 (+1 superiority: 608 against 400), Blue 19: Blue by 13; Red's general evades (15);
    # 19 ≥ 8 + 10: 2d6 = 9; feat 14 + 6 = 20 ≥ 19.
    result = run_battle(write(_heroes()), dice=[5, 19, 15, 9, 14])
    wound = events(result.trace, "hero.wounded")
    assert [(e["attack"], e["n"], e["left"]) for e in wound] == [(19, 9, 30 - 9)]
    grave = [e for e in result.trace if e.step == "roll" and e.values.get("dice") == "2d6"]
    assert len(grave) == 1
    feat = events(result.trace, "hero.feat")
    assert [(e["total"], e["glory"], e["heroic"]) for e in feat] == [(20, 400 // 5, False)]
    achilles = sides(result)["Red"].heroes[0]
    assert (achilles.damage, achilles.glory) == (9, 80)


def test_a_heroic_deed_doubles_glory_and_lifts_morale(write):
    # «Боевые подвиги»: "Если бросок персонажа превосходит вражеский бросок на 10 или больше,
    # полученное количество очков Славы удваивается, а его доблестные деяния даже
    # вдохновляют дружественные войска, повышая их Мораль на +1." Red 15 + 1 against 2; Blue's
    # general evades (18); Achilles is unhurt (2 < EDC 8) and rolls 10 + 6 = 16 ≥ 2 + 10.
    result = run_battle(write(_heroes()), dice=[15, 2, 18, 10])
    assert not events(result.trace, "hero.wounded")
    feat = events(result.trace, "hero.feat")
    assert [(e["glory"], e["heroic"]) for e in feat] == [(2 * (400 // 5), True)]
    assert sides(result)["Red"].morale == 5 + 1


def test_a_fallen_pc_general_passes_command(write):
    # «Потеря генерала»: player-character generals are not taken by Danger Evasion ("Эти
    # правила относятся только к генералам-НИП"); they fall to battle wounds. A warrior PC
    # with Leadership 2+ may take command at once. Achilles (hp 5) takes 2d6 = 9 and falls;
    # Patroklos takes command; then Patroklos' feat (1 + 2) fails.
    patroklos = ("\n      - {name: Patroklos, regiment: Phalanx, hero_class: noble, melee: 2,"
                 " defence: 20, hp: 10, leadership: 3}")
    text = _heroes(hp=5, extra=patroklos,
                   red="    general: Achilles\n    leadership: 6").replace(
        QUIET, QUIET + "\n  take_command: {Patroklos: true}")
    result = run_battle(write(text), dice=[5, 19, 9, 1])
    assert not events(result.trace, "general.captured")
    assert [name(e["hero"]) for e in events(result.trace, "hero.down")] == ["Achilles"]
    assert [e["general"].name for e in events(result.trace, "general.fallen")] == ["Achilles"]
    red = sides(result)["Red"]
    assert red.general == "Patroklos" and red.has_general and red.morale == 3
    # a fallen hero no longer adds his BF to the regiment
    assert red.units[0].support == 2 + 1 + 0


@pytest.mark.parametrize("option, wounded", [("false", False), ("true", True)])
def test_major_npcs_take_wounds_only_by_the_gms_option(write, option, wounded):
    # «Последователи и Главный НИП»: "По усмотрению ведущего, правила для получения Боевых Ран
    # в Фазе героев, могут использоваться также, чтоб определить судьбу главных НИП".
    text = duel(PHALANX, RAIDERS, decisions=QUIET,
                battle=f"{{mode: land, max_rounds: 1, npc_wounds: {option}}}",
                a_heroes="      - {name: Nestor, hero_type: npc, regiment: Phalanx, defence: 8,"
                         " hp: 10}")
    dice = [5, 19, 15] + ([3] if wounded else [])
    result = run_battle(write(text), dice=dice)
    assert bool(events(result.trace, "hero.wounded")) is wounded
    assert not events(result.trace, "hero.feat") and not events(result.trace, "hero.no_feat")
