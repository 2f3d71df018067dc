"""Two back-ends, one behaviour: the compiled evaluator against the simpleeval reference.

Hundreds of expressions, generated from tables of operands, operators, functions, values
of every kind and the fields of the fixture's entities, valid and invalid, go through
both evaluators with the same fresh battle: both must give the same value of the same
type, or the same error (class, message, hint, place, caret). The answer itself is not
written down here: the evaluators are compared with each other. A smaller set of cases
has its expected value worked out independently, in Python (and, for misspelt names,
the message and did-you-mean a person expects). When STRATAGEM_COMPILED_PYTHON names the
Python of a compiled (mypyc) build, that build must say the same as the sources too.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import backends  # tests/expr/backends.py (pytest puts this folder on the path)
import pytest

from stratagem.errors import Location, StratagemError
from stratagem.expr import Evaluator, compile_expr

#: names of the scope (tests/expr/backends.py), one of each kind of value
OPERANDS = ["n", "z", "neg", "f", "fr", "big", "s", "xs", "none", "true", "d"]
ARITHMETIC = ["+", "-", "*", "/", "//", "%", "**"]
COMPARISONS = ["==", "!=", "<", "<=", ">", ">=", "in", "not in", "is"]
#: one argument of every kind a function may be handed (and may refuse)
ARGUMENTS = ["n", "f", "fr", "neg", "s", "e", "xs", "no", "ys", "d", "none", "units", "unit",
             "row", "m", "[s, n]"]
BUILTINS = ["min", "max", "abs", "sum", "len", "any", "all", "int", "float", "str", "bool",
            "range", "sorted", "reversed", "floor", "ceil", "round_up", "round_down",
            "round_half_up", "clamp", "avg", "count", "ratio", "pairs", "first", "number",
            "group_by", "unique"]
#: the ruleset's functions and its formula (tests/loader/fixtures/skirmish/ruleset.yaml)
RULESET_FUNCTIONS = ["lookup", "row", "has", "keys", "rows", "label", "superiority"]
KEYWORDS = ["key='count'", "reverse=true", "default=0", "shift=1", "nope=1"]
#: the entities in scope and the members each kind declares
ENTITIES = {
    "battle": ["terrain", "days", "name", "sides", "kind", "parent"],
    "side": ["role", "strategy", "morale", "strength", "units", "name", "battle"],
    "unit": ["count", "troop", "quality", "mounted", "strength", "name", "parent", "ts"],
}
ROW_COLUMNS = ["ts", "key", "index", "table"]
#: Python an expression may not use (refused before either evaluator runs)
FORBIDDEN = [
    "__import__('os')", "x.__class__", "unit.__dict__", "().__class__.__bases__", "_x",
    "lambda: 1", "(lambda: 1)()", "(x := 1)", "{1, 2}", "{v for v in xs}", "f'{n}'", "[*xs]",
    "xs.append(1)", "s.upper()", "n << 1", "n | 1", "~n", "n @ n", "import os", "yield 1",
    "[1 for x.y in xs]", "del xs", "open('f')", "eval('1')", "exec('1')", "globals()",
    "getattr(unit, 'count')", "unit.set", "unit.walk", "xs.append", "d.get", "s.upper",
    "print", "len", "", "1 +", "(1", "n if n", "'unclosed", "n\n  + )", "clamp(**d)",
    "max(xs, **d)", "sorted(units, **{'key': 'count'})", "[v for v in *xs]",
]


def misspellings(name: str) -> list[str]:
    """A letter dropped, two swapped, one doubled."""
    out = {name[:-1], name[1] + name[0] + name[2:], name[:2] + name[1] + name[2:]}
    return sorted(out - {name})


def arithmetic() -> list[str]:
    return [f"{a} {op} {b}" for a, b in itertools.product(OPERANDS, repeat=2)
            for op in ARITHMETIC]


def comparisons() -> list[str]:
    pairs = itertools.product(["n", "f", "fr", "s", "xs", "none", "d"], repeat=2)
    return [f"{a} {op} {b}" for a, b in pairs for op in COMPARISONS]


def logic() -> list[str]:
    values = ["n", "z", "s", "e", "no", "none", "true", "false"]
    return ([f"{a} and {b}" for a, b in itertools.product(values, repeat=2)]
            + [f"{a} or {b}" for a, b in itertools.product(values, repeat=2)]
            + [f"not {a}" for a in values]
            + [f"{a} if {c} else {b}" for a, c, b in itertools.product(
                ["n", "s", "1 / z"], ["true", "z", "xs", "none"], ["xs", "1 // z"])])


def calls() -> list[str]:
    out = []
    for fn in BUILTINS + RULESET_FUNCTIONS:
        out.append(f"{fn}()")
        out += [f"{fn}({a})" for a in ARGUMENTS]
        out += [f"{fn}({a}, {b})" for a in ("n", "xs", "s", "'troop_types'", "'terrain'")
                for b in ("n", "f", "s", "xs", "none", "'cavalry'")]
        out += [f"{fn}(n, k, z)", f"{fn}(neg, z, n)", f"{fn}(n, s, n)", f"{fn}(1, 2, 3, 4)",
                f"{fn}(xs, xs, xs)"]
        out += [f"{fn}(units, {kw})" for kw in KEYWORDS]
        out += [f"{fn}(xs, {kw})" for kw in KEYWORDS]
    return out


def members() -> list[str]:
    out = []
    for owner, names in ENTITIES.items():
        for name in names:
            out.append(f"{owner}.{name}")
            out += [f"{owner}.{wrong}" for wrong in misspellings(name)]
    out += [f"row.{c}" for c in ROW_COLUMNS] + [f"row.{w}" for w in misspellings("ts")]
    out += ["unit.parent.nope", "side.units[0].cont", "[u.cont for u in units]",
            "sorted(units, key='cont')", "sorted(units, key='count')",
            "max(u.count for u in units)",
            "battle.sides[1].units[0].troop", "n.count", "s.count", "none.count", "xs.count",
            "d.a", "row.nope", "lookup('troop_types', 'cavalry').ts",
            "lookup('troop_types', 'cavalry').tss", "lookup('nope', 1)",
            "lookup('troop_types', 'dragons')", "lookup('odds', 7 / 2).bonus",
            "lookup('casualties', 4).loss", "row('troop_types', 'archers').ts",
            "has('troop_types', 'infantry')", "keys('troop_types')", "rows('odds')",
            "label('terrain', battle.terrain)", "label('terrain')", "superiority(3, 1)",
            "superiority(3)", "superiority(1, 2, 3)", "superiority(mine=1, theirs=2)",
            "superiority(1, 0)", "base_morale + n", "unit.strength + side.strength"]
    return out


def subscripts() -> list[str]:
    out = [f"{c}[{i}]" for c in ("xs", "ys", "s", "e", "no", "m") for i in range(-4, 4)]
    out += ["d['a']", "d['zz']", "d[n]", "xs['a']", "xs[f]", "n[0]", "none[0]", "unit[0]",
            "unit['count']", "row['ts']", "xs[1:]", "xs[::-1]", "xs[::z]", "s[1:3]",
            "m[1][0]", "m[5][0]", "d[xs]", "ps[0][1]", "units[5]", "units[-1].name"]
    return out


def comprehensions() -> list[str]:
    return [
        "[v * 2 for v in xs if v > 1]", "{k: v for k, v in ps}", "sum(v for v in xs)",
        "[v for v in s]", "[v for v in n]", "[v for v in none]", "[1 / v for v in [1, 0]]",
        "[u.count for u in units if u.mounted]", "[u.cont for u in units]",
        "{u.name: u.strength for u in units}", "[a + b for a, b in ps]", "[a for a, b in xs]",
        "[v for row in m for v in row]", "count(v > 1 for v in xs)", "first(v for v in no)",
        "first([], default=n)", "avg(u.count for u in units)", "any(v > 2 for v in xs)",
        "[v for v in range(10001)]", "len([v for v in range(10000)])", "max(v for v in no)",
        "[[v for v in range(100)] for w in range(101)]", "{v: v for v in range(3)}",
        "[n for n in xs]", "([n for n in xs], n)", "sorted(v for v in xs)",
        "[a + b for a, b in [(1, 2, 3)]]", "[a for a, b in [(1,)]]", "[a for a, b in ['ab']]",
        "[a + b + c for a, (b, c) in [(1, (2, 3))]]", "[1 / v for v in range(20000)]",
    ]


def grouping() -> list[str]:
    """group_by() and unique(): by a field of entities and rows, by the items themselves,
    looked up, and with keys that are no field's name or cannot be keys."""
    out = [f"{fn}(units, {key})" for fn in ("group_by", "unique")
           for key in ("'troop'", "'mounted'", "'count'", "'name'", "key='quality'", "'cont'",
                       "'parent'", "'_f'", "''", "n", "none", "xs", "key=s", "key='kind'")]
    out += [f"{fn}({items}, 'ts')" for fn in ("group_by", "unique")
            for items in ("[row, row]", "rows('troop_types')", "xs", "d", "s", "range(3)",
                          "[none]", "[unit, n]")]
    out += ["unique(m + m, key=none)", "group_by(units, key='tags')", "unique(xs + xs)", "unique([1, 1.0, true, fr, 3/2])", "unique(m + m)",
            "unique([d, d])", "unique(units + units)", "unique(s)", "unique(no)",
            "unique(units, 'troop', 'x')", "unique(units, nope='troop')",
            "group_by(units, key='troop', reverse=true)", "group_by(no, 'troop')",
            "len(group_by(units, 'troop'))", "group_by(units, 'troop')['nope']",
            "[len(g) for g in group_by(units, 'troop')]",
            "[group_by(units, 'troop')[t] for t in group_by(units, 'troop')]",
            "sum(u.count for u in group_by(units, 'troop')[unit.troop])",
            "'cavalry' in group_by(units, 'troop')", "unit in unique(units, key='troop')",
            "len(unique(units, key='name')) == len(units)",
            "group_by(range(100000), 'real')", "unique(range(100000))",
            "group_by([[v] for v in xs], 'real')", "unique(units, key='strength')",
            "group_by(units, 'strength')"]
    return out


