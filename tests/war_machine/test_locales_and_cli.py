"""Russian and English texts, and the command line on the shipped examples."""

from __future__ import annotations

import json

import pytest

from stratagem.api import load_ruleset, run_battle
from stratagem.cli import main

from .conftest import EXAMPLES

LOCALES = ["ru", "en"]
EXAMPLE_SCENARIOS = ["orcs.yaml", "siege.yaml", "border-ambush.yaml"]


def test_i18n_check_reports_nothing_missing(capsys):
    # The issue: "`stratagem i18n check` reports nothing missing for this ruleset in either
    # language."
    code = main(["i18n", "check", "--ruleset", "war-machine", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    group = next(g for g in report["groups"] if g["name"] == "war-machine")
    assert group["errors"] == []
    for lang in LOCALES:
        found = group["languages"][lang]
        assert found["missing"] == [], lang
        assert found["unused"] == [], lang
        assert found["plurals"] == [] and found["placeholders"] == [], lang
    assert code == 0


def test_the_variant_needs_no_texts_of_its_own():
    base = load_ruleset("war-machine").message_keys()
    variant = load_ruleset("war-machine/original-quick-br").message_keys()
    assert variant == base


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("scenario", EXAMPLE_SCENARIOS)
def test_examples_render_without_missing_texts(capsys, scenario, lang):
    assert main(["battle", str(EXAMPLES / scenario), "--lang", lang, "--explain"]) == 0
    out = capsys.readouterr().out
    assert "[" + "battle." not in out and "[rate." not in out and "[enum." not in out
    assert "{" not in out


def test_orcs_in_russian(capsys):
    assert main(["battle", str(EXAMPLES / "orcs.yaml"), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    # the example names its armies in Russian too (examples/war-machine/locales/ru.yaml)
    assert "«Гномы» (БР 88) выбирает противником «Орки (2)» (БР 72)." in out
    assert "От отряда «Орки» отделён отряд «Орки (2)» (100 воинов, БР 72)" in out


def test_same_seed_same_battle():
    one = run_battle(EXAMPLES / "orcs.yaml", seed=12).to_json()
    two = run_battle(EXAMPLES / "orcs.yaml", seed=12).to_json()
    assert one == two


@pytest.mark.parametrize("example", ["elves.yaml", "orc-horde.yaml", "alliance.yaml"])
def test_armies_rate(capsys, example):
    assert main(["rate", str(EXAMPLES / example), "--lang", "ru"]) == 0
    assert "БР" in capsys.readouterr().out


def test_the_files_validate(capsys):
    files = sorted(str(p) for p in EXAMPLES.glob("*.yaml"))
    ruleset = EXAMPLES.parents[1] / "rulesets" / "war-machine"
    files += [str(ruleset / "ruleset.yaml"), str(ruleset / "settings" / "original-quick-br.yaml"),
              str(ruleset / "locales" / "ru.yaml"), str(ruleset / "locales" / "en.yaml")]
    assert main(["validate", *files]) == 0
    assert "all valid" in capsys.readouterr().out
