"""What a change reaches (compile/readers.py): a cached derived value is never kept past a
change that could alter it.

Every scenario on disk is fought as it is and with nothing cached at all (every derived
value computed afresh at every read): the traces must be byte for byte the same. A ruleset
made for it reads members in every way an expression can (bare, through `parent`, through a
formula's value, by a `sorted` key written out or computed, through `str()`, in both branches
of a condition, in filtered collections kept item by item or not) and is changed at random,
every value checked against the same value worked out in Python. Then what the analysis
decides, where it decides it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from stratagem.api import load_scenario, run_battle
from stratagem.compile import pipeline, readers
from stratagem.compile.ruleset import compile_ruleset
from stratagem.errors import StratagemError
from stratagem.loader.yamlio import load_yaml
from stratagem.model.entities import VIEW_MIN_ITEMS, Entity

from .conftest import ON_DISK, ROOT

SEEDS = (0, 1, 2)
#: every scenario on disk that loads (tests/broken holds the ones that must not)
SCENARIOS = [p for p, k in ON_DISK.items()
             if k == "scenario" and not p.is_relative_to(ROOT / "tests" / "broken")]


def _nothing_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every derived value computed at every read (kept as of a version no slot has, so
    that no read takes it either)."""
    monkeypatch.setattr(Entity, "_derived",
                        lambda self, name, expr: self._compute(name, expr, None, -2))


def _trace(path: Path, seed: int) -> str:
    try:
        return run_battle(load_scenario(path), seed=seed, tracing=True,
                          backend="generated").to_json()
    except StratagemError as err:
        return f"{type(err).__name__}: {err.render()}"


def test_there_are_scenarios_of_every_shipped_system_to_fight():
    names = {p.relative_to(ROOT).parts[0] for p in SCENARIOS}
    assert names == {"examples", "benchmarks", "tests"}
    assert len(SCENARIOS) >= 20


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT)) for p in SCENARIOS])
def test_every_scenario_fights_as_with_nothing_cached(path, monkeypatch):
    cached = [_trace(path, seed) for seed in SEEDS]
    with monkeypatch.context() as patch:
        _nothing_cached(patch)
        fresh = [_trace(path, seed) for seed in SEEDS]
    assert cached == fresh
    assert all(not t.startswith("ValidationFailed") for t in cached)


RULESET = """\
kind: ruleset
id: readers
constants: {base: 1}
formulas:
  power: {params: [u], expr: "u.armour + base"}
  weight: {params: [u], expr: "power(u) * 2"}
entities:
  battle:
    fields:
      bonus: {type: int, default: 0}
      grouping: {type: str, default: sort}
    children: {sides: side}
  side:
    fields:
      name: {type: str, default: s}
      cut: {type: int, default: 5}
    children: {units: unit}
    derived:
      total: "sum(u.strength for u in units)"
      names: "[str(u) for u in units if u.count > cut]"
      lightest: "first(sorted(units, key='count'), none)"
      lightest_name: "lightest.name if lightest != none else 'none'"
      groups: "len(group_by(units, battle.grouping))"
      heavy: "sum(weight(u) for u in units)"
      standing: "[u for u in units if u.up]"
      strong: "[u.name for u in units if u.strength > 10]"
      reaching: "[u for u in units if u.reach > 0]"
  unit:
    fields:
      name: {type: str, default: u}
      count: {type: int, default: 0}
      armour: {type: int, default: 0}
      sort: {type: str, default: foot}
      flag: {type: bool, default: false}
    derived:
      up: "count > 0"
      strength: "count * power(self) + parent.parent.bonus if flag else count"
      reach: "count - parent.cut"
entry: {battle: fight}
procedures:
  fight:
    steps: []
"""


def _f(entity: Entity, name: str):  # type: ignore[no-untyped-def]
    return entity._f[name]


def _strength(u: Entity, bonus: int) -> int:
    return _f(u, "count") * (_f(u, "armour") + 1) + bonus if _f(u, "flag") else _f(u, "count")


