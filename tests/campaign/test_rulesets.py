"""What the shipped rulesets carry from one battle to the next (rulesets/*/campaign.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, example_war, stratagem

from stratagem.api import load_army, run_battle
from stratagem.campaign.war import load_campaign
from stratagem.campaign.yamledit import block
from stratagem.loader.yamlio import load_yaml


def fleets(folder: Path) -> None:
    """The two fleets of examples/mazes-minotaurs/sea-battle.yaml as army files."""
    scenario = load_yaml(ROOT / "examples" / "mazes-minotaurs" / "sea-battle.yaml")
    sides = []
    for side, name in zip(scenario["sides"], ("athens", "atlantis")):
        army = {"kind": "army", "ruleset": "mazes-minotaurs", **side}
        (folder / f"{name}.yaml").write_text(block(army) + "\n", encoding="utf-8")
        sides.append(f"  - army: {name}.yaml")
    (folder / "sea.yaml").write_text(
        "kind: scenario\nruleset: mazes-minotaurs\nname: Off Cape Malea\n"
        "battle: {mode: naval, max_rounds: 12}\nsides:\n" + "\n".join(sides)
        + "\ndecisions:\n  risk: {Athens: 2, Atlantis: 2}\n", encoding="utf-8")
    (folder / "war.yaml").write_text(
        "kind: campaign\nruleset: mazes-minotaurs\narmies:\n  athens: athens.yaml\n"
        "  atlantis: atlantis.yaml\n", encoding="utf-8")


@pytest.mark.parametrize("seed", [2, 4])
def test_mazes_and_minotaurs_ships_keep_their_damage_and_crews_their_losses(tmp_path, capsys,
                                                                              seed):
    fleets(tmp_path)
    battle = run_battle(tmp_path / "sea.yaml", seed=seed)
    code, out = stratagem(capsys, "campaign", "fight", str(tmp_path / "war.yaml"),
                          str(tmp_path / "sea.yaml"), "--seed", str(seed))
    assert code == 0, out
    for side, name in zip(battle.root.sides, ("athens", "atlantis")):
        army = load_army(tmp_path / f"{name}.yaml").side
        assert [s.damage for s in army.ships] == [s.damage for s in side.ships]
        # «25 % выведенных из строя» are back after the battle, unless their ship sank
        assert [u.count for u in army.units] == [
            u.count + (u.disabled if u.status != "sunk" else 0) for u in side.units]
        assert army.general == (side.general if side.has_general else None)
    code, out = stratagem(capsys, "campaign", "replay", str(tmp_path / "war.yaml"))
    assert code == 0, out


def test_mazes_and_minotaurs_a_captured_general_leaves_his_army(tmp_path, capsys):
    fleets(tmp_path)
    # Athens's general fails Danger Evasion and nobody takes command: a leaderless army
    for seed in range(1, 200):
        battle = run_battle(tmp_path / "sea.yaml", seed=seed)
        if not battle.root.sides[0].has_general:
            break
    else:
        raise AssertionError("no seed below 200 loses Athens its general")
    code, out = stratagem(capsys, "campaign", "fight", str(tmp_path / "war.yaml"),
                          str(tmp_path / "sea.yaml"), "--seed", str(seed))
    assert code == 0, out
    assert "Athens has lost its general Kimon" in out
    athens = load_yaml(tmp_path / "athens.yaml")
    assert athens["general"] is None and athens["leadership"] is None


def test_gurps_loot_prisoners_and_es_add_up_in_the_army_files(tmp_path, capsys):
    example_war(tmp_path, "gurps", ("caliburn.yaml", "megalos-bannock.yaml",
                                    "al-wazif-raiders.yaml"), "gurps-mass-combat/yrth",
                {"bannock": "megalos-bannock.yaml", "al-wazif": "al-wazif-raiders.yaml"})
    battle = run_battle(tmp_path / "caliburn.yaml")
    code, out = stratagem(capsys, "campaign", "fight", str(tmp_path / "war.yaml"),
                          str(tmp_path / "caliburn.yaml"))
    assert code == 0, out
    bannock = load_army(tmp_path / "megalos-bannock.yaml").side
    end = battle.root.sides[0]
    assert bannock.loot_value == end.loot_value > 0        # «Армия, удерживающая его ...»
    assert bannock.es_used == end.es_used == 4             # «Мегалосская армия имеет ES 4»
    # the units' wounded (what rest did not heal) are kept, the dead are gone
    assert [u.wounded for u in bannock.units] == [u.wounded for u in end.units]
    assert [u.count for u in bannock.units] == [u.count for u in end.units]
    # the entry in the journal says what the example's dice were
    entry = load_campaign(tmp_path / "war.yaml").journal[-1]
    assert entry["dice"][:2] == [8, 17] and "seed" not in entry