def numbers() -> list[str]:
    return [
        "2 ** 1000", "2 ** 1001", "10 ** 6 ** 2", "(10 ** 7) ** 2", "big * big", "big ** 2",
        "big / 3", "big // 7", "big % 7", "1e308 * 10", "-1e308 * 10", "floor(1e308 * 10)",
        "int(1e308 * 10)", "round_half_up(1e308 * 10)", "2.0 ** 1000", "2.0 ** 2000",
        "'x' * 10 ** 9", "[1] * 10 ** 9", "'ab' * 30000 + 'cd' * 30000", "range(10 ** 6)",
        "1 / 0", "1 // 0", "1 % 0", "1.5 / 0", "fr / 0", "ratio(1, 0)", "ratio(0, 0)",
        "0 ** -1", "z ** -1", "neg ** 0.5", "(-8) ** (1 / 3)", "avg([])", "avg([1, 2])",
        "7 / 2", "8 / 2", "n / 2 + 1 / 2", "number(6 / 4)", "round_half_up(5 / 2)",
        "round_half_up(-5 / 2)", "floor(-7 / 2)", "ceil(-7 / 2)", "int('12')", "float('x')",
        "int(s)", "int(none)", "str(fr)", "float(fr)", "abs(neg)", "abs(s)", "-s", "not unit",
    ]


