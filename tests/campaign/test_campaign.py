"""`stratagem campaign`: battles change the army files, time passes, the war replays."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import SKIRMISH, example_war, snapshot, stratagem

from stratagem.campaign import store
from stratagem.campaign.war import load_campaign
from stratagem.loader.yamlio import load_yaml


def fight(capsys, war: Path, *extra: str) -> tuple[int, str]:
    return stratagem(capsys, "campaign", "fight", str(war / "war.yaml"),
                     str(war / "battle.yaml"), "--seed", "1", *extra)


def units(war: Path, army: str) -> dict[str, int]:
    doc = load_yaml(war / f"{army}.yaml")
    return {u["name"]: u["count"] for u in doc["units"]}


def test_a_fight_writes_the_losses_into_the_army_files_and_nothing_else(capsys, war):
    before = (war / "red.yaml").read_text(encoding="utf-8")
    code, out = fight(capsys, war)
    assert code == 0, out
    after = (war / "red.yaml").read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert [a for a, _ in changed] == ["    count:   100",
                                       '  - {name: "Bows", count: 50, armour: light}   # flow '
                                       "style, a quoted name"]
    assert units(war, "red")["Spears"] < 100 and units(war, "blue")["Axes"] < 120
    assert "Changes to the army files:" in out and "red: Spears.count 100 → " in out
    campaign = load_campaign(war / "war.yaml")
    assert [e["did"] for e in campaign.journal] == ["start", "fight"]
    assert campaign.journal[1]["seed"] == 1 and campaign.journal[1]["scenario"] == "battle.yaml"
    # half of each unit's losses come back in a week (`schedule` in the skirmish ruleset)
    assert {i["day"] for i in campaign.scheduled} == {7}
    assert (war / "war.history" / "1" / "red.yaml").read_text(encoding="utf-8") == before
    assert "red: red.yaml       # Red's host" in (war / "war.yaml").read_text(encoding="utf-8")


def test_a_dry_run_writes_nothing(capsys, war):
    files = snapshot(war)
    code, out = fight(capsys, war, "--dry-run")
    assert code == 0, out
    assert "Dry run: nothing was written." in out and "red: Spears.count 100 → " in out
    assert snapshot(war) == files
    code, out = stratagem(capsys, "campaign", "advance", str(war / "war.yaml"), "--days", "3",
                          "--dry-run")
    assert code == 0 and snapshot(war) == files


def test_time_passing_brings_back_what_was_scheduled(capsys, war):
    fight(capsys, war)
    lost = units(war, "red")
    code, out = stratagem(capsys, "campaign", "advance", str(war / "war.yaml"), "--days", "6")
    assert code == 0 and "Nothing fell due." in out
    assert units(war, "red") == lost
    code, out = stratagem(capsys, "campaign", "advance", str(war / "war.yaml"), "--by",
                          "1 week")
    assert code == 0, out
    back = units(war, "red")
    assert back["Spears"] == lost["Spears"] + (100 - lost["Spears"]) // 2
    assert load_campaign(war / "war.yaml").day == 13
    assert load_campaign(war / "war.yaml").scheduled == []
    code, out = stratagem(capsys, "campaign", "advance", str(war / "war.yaml"), "--to", "2")
    assert code == 1 and "cannot go back to day 2" in out


def test_replay_fights_the_journal_again_and_finds_a_difference(capsys, war):
    fight(capsys, war, "--decide", "reinforce=true")
    stratagem(capsys, "campaign", "advance", str(war / "war.yaml"), "--days", "10")
    code, out = stratagem(capsys, "campaign", "replay", str(war / "war.yaml"))
    assert code == 0 and "Replayed 3 journal entries: every file matches." in out
    copy = war / "war.history" / "1" / "blue.yaml"
    copy.write_text(copy.read_text(encoding="utf-8").replace("120", "121"), encoding="utf-8")
    code, out = stratagem(capsys, "campaign", "replay", str(war / "war.yaml"))
    assert code == 1 and "blue comes out different from the journal" in out


def test_a_unit_made_in_the_battle_joins_the_army_file(capsys, war):
    code, out = fight(capsys, war, "--decide", "reinforce=true")
    assert code == 0, out
    doc = load_yaml(war / "red.yaml")
    assert doc["units"][-1]["name"] == "Reserve" and doc["units"][-1]["count"] <= 20
    assert "red: + Reserve (units)" in out


def test_a_file_edited_by_hand_is_never_overwritten_silently(capsys, war):
    fight(capsys, war)
    red = war / "red.yaml"
    edited = red.read_text(encoding="utf-8").replace("skill: 12", "skill: 14  # a new captain")
    red.write_text(edited, encoding="utf-8")
    code, out = fight(capsys, war)
    assert code == 1 and "edited by hand since the last command: red.yaml" in out
    assert red.read_text(encoding="utf-8") == edited
    code, out = stratagem(capsys, "campaign", "status", str(war / "war.yaml"))
    assert "edited by hand since the last command" in out
    code, out = fight(capsys, war, "--accept-edits")
    assert code == 0, out
    assert "skill: 14  # a new captain" in red.read_text(encoding="utf-8")
    journal = load_campaign(war / "war.yaml").journal
    assert [e["did"] for e in journal] == ["start", "fight", "edit", "fight"]
    assert (war / "war.history" / "3" / "red.yaml").read_text(encoding="utf-8") == edited
    code, out = stratagem(capsys, "campaign", "replay", str(war / "war.yaml"))
    assert code == 0, out


def test_one_writer_at_a_time(capsys, war):
    files = snapshot(war)
    with store.locked((war / "war.yaml").resolve()):
        code, out = fight(capsys, war)
    assert code == 1 and "another stratagem command is working on war.yaml" in out
    assert snapshot(war) == files
    code, out = fight(capsys, war)
    assert code == 0, out


def test_status_shows_the_armies_the_schedule_and_the_journal(capsys, war):
    fight(capsys, war)
    code, out = stratagem(capsys, "campaign", "status", str(war / "war.yaml"), "--lang", "ru")
    assert code == 0, out
    assert "Кампания: Border war, день 0" in out
    assert "Запланировано:" in out and "день 7 (1 неделя)" in out
    assert "Журнал (2 записи):" in out
    assert "Spears" in out


def test_a_side_written_in_the_scenario_is_fought_but_not_kept(capsys, war):
    (war / "battle.yaml").write_text((war / "battle.yaml").read_text(encoding="utf-8").replace(
        "  - army: blue.yaml\n", "  - {name: Bandits, units: [{name: Thugs, count: 90}]}\n"),
        encoding="utf-8")
    blue = (war / "blue.yaml").read_text(encoding="utf-8")
    code, out = fight(capsys, war)
    assert code == 0, out
    assert (war / "blue.yaml").read_text(encoding="utf-8") == blue
    assert all(i["with"]["unit"]["$"]["army"] == "red"
               for i in load_campaign(war / "war.yaml").scheduled)


def test_mistakes_are_explained(capsys, war, tmp_path):
    (war / "other.yaml").write_text("kind: scenario\nruleset: war-machine\nsides: []\n",
                                    encoding="utf-8")
    code, out = stratagem(capsys, "campaign", "fight", str(war / "war.yaml"),
                          str(war / "other.yaml"))
    assert code == 1 and "the scenario uses the ruleset 'war-machine'" in out
    text = (war / "war.yaml").read_text(encoding="utf-8")
    (war / "war.yaml").write_text(text.replace("blue: blue.yaml", "blue: lost.yaml"),
                                  encoding="utf-8")
    code, out = fight(capsys, war)
    assert code == 1 and "army file not found: lost.yaml" in out and "war.yaml:7" in out
    (war / "war.yaml").write_text(text.replace("armies:", "armys:"), encoding="utf-8")
    code, out = fight(capsys, war)
    assert code == 1 and "armys" in out
    assert "Traceback" not in out


def test_an_unknown_calendar_unit_is_a_load_error(tmp_path):
    from stratagem.api import load_ruleset
    from stratagem.errors import StratagemError

    folder = tmp_path / "skirmish"
    shutil.copytree(SKIRMISH.parent, folder)
    rules = folder / "ruleset.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("unit: week", "unit: fortnight"),
                     encoding="utf-8")
    try:
        load_ruleset(str(rules))
    except StratagemError as err:
        assert "the calendar has no unit 'fortnight'" in err.render()
    else:
        raise AssertionError("a schedule step with an unknown unit loaded")


def test_war_machine_forces_split_for_a_battle_merge_back(capsys, tmp_path):
    example_war(tmp_path, "war-machine", ("orcs.yaml", "orc-horde.yaml", "alliance.yaml"),
                "war-machine", {"orcs": "orc-horde.yaml", "alliance": "alliance.yaml"})
    code, out = stratagem(capsys, "campaign", "fight", str(tmp_path / "war.yaml"),
                          str(tmp_path / "orcs.yaml"), "--seed", "3")
    assert code == 0, out
    assert "Orcs (2) split off from Orcs" in out          # the seed's "100, 100 и 800"
    forces = load_yaml(tmp_path / "orc-horde.yaml")["forces"]
    assert [f["name"] for f in forces] == ["Orcs"]
    # every orc not killed and not routed is back in the one force
    assert "Orcs (3) rejoins Orcs" in out and f"orcs: Orcs.count 1000 → {forces[0]['count']}" in out
    refs = {i["with"]["force"]["$"]["name"] for i in load_campaign(tmp_path / "war.yaml").scheduled}
    assert "Orcs" in refs and not any("(" in r for r in refs)


def test_validate_checks_a_campaign_file_and_its_armies(capsys, war):
    code, out = stratagem(capsys, "validate", str(war / "war.yaml"))
    assert code == 0, out
    red = war / "red.yaml"
    red.write_text(red.read_text(encoding="utf-8").replace("count:   100", "count: lots"),
                   encoding="utf-8")
    code, out = stratagem(capsys, "validate", str(war / "war.yaml"))
    assert code == 1 and "red.yaml:9" in out


def test_a_scheduled_event_whose_entry_is_gone_is_explained(capsys, war):
    fight(capsys, war)
    text = (war / "war.yaml").read_text(encoding="utf-8")
    assert "name: Spears" in text
    for broken, message in ((text.replace("name: Spears", "name: Pikes"),
                             "names 'Pikes' of the army 'red', which is not in its file"),
                            (text.replace('at: "units[0]", name: Spears', 'at: "units[9]"'),
                             "names 'units[9]' of the army 'red', which is not in its file"),
                            (text.replace("army: red", "army: green"),
                             "names the army 'green', which the campaign no longer has")):
        (war / "war.yaml").write_text(broken, encoding="utf-8")
        code, out = stratagem(capsys, "campaign", "advance", str(war / "war.yaml"), "--days",
                              "7")
        assert code == 1 and message in out and "Traceback" not in out, out


def test_dice_rolled_at_the_table_are_journaled_and_replayed(capsys, war, monkeypatch,
                                                             tmp_path):
    table = tmp_path / "table"
    shutil.copytree(war, table)
    monkeypatch.setattr("builtins.input", lambda: "")   # Enter: roll for me, take the default
    code, out = fight(capsys, war, "--interactive")
    assert code == 0, out
    entry = load_campaign(war / "war.yaml").journal[-1]
    assert "seed" not in entry and len(entry["dice"]) > 4
    assert entry["decisions"]["reinforce"] == {"Red": [False]}
    assert entry["decisions"]["stance"]["Blue"][0] == "steady"
    code, out = stratagem(capsys, "campaign", "replay", str(war / "war.yaml"))
    assert code == 0, out
    # the same dice told with --dice fight the same battle
    dice = ",".join(str(d if isinstance(d, int) else sum(d)) for d in entry["dice"])
    code, out = stratagem(capsys, "campaign", "fight", str(table / "war.yaml"),
                          str(table / "battle.yaml"), "--dice", dice)
    assert code == 0, out
    for army in ("red.yaml", "blue.yaml"):
        assert (table / army).read_text(encoding="utf-8") == (war / army).read_text(
            encoding="utf-8")
