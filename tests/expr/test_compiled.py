"""The compiled evaluator (stratagem.expr.compiled) against the simpleeval reference.

Every expression of the table is evaluated by both evaluators, which must give equal
values of equal types (also inside lists, tuples and dicts); the value written next to
each expression was worked out by hand. Then the safety rules: bounded resources,
no methods, no builtins, and load-time refusals, each checked under both evaluators.
The general rules of expressions are in tests/engine/test_expressions.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import stratagem.compile.pipeline
from stratagem.api import load_scenario
from stratagem.errors import Location, StratagemError
from stratagem.expr import EVALUATORS, Evaluator, ExpressionError, compile_expr

MODES = ("compiled", "simpleeval")
WHERE = Location("house-rules.yaml", 12, 7)
#: tests/loader/fixtures/scenario.yaml: the red company (army.yaml: Pikes, 120 infantry;
#: Riders, 30 cavalry) against the blue company (80 archers); battle days: 2.
SCENARIO = Path(__file__).parents[1] / "loader" / "fixtures" / "scenario.yaml"


@dataclass(frozen=True)
class Unit:
    name: str
    br: int


def scope() -> dict[str, Any]:
    """A fresh scope for each evaluation (nothing may leak from one to the next)."""
    return {
        "n": 7,
        "s": "battle",
        "xs": [3, 1, 2],
        "ys": (10, 20),
        "x": [5, 6],
        "m": [[1, 2], [3, 4]],
        "d": {"a": 1, "b": 2},
        "ps": [("a", 1), ("b", 2)],
        "units": [Unit("a", 3), Unit("b", 5), Unit("c", 1)],
    }


def evaluate(text: str, mode: str, names: dict[str, Any] | None = None,
             location: Location | None = None) -> Any:
    return Evaluator(mode=mode).eval(compile_expr(text, location),
                                     scope() if names is None else names)


def typed(value: Any) -> Any:
    """A value with the type of everything in it: 3 and 3.0 and True, or Fraction(4) and
    4, are equal in Python but not here."""
    if isinstance(value, (list, tuple)):
        return type(value), [typed(v) for v in value]
    if isinstance(value, dict):
        return dict, [(typed(k), typed(v)) for k, v in value.items()]
    return type(value), value


def test_the_evaluators_are_the_two_modes():
    assert set(EVALUATORS) == set(MODES)
    for mode in MODES:
        assert Evaluator(mode=mode).mode == mode
    with pytest.raises(StratagemError, match="unknown evaluator"):
        Evaluator(mode="python")


def test_the_environment_variable_picks_the_evaluator(monkeypatch):
    for mode in MODES:
        monkeypatch.setenv("STRATAGEM_EVALUATOR", mode)
        assert Evaluator().mode == mode
    monkeypatch.delenv("STRATAGEM_EVALUATOR")
    assert Evaluator().mode == "compiled"


# -- the same values, of the same types ------------------------------------------------
TABLE = [
    # exact arithmetic
    ("7 / 2", Fraction(7, 2)),
    ("8 / 2", 4),
    ("7.0 / 2", 3.5),
    ("n / 2 + 1 / 2", Fraction(4)),
    ("7 // 2", 3),
    ("-7 // 2", -4),
    ("7 % 3", 1),
    ("-7 % 3", 2),
    ("2 ** 10", 1024),
    ("2 ** -1", 0.5),
    ("-n", -7),
    ("+n", 7),
    ("n - 10", -3),
    ("'ab' * 3", "ababab"),
    ("[0] * 3", [0, 0, 0]),
    ("xs + [4]", [3, 1, 2, 4]),
    # + and * of whole numbers are written inline; a bool, a float, text are not ints
    ("n + n * n + 1", 57),
    ("true + true", 2),
    ("true * n", 7),
    ("n * 2.5 + 0.5", 18.0),
    ("2 * s", "battlebattle"),
    ("[i * n + 1 for i in range(n * 1) if i * 2 > 9]", [36, 43]),
    # comparisons, chains, truth
    ("1 < 2 < 3", True),
    ("1 < 3 < 2", False),
    ("n == 7 != 8", True),
    ("n in [1, 7]", True),
    ("'z' not in s", True),
    ("none is none", True),
    ("not xs", False),
    ("not 0", True),
    # and/or return an operand
    ("0 or [] or 'x'", "x"),
    ("1 and 0 and 2", 0),
    ("'a' and 'b'", "b"),
    ("none or 0", 0),
    ("n > 1 and xs", [3, 1, 2]),
    # x if c else y
    ("'big' if n > 5 else 'small'", "big"),
    ("1 if none else 'no'", "no"),
    # subscripts and slices
    ("xs[0]", 3),
    ("xs[-1]", 2),
    ("xs[1:]", [1, 2]),
    ("xs[::-1]", [2, 1, 3]),
    ("ys[:1]", (10,)),
    ("s[1:3]", "at"),
    ("m[1][0]", 3),
    ("d['b']", 2),
    ("units[0].br", 3),
    # literals
    ("[n, n + 1]", [7, 8]),
    ("{'a': n, 'b': xs[0]}", {"a": 7, "b": 3}),
    ("(n, 'x')", (7, "x")),
    ("(1, 2)", (1, 2)),
    ("[true, false, none]", [True, False, None]),
    ("True", True),
    ("false", False),
    ("none", None),
    # comprehensions
    ("[v * 2 for v in xs if v > 1]", [6, 4]),
    ("{k: v * 10 for k, v in ps}", {"a": 10, "b": 20}),
    ("sum(v for v in xs)", 6),
    ("[v for v in s if v in 'at']", ["a", "t", "t"]),
    ("[(a, b) for a in [1, 2] for b in 'xy']", [(1, "x"), (1, "y"), (2, "x"), (2, "y")]),
    ("[[v * 10 for v in row] for row in m]", [[10, 20], [30, 40]]),
    ("[v for row in m for v in row if v % 2 == 0]", [2, 4]),
    ("{k: [v * i for i in range(2)] for k, v in ps}", {"a": [0, 1], "b": [0, 2]}),
    ("[a + b for a, b in [(1, 2), (3, 4)]]", [3, 7]),
    ("[a + b + c for a, (b, c) in [(1, (2, 3))]]", [6]),
    ("[k for [k, v] in ps]", ["a", "b"]),
    ("[k for k in d]", ["a", "b"]),
    # a comprehension variable shadows the scope's name, inside the comprehension only
    ("[n * 2 for n in xs]", [6, 2, 4]),
    ("([n for n in xs], n)", ([3, 1, 2], 7)),
    ("[([n for n in row], n) for row in m]", [([1, 2], 7), ([3, 4], 7)]),
    # the first iterable is read in the enclosing scope, the later ones inside
    ("[x + 1 for x in x]", [6, 7]),
    ("[v for x in m for v in x]", [1, 2, 3, 4]),
    # functions, keywords
    ("sorted(units, key='br', reverse=true)", [Unit("b", 5), Unit("a", 3), Unit("c", 1)]),
    ("[u.name for u in sorted(units, key='br')]", ["c", "a", "b"]),
    ("sorted(xs)", [1, 2, 3]),
    ("max(xs) + min(ys)", 13),
    ("abs(-3) + clamp(n, 0, 5)", 8),
    ("len(s)", 6),
    ("avg(xs)", 2),
    ("avg([1, 2])", Fraction(3, 2)),
    ("round_half_up(5 / 2)", 3),
    ("first(v for v in xs if v < 3)", 1),
    ("first([], default=0)", 0),
    ("count(v > 1 for v in xs)", 2),
    ("pairs([1, 2, 3])", [(1, 2), (1, 3), (2, 3)]),
    ("reversed(ys)", [20, 10]),
    ("number(6 / 4)", 1.5),
    ("d", {"a": 1, "b": 2}),
]


@pytest.mark.parametrize(("text", "expected"), TABLE, ids=[t for t, _ in TABLE])
def test_both_evaluators_give_the_same_value_of_the_same_type(text, expected):
    compiled = evaluate(text, "compiled")
    reference = evaluate(text, "simpleeval")
    assert typed(compiled) == typed(reference)
    assert typed(compiled) == typed(expected)


def test_the_same_expression_object_serves_both_evaluators_and_many_scopes():
    expr = compile_expr("[v * k for v in xs]")
    evaluators = [Evaluator(mode=mode) for mode in MODES for _ in range(2)]
    for k in (1, 3):
        results = [ev.eval(expr, {"xs": [1, 2], "k": k}) for ev in evaluators]
        assert results == [[k, 2 * k]] * len(evaluators)


def test_a_generator_expression_is_a_value_like_the_others():
    # simpleeval makes a list of it; a value kept (a `set` local, a derived value) may be
    # read more than once, so it must not be a generator used up by its first reader.
    for mode in MODES:
        ev = Evaluator(mode=mode)
        value = ev.eval(compile_expr("(v * 2 for v in xs)"), scope())
        assert sum(value) == 12, mode
        assert sum(value) == 12, mode
    assert typed(evaluate("(v * 2 for v in xs)", "compiled")) == typed(
        evaluate("(v * 2 for v in xs)", "simpleeval"))


def test_generators_give_the_same_answer_whether_consumed_lazily_or_not():
    # Consumed lazily, any() stops at v = 1 (12 // 1 > 1) before v = 0; built at once, the
    # generator divides by zero. Either way, both evaluators must say the same.
    names = {"xs": [1, 0]}
    results = []
    for mode in MODES:
        try:
            results.append(evaluate("any(12 // v > 1 for v in xs)", mode, names))
        except ExpressionError as err:
            results.append(f"error: {err.message}")
    assert results[0] == results[1]


# -- resources ---------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", [
    "'x' * 10**9",
    "[1] * 10**9",
    "10**9 * 'x'",
    "[1] * 60000 + [2] * 60000",
    "'ab' * 30000 + 'cd' * 30000",
    "2 ** 10**6",
    "2 ** 1001",
    "[a*b for a in range(200) for b in range(200)]",
    "len([v for v in range(10001)])",
    "sum(v for v in range(10001))",
    "{v: v for v in range(10001)}",
    # one budget for all the comprehensions of one evaluation
    "len([v for v in range(6000)]) + len([v for v in range(6000)])",
    "[[v for v in range(100)] for w in range(100)]",
])
def test_unbounded_work_is_refused(text, mode):
    with pytest.raises(ExpressionError) as caught:
        evaluate(text, mode, {}, WHERE)
    assert caught.value.location == WHERE
    assert f"`{text}`" in str(caught.value)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("text", "refused"), [
    ("(10 ** 500 - 1) * (10 ** 500 + 1) > 0", False),  # 10**1000 - 1: 1,000 digits
    ("10 ** 500 * 10 ** 500 > 0", True),  # 10**1000: 1,001 digits
    ("-(10 ** 500) * 10 ** 500 > 0", True),
    ("[v * 10 ** 500 for v in [1, 10 ** 500]]", True),
    ("[v for v in range(10 ** 500 * 10 ** 500)]", True),  # in the items a loop walks
])
def test_a_product_of_whole_numbers_is_bounded_at_1000_digits(text, refused, mode):
    if not refused:
        assert evaluate(text, mode, {}) is True
        return
    with pytest.raises(StratagemError, match="more than 1,000 digits"):
        evaluate(text, mode, {})


@pytest.mark.parametrize("mode", MODES)
def test_the_length_limit_is_explained(mode):
    with pytest.raises(ExpressionError, match="longer than 100,000"):
        evaluate("[1] * 60000 + [2] * 60000", mode, {})


def test_the_comprehension_limit_is_explained():
    text = "[a*b for a in range(200) for b in range(200)]"
    with pytest.raises(ExpressionError, match="more than 10,000 items"):
        evaluate(text, "compiled", {})


@pytest.mark.parametrize("mode", MODES)
def test_limits_leave_room_for_ordinary_work(mode):
    # 10,000 items is the most; 2 ** 1000 is allowed (1000 is the largest exponent).
    assert evaluate("len([v for v in range(10000)])", mode, {}) == 10000
    assert evaluate("len([a for a in range(99) for b in range(100)])", mode, {}) == 9900
    assert evaluate("2 ** 1000", mode, {}) == 2**1000
    assert evaluate("len('x' * 1000)", mode, {}) == 1000
    assert evaluate("len([1] * 50000 + [2] * 50000)", mode, {}) == 100_000


@pytest.mark.parametrize("mode", MODES)
def test_the_comprehension_budget_is_per_evaluation(mode):
    ev = Evaluator(mode=mode)
    expr = compile_expr("len([v for v in range(6000)])")
    assert [ev.eval(expr, {}) for _ in range(3)] == [6000] * 3


# -- methods ------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=MODES)
def battle(request):
    """The loader's fixture scenario, loaded with a ruleset whose evaluator is the mode."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STRATAGEM_EVALUATOR", request.param)
        patch.setattr(stratagem.compile.pipeline, "_CACHE", {})
        scenario = load_scenario(SCENARIO)
    assert scenario.ruleset.evaluator.mode == request.param
    return scenario