FAMILIES = {"arithmetic": arithmetic(), "comparisons": comparisons(), "logic": logic(),
            "calls": calls(), "members": members(), "subscripts": subscripts(),
            "comprehensions": comprehensions(), "numbers": numbers(), "grouping": grouping(),
            "forbidden": FORBIDDEN}
CASES = sorted({text for family in FAMILIES.values() for text in family})


@pytest.fixture(scope="module")
def scenarios():
    return {mode: backends.load(mode) for mode in ("compiled", "simpleeval")}


def test_there_are_hundreds_of_cases_valid_and_invalid(scenarios):
    # the outcomes of the reference: many values and many errors of many kinds
    outcomes = [backends.outcome(scenarios["simpleeval"], text) for text in CASES]
    values = [o for o in outcomes if o[0] == "value"]
    errors = [o for o in outcomes if o[0] == "error"]
    assert len(CASES) >= 300 and len(values) >= 300 and len(errors) >= 300
    assert len({o[2].split(": ", 1)[-1].split(" ")[0] for o in errors}) >= 20


@pytest.mark.parametrize("family", FAMILIES)
def test_both_evaluators_say_the_same(scenarios, family):
    differ, crashed = [], []
    for text in FAMILIES[family]:
        compiled = backends.outcome(scenarios["compiled"], text)
        reference = backends.outcome(scenarios["simpleeval"], text)
        if compiled != reference:
            differ.append((text, compiled, reference))
        if "crash" in (compiled[0], reference[0]):
            crashed.append((text, compiled, reference))
    assert not differ, f"{len(differ)} differ, e.g. {differ[:3]}"
    assert not crashed, crashed[:3]


# -- no Python in the errors -----------------------------------------------------------
PYTHON_WORDING = ["positional argument", "object is not", "instances of", "NoneType",
                  "'int'", "'str'", "'list'", "operand type", "__import__", "Traceback",
                  "<locals>", "must be real number", "Invalid literal"]