#: each derived value of the side, worked out in Python from the fields
ORACLE = {
    "total": lambda s, b: sum(_strength(u, _f(b, "bonus")) for u in _f(s, "units")),
    "names": lambda s, b: [_f(u, "name") for u in _f(s, "units") if _f(u, "count") > _f(s, "cut")],
    "lightest_name": lambda s, b: min(_f(s, "units"), key=lambda u: _f(u, "count"))._f["name"]
    if _f(s, "units") else "none",
    "groups": lambda s, b: len({_f(u, _f(b, "grouping")) for u in _f(s, "units")}),
    "heavy": lambda s, b: sum((_f(u, "armour") + 1) * 2 for u in _f(s, "units")),
    "standing": lambda s, b: [u for u in _f(s, "units") if _f(u, "count") > 0],
    "strong": lambda s, b: [_f(u, "name") for u in _f(s, "units")
                            if _strength(u, _f(b, "bonus")) > 10],
    "reaching": lambda s, b: [u for u in _f(s, "units") if _f(u, "count") > _f(s, "cut")],
}


@pytest.fixture
def ruleset():
    return compile_ruleset(load_yaml("readers.yaml", text=RULESET))


def _battle(ruleset, n: int) -> tuple[Entity, Entity]:
    root = ruleset.new_entity(ruleset.kinds["battle"], {}, None)
    side = ruleset.new_entity(ruleset.kinds["side"], {}, root)
    root._f["sides"].append(side)
    for i in range(n):
        side._f["units"].append(ruleset.new_entity(ruleset.kinds["unit"], {
            "name": f"u{i}", "count": (7 * i) % 20, "sort": "foot" if i % 3 else "horse"},
            side))
    return root, side


def _check(root: Entity, side: Entity) -> None:
    for name, oracle in ORACLE.items():
        assert side.member(name) == oracle(side, root), name
    for unit in side._f["units"]:
        assert unit.member("strength") == _strength(unit, _f(root, "bonus"))
        assert unit.member("reach") == _f(unit, "count") - _f(side, "cut")


def _churn(ruleset, root: Entity, side: Entity, rng: random.Random, steps: int = 400) -> None:
    for _ in range(steps):
        units = side._f["units"]
        unit = rng.choice(units) if units else None
        move = rng.random()
        if unit is not None and move < 0.5:
            field, value = rng.choice([
                ("count", rng.randrange(0, 20)), ("armour", rng.randrange(0, 4)),
                ("flag", rng.random() < 0.5), ("name", f"n{rng.randrange(50)}"),
                ("sort", rng.choice(["foot", "horse", "boat"]))])
            unit.set(field, value)
        elif move < 0.6:
            side.set("cut", rng.randrange(0, 20))
        elif move < 0.7:
            root.set("bonus", rng.randrange(0, 5))
        elif move < 0.75:
            root.set("grouping", rng.choice(["sort", "count", "flag"]))
        elif move < 0.9:  # a new unit, as `create` adds it
            side.adopt("units", ruleset.new_entity(
                ruleset.kinds["unit"], {"name": f"new{rng.randrange(9)}",
                                        "count": rng.randrange(0, 20)}, side))
        elif units:  # the collection replaced, as `remove` does
            side.set("units", [u for u in units if u is not unit])
        if rng.random() < 0.6:  # read now and then, so that changes pile up in between
            _check(root, side)
    _check(root, side)


@pytest.mark.parametrize("units", [5, VIEW_MIN_ITEMS + 8])
def test_every_cached_value_follows_every_kind_of_change(ruleset, units):
    for seed in range(4):
        root, side = _battle(ruleset, units)
        _check(root, side)
        _churn(ruleset, root, side, random.Random(seed))


def test_a_battles_copy_follows_its_changes_and_the_template_never_changes(ruleset):
    template, tside = _battle(ruleset, VIEW_MIN_ITEMS + 8)
    template.warm()
    template.freeze()
    before = {name: tside.member(name) for name in ORACLE}
    for seed in range(3):
        copy = template.clone()
        _churn(ruleset, copy, copy._f["sides"][0], random.Random(seed))
    assert {name: tside.member(name) for name in ORACLE} == before


def test_a_ruleset_too_large_to_follow_runs_with_everything_computed_again(ruleset,
                                                                          monkeypatch):
    monkeypatch.setattr(readers, "MAX_READS", 10)
    coarse = compile_ruleset(load_yaml("readers.yaml", text=RULESET))
    assert coarse.slot_count == 1
    assert coarse.kinds["side"].views == {}
    assert all(slots == (0,) for kind in coarse.kinds.values() for slots in kind.bumps.values())
    for seed in range(2):
        root, side = _battle(coarse, VIEW_MIN_ITEMS + 8)
        _churn(coarse, root, side, random.Random(seed), steps=150)


