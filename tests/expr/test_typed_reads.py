"""Member reads compiled for the type the static checks infer of their owner
(``compile/typed_reads.py``, ``expr/compiled.py``'s ``reads``): ``u.count`` of a unit is read
from its fields, ``row.bonus`` from the row's cells, ``u.power`` (a derived value) by a
reader made for its kind. The reads are taken where the checks say (no call of the
evaluator's reader), and an owner that is not what the checks said at run time (none,
another kind, a table row, an entity lacking the field) gives exactly what the expression
gave without typed reads: the same value, or the same error."""

from __future__ import annotations

from typing import Any

import pytest

import stratagem.compile.ruleset as compile_ruleset_module
from stratagem.compile.ruleset import compile_ruleset
from stratagem.errors import StratagemError
from stratagem.expr import Evaluator, compile_expr
from stratagem.expr import compiled
from stratagem.loader.yamlio import load_yaml
from stratagem.model.steps import ForEachStep, LookupStep, SetStep

RULESET = """\
kind: ruleset
id: typed
entities:
  battle:
    fields: {round: {type: int, default: 1}}
    children: {sides: side, heroes: hero, beasts: beast}
  side:
    fields: {name: {type: str, default: red}}
    children: {units: unit}
    derived:
      total: "sum(u.count for u in units)"
      strongest: "max([u.power for u in units] + [0])"
      first_round: "battle.round"
  unit:
    fields: {count: {type: int, default: 3}, tag: {type: str, default: foot}}
    derived:
      power: "count * 2"
      side_name: "parent.name"
  hero:
    fields: {power: {type: int, default: 40}, tag: {type: str, default: hero}}
    derived:
      count: "power + 1"
  beast:
    derived:
      power: "battle.round * 10"
      parent: "'its own'"  # a derived value named parent: `u.parent` of a beast reads it
tables:
  odds:
    provenance: house-rule
    match: range
    rows:
      - {range: [null, 0], bonus: -1, note: low}
      - {range: [1, null], bonus: 1}
entry: {battle: fight}
procedures:
  fight:
    steps:
      - for_each:
          in: "battle.sides"
          as: side
          do:
            - for_each:
                in: "side.units"
                as: u
                do:
                  - set:
                      count: "u.count"
                      power: "u.power"
                      both: "u.count + u.power * 10"
                      tag: "u.tag"
                      up: "u.parent"
                      listed: "[x.count for x in side.units if x.power > u.power - 100]"
      - lookup: odds
        key: 1
        as: row
      - set: {bonus: "row.bonus", index: "row.index", note: "row.note"}
"""


