"""The examples run from the command line in both languages; the locales are complete."""

from __future__ import annotations

import json

import pytest

from stratagem.api import run_battle
from stratagem.cli import main

from .conftest import EXAMPLES, SCENARIOS

BATTLES = sorted(p.name for p in EXAMPLES.glob("*.yaml")
                 if "kind: scenario" in p.read_text(encoding="utf-8"))
ARMIES = sorted(p.name for p in EXAMPLES.glob("*.yaml")
                if "kind: army" in p.read_text(encoding="utf-8"))


def test_the_issue_examples_are_there():
    assert {"town-defence.yaml", "field-battle-horde.yaml", "siege.yaml",
            "sea-battle.yaml"} <= set(BATTLES)


@pytest.mark.parametrize("example", BATTLES)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_examples_run_with_explanations(example, lang, capsys):
    code = main(["battle", str(EXAMPLES / example), "--lang", lang, "--explain"])
    out = capsys.readouterr().out
    assert code == 0
    assert ("Эпические сражения" if lang == "ru" else "Epic Battles") in out
    assert "[" + "battle." not in out and "[round." not in out  # no untranslated keys


@pytest.mark.parametrize("example", BATTLES)
def test_examples_end_with_a_result(example):
    result = run_battle(EXAMPLES / example)
    assert result.root.result in ("victory", "mutual_rout", "undecided")
    if result.root.result == "victory":
        assert result.root.winner in {s.name for s in result.root.sides}


@pytest.mark.parametrize("army", ARMIES)
def test_armies_rate(army, capsys):
    assert main(["rate", str(EXAMPLES / army), "--lang", "ru"]) == 0


@pytest.mark.parametrize("scenario", ["scripted-land.yaml", "scripted-sea.yaml"])
def test_scripted_battles_replay_identically(scenario):
    first = run_battle(SCENARIOS / scenario).to_json()
    assert run_battle(SCENARIOS / scenario).to_json() == first


def test_i18n_check_reports_nothing_missing(capsys):
    code = main(["i18n", "check", "--ruleset", "mazes-minotaurs", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    group = next(g for g in report["groups"] if g["name"] == "mazes-minotaurs")
    for lang in ("ru", "en"):
        found = group["languages"][lang]
        assert found["missing"] == [], lang
        assert found["placeholders"] == [] and found["plurals"] == [], lang
        assert found["unknown_parameters"] == [], lang
