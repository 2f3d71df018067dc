"""The generated back-end (interp/codegen.py) fights the same battles as the interpreter.

Every scenario on disk (examples/, benchmarks/scenarios/, tests/), every army (rated), and
every ruleset or setting of tests/ (a bare scenario of two sides) is fought with the same
seeds through both back-ends, with a trace and without: the JSON trace, the final state and
any error (message, place, hint) must be byte for byte the same. Then run-time errors one by
one, the values a field takes without a check, the bounds on steps, rounds and calls, the
code's whitelist, and Python's own limits.
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

from stratagem.api import load_army, load_scenario, rate_army, run_battle
from stratagem.errors import StratagemError
from stratagem.interp import codegen
from stratagem.interp.codegen import backend, procedures_for, sources
from stratagem.interp.steps import field_value
from stratagem.model.entities import FieldSpec
from stratagem.model.steps import UpdateStep

from .conftest import ON_DISK, ROOT

BACKENDS = ("interpreter", "generated")
SEEDS = (0, 1, 2)
KINDS = ON_DISK
SCENARIOS = [p for p, k in KINDS.items() if k == "scenario"]
ARMIES = [p for p, k in KINDS.items() if k == "army"]
RULES = [p for p, k in KINDS.items() if k in ("ruleset", "setting")
         and p.is_relative_to(ROOT / "tests")]


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


def outcome(fight) -> str:  # type: ignore[no-untyped-def]
    """What a fight gave, as text: its result, or the error it stopped with."""
    try:
        return fight()
    except StratagemError as err:
        return f"{type(err).__name__}: {err.render()}"


def battles(path: Path, which: str) -> list[str]:
    out = []
    for tracing in (True, False):
        for seed in SEEDS:
            def fight(seed: int = seed, tracing: bool = tracing) -> str:
                result = run_battle(load_scenario(path), seed=seed, tracing=tracing,
                                    backend=which)
                return result.to_json() if tracing else json.dumps(result.root.to_plain())
            out.append(outcome(fight))
    return out


@pytest.mark.parametrize("path", SCENARIOS, ids=_ids(SCENARIOS))
def test_every_scenario_is_the_same_battle_through_both_backends(path):
    interpreted, generated = (battles(path, which) for which in BACKENDS)
    assert generated == interpreted


@pytest.mark.parametrize("path", ARMIES, ids=_ids(ARMIES))
def test_every_army_is_rated_the_same_through_both_backends(path):
    def rated(which: str) -> str:
        return outcome(lambda: rate_army(load_army(path), backend=which).to_json())

    assert rated("generated") == rated("interpreter")


@pytest.mark.parametrize("path", RULES, ids=_ids(RULES))
def test_every_test_ruleset_fights_the_same_through_both_backends(path, tmp_path):
    scenario = tmp_path / "battle.yaml"
    scenario.write_text(f"kind: scenario\nruleset: {path}\nsides: [{{name: A}}, {{name: B}}]\n",
                        encoding="utf-8")
    assert battles(scenario, "generated") == battles(scenario, "interpreter")


def test_the_comparison_covers_the_shipped_systems_and_the_tests():
    names = {str(p.relative_to(ROOT)).split("/")[0] for p in SCENARIOS}
    assert {"examples", "benchmarks", "tests"} <= names
    assert len(SCENARIOS) >= 20 and len(ARMIES) >= 20 and len(RULES) >= 20
    # real battles were compared, not only errors
    assert json.loads(battles(ROOT / "benchmarks/scenarios/gurps-12v12.yaml", "generated")[0])


# -- run-time errors and bounds, one by one -------------------------------------------------
RULESET = """\
kind: ruleset
id: probe
limits: {{max_steps: 300, max_rounds: 40, max_call_depth: 6}}
constants: {{base: 3}}
entities:
  battle:
    fields: {{n: {{type: int, default: 0}}}}
    children: {{sides: side}}
  side:
    fields:
      x: {{type: int, default: 1}}
      y: {{type: int, default: 0, min: 0, max: 5}}
      flag: {{type: bool, default: false}}
      mood: {{type: enum, values: [calm, angry], default: calm}}
      note: {{type: str, optional: true}}
