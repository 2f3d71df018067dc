"""Filtered collections kept item by item (model/views.py, docs/ruleset-reference.md,
«Derived values»): a derived `[x for x in LIST if <members of x>]`, or `[<members of x>
for x in LIST ...]`, follows each item's change instead of being computed whole, and
always equals the comprehension."""

from __future__ import annotations

import json
import random

import pytest

from stratagem.compile.ruleset import compile_ruleset
from stratagem.loader.yamlio import load_yaml
from stratagem.model.entities import VIEW_MIN_ITEMS

#: units enough for the side's filtered collections to be kept item by item
COUNTS = [(7 * i) % 20 for i in range(VIEW_MIN_ITEMS + 8)]

RULESET = """\
kind: ruleset
id: views
constants: {low: 10}
entities:
  battle:
    children: {sides: side}
  side:
    fields: {cut: {type: int, default: 5}}
    children: {units: unit}
    derived:
      standing: "[u for u in units if u.up]"
      hurt: "[u for u in units if 0 < u.count < low]"
      by_count: "sorted(standing, key='count')"
      flagged_by_count: "[u for u in by_count if u.flag and not u.gone]"
      above_cut: "[u for u in units if u.count > cut]"
      strong: "[u for u in units if u.count > 2 * len(units)]"
      chained: "[u for u in units if u.parent.cut > 0]"
      doubled_flagged: "[u.count * 2 for u in by_count if u.flag]"
      pairs: "[(u.count, u.flag) for u in units]"
      up_of_big: "[u.up for u in units if u.count > 3]"
      copied: "[u for u in units]"
      mapped_cut: "[u.count - cut for u in units]"
  unit:
    fields:
      count: {type: int, default: 0}
      flag: {type: bool, default: false}
      gone: {type: bool, default: false}
    derived:
      up: "count > 0 and not gone"
entry: {battle: fight}
procedures:
  fight:
    steps: []
"""

#: what each derived value of the side is, worked out in Python from the fields
ORACLE = {
    "standing": lambda s: [u for u in s._f["units"] if u._f["count"] > 0 and not u._f["gone"]],
    "hurt": lambda s: [u for u in s._f["units"] if 0 < u._f["count"] < 10],
    "flagged_by_count": lambda s: [
        u for u in sorted(ORACLE["standing"](s), key=lambda u: u._f["count"])
        if u._f["flag"] and not u._f["gone"]],
    "above_cut": lambda s: [u for u in s._f["units"] if u._f["count"] > s._f["cut"]],
    "strong": lambda s: [u for u in s._f["units"] if u._f["count"] > 2 * len(s._f["units"])],
    "doubled_flagged": lambda s: [
        2 * u._f["count"] for u in sorted(ORACLE["standing"](s), key=lambda u: u._f["count"])
        if u._f["flag"]],
    "pairs": lambda s: [(u._f["count"], u._f["flag"]) for u in s._f["units"]],
    "up_of_big": lambda s: [u._f["count"] > 0 and not u._f["gone"] for u in s._f["units"]
                            if u._f["count"] > 3],
    "mapped_cut": lambda s: [u._f["count"] - s._f["cut"] for u in s._f["units"]],
}


@pytest.fixture(params=["compiled", "simpleeval"])
def ruleset(request, monkeypatch):
    monkeypatch.setenv("STRATAGEM_EVALUATOR", request.param)
    return compile_ruleset(load_yaml("views.yaml", text=RULESET))


def _battle(ruleset, counts):
    root = ruleset.new_entity(ruleset.kinds["battle"], {}, None)
    side = ruleset.new_entity(ruleset.kinds["side"], {}, root)
    root._f["sides"].append(side)
    for count in counts:
        side._f["units"].append(ruleset.new_entity(ruleset.kinds["unit"], {"count": count}, side))
    return root, side


def test_only_a_filter_by_the_items_own_members_is_kept_item_by_item(ruleset):
    side = ruleset.kinds["side"]
    views = {name: side.views.get(name) for name in side.derived}
    assert views == {
        "standing": "units", "hurt": "units", "flagged_by_count": "by_count",
        "by_count": None,      # not a filter
        "above_cut": None,     # reads the side's own field: computed whole
        "strong": None,        # calls a function (of the whole collection)
        "chained": None,       # reads through the item to another entity
        "doubled_flagged": "by_count", "pairs": "units", "up_of_big": "units",
        "copied": None,        # the list itself
        "mapped_cut": None,    # its value reads the side's own field
    }


def _check(side):
    for name, oracle in ORACLE.items():
        assert side.member(name) == oracle(side), name


def _churn(ruleset, root, side, rng, steps=300):
    for _ in range(steps):
        units = side._f["units"]
        move = rng.random()
        unit = rng.choice(units) if units else None
        if move < 0.5 and unit is not None:
            unit.set("count", rng.randrange(0, 20))
        elif move < 0.65 and unit is not None:
            unit.set("flag", not unit._f["flag"])
        elif move < 0.75 and unit is not None:
            unit.set("gone", not unit._f["gone"])
        elif move < 0.9:  # a new unit, as `create` adds it
            child = ruleset.new_entity(ruleset.kinds["unit"], {"count": rng.randrange(0, 20)},
                                       side)
            side.adopt("units", child)
        elif move < 0.95 and units:  # the collection replaced, as `remove` does
            side.set("units", [u for u in units if u is not unit])
        else:
            side.set("cut", rng.randrange(0, 20))
        if rng.random() < 0.7:  # read now and then, so that changes pile up in between
            _check(side)
    _check(side)


