"""The compiled evaluator fights the same battles as the simpleeval reference.

Every scenario shipped in examples/ and benchmarks/scenarios/ is fought with seeds 0-4
under each evaluator (STRATAGEM_EVALUATOR, with the ruleset cache emptied so that each
mode compiles its own rulesets); the JSON trace and the Russian report with
explanations must be identical. The unit tests of the evaluator are in
tests/expr/test_compiled.py.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path

import pytest

import stratagem.compile.pipeline
from stratagem.api import load_scenario, run_battle
from stratagem.cli import main
from stratagem.errors import StratagemError
from stratagem.loader.access import Access
from stratagem.loader.yamlio import load_yaml
from stratagem.model.entities import MAX_DERIVED_DEPTH

ROOT = Path(__file__).parents[2]
MODES = ("compiled", "simpleeval")
SEEDS = range(5)
CANDIDATES = [*sorted(ROOT.glob("examples/*/*.yaml")),
              *sorted((ROOT / "benchmarks" / "scenarios").glob("*.yaml"))]


#: mode -> that mode's ruleset cache (each starts empty: rulesets compiled under the mode)
_CACHES: dict[str, dict] = {mode: {} for mode in MODES}


def _collect() -> tuple[list[Path], list[Path]]:
    """The files that load as scenarios, and the others. They are loaded as the compiled
    mode would load them, so the rulesets compiled here serve that mode again."""
    scenarios, others = [], []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STRATAGEM_EVALUATOR", "compiled")
        patch.setattr(stratagem.compile.pipeline, "_CACHE", _CACHES["compiled"])
        # collected before the fixtures run: let the skirmish scenario read its test ruleset
        patch.setattr(stratagem.compile.pipeline.DEFAULT, "access",
                      Access.allowing([ROOT / "tests"]))
        for path in CANDIDATES:
            try:
                load_scenario(path)
            except StratagemError:
                others.append(path)  # an army file (checked below)
            else:
                scenarios.append(path)
    return scenarios, others


SCENARIOS, OTHERS = _collect()


def test_every_file_left_out_is_an_army():
    # A scenario that stopped loading must fail here, not vanish from the comparison.
    assert OTHERS, "examples/ has army files too"
    assert [p for p in OTHERS if load_yaml(p).get("kind") != "army"] == []
    assert {p.parent.name for p in SCENARIOS} >= {"gurps", "mazes-minotaurs", "war-machine",
                                                  "scenarios"}
    benchmarks = [p for p in CANDIDATES if p.parent.name == "scenarios"]
    assert benchmarks and all(p in SCENARIOS for p in benchmarks)


def _fight(path: Path, mode: str, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    with monkeypatch.context() as patch:
        patch.setenv("STRATAGEM_EVALUATOR", mode)
        patch.setattr(stratagem.compile.pipeline, "_CACHE", _CACHES[mode])
        scenario = load_scenario(path)
        assert scenario.ruleset.evaluator.mode == mode
        out = []
        for seed in SEEDS:
            result = run_battle(scenario, seed=seed, tracing=True)
            out.append((result.to_json(), result.report("ru", explain=True)))
        return out


def _first_difference(a: str, b: str) -> str:
    diff = difflib.unified_diff(a.splitlines(), b.splitlines(), "compiled", "simpleeval",
                                n=2, lineterm="")
    return "\n".join(list(diff)[:40])


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT)) for p in SCENARIOS])
def test_both_evaluators_fight_the_same_battles(path, monkeypatch):
    compiled = _fight(path, "compiled", monkeypatch)
    reference = _fight(path, "simpleeval", monkeypatch)
    for seed, ((json_c, report_c), (json_s, report_s)) in zip(SEEDS, zip(compiled, reference)):
        assert json_c == json_s, f"seed {seed}, JSON:\n{_first_difference(json_c, json_s)}"
        assert report_c == report_s, f"seed {seed}, report:\n{_first_difference(report_c, report_s)}"
    # real battles were compared: each one has a trace
    assert all(json.loads(j)["trace"] for j, _ in compiled)


# -- a derived value that reads itself ----------------------------------------------------
SELF_READING = """\
kind: setting
extends: {ruleset}
entities:
  side:
    derived:
      strength: "strength + 1"
"""

BATTLE = """\
kind: scenario
ruleset: rules.yaml
sides:
  - {name: Red, units: [{troop: infantry, count: 10}]}
  - {name: Blue, units: [{troop: infantry, count: 10}]}
"""

SKIRMISH = ROOT / "tests" / "loader" / "fixtures" / "skirmish" / "ruleset.yaml"


def _self_reading_battle(write, monkeypatch, mode, capsys):
    rules = write(SELF_READING.format(ruleset=SKIRMISH), "rules.yaml")
    battle = write(BATTLE)
    monkeypatch.setenv("STRATAGEM_EVALUATOR", mode)
    monkeypatch.setattr(stratagem.compile.pipeline, "_CACHE", {})
    assert load_scenario(battle).ruleset.evaluator.mode == mode
    code = main(["battle", str(battle)])
    out, err = capsys.readouterr()
    return rules, code, out + err


@pytest.mark.parametrize("mode", MODES)
def test_a_derived_value_that_reads_itself_stops_the_battle(write, monkeypatch, mode, capsys):
    # It loads (nothing reads it until the battle does): the battle must stop with an
    # error at the value's expression, line 6, column 17, and no traceback.
    rules, code, text = _self_reading_battle(write, monkeypatch, mode, capsys)
    assert code == 1, text
    assert re.search(re.escape(f"{rules}:6:17") + "[: ]", text), text
    assert "Traceback" not in text
    assert "strength + 1" in text


@pytest.mark.parametrize("mode", MODES)
def test_a_derived_value_that_reads_itself_is_explained(write, monkeypatch, mode, capsys):
    # The engine's own guards (MAX_DERIVED_DEPTH in stratagem.model.entities, the
    # evaluator's depth) say what is wrong, rather than Python's recursion limit.
    _, code, text = _self_reading_battle(write, monkeypatch, mode, capsys)
    assert code == 1
    assert "maximum recursion depth" not in text, text
    assert f"{MAX_DERIVED_DEPTH} deep" in text or "recurses too deeply" in text, text


# -- a battle without a trace -------------------------------------------------------------
@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT)) for p in SCENARIOS])
def test_a_battle_without_a_trace_ends_the_same(path, monkeypatch):
    # Without a trace (odds) the steps that only add to it are skipped: nothing else may
    # change, so the end state is the one of the same battle fought with its trace.
    with monkeypatch.context() as patch:
        patch.setattr(stratagem.compile.pipeline, "_CACHE", _CACHES["compiled"])
        # collected before the fixtures run: let the skirmish scenario read its test ruleset
        patch.setattr(stratagem.compile.pipeline.DEFAULT, "access",
                      Access.allowing([ROOT / "tests"]))
        scenario = load_scenario(path)
    for seed in SEEDS:
        traced = run_battle(scenario, seed=seed, tracing=True)
        untraced = run_battle(scenario, seed=seed, tracing=False)
        assert untraced.trace == []
        assert untraced.root.to_plain() == traced.root.to_plain(), f"seed {seed}"
