"""The battle commands as a GM uses them: odds, interactive play, errors."""

import json
import re
from pathlib import Path

import pytest

from stratagem.cli import main

from .conftest import SKIRMISH

BATTLE = str(SKIRMISH / "battle.yaml")
ROOT = Path(__file__).resolve().parents[2]


def odds(capsys, *args):
    assert main(["odds", BATTLE, "--json", *args]) == 0
    out = capsys.readouterr().out
    assert main(["odds", BATTLE, "--json", *args]) == 0
    assert capsys.readouterr().out == out, "the same battles give the same bytes"
    data = json.loads(out)
    assert "seconds" not in data  # only with --timings
    return data


def test_odds_timings_only_when_asked(capsys):
    assert main(["odds", BATTLE, "--json", "-n", "5", "--timings"]) == 0
    assert json.loads(capsys.readouterr().out)["seconds"] >= 0


def test_odds_count_every_battle_and_are_reproducible(capsys):
    first = odds(capsys, "-n", "60")
    assert first["battles"] == 60
    assert sum(o["count"] for o in first["outcomes"].values()) == 60
    assert sum(o["percent"] for o in first["outcomes"].values()) == pytest.approx(100)
    assert odds(capsys, "-n", "60") == first
    assert odds(capsys, "-n", "60", "--seed", "1000") != first


def test_odds_in_several_processes_give_the_same_figures(capsys):
    # 250 battles are three tasks of at most 100: two processes fight them in any order,
    # and the figures are added up in the order of the seeds.
    one = odds(capsys, "-n", "250", "--jobs", "1")
    two = odds(capsys, "-n", "250", "--jobs", "2")
    assert two == one
    assert sum(o["count"] for o in two["outcomes"].values()) == 250


def test_odds_workers_that_cannot_fork_read_the_scenario_again(monkeypatch, capsys):
    # Where processes are spawned, not forked (Windows, macOS), each worker loads the
    # scenario from its file: the figures are the same.
    one = odds(capsys, "-n", "250", "--jobs", "1")
    monkeypatch.setattr("stratagem.odds._start_method", lambda: "spawn")
    assert odds(capsys, "-n", "250", "--jobs", "2") == one


def test_odds_refuse_an_answer_the_rules_never_take_before_any_battle(capsys):
    assert main(["odds", BATTLE, "-n", "250", "-j", "2", "--decide", "stance=wild"]) == 1
    captured = capsys.readouterr()
    assert "'wild' is not one of the answers to 'stance'" in captured.err
    assert "answers: bold, steady, careful" in captured.err
    assert "Traceback" not in captured.err and captured.out == ""


def test_odds_ignore_the_scenarios_scripted_dice(tmp_path, capsys):
    text = (SKIRMISH / "battle.yaml").read_text(encoding="utf-8")
    text = text.replace("ruleset: ruleset.yaml", f"ruleset: {SKIRMISH / 'ruleset.yaml'}")
    scripted = tmp_path / "scripted.yaml"
    scripted.write_text(text + "dice: [3, 18, 3, 18, 15]\n", encoding="utf-8")
    assert main(["odds", str(scripted), "-n", "40", "--json"]) == 0
    outcomes = json.loads(capsys.readouterr().out)["outcomes"]
    assert len(outcomes) > 1


def test_odds_progress_on_a_terminal_in_the_reports_language(monkeypatch, capsys):
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr("stratagem.cli.odds.REDRAW", 0)
    assert main(["odds", BATTLE, "-n", "200", "-j", "1", "--lang", "ru"]) == 0
    err = capsys.readouterr().err
    # a percentage, battles done of all, the rate and the time left (tqdm's bar)
    assert re.search(r"\r\s*50%\|.*\| 100/200 \[\d\d:\d\d<\d\d:\d\d, +[\d.]+ битв/s\]", err), err
    assert "100/200" in err and "200/200" in err
    assert err.endswith("\r") or err.endswith("\x1b[A")  # the bar is wiped before the report