def test_a_call_that_fails_says_so_in_stratagem_words(scenarios):
    failed = 0
    for text in FAMILIES["calls"]:
        result = backends.outcome(scenarios["compiled"], text)
        if result[0] != "error":
            continue
        failed += 1
        message, hint = result[2], result[3] or ""
        assert not [w for w in PYTHON_WORDING if w in message + hint], message
        # a built-in's mistake is the expression's; a table's or a formula's may be found
        # where the table or the formula is written (the loader's static checks say more)
        if text.split("(")[0] in BUILTINS:
            assert result[4] == "house-rules.yaml:12:7", (text, result)
        assert result[4], (text, result)
    assert failed >= 300


@pytest.mark.parametrize(("text", "fn", "takes"), [
    ("clamp(n)", "clamp", "takes 3 values (x, lo, hi), got 1"),
    ("clamp(n, z)", "clamp", "takes 3 values (x, lo, hi), got 2"),
    ("clamp(1, 2, 3, 4)", "clamp", "takes 3 values (x, lo, hi), got 4"),
    ("clamp(s, 0, 1)", "clamp", "x must be a number, got the text 'battle'"),
    ("clamp(n, 0, xs)", "clamp", "hi must be a number, got a list of 3 values"),
    ("label()", "label", "takes 1 or 2 values (enum, value), got 0"),
    ("label('terrain', 'hills', 3)", "label", "takes 1 or 2 values (enum, value), got 3"),
    ("floor(s)", "floor", "takes a number, got the text 'battle'"),
    ("len(n)", "len", "takes a list, text or a map, got the number 7"),
    ("sorted(xs, nope=1)", "sorted", "has no option 'nope'"),
    ("max(n)", "max", "takes a list or two or more values, got the number 7"),
    ("min()", "min", "takes a list or two or more values, got none"),
    ("sum(xs, 1, 2)", "sum", "takes 1 or 2 values (values, start), got 3"),
    ("group_by(units)", "group_by", "takes 2 values (values, key), got 1"),
    ("unique(units, 'troop', 1)", "unique", "takes 1 or 2 values (values, key), got 3"),
    ("unique(n)", "unique", "values must be a list, got the number 7"),
    ("group_by(units, key='count', nope=1)", "group_by", "takes no options ('nope=')"),
])
def test_argument_mistakes_name_the_function_and_what_it_takes(scenarios, text, fn, takes):
    for scenario in scenarios.values():
        kind, _cls, message, hint, where, context = backends.outcome(scenario, text)
        assert kind == "error"
        assert message == f"`{text}`: {fn}() {takes}" or message.startswith(
            f"`{text}`: {fn}()'s ") and message.endswith(takes)
        assert where == "house-rules.yaml:12:7" and hint
        assert context.splitlines()[1] == "  ^"  # under the call, at the expression's start


def test_the_caret_stands_under_the_call_that_failed(scenarios):
    text = "n + clamp(s, 0, 1)"
    for scenario in scenarios.values():
        context = backends.outcome(scenario, text)[5]
        line, caret = context.splitlines()
        assert line == f"  {text}" and caret == "  " + " " * text.index("clamp") + "^"
    text = "[1,\n  floor('x')]"
    for scenario in scenarios.values():
        line, caret = backends.outcome(scenario, text)[5].splitlines()
        assert line == "    floor('x')]" and caret == "    ^"


# -- answers worked out independently ------------------------------------------------------
def _exact_div(a: int, b: int):
    q = Fraction(a, b)
    return q.numerator if q.denominator == 1 else q


def _half_up(x: Fraction) -> int:
    return int(Decimal(x.numerator / Decimal(x.denominator)).quantize(0, ROUND_HALF_UP))


