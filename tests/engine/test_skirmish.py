"""A ruleset that is none of the shipped systems runs end to end from its YAML alone.

tests/engine/skirmish/ruleset.yaml is an invented system: opposed 3d rolls over
several rounds, a loss table shifted by each side's chosen stance (a decision),
and a morale check for a side below half strength.
"""

import json

from stratagem.api import load_scenario, run_battle
from stratagem.cli import main

SCENARIO = """
kind: scenario
ruleset: RULESET
name: Hand-computed skirmish
battle: {rounds: ROUNDS}
sides:
  - name: Red
    skill: 12
    morale: 9
    units:
      - {name: Red spears, count: 100}
      - {name: Red bows, count: 40}
  - name: Blue
    skill: 11
    morale: 11
    units:
      - {name: Blue blades, count: 120}
decisions:
  stance: {Red: [bold, steady], Blue: STANCE}
"""


def _scenario(write, rounds=1, stance="careful"):
    return write(SCENARIO.replace("ROUNDS", str(rounds)).replace("STANCE", stance))


def _counts(result):
    return {u.name: u.count for s in result.root.sides for u in s.units}


def test_one_round_computed_by_hand(skirmish_scenario):
    # Red rolls 10 vs 12 (margin +2), Blue rolls 12 vs 11 (margin -1): Red wins by 3.
    # Red (bold, shift -1): row "1..3" moves up to row "0" = 10 %: 100 -> 90, 40 -> 36.
    # Blue (careful, shift +1): row "-5..-3" moves down to "-2..-1" = 20 %: 120 -> 96.
    result = run_battle(_scenario(skirmish_scenario), dice=[10, 12])
    assert _counts(result) == {"Red spears": 90, "Red bows": 36, "Blue blades": 96}
    assert result.root.winner is None
    assert [e.key for e in result.trace if e.level == "summary"] == ["skirmish.no_winner"]


def test_shift_clamps_at_the_table_end_and_morale_breaks(skirmish_scenario):
    # Both rounds: Red 3 vs 12 (+9), Blue 18 vs 11 (-7): difference 16.
    # Blue is bold: row "-6 and below" (40 %) shifted up stays on the first row.
    # Round 1: Blue 120 -> 72 (48 lost); Red (bold) 5 %: 100 -> 95, 40 -> 38.
    # Round 2: Blue 72 -> 43 (28.8 rounds up to 29); Red (steady) 0 %.
    # Blue 43 < 60 (half of 120): morale 3d = 15 vs 11 fails, Blue flees; Red wins.
    result = run_battle(_scenario(skirmish_scenario, rounds=4, stance="bold"),
                        dice=[3, 18, 3, 18, 15])
    assert _counts(result) == {"Red spears": 95, "Red bows": 38, "Blue blades": 43}
    blue = result.root.sides[1]
    assert blue.fled is True
    assert result.root.winner == "Red"
    assert result.root.over is True
    checks = [e for e in result.trace if e.step == "check"]
    assert len(checks) == 1 and checks[0].values["success"] is False


def test_same_seed_same_json(skirmish_scenario):
    path = _scenario(skirmish_scenario, rounds=4)
    scenario = load_scenario(path)
    first = run_battle(scenario, seed=11).to_json()
    second = run_battle(load_scenario(path), seed=11).to_json()
    assert first == second
    assert json.loads(first)["trace"]


def test_different_seeds_differ(skirmish_scenario):
    scenario = load_scenario(_scenario(skirmish_scenario, rounds=4))
    texts = {run_battle(scenario, seed=s).to_json() for s in range(5)}
    assert len(texts) > 1


