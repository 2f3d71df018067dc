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


def test_a_copy_starts_with_the_templates_entries_that_hold_no_entity(scenario):
    # `Entity.freeze`: a copy's cache starts with the template's current entries as they are
    # (an entry is a tuple, never changed once made), and a change in the copy replaces
    # its own entry, never the template's
    side_t, pikes_t, _ = _red(scenario.template)
    root = scenario.instantiate()
    side, pikes, _ = _red(root)
    assert side._cache["strength"] is side_t._cache["strength"]
    assert pikes._cache["strength"] is pikes_t._cache["strength"]
    pikes.set("count", 100)
    assert (pikes.strength, side.strength) == (100, 190)
    assert side_t._cache["strength"] == (210, side_t._w.versions[side_t._kind.slots["strength"]])
    assert (pikes_t.strength, side_t.strength) == (120, 210)


RULESET = """\
kind: ruleset
id: kept
entities:
  battle:
    fields: {bonus: {type: int, default: 2}}
    children: {sides: side}
  side:
    fields: {lvl: {type: int, default: 1}}
    derived:
      me: "self"
      pair: "[lvl, self]"
      plain: "lvl + 1"
      late: "lvl * 3"
entry: {battle: fight}
procedures:
  fight: {steps: []}
"""


def test_a_copy_holds_its_own_entities_and_the_values_the_template_computed_later():
    from stratagem.compile.ruleset import compile_ruleset
    from stratagem.loader.yamlio import load_yaml

    rs = compile_ruleset(load_yaml("kept.yaml", text=RULESET))
    root = rs.new_entity(rs.kinds["battle"], {}, None)
    side = rs.new_entity(rs.kinds["side"], {}, root)
    root._f["sides"].append(side)
    assert (side.me, side.pair, side.plain) == (side, [1, side], 2)
    root.freeze()
    assert set(side._kept) == {"plain"}  # `me` and `pair` hold an entity
    assert side.late == 3  # computed by the template once frozen: no copy starts with it
    copy = root.clone()
    twin = copy.sides[0]
    assert set(twin._cache) == {"plain"} and twin._cache["plain"] is side._cache["plain"]
    assert (twin.me, twin.pair, twin.plain, twin.late) == (twin, [1, twin], 2, 3)
    assert twin._cache["late"][0] == 3 and twin._cache["me"][0] is twin
    twin.set("lvl", 5)
    assert (twin.pair, twin.plain, twin.late) == ([5, twin], 6, 15)
    assert (side.pair, side.plain, side.late) == ([1, side], 2, 3)
