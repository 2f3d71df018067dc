"""Every shipped example fights, serialises to JSON, replays byte for byte, and is a valid
input to `stratagem odds`."""

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from stratagem.api import load_scenario, replay_inputs, run_battle
from stratagem.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted(p for p in (ROOT / "examples").rglob("*.yaml")
                   if p.read_text(encoding="utf-8").lstrip().startswith(("kind: scenario", "#"))
                   and "kind: scenario" in p.read_text(encoding="utf-8"))


def test_there_are_examples_of_every_shipped_ruleset():
    folders = {p.parent.name for p in SCENARIOS}
    assert {"gurps", "war-machine", "mazes-minotaurs"} <= folders


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_json_is_reproducible_and_replays(path, tmp_path):
    first = run_battle(path, seed=4).to_json()
    assert run_battle(path, seed=4).to_json() == first
    data = json.loads(first)
    assert data["trace"] and data["end"]
    recorded = tmp_path / "trace.json"
    recorded.write_text(first, encoding="utf-8")
    dice, decisions = replay_inputs(recorded)
    again = json.loads(run_battle(path, dice=dice, decisions=decisions).to_json())
    assert again["end"] == data["end"]
    assert [e.get("message") for e in again["trace"]] == [e.get("message")
                                                           for e in data["trace"]]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_is_a_valid_input_to_odds(path, capsys):
    # `stratagem odds FILE -n 5000` exits 0 for each of them (checked by hand: see
    # docs/ruleset-reference.md, "Decisions in a scenario"); here fewer battles
    assert main(["odds", str(path), "-n", "40", "-j", "1", "--quiet"]) == 0, \
        capsys.readouterr().err


def test_caliburns_odds_report_the_fallback_its_preference_takes(capsys):
    # Under random dice a catastrophe may strike Al-Wazif after the horse archers have left
    # the field: the example prefers them, else a random unit, and odds count it.
    path = ROOT / "examples" / "gurps" / "caliburn.yaml"
    scenario = replace(load_scenario(path), dice=None)  # odds roll every die
    first = next(seed for seed in range(2000)
                 if run_battle(scenario, seed=seed, tracing=False).fallbacks)
    assert main(["odds", str(path), "-n", "20", "--seed", str(max(0, first - 10)),
                 "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "Fallbacks (where the scenario's answer could not apply):" in out
    assert re.search(r"\n  catastrophe_unit \(Al-Wazif\): fallback in [1-9]\d* of 20 battles: "
                     r"Horse archers is not among the options\n", out)