def test_odds_progress_is_silent_off_a_terminal(capsys):
    assert main(["odds", BATTLE, "-n", "200", "-j", "1"]) == 0
    assert capsys.readouterr().err == ""


def test_odds_text_report_in_russian(capsys):
    assert main(["odds", BATTLE, "-n", "20", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "Проведено 20 битв" in out


def test_interactive_dice_and_decisions(monkeypatch, capsys, tmp_path):
    # A scenario that decides nothing: the prompts ask Red's and Blue's stance (round 1),
    # then the two contest rolls; every later question is answered with Enter (seeded dice,
    # declared defaults). The answers are recorded, so the battle replays.
    text = (SKIRMISH / "battle.yaml").read_text(encoding="utf-8")
    text = text.replace("ruleset: ruleset.yaml", f"ruleset: {SKIRMISH / 'ruleset.yaml'}")
    text = text[:text.index("decisions:")]
    path = tmp_path / "undecided.yaml"
    path.write_text(text, encoding="utf-8")
    answers = iter(["bold", "careful", "10", "12"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers, ""))
    assert main(["battle", str(path), "--interactive", "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["dice"][:2] == [10, 12]
    stances = data["decisions"]["stance"]
    assert (stances["Red"][0], stances["Blue"][0]) == ("bold", "careful")
    assert set(stances["Red"][1:]) == {"steady"}  # Enter takes the declared default
    assert "stance (Red) [bold, steady, careful]" in captured.err


def test_a_wrong_dice_answer_is_asked_again(monkeypatch, capsys):
    answers = iter(["19", "10", "12"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers, ""))
    assert main(["battle", BATTLE, "--interactive", "--json"]) == 0
    captured = capsys.readouterr()
    assert "cannot roll 19" in captured.err
    data = json.loads(captured.out)
    assert data["dice"][:2] == [10, 12]


def test_a_wrong_dice_answer_is_explained_in_the_users_language(monkeypatch, capsys):
    answers = iter(["19", "x", "10", "12"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers, ""))
    assert main(["battle", BATTLE, "--interactive", "--json", "--lang", "ru"]) == 0
    err = capsys.readouterr().err
    assert "нужно целое число" in err  # "x"
    assert "cannot roll" not in err and "a whole number" not in err  # no English left
    assert err.count("(Enter — бросить за вас)") >= 4  # each complaint asks again


def test_rate_shows_derived_values(capsys, tmp_path):
    army = tmp_path / "army.yaml"
    army.write_text(f"kind: army\nruleset: {SKIRMISH / 'ruleset.yaml'}\nname: Red\n"
                    "units: [{name: A, count: 10}, {name: B, count: 5}]\n", encoding="utf-8")
    assert main(["rate", str(army), "--explain", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "troops: 15" in out


@pytest.mark.parametrize("args, message", [
    (["battle", "missing.yaml"], "no such scenario file"),
    (["battle", BATTLE, "--dice", "1,x"], "'x' is not a whole number"),
    (["battle", BATTLE, "--decide", "stance"], "expected ID=VALUE"),
    (["battle", BATTLE, "--replay", "missing.json"], "cannot read the trace missing.json"),
])
def test_user_mistakes_exit_1_without_traceback(args, message, capsys):
    assert main(args) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_value_that_cannot_be_computed_is_explained_not_just_a_dash(capsys, tmp_path):
    # A homebrewer's derived value that fails (here: a division by the count of a unit
    # of 0) shows as "—" and is explained after the figures, with its place in the file.
    rules = tmp_path / "rules.yaml"
    rules.write_text(f"kind: setting\nextends: {SKIRMISH / 'ruleset.yaml'}\n"
                     "entities:\n  side:\n    derived:\n"
                     "      troops: \"100 // sum(u.count for u in units)\"\n", encoding="utf-8")
    army = tmp_path / "army.yaml"
    army.write_text("kind: army\nruleset: rules.yaml\nname: Red\n"
                    "units: [{name: A, count: 0}]\n", encoding="utf-8")
    assert main(["rate", str(army), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "troops: —" in out
    explained = out.split("Values that could not be computed")[1]
    assert "Red: troops" in explained and "division by zero" in explained
    assert f"{rules}:6:15" in explained


@pytest.mark.parametrize("args, message", [
    # the README: "2 a usage mistake"
    (["odds", BATTLE, "-n", "0"], "argument -n: must be between 1 and 1,000,000, got 0"),
    (["odds", BATTLE, "-j", "0"], "argument -j/--jobs: must be between 1 and 256, got 0"),
    (["battle", BATTLE, "--replay", "t.json", "--seed", "99"], "leave out --seed and --dice"),
    # a subcommand's mistake shows that subcommand's usage
    (["validate", "--format", "yaml", BATTLE], "usage: stratagem validate"),
    (["i18n", "check", "--bogus"], "usage: stratagem i18n check"),
])
def test_usage_mistakes_exit_2_with_the_commands_usage(args, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_odds_refuse_a_bad_decision_before_any_battle(capsys):
    # found when the plan is read; a battle that fails later names its seed
    # (tests/engine/test_decisions.py)
    assert main(["odds", BATTLE, "-n", "5", "-j", "1", "--decide", "stance=wild"]) == 1
    err = capsys.readouterr().err
    assert "'wild' is not one of the answers to 'stance'" in err
    assert "fix the --decide option that gives it" in err and "seed" not in err


def test_a_bad_decision_says_where_to_fix_it(capsys):
    assert main(["battle", BATTLE, "--decide", "stance=wild"]) == 1
    err = capsys.readouterr().err
    assert "'wild' is not one of the answers to 'stance'" in err
    assert "hint: answers: bold, steady, careful; fix the --decide option that gives it" in err


def test_a_mistyped_decision_is_asked_again(monkeypatch, capsys, tmp_path):
    text = (SKIRMISH / "battle.yaml").read_text(encoding="utf-8")
    text = text.replace("ruleset: ruleset.yaml", f"ruleset: {SKIRMISH / 'ruleset.yaml'}")
    path = tmp_path / "undecided.yaml"
    path.write_text(text[:text.index("decisions:")], encoding="utf-8")
    answers = iter(["wild", "bold", "careful", "10", "12"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers, ""))
    assert main(["battle", str(path), "--interactive", "--json", "--lang", "en"]) == 0
    captured = capsys.readouterr()
    assert "wild is not one of the choices; try again." in captured.err
    stances = json.loads(captured.out)["decisions"]["stance"]
    assert (stances["Red"][0], stances["Blue"][0]) == ("bold", "careful")


def test_the_trace_has_a_version_and_follows_its_schema(capsys, tmp_path):
    import jsonschema

    assert main(["battle", BATTLE, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["format"], data["version"]) == ("stratagem-trace", 1)
    schema = json.loads((ROOT / "schemas" / "trace.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)


@pytest.mark.parametrize("text, message", [
    ("[1, 2]", "is not a battle trace: [1, 2] is not of type 'object'"),
    ('{"format": "stratagem-trace", "version": 1, "ruleset": "x", "decisions": {}, "dice": '
     '{"a": 1}}', "is not a battle trace: {'a': 1} is not of type 'array' (at $.dice)"),
    ("{", "is not JSON"),
])
def test_a_bad_replay_file_is_told_what_is_wrong(capsys, tmp_path, text, message):
    trace = tmp_path / "t.json"
    trace.write_text(text, encoding="utf-8")
    assert main(["battle", BATTLE, "--replay", str(trace)]) == 1
    err = capsys.readouterr().err
    assert message in err and "list indices" not in err


def test_odds_json_keys_outcomes_by_their_text(capsys):
    path = ROOT / "examples" / "war-machine" / "orcs.yaml"
    assert main(["odds", str(path), "-n", "30", "--json", "--lang", "en"]) == 0
    outcomes = json.loads(capsys.readouterr().out)["outcomes"]
    assert not [k for k in outcomes if k.startswith("enum.")]
    assert outcomes["nobody holds the field"]["value"] == "field_held.none"
    assert "value" not in outcomes["The orc horde"]