def _ruleset(typed: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The ruleset, compiled with its typed reads, or as it was without them."""
    with monkeypatch.context() as patch:
        if not typed:
            patch.setattr(compile_ruleset_module, "typed_reads", lambda *args: {})
        return compile_ruleset(load_yaml("typed.yaml", text=RULESET))


def _world(rs: Any) -> dict[str, Any]:
    """A battle of one side of two units and a hero; a row of the table."""
    root = rs.new_entity(rs.kinds["battle"], {}, None)
    side = rs.new_entity(rs.kinds["side"], {}, root)
    root._f["sides"].append(side)
    for count in (3, 4):
        side._f["units"].append(rs.new_entity(rs.kinds["unit"], {"count": count}, side))
    hero = rs.new_entity(rs.kinds["hero"], {}, root)
    root._f["heroes"].append(hero)
    beast = rs.new_entity(rs.kinds["beast"], {}, root)
    root._f["beasts"].append(beast)
    lacking = rs.new_entity(rs.kinds["unit"], {}, side)
    del lacking._f["count"]  # no file can leave a field out: a run can only be handed one
    return {"battle": root, "side": side, "unit": side._f["units"][0], "hero": hero,
            "row": rs.lookup("odds", 1), "low": rs.lookup("odds", 0), "lacking": lacking,
            "beast": beast, "none": None, "number": 7, "map": {"count": 1}}


def _exprs(rs: Any) -> dict[str, Any]:
    """The procedure's expressions, by the name each sets."""
    steps = rs.procedures["fight"].steps.steps
    outer = steps[0]
    assert isinstance(outer, ForEachStep)
    inner = outer.body.steps[0]
    assert isinstance(inner, ForEachStep)
    found = {}
    for step in (*inner.body.steps, *steps[1:]):
        if isinstance(step, SetStep):
            found.update(step.values)
    assert isinstance(steps[1], LookupStep)
    return found


def _answer(rs: Any, expr: Any, scope: dict[str, Any]) -> tuple[str, Any]:
    try:
        value = rs.evaluator.eval(expr, dict(scope))
    except StratagemError as err:
        return "error", err.render()
    if hasattr(value, "label") and callable(value.label):
        return "entity", value.label()
    return "value", value


#: what `u` (or `row`) is at run time, in each case
OWNERS = ("unit", "hero", "beast", "none", "number", "map", "row", "lacking", "side")


@pytest.mark.parametrize("owner", OWNERS)
@pytest.mark.parametrize("name", ["count", "power", "both", "tag", "up", "listed"])
def test_an_owner_the_checks_did_not_foresee_answers_as_before(name, owner, monkeypatch):
    fast, plain = _ruleset(True, monkeypatch), _ruleset(False, monkeypatch)
    answers = []
    for rs in (fast, plain):
        world = _world(rs)
        scope = {"u": world[owner], "side": world["side"], "battle": world["battle"]}
        answers.append(_answer(rs, _exprs(rs)[name], scope))
    assert answers[0] == answers[1]
    if owner == "unit":
        assert answers[0][0] != "error"
    if name == "up" and owner == "beast":
        assert answers[0] == ("value", "its own")


@pytest.mark.parametrize("owner", ["row", "low", "unit", "none", "map"])
@pytest.mark.parametrize("name", ["bonus", "index", "note"])
def test_a_row_the_checks_did_not_foresee_answers_as_before(name, owner, monkeypatch):
    fast, plain = _ruleset(True, monkeypatch), _ruleset(False, monkeypatch)
    answers = []
    for rs in (fast, plain):
        world = _world(rs)
        answers.append(_answer(rs, _exprs(rs)[name], {"row": world[owner]}))
    assert answers[0] == answers[1]


def test_the_typed_reads_are_taken(monkeypatch):
    rs = _ruleset(True, monkeypatch)
    exprs = _exprs(rs)
    calls: list[str] = []
    reader = rs.evaluator.namespace["__attr"]

    def counted(owner: Any, name: str) -> Any:
        calls.append(name)
        return reader(owner, name)

    rs.evaluator.namespace["__attr"] = counted
    world = _world(rs)
    scope = {"u": world["unit"], "side": world["side"], "battle": world["battle"]}
    for name in ("count", "power", "both", "tag", "listed"):
        rs.evaluator.eval(exprs[name], dict(scope))
    assert rs.evaluator.eval(exprs["bonus"], {"row": world["row"]}) == 1
    assert calls == []  # every read above is typed: none through the evaluator's reader
    assert rs.evaluator.eval(exprs["index"], {"row": world["row"]}) == 1
    rs.evaluator.eval(exprs["up"], dict(scope))
    # `index` is no column: not typed; `u.parent` is, by the unit's parent reader
    assert calls == ["index"]
    # how they are written: from the fields, from the cells
    assert "_f" in rs.evaluator.function(exprs["count"]).__code__.co_names
    assert "_cells" in rs.evaluator.function(exprs["bonus"]).__code__.co_names
    assert "_cells" not in rs.evaluator.function(exprs["note"]).__code__.co_names  # one row lacks it


def test_a_typed_read_that_fails_falls_back_once(monkeypatch):
    rs = _ruleset(True, monkeypatch)
    expr = _exprs(rs)["both"]
    made: list[Any] = []
    real = compiled._compile

    def spy(*args: Any) -> Any:
        fallback = args[-1]
        if fallback is not None:
            def counted(*values: Any) -> Any:
                made.append(values)
                return fallback(*values)
            args = (*args[:-1], counted)
        return real(*args)

    monkeypatch.setattr(compiled, "_compile", spy)
    world = _world(rs)
    assert rs.evaluator.eval(expr, {"u": world["unit"]}) == 3 + 60
    assert made == []
    assert rs.evaluator.eval(expr, {"u": world["hero"]}) == 41 + 400  # a hero's derived count
    assert len(made) == 1


def test_a_derived_value_of_another_kind_is_current(monkeypatch):
    # `u.power` is typed as a unit's; a beast's `power` has a slot of its own, which a
    # change of the battle's round moves on (a unit's does not)
    answers = []
    for typed in (True, False):
        rs = _ruleset(typed, monkeypatch)
        world = _world(rs)
        expr = _exprs(rs)["power"]
        scope = {"u": world["beast"]}
        before = rs.evaluator.eval(expr, dict(scope))
        world["battle"].set("round", 2)
        answers.append((before, rs.evaluator.eval(expr, dict(scope))))
    assert answers == [(10, 20), (10, 20)]


def test_derived_values_read_their_owners_typed(monkeypatch):
    for typed in (True, False):
        rs = _ruleset(typed, monkeypatch)
        world = _world(rs)
        side = world["side"]
        assert (side.total, side.strongest, side.first_round) == (7, 8, 1)
        assert world["unit"].side_name == "red"
        kind = rs.kinds["side"]
        names = kind.functions["total"].__code__.co_consts  # the comprehension's code
        inner = [c for c in names if hasattr(c, "co_names")]
        assert ("_f" in inner[0].co_names) is typed
        assert ("_f" in kind.functions["first_round"].__code__.co_names) is typed


def test_an_orphan_fails_with_the_same_message(monkeypatch):
    messages = []
    for typed in (True, False):
        rs = _ruleset(typed, monkeypatch)
        orphan = rs.new_entity(rs.kinds["side"], {}, None)
        unit = rs.new_entity(rs.kinds["unit"], {}, None)
        for entity, name in ((orphan, "first_round"), (unit, "side_name")):
            with pytest.raises(StratagemError) as failed:
                entity.member(name)
            messages.append(failed.value.render())
    assert messages[:2] == messages[2:]
    assert "a side has no field or value 'round'" in messages[0]


def test_only_the_engine_names_what_a_typed_read_is_written_with():
    evaluator = Evaluator()
    node = compile_expr("u.count").node
    with pytest.raises(ValueError, match="no store"):
        evaluator.set_reads({id(node): (node, "__dict__")})
    reads = {id(node): (node, compiled.TYPED_READER, "__attr")}
    with pytest.raises(ValueError, match="no typed read"):
        compiled.compile_function(node, "u.count", evaluator.namespace, {}, reads=reads)
    evaluator.set_reads({id(node): (node, lambda owner: ("read", owner))})
    assert evaluator.namespace[compiled.reader_name(0)](1) == ("read", 1)