def _slot_bumped(kind, field: str, owner, name: str) -> bool:
    return owner.slots[name] in kind.bumps[field]


def test_what_each_read_reaches(ruleset):
    battle, side, unit = (ruleset.kinds[k] for k in ("battle", "side", "unit"))
    # a unit's own values that name a field, directly or through another of its values
    assert set(unit.readers["count"]) == {"up", "strength", "reach"}
    # a formula's value is read as another entity's: `power(self)` moves the slot
    assert "armour" not in unit.readers and _slot_bumped(unit, "armour", unit, "strength")
    # ... and the side's values that read it through a unit (a formula's value, a key)
    assert _slot_bumped(unit, "count", side, "total")
    assert _slot_bumped(unit, "count", side, "lightest")
    assert _slot_bumped(unit, "count", side, "lightest_name")
    assert _slot_bumped(unit, "armour", side, "heavy")      # weight(u) -> power(u) -> u.armour
    assert _slot_bumped(unit, "name", side, "names")        # str(u) is its name
    assert _slot_bumped(unit, "flag", side, "groups")       # group_by's key is computed
    assert _slot_bumped(battle, "bonus", unit, "strength")  # parent.parent.bonus
    assert _slot_bumped(side, "cut", unit, "reach")
    # what nothing reads through another entity moves no slot
    assert not _slot_bumped(unit, "count", unit, "up")
    assert not _slot_bumped(side, "cut", side, "names")     # its own field: a reader
    assert "names" in side.readers["cut"]
    # filtered collections: item by item only when the condition reads the item alone
    assert set(side.views) == {"standing"}


def test_a_table_cell_named_like_a_derived_value_reaches_nothing_of_it():
    """GURPS: `quality_row.ts` reads a cell of the quality table, not a unit's `ts` (which
    reads `count`): a unit's `count` does not make its `per_man` be computed again."""
    rs = load_scenario(ROOT / "benchmarks" / "scenarios" / "gurps-12v12.yaml").ruleset
    unit = rs.kinds["unit"]
    assert "quality_row.ts" in unit.derived["quality_ts"].text
    assert "per_man" not in unit.readers["count"]
    assert unit.slots["per_man"] not in unit.bumps["count"]
    assert "quality_ts" in unit.readers["count"]  # `ts_stated * count / ...`: one branch


def test_battles_are_the_same_through_a_ruleset_followed_coarsely(monkeypatch):
    path = ROOT / "benchmarks" / "scenarios" / "war-machine-12v12.yaml"
    fine = json.loads(_trace(path, 3))
    monkeypatch.setattr(readers, "MAX_READS", 0)
    monkeypatch.setattr(pipeline, "_CACHE", {})  # compiled anew, not taken as it was
    assert load_scenario(path).ruleset.slot_count == 1
    assert json.loads(_trace(path, 3)) == fine


def _wide(typo: bool) -> str:
    values = "".join(f'      v{i}: "count + {i}"\n' for i in range(600))
    last = '      w: "v599 + cuont"\n' if typo else '      w: "v599 + count"\n'
    return ("kind: ruleset\nid: wide\nentry: {battle: fight}\n"
            "procedures: {fight: {steps: []}}\nentities:\n  battle:\n"
            "    fields: {count: {type: int, default: 1}}\n    derived:\n" + values + last)


def test_a_kind_of_hundreds_of_derived_values_loads_and_is_checked():
    # Once, the checks inferred the type of each derived value inside the others' (every
    # member's, at once): 600 values passed Python's bound on nesting ("a bug to report").
    rs = compile_ruleset(load_yaml("wide.yaml", text=_wide(typo=False)))
    root = rs.new_entity(rs.kinds["battle"], {}, None)
    assert (root.member("v599"), root.member("w")) == (600, 601)
    root.set("count", 2)
    assert (root.member("v599"), root.member("w")) == (601, 603)
    with pytest.raises(StratagemError, match="cuont"):
        compile_ruleset(load_yaml("wide.yaml", text=_wide(typo=True)))


def test_the_security_page_states_the_bound_of_what_a_change_reaches():
    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if "compile/readers.py" in line)
    assert f"| {readers.MAX_READS:,} |" in row
