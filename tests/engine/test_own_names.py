"""A derived value's expression compiled into a function of its entity (``EntityKind.functions``,
``expr/compiled.py``'s ``own``): each bare name read as the entity's scope (``EntityScope``)
answers it — its fields and collections, its derived values, ``self``, ``parent``,
``battle``, then the ruleset's constants; a field missing at run time is the constant of its
name, or the error the scope gives. Values and errors are compared with the same expression
evaluated in the entity's scope, and with the simpleeval evaluator."""

from __future__ import annotations

import pytest

from stratagem.compile.ruleset import compile_ruleset
from stratagem.errors import StratagemError
from stratagem.loader.yamlio import load_yaml
from stratagem.model.entities import EntityScope

RULESET = """\
kind: ruleset
id: own
constants: {k: 100, lvl: 7, gone: 5, self: 9, kind: 3}
entities:
  battle:
    fields: {bonus: {type: int, default: 2}}
    children: {sides: side}
  side:
    fields:
      lvl: {type: int, default: 1}
      gone: {type: int, default: 0}
      lost: {type: int, default: 0}
      zero: {type: int, default: 0}
      name: {type: str, default: red}
    children: {units: unit}
    derived:
      field_first: "lvl + k"
      field_missing: "gone + k"
      no_field: "lost + 1"
      me: "self"
      up: "parent"
      top: "battle.bonus + bonus_of(battle)"
      not_a_member: "kind"
      collection: "sum(u.count for u in units) + field_first"
      bound: "[lvl for lvl in [1, 2]] + [k for k in [3]]"
      divided: "lvl / zero"
      failed_call: "max(zero)"
      no_member: "first([self, zero]).nothing"
      itself: "itself + 1"
      twice: "field_first + field_first"
      inner: "[u.doubled + lvl for u in units if u.count > zero]"
  unit:
    fields: {count: {type: int, default: 3}}
    derived:
      parent: "count * 2"
      doubled: "parent"
      side_name: "self.parent"
formulas:
  bonus_of: {params: [b], expr: "b.bonus"}
entry: {battle: fight}
procedures:
  fight: {steps: []}
"""


