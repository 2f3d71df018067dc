"""Derived values are cached, and a change makes every value that read it dirty.

The scenario is tests/loader/fixtures/scenario.yaml: the red company (Pikes, 120
infantry of TS 1; Riders, 30 cavalry of TS 3) against the blue company (80 archers).
A unit's `strength` is `count * ts`; a side's is the sum of its units'.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import stratagem.compile.pipeline
from stratagem.api import load_scenario

SCENARIO = Path(__file__).parents[1] / "loader" / "fixtures" / "scenario.yaml"


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(SCENARIO)


def _red(root):
    side = root.sides[0]
    return side, side.units[0], side.units[1]


def test_a_change_reaches_the_values_that_read_it_and_theirs(scenario):
    side, pikes, riders = _red(scenario.instantiate())
    assert (pikes.strength, side.strength) == (120, 120 + 30 * 3)
    pikes.set("count", 100)
    assert (pikes.strength, side.strength) == (100, 100 + 90)
    riders.set("count", 10)
    assert (riders.strength, side.strength) == (30, 100 + 30)


def test_a_value_first_read_after_a_change_is_not_the_templates(scenario):
    # Each battle's copy inherits the values the template computed at load; one whose
    # input changed before it was first read must be computed again, not inherited.
    side, pikes, _ = _red(scenario.instantiate())
    pikes.set("count", 60)
    assert side.strength == 60 + 90  # read before pikes.strength itself
    assert pikes.strength == 60


def test_battles_from_one_scenario_do_not_share_changes(scenario):
    side_a, pikes_a, _ = _red(scenario.instantiate())
    side_b = scenario.instantiate().sides[0]
    assert side_a.strength == side_b.strength == 210
    pikes_a.set("count", 0)
    assert (side_a.strength, side_b.strength) == (90, 210)
    assert _red(scenario.template)[0].strength == 210


def test_a_copy_of_a_battle_under_way_keeps_its_own_values(scenario):
    # What a report's "before" state is: a copy made before the battle changes anything.
    root = scenario.instantiate()
    side, pikes, _ = _red(root)
    assert side.strength == 210
    start = root.clone()
    pikes.set("count", 20)
    assert (side.strength, _red(start)[0].strength) == (20 + 90, 210)


def _counting_computations(ruleset, computed):
    """Make every derived value's compiled function (a function of its entity,
    ``EntityKind.functions``) note its text in ``computed`` when it runs; return how to undo
    it. (The evaluator itself may be compiled, and then cannot be patched.)"""
    patched = []
    for kind in ruleset.kinds.values():
        functions = kind.functions
        for name, fn in list(functions.items()):
            if fn is not None:
                def counting(entity, fields, fn=fn, text=kind.derived[name].text):
                    computed.append(text)
                    return fn(entity, fields)

                patched.append((functions, name, fn))
                functions[name] = counting
    assert patched, "the derived values were computed at load"

    def undo():
        for functions, name, fn in patched:
            functions[name] = fn
    return undo


def test_setting_a_field_to_its_value_changes_nothing(monkeypatch):
    # counted through the compiled expressions, so with the compiled evaluator whatever
    # STRATAGEM_EVALUATOR says (a ruleset of its own: loaded rulesets are shared)
    monkeypatch.setenv("STRATAGEM_EVALUATOR", "compiled")
    monkeypatch.setattr(stratagem.compile.pipeline, "_CACHE", {})
    scenario = load_scenario(SCENARIO)
    computed: list[str] = []
    undo = _counting_computations(scenario.ruleset, computed)
    try:
        side, pikes, _ = _red(scenario.instantiate())
        assert side.strength == 210
        pikes.set("count", 120)
        assert side.strength == 210
        assert computed == []  # both read as the scenario computed them at load
        pikes.set("count", 119)
        assert side.strength == 209
        assert len(computed) == 2  # the side's, and within it the pikes' (not the riders')
    finally:
        undo()


def test_a_scenarios_template_never_changes(scenario):
    _, pikes, _ = _red(scenario.template)
    with pytest.raises(RuntimeError, match="template"):
        pikes.set("count", 1)
