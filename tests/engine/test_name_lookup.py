"""Where a name in an expression comes from: the scope's own names first (a procedure's
locals and parameters, a formula's parameters, comprehension variables), then the
ruleset's constants; in an `update` step the entity's members come after both, in a
derived value before the constants. Both evaluators agree, in every kind of place."""

from __future__ import annotations

from fractions import Fraction

import pytest

from stratagem.compile.ruleset import compile_ruleset
from stratagem.interp.context import Decisions, Run
from stratagem.interp.dicesource import SeededDice
from stratagem.interp.steps import call
from stratagem.loader.yamlio import load_yaml

RULESET = """\
kind: ruleset
id: names
constants: {k: 100, lvl: 7, n: 3}
entities:
  battle:
    fields: {out: {type: any, optional: true}}
    children: {sides: side}
  side:
    fields: {lvl: {type: int, default: 1}, hp: {type: int, default: 0}}
    derived:
      d1: "lvl + k"
      d2: "[lvl for lvl in [1, 2]]"
tables:
  t:
    provenance: house-rule
    columns: {roll: dice}
    rows:
      - {key: 1, roll: "(n)d1"}
formulas:
  f: {params: [k], expr: "k + lvl"}
  g: {params: [x], expr: "x + k"}
  shown: {params: [x], expr: "str(x)"}
  both: {params: [a, b], expr: "str(a) + str(b)"}
  three: {params: [a, b, c], expr: "str(a) + str(b) + str(c)"}
entry: {battle: fight}
procedures:
  fight:
    steps:
      - set: {s: "battle.sides[0]"}
      - update: s
        set: {hp: "lvl + k"}
      - set: {before_local: "s.hp"}
      - set: {lvl: 50}
      - update: s
        set: {hp: "lvl + k"}
      - set: {after_local: "s.hp"}
      - set: {derived: "s.d1", comprehension: "s.d2", formula: "f(1)", constant: "g(1)",
              keyword: "f(k=2)"}
      - check: {roll: "1d1", target: "5"}
        as: c
        critical_success: "roll + k > 100"
      - roll: "(n)d1"
        as: dice
      - roll: {from: "lookup('t', 1).roll"}
        as: table_dice
      - update: battle
        set:
          out: >-
            {'before_local': before_local, 'after_local': after_local, 'derived': derived,
             'comprehension': comprehension, 'formula': formula, 'constant': constant,
             'keyword': keyword, 'critical': c.critical, 'dice': dice,
             'table_dice': table_dice, 'shadow': [k for k in [1]], 'inner': [x + k for x in [1]]}
"""


@pytest.fixture(params=["compiled", "simpleeval"])
def ruleset(request, monkeypatch):
    monkeypatch.setenv("STRATAGEM_EVALUATOR", request.param)
    return compile_ruleset(load_yaml("names.yaml", text=RULESET))


def test_every_place_finds_its_names_in_the_same_order(ruleset):
    root = ruleset.new_entity(ruleset.kinds["battle"], {}, None)
    root._f["sides"].append(ruleset.new_entity(ruleset.kinds["side"], {}, root))
    call(Run(ruleset, root, SeededDice(0), Decisions()), "fight", {})
    assert root._f["out"] == {
        "before_local": 107,   # update: the constant lvl (7) before the side's field (1)
        "after_local": 150,    # then the local lvl (50) before the constant
        "derived": 101,        # a derived value: the side's field lvl (1) before the constant
        "comprehension": [1, 2],   # a comprehension variable before the field
        "formula": 8,          # a formula's parameter k (1) before the constant; lvl constant
        "constant": 101,       # no parameter k: the constant
        "keyword": 9,          # a parameter given by name
        "critical": "success",  # critical_success sees roll and target, and the constants
        "dice": 3,             # a name in dice: the constant n
        "table_dice": 3,       # a name in dice read from a table
        "shadow": [1],         # a comprehension variable named like a constant
        "inner": [101],
    }


def test_an_expression_evaluated_by_hand_sees_the_constants_after_its_names(ruleset):
    assert ruleset.evaluate("k + lvl") == 107
    assert ruleset.evaluate("k + lvl", k=1, lvl=2) == 3


def test_a_formula_remembers_a_call_by_its_values_and_their_types(ruleset):
    # 1, 1.0 and True are equal in Python, but a formula may tell them apart: each is
    # its own call, whether a formula takes one value, two or three.
    assert ruleset.evaluate("[shown(1), shown(1.0), shown(True), shown(1), shown(True)]") == [
        "1", "1.0", "True", "1", "True"]
    assert ruleset.evaluate("[both(1, 1), both(True, 1.0), both(1, 1), both(1.0, True)]") == [
        "11", "True1.0", "11", "1.0True"]
    assert ruleset.evaluate("[three(1, 1, 1), three(1, True, 1.0), three(1, 1, 1)]") == [
        "111", "1True1.0", "111"]
    # a fraction is remembered by its terms (numerator, denominator): equal fractions are
    # one call, a whole number of the same value another, as is a float
    assert ruleset.evaluate(
        "[shown(7 / 2), shown(14 / 4), shown(3.5), shown(x), shown(2), shown(x), shown(7 / 2),"
        " shown(7 / 4)]", x=Fraction(2)) == ["7/2", "7/2", "3.5", "2", "2", "2", "7/2", "7/4"]
    assert ruleset.evaluate(
        "[both(7 / 2, 2), both(2, 7 / 2), both(14 / 4, 2), both(x, 2), both(2, 2), both(x, 2),"
        " both(2, x), both(7 / 2, 7 / 2), both(7 / 2, 3.5), both(7 / 4, 2), both(2, 7 / 4)]",
        x=Fraction(2)) == ["7/22", "27/2", "7/22", "22", "22", "22", "22", "7/27/2", "7/23.5",
                           "7/42", "27/4"]
    calls = []
    real = ruleset.evaluator.eval
    try:
        ruleset.evaluator.eval = lambda expr, scope: calls.append(dict(scope)) or real(expr, scope)
        for _ in range(2):  # the second time, every call is remembered
            ruleset.evaluator.functions["shown"](Fraction(9, 4))
            ruleset.evaluator.functions["both"](Fraction(9, 4), Fraction(-9, 4))
            ruleset.evaluator.functions["both"](Fraction(-9, 4), Fraction(9, 4))
            ruleset.evaluator.functions["both"](Fraction(9, 4), 2)
    finally:
        del ruleset.evaluator.eval
    assert calls == [{"x": Fraction(9, 4)}, {"a": Fraction(9, 4), "b": Fraction(-9, 4)},
                     {"a": Fraction(-9, 4), "b": Fraction(9, 4)}, {"a": Fraction(9, 4), "b": 2}]