def _rule_eval(scenario, text: str) -> Any:
    root = scenario.instantiate()
    unit = root.sides[0].units[0]
    row = scenario.ruleset.lookup("troop_types", "cavalry")
    return scenario.ruleset.evaluator.eval(
        compile_expr(text, WHERE),
        {"unit": unit, "row": row, "battle": root, "xs": [1, 2], "d": {"a": 1}, "s": "x"})


@pytest.mark.parametrize(("text", "expected"), [
    ("unit.count", 120),
    ("unit.strength", 120),              # 120 infantry, ts 1
    ("unit.parent.strength", 210),       # 120 * 1 + 30 * 3
    ("unit.parent.name", "The red company"),
    ("battle.days", 2),
    ("unit.battle.terrain", "hills"),
    ("row.ts", 3),
    ("row.key", "cavalry"),
    ("[u.name for u in sorted(unit.parent.units, key='count')]", ["Riders", "Pikes"]),
    ("base_morale", 10),
])
def test_entities_and_rows_read_the_same(battle, text, expected):
    assert typed(_rule_eval(battle, text)) == typed(expected)


METHODS = [
    "unit.set", "unit.adopt", "unit.clone", "unit.walk", "unit.root", "unit.to_plain",
    "unit.parent.label", "battle.freeze", "row.cells", "row.to_plain",
    "xs.append", "d.get", "d.items", "s.upper",
]