def independent_cases() -> list[tuple[str, object]]:
    rng = random.Random(12)
    out: list[tuple[str, object]] = []
    for _ in range(40):
        a, b = rng.randint(-50, 50), rng.choice([i for i in range(-9, 10) if i])
        out += [(f"{a} + {b}", a + b), (f"{a} - {b}", a - b), (f"{a} * {b}", a * b),
                (f"{a} // {b}", a // b), (f"{a} % {b}", a % b), (f"{a} / {b}", _exact_div(a, b)),
                (f"{a} < {b}", a < b)]
        lo, hi = sorted(rng.sample(range(-20, 20), 2))
        out.append((f"clamp({a}, {lo}, {hi})", sorted([lo, a, hi])[1]))
        out.append((f"round_half_up({a} / {b})", _half_up(Fraction(a, b))))
        out.append((f"floor({a} / {b})", math.floor(Fraction(a, b))))
        out.append((f"ceil({a} / {b})", math.ceil(Fraction(a, b))))
        xs = [rng.randint(-9, 9) for _ in range(rng.randint(1, 6))]
        out += [(f"max({xs})", max(xs)), (f"min({xs})", min(xs)), (f"sum({xs})", sum(xs)),
                (f"len({xs})", len(xs)), (f"sorted({xs})", sorted(xs)),
                (f"[v * 2 for v in {xs} if v > 0]", [v * 2 for v in xs if v > 0])]
        # unique(): each value once, where it first appears; group_by(): how many of each
        seen: list[int] = []
        for v in xs:
            if v not in seen:
                seen.append(v)
        out.append((f"unique({xs})", seen))
        out.append((f"len(unique({xs})) == len({xs})", len(set(xs)) == len(xs)))
    return out


@pytest.mark.parametrize(("text", "expected"), independent_cases())
def test_values_worked_out_independently(scenarios, text, expected):
    for scenario in scenarios.values():
        assert backends.outcome(scenario, text) == ("value", backends.plain(expected))


@pytest.mark.parametrize(("owner", "name", "wrong"), [
    (owner, name, wrong) for owner, names in ENTITIES.items()
    for name in names if name not in ("kind", "parent", "battle", "ts") and len(name) > 3
    for wrong in misspellings(name)])
def test_a_misspelt_field_says_which_and_suggests_the_right_one(scenarios, owner, name,
                                                                  wrong):
    text = f"{owner}.{wrong}"
    for scenario in scenarios.values():
        kind, cls, message, hint, where, _context = backends.outcome(scenario, text)
        assert (kind, cls, where) == ("error", "ExpressionError", "house-rules.yaml:12:7")
        assert message == f"`{text}`: a {owner} has no field or value '{wrong}'"
        assert f"'{name}'" in hint and hint.startswith("did you mean")


def test_group_by_gathers_the_items_that_share_a_value_in_order():
    # worked out from the fixture's units themselves, read one by one: both companies'
    # units, each twice (Pikes, Riders, Archers, Pikes, Riders, Archers)
    for mode in ("compiled", "simpleeval"):
        scenario = backends.load(mode)
        root = scenario.instantiate()
        units = [u for side in root.sides for u in side.units] * 2
        by_troop: dict[str, list[str]] = {}
        for unit in units:
            by_troop.setdefault(unit.member("troop"), []).append(unit.member("name"))
        assert len(by_troop) < len(units)  # units share a troop type: a real grouping
        ev, scope = scenario.ruleset.evaluator, {"units": units}
        grouped = compile_expr("[[u.name for u in group_by(units, 'troop')[t]] "
                               "for t in group_by(units, 'troop')]")
        assert ev.eval(grouped, scope) == list(by_troop.values())
        firsts = compile_expr("[u.name for u in unique(units, key='troop')]")
        assert ev.eval(firsts, scope) == [names[0] for names in by_troop.values()]


# -- a compiled build ------------------------------------------------------------------------
COMPILED = os.environ.get("STRATAGEM_COMPILED_PYTHON")


@pytest.mark.skipif(not COMPILED, reason="STRATAGEM_COMPILED_PYTHON names no Python with the "
                    "compiled wheel installed (.ci/run sets it)")
def test_a_compiled_build_says_what_the_sources_say(scenarios):
    root = Path(__file__).parents[2]
    done = subprocess.run([COMPILED, str(Path(backends.__file__))], input=json.dumps(CASES),
                          capture_output=True, text=True, cwd=root, check=True, timeout=600)
    built = json.loads(done.stdout)
    sources = [backends._json(backends.outcome(scenarios["compiled"], t)) for t in CASES]
    differ = [(t, b, s) for t, b, s in zip(CASES, built, sources) if b != s]
    assert not differ, differ[:5]
    assert sys.executable != COMPILED


def test_the_reference_shows_a_failed_call_as_it_is_said():
    # docs/ruleset-reference.md, "Expressions": the error printed for a clamp() mistake
    doc = (Path(__file__).parents[2] / "docs" / "ruleset-reference.md").read_text(
        encoding="utf-8")
    expressions = doc.split("\n## Expressions\n", 1)[1]
    shown = expressions.split("```text\n", 1)[1].split("```", 1)[0].rstrip("\n")
    text = shown.split("`")[1]
    for mode in ("compiled", "simpleeval"):
        expr = compile_expr(text, Location("house-rules.yaml", 12, 7))
        with pytest.raises(StratagemError) as caught:
            Evaluator(mode=mode).eval(expr, {"morale": 5})
        assert caught.value.render() == shown
