"""Fuzzing the expression compiler: expressions generated from a grammar of the syntax rule
files use (and of syntax they may not), hostile sizes included, go through both
evaluators. Both must give the same value, or refuse in the same words (a Stratagem error:
never another exception, a hang or a crash). The budget is fixed (derandomized, a fixed
number of examples) so that CI runs the same cases every time.
"""

from __future__ import annotations

import backends  # tests/expr/backends.py
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.expr.bounds import METER

FUZZ = settings(derandomize=True, max_examples=200, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])

#: names of the scope (backends.scope) and numbers chosen to reach the bounds
ATOMS = ["n", "k", "z", "neg", "f", "fr", "big", "s", "e", "xs", "ys", "no", "m", "d", "t",
         "nothing", "unit", "units", "side", "0", "1", "2", "-1", "1000", "10**6", "1e308",
         "0.5", "'ab'", "[1, 2]", "[[0]*1000]", "range(100000)", "none", "true"]
BINARY = ["+", "-", "*", "/", "//", "%", "**", "==", "<", ">=", "in", "and", "or"]
CALLS = ["min", "max", "abs", "sum", "len", "any", "all", "int", "float", "str", "range",
         "sorted", "reversed", "floor", "ceil", "round_half_up", "avg", "count", "ratio",
         "pairs", "first", "number", "clamp"]


def _expressions() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(BINARY), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(st.sampled_from(CALLS), st.lists(inner, min_size=1, max_size=3)).map(
                lambda t: f"{t[0]}({', '.join(t[1])})"),
            inner.map(lambda e: f"-{e}"),
            inner.map(lambda e: f"not {e}"),
            st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
            st.lists(inner, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
            st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
            st.tuples(inner, inner).map(lambda t: f"[{t[0]} for x in {t[1]}]"),
            st.tuples(inner, st.sampled_from(["count", "name", "strength", "units"])).map(
                lambda t: f"{t[0]}.{t[1]}"),
        )

    return st.recursive(st.sampled_from(ATOMS), extend, max_leaves=12)


@pytest.fixture(scope="module")
def scenarios() -> tuple[object, object]:
    return backends.load("compiled"), backends.load("simpleeval")


@FUZZ
@given(text=_expressions())
def test_both_evaluators_agree_or_both_refuse(scenarios: tuple[object, object], text: str) -> None:
    compiled, simple = scenarios
    METER.reset(METER.limit)
    got_compiled = backends.outcome(compiled, text)
    METER.reset(METER.limit)
    got_simple = backends.outcome(simple, text)
    assert got_compiled[0] != "crash", (text, got_compiled)
    assert got_simple[0] != "crash", (text, got_simple)
    assert got_compiled == got_simple, text


@FUZZ
@given(text=st.text(alphabet="()[]{}+-*/%<>=!., 0123456789abdefnorsx_'\"\n:@~|&^", max_size=60))
def test_any_text_compiles_or_is_refused_cleanly(scenarios: tuple[object, object],
                                                 text: str) -> None:
    compiled, simple = scenarios
    METER.reset(METER.limit)
    got = backends.outcome(compiled, text)
    assert got[0] != "crash", (text, got)
    METER.reset(METER.limit)
    assert backends.outcome(simple, text) == got, text