def _battle(mode: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("STRATAGEM_EVALUATOR", mode)
    rs = compile_ruleset(load_yaml("own.yaml", text=RULESET))
    root = rs.new_entity(rs.kinds["battle"], {}, None)
    side = rs.new_entity(rs.kinds["side"], {}, root)
    root._f["sides"].append(side)
    for count in (3, 4):
        side._f["units"].append(rs.new_entity(rs.kinds["unit"], {"count": count}, side))
    # fields an entity lacks at run time (no file can leave one out): `gone` is also a
    # constant, `lost` is not
    del side._f["gone"], side._f["lost"]
    return rs, root, side


def _answer(read) -> object:
    try:
        value = read()
    except StratagemError as err:
        return ("error", err.render())
    return repr(value)


def _answers(mode: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    rs, _, side = _battle(mode, monkeypatch)
    unit = side._f["units"][0]
    out = {name: _answer(lambda n=name: side.member(n)) for name in rs.kinds["side"].derived}
    out.update({f"unit.{name}": _answer(lambda n=name: unit.member(n))
                for name in rs.kinds["unit"].derived})
    return out


def test_the_function_of_an_entity_answers_as_its_scope(monkeypatch):
    rs, _, side = _battle("compiled", monkeypatch)
    by_scope = {name: _answer(lambda e=expr: rs.evaluator.eval(e, EntityScope(side)))
                for name, expr in rs.kinds["side"].derived.items()}
    by_function = {name: _answer(lambda n=name: side.member(n))
                   for name in rs.kinds["side"].derived}
    assert by_function == by_scope
    functions = rs.kinds["side"].functions
    assert set(functions) == set(rs.kinds["side"].derived)
    assert all(fn is not None for fn in functions.values())


def test_both_evaluators_answer_alike(monkeypatch):
    compiled = _answers("compiled", monkeypatch)
    assert compiled == _answers("simpleeval", monkeypatch)
    at = "own.yaml:{}: `{}`: {} ($.entities.side.derived.{})"
    assert compiled == {
        "field_first": "101",          # the side's field lvl (1) before the constant
        "field_missing": "105",        # no field `gone` in the entity: the constant
        "no_field": ("error", at.format("19:17", "lost + 1",
                                        "the name 'lost' is not defined here", "no_field")),
        "me": "<side red>",            # `self` before the constant of that name
        "up": "<battle battle>",
        "top": "4",
        "not_a_member": "3",           # `kind` is no name of a derived value: the constant
        "collection": "108",
        "bound": "[1, 2, 3]",          # comprehension variables before field and constant
        "divided": ("error", at.format("26:16", "lvl / zero", "division by zero", "divided")
                    + "\n  hint: guard the divisor, e.g. `x / max(n, 1)`"),
        "failed_call": ("error", at.format(
            "27:20", "max(zero)", "max() takes a list or two or more values, got the number 0",
            "failed_call") + "\n  max(zero)\n  ^\n  hint: e.g. max(xs) or max(a, b)"),
        "no_member": ("error", at.format(
            "28:18", "first([self, zero]).nothing", "a side has no field or value 'nothing'",
            "no_member") + "\n  hint: declared: bound, collection, divided, failed_call, "
            "field_first, field_missing, gone, id, inner, itself, lost, lvl, me, name, "
            "no_field, no_member, not_a_member, plural, top, twice, units, up, zero"),
        "itself": ("error", at.format(
            "29:15", "itself + 1", "the side value 'itself' (`itself + 1`) reads derived "
            "values 50 deep", "itself")
            + "\n  hint: a derived value that uses itself, directly or through others?"),
        "twice": "202",
        "inner": "[7, 9]",
        "unit.parent": "6",
        "unit.doubled": "6",           # a derived value named `parent` before the parent
        "unit.side_name": "6",         # and read through the entity too
    }


def test_a_cached_value_is_read_bare_without_computing_it_again(monkeypatch):
    rs, _, side = _battle("compiled", monkeypatch)
    assert side.member("twice") == 202
    calls = []
    function = rs.kinds["side"].functions["field_first"]
    rs.kinds["side"].functions["field_first"] = lambda e, f: calls.append(e) or function(e, f)
    side.set("zero", 1)  # read by neither
    assert side.member("twice") == 202 and calls == []
    side.set("lvl", 2)
    assert side.member("twice") == 204 and calls == [side]


def test_a_derived_value_read_bare_calls_its_kinds_reader(monkeypatch):
    # `twice` reads `field_first` bare: through the reader made for the side kind and that
    # name (`own_reader`, one per kind and name), a global of the function
    rs, _, side = _battle("compiled", monkeypatch)
    assert side.member("twice") == 202
    kind = rs.kinds["side"]
    reader = kind.derived_readers["field_first"][0]
    names = [name for name, value in rs.evaluator.namespace.items() if value is reader]
    assert len(names) == 1 and names[0] in kind.functions["twice"].__code__.co_names
    calls = []
    monkeypatch.setitem(rs.evaluator.namespace, names[0],
                        lambda entity: calls.append(entity) or reader(entity))
    side.set("lvl", 2)
    assert side.member("twice") == 204 and calls == [side, side]
    side.set("zero", 1)  # read by neither: both read, neither computed again
    assert side.member("twice") == 204 and calls == [side, side]


def test_only_the_engine_names_the_reader_of_a_derived_value():
    from stratagem.expr import compile_expr
    from stratagem.expr import compiled
    from stratagem.expr.core import Evaluator

    evaluator = Evaluator()
    node = compile_expr("x + 1").node
    for how in ("__attr", "__f_max", "__read", "__read0", "x"):  # no reader of the evaluator's
        with pytest.raises(ValueError, match="no typed read"):
            compiled.compile_function(node, "x + 1", evaluator.namespace, {}, own={"x": how})
    function = evaluator.own_function(compile_expr("x + 1"), {"x": lambda entity: entity * 2})
    assert function is not None and function(20, {}) == 41