def _kept_item_by_item(entry) -> bool:
    """Whether a cached entry (``(value, version)``, or ``(value, version, view)``) keeps
    its filtered collection item by item."""
    return len(entry) == 3 and type(entry[2]).__name__ == "_View"


def test_kept_values_equal_the_comprehension_through_every_kind_of_change(ruleset):
    for seed in range(5):
        root, side = _battle(ruleset, COUNTS)
        _check(side)
        assert {name for name, entry in side._cache.items() if _kept_item_by_item(entry)} \
            == {"standing", "hurt", "flagged_by_count", "doubled_flagged", "pairs",
                "up_of_big"}
        _churn(ruleset, root, side, random.Random(seed))


def test_a_battles_copy_keeps_its_values_item_by_item_and_the_template_never_changes(ruleset):
    template, tside = _battle(ruleset, COUNTS)
    template.warm()
    template.freeze()
    before = {name: list(tside.member(name)) for name in ORACLE}
    for seed in range(3):
        copy = template.clone()
        _churn(ruleset, copy, copy._f["sides"][0], random.Random(seed))
    assert {name: tside.member(name) for name in ORACLE} == before


def test_a_list_once_read_never_changes_afterwards(ruleset):
    # A step may hold a value (a `for_each` walks it while its body changes the units).
    _, side = _battle(ruleset, [3, 5, 8] * VIEW_MIN_ITEMS)
    held = side.standing
    copy = list(held)
    side._f["units"][1].set("count", 0)
    side.adopt("units", ruleset.new_entity(ruleset.kinds["unit"], {"count": 4}, side))
    assert [u.count for u in side.standing] == [3, 8] + [3, 5, 8] * (VIEW_MIN_ITEMS - 1) + [4]
    assert held == copy


def _reference_example():
    """The side of the reference's example (docs/ruleset-reference.md, «Entities»), in a
    ruleset whose forces have the fields it reads; and what its comments say of each value."""
    import re
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "ruleset-reference.md").read_text(
        encoding="utf-8")
    start = doc.index("A derived value that *filters a list")
    block = re.search(r"```yaml\n(.*?)```", doc[start:], re.DOTALL).group(1)
    comments = dict(re.findall(r"^\s+(\w+): .*# (kept item by item|computed whole)$", block,
                               re.MULTILINE))
    side = load_yaml("doc.yaml", text=block)["side"]
    text = json.dumps({
        "kind": "ruleset", "id": "doc", "entry": {"battle": "fight"},
        "procedures": {"fight": {"steps": []}},
        "entities": {
            "battle": {"children": {"sides": "side"}},
            "side": side,
            "force": {"fields": {"name": {"type": "str"}, "count": {"type": "int"},
                                 "on_field": {"type": "bool", "default": True},
                                 "location": {"type": "str", "default": "field"},
                                 "opponent": {"type": "str", "optional": True}}}}})
    return compile_ruleset(load_yaml("doc.yaml", text=text)), comments


def test_the_reference_example_is_kept_as_its_comments_say_and_equals_the_comprehension():
    rs, comments = _reference_example()
    assert set(comments) == set(rs.kinds["side"].derived)
    assert {name: name in rs.kinds["side"].views for name in comments} == {
        name: said == "kept item by item" for name, said in comments.items()}
    root = rs.new_entity(rs.kinds["battle"], {}, None)
    side = rs.new_entity(rs.kinds["side"], {}, root)
    root._f["sides"].append(side)
    rng = random.Random(7)
    for i in range(VIEW_MIN_ITEMS + 10):
        side._f["forces"].append(rs.new_entity(rs.kinds["force"], {
            "name": f"F{i}", "count": rng.randrange(5, 50)}, side))
    oracle = {
        "active": lambda s: [f for f in s._f["forces"] if f._f["on_field"]],
        "routed": lambda s: [f for f in s._f["forces"] if f._f["location"] == "rout"],
        "unpaired_names": lambda s: [f._f["name"] for f in s._f["forces"]
                                     if f._f["on_field"] and f._f["opponent"] is None],
        "troops": lambda s: [f._f["count"] for f in s._f["forces"]],
        "above_cut": lambda s: [f for f in s._f["forces"] if f._f["count"] > s._f["cut"]],
    }
    for turn in range(400):
        force = rng.choice(side._f["forces"])
        field, value = rng.choice([
            ("on_field", rng.random() < 0.7), ("location", rng.choice(["field", "rout"])),
            ("opponent", rng.choice([None, "X"])), ("count", rng.randrange(0, 50)),
            ("name", f"F{rng.randrange(100)}")])
        force.set(field, value)
        if turn % 3 == 0:
            for name, made in oracle.items():
                assert side.member(name) == made(side), name
    assert all(_kept_item_by_item(side._cache[name]) for name in oracle
               if name in rs.kinds["side"].views)