@pytest.mark.parametrize("text", [
    *METHODS,
    "max(unit.parent.units, key=unit.walk)",
    "[u.set for u in unit.parent.units]",
    "sorted(unit.parent.units, key='walk')",  # sorted's key reads a field as `x.key` does
])
def test_reading_a_method_is_refused(battle, text):
    method = next(m for m in METHODS if m.split(".")[-1] in text).split(".")[-1]
    with pytest.raises(ExpressionError) as caught:
        _rule_eval(battle, text)
    message = caught.value.message
    assert f"'{method}'" in message or f"'.{method}'" in message
    assert caught.value.location == WHERE


@pytest.mark.parametrize("text", ["unit.nope", "row.nope", "unit.parent.nope"])
def test_an_unknown_member_is_an_expression_error_naming_it(battle, text):
    with pytest.raises(ExpressionError, match="'nope'") as caught:
        _rule_eval(battle, text)
    assert caught.value.location == WHERE


@pytest.mark.parametrize("text", ["unit.declaration", "unit.origin", "unit.kind_name"])
def test_python_properties_of_an_entity_are_not_rule_values(battle, text):
    # Only declared fields and derived values (plus parent, kind, battle) are readable.
    with pytest.raises(StratagemError, match=repr(text.split(".")[-1])):
        _rule_eval(battle, text)


