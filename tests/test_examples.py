"""Every shipped example fights, serialises to JSON, and replays byte for byte."""

import json
from pathlib import Path

import pytest

from stratagem.api import replay_inputs, run_battle

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