formulas:
  half: {{params: [v], expr: "v // 2"}}
tables:
  named:
    provenance: house-rule
    rows:
      - {{key: a, v: 1, dice: 2d1}}
      - {{key: b, v: 2, dice: "(m)d1"}}
      - {{key: 3, v: 3, dice: 1d1}}
  ranged:
    provenance: house-rule
    match: range
    rows:
      - {{range: [null, 0], v: 10}}
      - {{range: [1, 5], v: 20}}
      - {{range: [7, null], v: 30}}
  paired:
    provenance: house-rule
    match: keys
    rows:
      - {{keys: [a, b], v: 100}}
      - {{keys: [b, a], v: 200}}
procedures:
{procedures}
entry: {{battle: fight}}
"""

CASES = {
    "division by zero": "fight:\n  - set: {a: 'base / battle.n'}",
    "a name set in a branch not taken": ("fight:\n  - if: 'battle.n > 0'\n    then: [{set: {a: 1}}]\n"
                                         "  - set: {b: 'a + 1'}"),
    "a missing field": "fight:\n  - set: {a: '[battle.n, battle][1].nothing'}",
    "a failed call": "fight:\n  - set: {a: 'len(3)'}",
    "a function given a number": "fight:\n  - set: {a: 'half(max(battle.n))'}",
    "a missing entry": "fight:\n  - set: {a: '{\"a\": 1}[\"b\"]'}",
    "for_each over a number": "fight:\n  - for_each: {in: 'base', as: i, do: [{set: {a: i}}]}",
    "update of a number": "fight:\n  - update: base\n    set: {x: 1}",
    "endless repeat": ("fight:\n  - repeat:\n      until: 'false'\n      do:\n"
                       "        - set: {a: 1}"),
    "too many steps": ("fight:\n  - repeat:\n      max: 39\n      do:\n"
                       "        - for_each: {in: 'range(10)', as: i, do: [{set: {a: i}}]}"),
    "endless calls": "fight:\n  - call: again\nagain:\n  - call: fight",
    "a rule broken": "fight:\n  - require: 'battle.n > 0'",
    "a value too large to keep": "fight:\n  - set: {a: 'base * 10 ** 18'}",
    # a number written in the file: the generated code checks it once, when it is written
    "a number too large to keep, written": "fight:\n  - set: {a: 1000000000000000000000}",
    # the first argument is refused before the second is evaluated, as the interpreter does
    "an argument too large, then one that fails": (
        "fight:\n  - call: two\n    with: {a: 'base * 10 ** 18', b: 'base / battle.n'}\n"
        "two:\n  params: [a, b]\n  steps:\n    - set: {c: 'a + b'}"),
    # a whole number within a field's bounds is passed by the generated code without a call
    "a number above a field's max": "fight:\n  - update: 'battle.sides'\n    set: {y: 6}",
    "a number added below a field's min": "fight:\n  - update: 'battle.sides'\n    add: {y: -1}",
    "true given to a whole-number field": "fight:\n  - update: 'battle.sides'\n    set: {y: 'true'}",
    "a fraction given to a whole-number field": (
        "fight:\n  - update: 'battle.sides'\n    set: {y: '5 / 2'}"),
    "a number given to a true-or-false field": (
        "fight:\n  - update: 'battle.sides'\n    set: {flag: 1}"),
    "a text not of an enum's values": "fight:\n  - update: 'battle.sides'\n    set: {mood: \"'sad'\"}",
    "nothing given to a field that needs a value": (
        "fight:\n  - update: 'battle.sides'\n    set: {mood: none}"),
    "a bad max": "fight:\n  - repeat: {max: \"'x'\", do: [{set: {a: 1}}]}",
    "a mistake deep in a loop": (
        "fight:\n  - repeat:\n      as: round\n      max: 5\n      do:\n"
        "        - for_each:\n            in: 'range(3)'\n            as: i\n            do:\n"
        "              - if: 'round == 4 and i == 2'\n                then:\n"
        "                  - call: boom\n                    with: {v: i}\n"
        "boom:\n  params: [v]\n  steps:\n    - set: {a: 'v / (v - 2)'}"),
    # a bare name is read by the generated code itself, without its expression's function
    "a bare name not set": ("fight:\n  - if: 'battle.n > 0'\n    then: [{set: {a: 1}}]\n"
                            "  - set: {b: a}"),
    "a bare name not set, as the entity to update": (
        "fight:\n  - if: 'battle.n > 0'\n    then: [{set: {a: battle}}]\n"
        "  - update: a\n    set: {n: 1}"),
    "a bare name neither set nor a field": (
        "fight:\n  - if: 'battle.n > 0'\n    then: [{set: {a: 1}}]\n"
        "  - update: 'battle.sides'\n    set: {x: a}"),
    # whole numbers past the bound the generated code keeps without a call (one digit)
    "large whole numbers kept": (
        "fight:\n  - set: {a: 'base * 10 ** 17', b: '0 - base * 10 ** 17', c: 'base * 2 ** 30'}\n"
        "  - call: count\n    with: {v: a}\n    as: d\n"
        "  - update: battle\n    set: {n: 'd + b + c'}\n"
        "count:\n  params: [v]\n  steps:\n    - return: 'half(v) + base'"),
    # `lookup`, `roll`, `check`, `decide`, `require` are written by the generated code
    # without a trace (interp/codegen.py): the same errors, in the same order
    "a key no row of an exact table has": (
        "fight:\n  - lookup: named\n    key: \"'c'\"\n    as: row"),
    "a key a table cannot index (a list)": "fight:\n  - lookup: named\n    key: '[1]'",
    "a key between two ranges": "fight:\n  - lookup: ranged\n    key: '13 / 2'",
    "a key of a range table that is text": "fight:\n  - lookup: ranged\n    key: \"'x'\"",
    "a pair of keys no row has": "fight:\n  - lookup: paired\n    keys: [\"'a'\", \"'a'\"]",
    "a key that fails before its shift": (
        "fight:\n  - lookup: ranged\n    key: '[1][2]'\n    shift: 'base / battle.n'"),
    "a shift that fails": "fight:\n  - lookup: ranged\n    key: '2'\n    shift: 'base / battle.n'",
    "a table's dice that are not dice": "fight:\n  - roll: {from: \"lookup('named', 3).v > 1\"}",
    "a table's dice whose name is not set": (
        "fight:\n  - roll: {from: \"lookup('named', 'b').dice\"}\n    as: r"),
    "a dice name that is not a whole number": (
        "fight:\n  - set: {m: '1 / 2'}\n  - roll: '(m)d1'"),
    "a check whose target is text": (
        "fight:\n  - check: {roll: '1d1', target: \"'x'\"}\n    as: c"),
    "a check whose bonus fails": (
        "fight:\n  - check: {roll: '1d1', target: '3', bonus: 'base / battle.n'}"),
    "a decision without a default": "fight:\n  - decide: plan\n    as: p",
    "a decision's default out of its range": (
        "fight:\n  - decide: plan\n    range: [1, 3]\n    default: '4'\n    as: p"),
    "a rule broken, with its values": (
        "fight:\n  - require: 'battle.n > base'\n    with: {n: 'battle.n'}"),
    "a step that only records, then a mistake": (
        "fight:\n  - schedule: fight\n    after: 'base / battle.n'\n"
        "  - set: {a: 'base / battle.n'}"),
    "it looks up, rolls, checks and decides": (
        "fight:\n  - for_each:\n      in: '[-3, 0, 1, 5, 7, 99, 1, -3]'\n      as: k\n"
        "      do:\n        - lookup: ranged\n          key: k\n          as: row\n"
        "        - lookup: ranged\n          key: k\n          shift: '1'\n          as: down\n"
        "        - update: battle\n          add: {n: 'row.v + down.v + down.index'}\n"
        "  - lookup: named\n    key: \"'a'\"\n    as: a\n"
        "  - lookup: named\n    key: '3'\n  - lookup: named\n    key: '3.0'\n    as: three\n"
        "  - lookup: named\n    key: \"'b'\"\n    shift: '-1'\n    as: first\n"
        "  - lookup: paired\n    keys: [\"'b'\", \"'a'\"]\n    as: p\n"
        "  - set: {m: 2}\n"
        "  - roll: {from: \"lookup('named', 'b').dice\"}\n    as: r\n    values_as: rs\n"
        "  - roll: '(m)d1'\n    as: r2\n"
        "  - check: {roll: '3d1', target: '4', bonus: '1', type: over}\n    as: c\n"
        "    critical_success: 'roll > 3 and margin == 0'\n"
        "  - check: {roll: '1d1', target: 'base'}\n"
        "  - decide: plan\n    range: [1, 3]\n    default: '2'\n    as: d\n"
        "  - decide: how\n    options: [calm, angry]\n    default: \"'angry'\"\n    as: mood\n"
        "  - require: 'battle.n > 0'\n"
        "  - schedule: fight\n    after: '1'\n"
        "  - update: battle\n    add: {n: 'a.v + three.v + first.v + p.v + r + len(rs) + r2 + d "
        "+ (100 if c.critical == \"success\" else 0) + (1000 if mood == \"angry\" else 0)'}"),
    "a bool decision's default that is not true or false": (
        "fight:\n  - decide: brave\n    for: 'battle.sides[0]'\n    type: bool\n"
        "    default: 'battle.n'\n    as: b"),
    "a decision's subject that fails": (
        "fight:\n  - decide: plan\n    for: 'battle.sides[5]'\n    default: '1'\n    as: p"),
    "it runs (break, return, when)": (
        "fight:\n  - repeat:\n      as: round\n      max: 9\n      report: true\n      do:\n"
        "        - for_each:\n            in: 'range(4)'\n            as: i\n"
        "            index: j\n            do:\n"
        "              - if: 'i == 2'\n                then: [{break: }]\n"
        "              - call: count\n                with: {v: i}\n                as: c\n"
        "        - break:\n          when: 'round == 3'\n"
        "  - update: battle\n    set: {n: 7}\n"
        "  - update: 'battle.sides'\n    set: {y: 5}\n    add: {x: 'battle.n'}\n"
        "  - update: 'battle.sides'\n    set: {flag: true, mood: \"'angry'\", note: \"'x'\"}\n"
        "  - update: 'battle.sides'\n    set: {note: none}\n"
        "  - update: 'battle.sides[0]'\n    set: {note: 3}\n"  # kept as the text '3'
        "count:\n  params: [v]\n  steps:\n    - return: 'half(v) + base'\n"
        "    - set: {unreached: 1}"),
}


@pytest.mark.parametrize("case", CASES)
def test_a_runtime_error_reads_the_same_through_both_backends(case, tmp_path):
    body = textwrap.indent(CASES[case], "  ")
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULESET.format(procedures=body), encoding="utf-8")
    scenario = tmp_path / "battle.yaml"
    scenario.write_text("kind: scenario\nruleset: rules.yaml\nsides: [{name: A}, {name: B}]\n",
                        encoding="utf-8")
    generated, interpreted = (battles(scenario, which) for which in ("generated", "interpreter"))
    assert generated == interpreted
    if case in ("it runs (break, return, when)", "large whole numbers kept",
                "it looks up, rolls, checks and decides"):  # every battle ran
        assert all(out.startswith("{") for out in generated), generated[0]
    else:  # a run-time error (not one of loading), placed in the rule file
        assert generated[0].startswith(("ExpressionError", "StratagemError", "LimitError",
                                        "ValueTooLarge")), generated[0]
        assert "rules.yaml:" in generated[0]



DECIDING = ("fight:\n  - for_each:\n      in: battle.sides\n      as: side\n      do:\n"
            "        - decide: plan\n          for: side\n          range: [0, 5]\n"
            "          default: '2'\n          as: p\n"
            "        - decide: brave\n          for: side\n          type: bool\n"
            "          default: 'false'\n          as: b\n"
            "        - update: side\n          set: {y: 'p', flag: 'b'}\n")


@pytest.mark.parametrize("plans", [
    "{plan: {A: 4}}",                       # a plan for one subject; the other's default
    "{plan: {B: [1, 3]}, brave: {'*': true}}",  # plans for anyone
    "{plan: {A: {policy: '9'}}}",           # an answer that cannot apply: the error
    "{plan: {A: {policy: '9', else: 1}}}",  # ... with its fallback
])
def test_a_decision_planned_by_the_scenario_is_the_same_through_both_backends(plans, tmp_path):
    """The generated code answers a decision's default itself only when no plan names it
    (``codegen._Writer.decide``): a plan, for anyone or for one subject, goes to ``answer``."""
    (tmp_path / "rules.yaml").write_text(RULESET.format(procedures=textwrap.indent(
        DECIDING, "  ")), encoding="utf-8")
    scenario = tmp_path / "battle.yaml"
    scenario.write_text("kind: scenario\nruleset: rules.yaml\nsides: [{name: A}, {name: B}]\n"
                        f"decisions: {plans}\n", encoding="utf-8")
    generated, interpreted = (battles(scenario, which) for which in ("generated", "interpreter"))
    assert generated == interpreted
    if "else" not in plans and "9" in plans:
        assert generated[3].startswith("StratagemError"), generated[3]
    else:
        ys = [side["y"] for side in json.loads(generated[3])["sides"]]
        assert ys != [2, 2], ys  # a plan was taken


# -- the values a field takes as they are ---------------------------------------------------
BIG = 10**18  # stratagem.expr.bounds.MAX_MAGNITUDE: a battle keeps whole numbers below it
ENUM = ("calm", "angry")
#: (how the field is declared, a value a step gives it, whether the field takes it as it is:
#: without a check). The rule is ``FieldSpec.unchanged``; ``field_value`` and the generated
#: code are both held to this one table.
TAKEN = [
    ({"type": "int"}, 0, True),
    ({"type": "int"}, BIG - 1, True),
    ({"type": "int"}, 1 - BIG, True),
    ({"type": "int"}, BIG, False),
    ({"type": "int"}, -BIG, False),
    ({"type": "int", "minimum": 0, "maximum": 5}, 5, True),
    ({"type": "int", "minimum": 0, "maximum": 5}, 0, True),
    ({"type": "int", "minimum": 0, "maximum": 5}, 6, False),
    ({"type": "int", "minimum": 0, "maximum": 5}, -1, False),
    ({"type": "int", "minimum": 6, "maximum": 5}, 5, False),  # no number is both
    ({"type": "int", "minimum": -10**20, "maximum": 10**20}, BIG - 1, True),
    ({"type": "int", "minimum": -10**20, "maximum": 10**20}, BIG, False),
    ({"type": "int", "minimum": 10**20}, BIG - 1, False),
    ({"type": "number"}, 7, True),
    ({"type": "number", "minimum": Fraction(1, 2)}, 1, True),
    ({"type": "number", "minimum": Fraction(1, 2)}, 0, False),
    ({"type": "number", "maximum": Fraction(5, 2)}, 2, True),
    ({"type": "number", "maximum": Fraction(5, 2)}, 3, False),
    ({"type": "number", "minimum": float("-inf"), "maximum": float("inf")}, 3, True),
    ({"type": "number", "minimum": float("inf")}, 3, False),
    ({"type": "number", "maximum": float("nan")}, 3, False),  # checked (and kept)
    ({"type": "number"}, Fraction(1, 2), False),  # checked (and kept)
    ({"type": "int"}, 2.0, False),  # checked: kept as 2
    ({"type": "int"}, True, False),  # true is not a whole number
    ({"type": "int"}, "3", False),
    ({"type": "int"}, None, False),
    ({"type": "int", "optional": True}, None, True),
    ({"type": "bool"}, True, True),
    ({"type": "bool"}, False, True),
    ({"type": "bool"}, 1, False),
    ({"type": "bool", "optional": True}, None, True),
    ({"type": "str"}, "x", True),
    ({"type": "str"}, 3, False),  # checked: kept as the text '3'
    ({"type": "str"}, None, False),
    ({"type": "dice"}, "2d6", True),
    ({"type": "enum", "values": ENUM}, "angry", True),
    ({"type": "enum", "values": ENUM}, "sad", False),
    ({"type": "enum", "values": ENUM}, None, False),
    ({"type": "enum", "values": ENUM, "optional": True}, None, True),
    ({"type": "enum"}, "anything", True),  # an enum without values
    ({"type": "list", "optional": True}, None, True),
    ({"type": "list"}, [1], False),
    ({"type": "any"}, None, True),
    ({"type": "any"}, 3, False),
]


def _taken_by_field_value(spec: FieldSpec, value: object,
                          monkeypatch: pytest.MonkeyPatch) -> bool:
    """Whether ``field_value`` returns ``value`` as it is, without calling ``check``."""
    checked = []
    check = FieldSpec.check

    def recorded(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        checked.append(args)
        return check(self, *args, **kwargs)

    monkeypatch.setattr(FieldSpec, "check", recorded)
    try:
        result = field_value({"f": spec}, "f", value, UpdateStep(),
                             SimpleNamespace(kind_name="side"))
    except StratagemError:
        assert checked
        return False
    assert checked or result is value
    return not checked


def _taken_by_generated_code(spec: FieldSpec, value: object) -> bool:
    """Whether the code the writer makes for an `update` of the field passes ``value`` as it
    is, without its call of ``field_value``."""
    ruleset = SimpleNamespace(kinds={"side": SimpleNamespace(fields={"f": spec})})
    writer = codegen._Writer({"__builtins__": {}}, {}, False, ruleset)
    name = writer.field("f", "given", 0, "fields", "record", "entity")
    called = []
    writer.ns.update(given=value, fields=None, record=None, entity=None,
                     field=lambda *args: called.append(args) or args[2])
    exec("\n".join(writer.lines), writer.ns)  # noqa: S102 - the writer's own code
    assert writer.ns[name] is value
    return not called


@pytest.mark.parametrize(("declared", "value", "taken"), TAKEN,
                         ids=[f"{d}-{v!r}" for d, v, _ in TAKEN])
def test_the_values_a_field_takes_as_they_are_are_the_same_for_both_backends(
        declared, value, taken, monkeypatch):
    spec = FieldSpec("f", **declared)
    if taken:  # what the check would keep as it is
        kept_value = spec.check(value, None, "", changed=True)
        assert kept_value == value and type(kept_value) is type(value)
    # a list or `any` field: the generated code always calls (None is returned as it is)
    assert _taken_by_generated_code(spec, value) == (taken and spec.type not in ("list", "any"))
    assert _taken_by_field_value(spec, value, monkeypatch) == taken


# -- what the generated code is made of ----------------------------------------------------
#: Every name the generated code uses that is not made from an index.
FIXED_NAMES = {"r", "s", "o", "d", "x", "emit", "note", "round_end", "endless", "items",
               "deep", "passes", "kept", "enumerate", "len", "bool", "Exception", "None",
               "checked", "added", "field", "overlay"}
FIXED_TEXT = {"condition", "value", "in", "count", "round", "heading", "passes",
              "procedure", "result", "quiet"}
MANGLED = re.compile(r"[ptekgfv][0-9]+")


@pytest.mark.parametrize("path", [ROOT / "benchmarks/scenarios/gurps-12v12.yaml",
                                  ROOT / "benchmarks/scenarios/war-machine-12v12.yaml",
                                  ROOT / "tests/engine/skirmish/battle.yaml"],
                         ids=lambda p: p.name)
def test_the_code_is_made_of_the_writers_names_and_no_text_of_a_file(path):
    ruleset = load_scenario(path).ruleset
    for tracing in (True, False):
        for name, source in sources(ruleset, tracing).items():
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Name):
                    assert node.id in FIXED_NAMES or MANGLED.fullmatch(node.id), (name, node.id)
                elif isinstance(node, ast.FunctionDef):
                    assert MANGLED.fullmatch(node.name)
                elif isinstance(node, ast.arg):
                    assert node.arg in FIXED_NAMES
                elif isinstance(node, ast.Constant):
                    assert node.value in FIXED_TEXT or type(node.value) is bool or type(
                        node.value) in (int, type(None)), (name, node.value)
                elif isinstance(node, ast.keyword):
                    assert node.arg in ("level", "shift")
                elif isinstance(node, ast.Attribute):
                    assert node.attr in {"steps", "max_steps", "checkpoint", "root",
                                         "procedure", "depth", "limits", "max_rounds",
                                         "max_call_depth", "location", "record", "heading",
                                         "evaluator", "failure", "text",
                                         # `update`: the entity's kind, its fields, and the change
                                         "_kind", "name", "kinds", "fields", "update",
                                         "set", "_f", "get",
                                         # written out: the battle's world, the versions
                                         # moved on, the readers' cached values dropped
                                         "_w", "frozen", "follow", "changes", "append",
                                         "versions", "_cache",
                                         # `lookup`, `roll`: the table's row, the dice's
                                         "lookup", "total", "values",
                                         # `decide`: whether a plan or a prompt answers
                                         "decisions", "ask", "given",
                                         }, node.attr
            if not tracing:
                assert not re.search(r"\b(note|emit|round_end|record)\(", source), \
                    f"{name}: trace calls in the code for runs without a trace"
    assert any("note(" in source for source in sources(ruleset, True).values())


def test_procedures_python_cannot_compile_are_interpreted(tmp_path):
    # Python compiles at most 20 nested blocks; rule files may nest loops deeper.
    depth = 24
    body, indent = "", "  "
    for i in range(depth):
        body += f"{indent}- for_each:\n{indent}    in: 'range(1)'\n{indent}    as: i{i}\n" \
                f"{indent}    do:\n"
        indent += "      "
    body += f"{indent}- update: battle\n{indent}  add: {{n: 1}}\n"
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULESET.format(procedures=f"  fight:\n{body}").replace(
        "max_steps: 300", "max_steps: 3000"), encoding="utf-8")
    scenario = tmp_path / "battle.yaml"
    scenario.write_text("kind: scenario\nruleset: rules.yaml\nsides: [{name: A}]\n",
                        encoding="utf-8")
    ruleset = load_scenario(scenario).ruleset
    functions = procedures_for(ruleset, False, "generated")
    assert functions is not None and functions["fight"].__name__ == "interpreted"
    generated, interpreted = (battles(scenario, which) for which in ("generated", "interpreter"))
    assert generated == interpreted
    assert json.loads(generated[-1])["n"] == 1


def test_the_backend_is_chosen_per_run(monkeypatch):
    ruleset = load_scenario(ROOT / "tests/engine/skirmish/battle.yaml").ruleset
    monkeypatch.delenv("STRATAGEM_BACKEND", raising=False)
    assert backend() == "generated"
    assert procedures_for(ruleset, True) is procedures_for(ruleset, True)  # made once
    monkeypatch.setenv("STRATAGEM_BACKEND", "interpreter")
    assert procedures_for(ruleset, True) is None
    assert procedures_for(ruleset, True, "generated") is not None
    monkeypatch.setenv("STRATAGEM_BACKEND", "fast")
    with pytest.raises(StratagemError, match="unknown back-end 'fast'"):
        backend()
    assert set(codegen.BACKENDS) == set(BACKENDS)


def test_a_compiled_build_interprets_by_default(monkeypatch):
    """Its interpreter is machine code, faster there than generated Python."""
    monkeypatch.delenv("STRATAGEM_BACKEND", raising=False)
    monkeypatch.setattr(codegen, "_DEFAULT", [])
    monkeypatch.setattr(codegen._native, "build", lambda: "compiled")
    assert backend() == "interpreter"
    monkeypatch.setattr(codegen, "_DEFAULT", [])
    monkeypatch.setattr(codegen._native, "build", lambda: "plain")
    assert backend() == "generated"