SHADOWS = """\
kind: setting
extends: {ruleset}
entities:
  unit:
    fields:
      origin: {{type: int, default: 3}}
      label: {{type: int, default: 4}}
    derived:
      walk: "origin + label"
"""


@pytest.mark.parametrize("mode", MODES)
def test_fields_named_like_entity_methods_are_the_fields(write, monkeypatch, mode):
    rules = write(SHADOWS.format(ruleset=SCENARIO.parent / "skirmish" / "ruleset.yaml"),
                  "rules.yaml")
    path = write("kind: scenario\nruleset: rules.yaml\nsides:\n"
                 "  - {name: Red, units: [{troop: infantry, count: 10}]}\n")
    assert rules.parent == path.parent
    monkeypatch.setenv("STRATAGEM_EVALUATOR", mode)
    monkeypatch.setattr(stratagem.compile.pipeline, "_CACHE", {})
    scenario = load_scenario(path)
    assert scenario.ruleset.evaluator.mode == mode
    unit = scenario.instantiate().sides[0].units[0]
    got = [scenario.ruleset.evaluate(f"unit.{name}", unit=unit)
           for name in ("origin", "label", "walk")]
    assert got == [3, 4, 7]


READS = """\
kind: setting
extends: {ruleset}
entities:
  unit:
    derived:
      tired: "count * battle.days"
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_member_read_with_a_dot_is_noted_by_the_value_reading_it(write, monkeypatch, mode):
    # `battle.days`, a field of another entity read inside a derived value, is noted by
    # it: a change of the field reaches the value (a read that skipped the noting, say one
    # written inline by the expression compiler, would leave it stale)
    write(READS.format(ruleset=SCENARIO.parent / "skirmish" / "ruleset.yaml"), "rules.yaml")
    path = write("kind: scenario\nruleset: rules.yaml\nbattle: {days: 2}\nsides:\n"
                 "  - {name: Red, units: [{troop: infantry, count: 10}]}\n")
    monkeypatch.setenv("STRATAGEM_EVALUATOR", mode)
    monkeypatch.setattr(stratagem.compile.pipeline, "_CACHE", {})
    root = load_scenario(path).instantiate()
    unit = root.sides[0].units[0]
    assert (root.days, unit.tired) == (2, 20)
    root.set("days", 3)
    assert unit.tired == 30


# -- names, functions, builtins -----------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("text", "names", "message"), [
    ("foo + 1", {}, "the name 'foo' is not defined here"),
    ("[foo for v in xs]", {"xs": [1]}, "the name 'foo' is not defined here"),
    ("[v for v in foo]", {}, "the name 'foo' is not defined here"),
    ("print", {}, "the name 'print' is not defined here"),
    ("open", {}, "the name 'open' is not defined here"),
    ("len", {}, "the name 'len' is not defined here"),
    ("max(xs, key=abs)", {"xs": [1, -2]}, "the name 'abs' is not defined here"),
    ("d['zz']", {"d": {"a": 1}}, "no entry 'zz'"),
    ("d[k]", {"d": {"a": 1}, "k": "b"}, "no entry 'b'"),
    ("d['foo'] + foo", {"d": {}, "foo": 1}, "no entry 'foo'"),
    # 'foo' is also a name of the expression, one that is never read
    ("d['foo'] if n else foo", {"d": {}, "n": 1}, "no entry 'foo'"),
    ("frobnicate(1)", {}, "unknown function 'frobnicate'"),
    ("open('x')", {}, "unknown function 'open'"),
    ("print('x')", {}, "unknown function 'print'"),
    ("eval('1')", {}, "unknown function 'eval'"),
    ("getattr(xs, 'append')", {"xs": []}, "unknown function 'getattr'"),
    ("globals()", {}, "unknown function 'globals'"),
    ("[open(v) for v in xs]", {"xs": ["f"]}, "unknown function 'open'"),
])
def test_failures_say_what_is_wrong_and_where(text, names, message, mode):
    with pytest.raises(ExpressionError) as caught:
        evaluate(text, mode, names, WHERE)
    err = caught.value
    assert message in err.message
    if "no entry" in message:
        assert "not defined" not in err.message
    assert err.location == WHERE
    assert "house-rules.yaml:12:7" in str(err)


@pytest.mark.parametrize("mode", MODES)
def test_a_missing_name_behind_the_constants_is_named(mode):
    ev = Evaluator(mode=mode)
    ev.set_constants({"base": 1})
    assert ev.eval(compile_expr("base + n"), {"n": 2}) == 3
    with pytest.raises(ExpressionError, match="the name 'foo' is not defined here"):
        ev.eval(compile_expr("base + foo"), {"n": 2})


@pytest.mark.parametrize("mode", MODES)
def test_the_scopes_own_names_come_before_the_constants(mode):
    # A battle's scopes are plain dicts; the evaluator reads the ruleset's constants after
    # them (a procedure may name a local like a constant: the local wins, from where it is
    # set on).
    ev = Evaluator(mode=mode)
    ev.set_constants({"base": 10, "cap": 3})
    assert ev.eval(compile_expr("base + n"), {"n": 2}) == 12
    assert ev.eval(compile_expr("base + n"), {"n": 2, "base": 1}) == 3
    assert ev.eval(compile_expr("[base for base in xs]"), {"xs": [7]}) == [7]
    assert ev.eval(compile_expr("min(cap, n)"), {"n": 5}) == 3
    with pytest.raises(ExpressionError, match="the name 'foo' is not defined here"):
        ev.eval(compile_expr("base + foo"), {})


@pytest.mark.parametrize("mode", MODES)
def test_functions_added_to_an_evaluator_are_callable_and_only_those(mode):
    ev = Evaluator({"double": lambda v: 2 * v}, mode=mode)
    assert ev.eval(compile_expr("double(n)"), {"n": 4}) == 8
    ev.functions["triple"] = lambda v: 3 * v  # as rulesets add their formulas
    assert ev.eval(compile_expr("triple(n) + double(1)"), {"n": 4}) == 14
    with pytest.raises(ExpressionError, match="unknown function 'double'"):
        Evaluator(mode=mode).eval(compile_expr("double(n)"), {"n": 4})


# -- refused at load ------------------------------------------------------------------------
OPERATOR = "operator"
TARGET = "comprehension may only name its variables"


@pytest.mark.parametrize(("text", "message"), [
    *((text, OPERATOR) for text in (
        "a << b", "a >> b", "~a", "a | b", "a & b", "a ^ b", "a @ b", "n << 1 if n else 0",
        "[v << 1 for v in xs]")),
    *((text, TARGET) for text in (
        "[1 for x.y in xs]", "[1 for d['k'] in xs]", "[1 for a, b.c in xs]",
        "[1 for (a, d[0]) in xs]", "sum(1 for x.y in xs)", "{1: 2 for x.y in xs}",
        "[1 for v in xs for w.z in v]")),
])
def test_syntax_rule_expressions_lack_is_refused_at_load(text, message):
    # operators they do not have, and comprehension variables that are not plain names
    with pytest.raises(ExpressionError, match=message) as caught:
        compile_expr(text, WHERE)
    assert caught.value.location == WHERE


@pytest.mark.parametrize("text", [
    "_x", "_x + 1", "x._y", "x.__class__", "__import__('os')", "[_ for _ in xs]",
    "[v for v in xs if v.__class__]", "sorted(xs)[0]._cells",
])
def test_underscore_names_are_refused_at_load(text):
    with pytest.raises(ExpressionError, match="starting with '_'") as caught:
        compile_expr(text, WHERE)
    assert caught.value.location == WHERE


@pytest.mark.parametrize("text", [
    "lambda: 1", "(x := 1)", "{1, 2}", "{v for v in xs}", "f'{x}'", "[*xs]",
    "xs.append(1)", "(lambda: 1)()", "[1 for *a, b in xs]",
])
def test_other_python_is_refused_at_load(text):
    with pytest.raises(ExpressionError) as caught:
        compile_expr(text, WHERE)
    assert caught.value.location == WHERE


def test_refusals_at_load_are_stratagem_errors():
    assert issubclass(ExpressionError, StratagemError)