def test_cli_json_is_byte_identical(skirmish_scenario, capsys):
    path = str(_scenario(skirmish_scenario, rounds=3))
    assert main(["battle", path, "--seed", "5", "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["battle", path, "--seed", "5", "--json"]) == 0
    assert capsys.readouterr().out == first


def test_report_names_the_winner(skirmish_scenario, capsys):
    path = str(_scenario(skirmish_scenario, rounds=4, stance="bold"))
    assert main(["battle", path, "--dice", "3,18,3,18,15", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Red holds the field." in out
    assert "Blue flees the field." in out


def test_scripted_dice_running_out_is_a_clear_error(skirmish_scenario, capsys):
    path = str(_scenario(skirmish_scenario))
    assert main(["battle", path, "--dice", "10"]) == 1
    err = capsys.readouterr().err
    assert "ran out at roll #2" in err
    assert "Traceback" not in err


def test_missing_decision_without_default_uses_the_declared_default(skirmish_scenario):
    text = SCENARIO.replace("ROUNDS", "1").replace(
        "decisions:\n  stance: {Red: [bold, steady], Blue: STANCE}\n", "")
    result = run_battle(skirmish_scenario(text), dice=[10, 12])
    decided = [e.values for e in result.trace if e.step == "decide"]
    assert {d["source"] for d in decided} == {"default"}
    assert {d["value"] for d in decided} == {"steady"}


def test_invalid_decision_is_rejected(skirmish_scenario, capsys):
    path = str(_scenario(skirmish_scenario, stance="reckless"))
    assert main(["battle", path, "--dice", "10,12"]) == 1
    err = capsys.readouterr().err
    # found at load, at the value's place, before a die is rolled
    assert "battle.yaml:" in err
    assert "'reckless' is not a valid decision 'stance'; must be one of: bold, steady, careful" in err


def test_a_recorded_battle_replays_exactly(skirmish_scenario, tmp_path, capsys):
    path = str(_scenario(skirmish_scenario, rounds=4))
    assert main(["battle", path, "--seed", "9", "--json"]) == 0
    recorded = tmp_path / "trace.json"
    recorded.write_text(capsys.readouterr().out, encoding="utf-8")
    first = json.loads(recorded.read_text(encoding="utf-8"))
    assert main(["battle", path, "--replay", str(recorded), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["trace"] == first["trace"]
    assert again["end"] == first["end"]
    assert again["dice"] == first["dice"]


def test_reinforcements_created_by_a_decision_fight_on(skirmish_scenario):
    # Round 1 as in test_one_round_computed_by_hand (Red 90 + 36, Blue 96). In round 2 Red
    # sends its reserve (a `create` step): 20 fresh men. Round 2: Red 9 vs 12 (+3), Blue 14
    # vs 11 (-3): difference 6. Red (steady) row "4 and more" = 0 %; Blue (careful) row
    # "-6 and less" shifted down one = 30 %: 96 -> 67 (28.8 rounds up to 29).
    text = SCENARIO.replace("ROUNDS", "2").replace("STANCE", "careful")
    text = text.replace("decisions:\n", "decisions:\n  reinforce: {Red: true}\n")
    result = run_battle(skirmish_scenario(text), dice=[10, 12, 9, 14])
    assert _counts(result) == {"Red spears": 90, "Red bows": 36, "Reserve": 20,
                               "Blue blades": 67}
    summary = [e.key for e in result.trace if e.level == "summary"]
    assert "skirmish.reinforced" in summary
    # `return` gives the losses so far: Red lost 10 + 4, Blue 24 + 29
    totals = [e.params for e in result.trace if e.key == "skirmish.round_losses"]
    assert [(t["lost_a"], t["lost_b"]) for t in totals] == [(14, 24), (14, 53)]


def test_scouting_roll_happens_only_when_the_battle_asks(skirmish_scenario):
    text = SCENARIO.replace("ROUNDS", "1").replace("STANCE", "careful")
    plain = run_battle(skirmish_scenario(text), dice=[10, 12])
    assert not [e for e in plain.trace if e.key == "skirmish.scouts"]
    scouted = run_battle(skirmish_scenario(text.replace("{rounds: 1}",
                                                        "{rounds: 1, scouting: true}")),
                         dice=[5, 10, 12])
    (event,) = [e for e in scouted.trace if e.key == "skirmish.scouts"]
    assert event.params["total"] == 5
    assert _counts(scouted) == _counts(plain)


def test_break_leaves_the_loop_after_the_first_side_flees(skirmish_scenario):
    # Every round both sides roll 2 under their skill (a tie): row "0" shifted up by their
    # bold stance = 20 % each. After four rounds Red has 40 + 16 = 56 (< 70) and Blue 48
    # (< 60): both are below half. Red checks morale first (15 vs 9) and flees; `break`
    # leaves the loop, so Blue rolls no check: five dice after the eight contest rolls
    # would be one too many (the script would run out if Blue rolled).
    path = _scenario(skirmish_scenario, rounds=4, stance="bold").read_text()
    path = skirmish_scenario(path.replace("Red: [bold, steady]", "Red: bold"))
    result = run_battle(path, dice=[10, 9] * 4 + [15])
    assert _counts(result) == {"Red spears": 40, "Red bows": 16, "Blue blades": 48}
    assert [e.params["side"].name for e in result.trace if e.key == "skirmish.flees"] == ["Red"]
    assert len([e for e in result.trace if e.step == "check"]) == 1
