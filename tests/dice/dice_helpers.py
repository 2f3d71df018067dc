"""Shared helpers of the dice tests: Hypothesis strategies that mirror the
grammar rule for rule, settings, and a brute-force oracle for distributions."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import cache

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from stratagem.dice import DiceExpr

#: Deterministic in CI, no deadline (the first parse builds the parser), bounded.
DICE_SETTINGS = settings(
    derandomize=True,
    deadline=None,
    database=None,
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

#: Names the generated expressions may use, and their values.
NAMES = {"TL": 6, "DR": 2, "unit.TL": 3, "dex": 1, "Damage": 4, "N": 2, "neg": -3}

_space = st.sampled_from(["", "", " "])


def _join(*parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(*parts).map("".join)


# --- rules of grammar/dice.lark, bottom up --------------------------------------------

INT = st.integers(0, 12).map(str)
NAME = st.sampled_from(sorted(NAMES))


@cache
def static_sum(depth: int) -> st.SearchStrategy[str]:
    """``sum`` without dice (what a count, sides, keep or repeat count may be)."""
    atom = (
        st.one_of(INT, NAME)
        if depth <= 0
        else st.one_of(INT, NAME, _join(st.just("("), static_sum(depth - 1), st.just(")")))
    )
    op = st.sampled_from(["+", "-", "*", "/"])
    return st.one_of(atom, _join(atom, _space, op, _space, atom))


def value(depth: int) -> st.SearchStrategy[str]:
    """``value``: what may stand before ``d`` or ``x``."""
    return st.one_of(
        st.integers(0, 8).map(str),
        _join(st.just("("), static_sum(depth), st.just(")")),
    )


@cache
def dice(depth: int) -> st.SearchStrategy[str]:
    """``dice: [value] die [BANG] [keep]``.

    Follows the documented rules so that most examples are valid: a keep
    suffix needs written sides (``4dkh3`` would read ``dkh3`` as a name) and
    ``Nd%`` is refused where ``d`` has a default die, so ``%`` only comes alone.
    """
    count = st.one_of(st.just(""), value(depth))
    letter = st.sampled_from(["d", "d", "D"])
    sides = st.one_of(
        st.integers(1, 20).map(str),
        _join(st.just("("), static_sum(0), st.just(")")),
    )
    bang = st.sampled_from(["", "", "", "!"])
    keep = st.one_of(
        st.just(""),
        _join(st.sampled_from(["kh", "kl", "k", "dh", "dl"]), st.integers(0, 4).map(str)),
    )
    return st.one_of(
        _join(count, letter, sides, bang, keep),
        _join(count, letter, bang),
        _join(letter, st.just("%"), bang),
    )


@cache
def sum_rule(depth: int) -> st.SearchStrategy[str]:
    """``sum`` / ``product`` / ``unary`` / ``postfix`` / ``atom`` with dice."""
    if depth <= 0:
        plain = st.one_of(INT, NAME)
        atom = st.one_of(plain, dice(0))
    else:
        inner = sum_rule(depth - 1)
        group = _join(st.just("("), inner, st.just(")"))
        plain = st.one_of(
            INT,
            NAME,
            group,
            _join(st.sampled_from(["min(", "max("]), inner, st.just(", "), inner, st.just(")")),
            _join(
                st.sampled_from(["ceil(", "floor("]), group, st.just("/"), value(0), st.just(")")
            ),
        )
        atom = st.one_of(plain, dice(depth - 1))
    # One unary minus, never straight before a written number of dice (that is refused).
    unary = st.one_of(atom, _join(st.just("-"), plain))
    factors = st.lists(st.tuples(st.sampled_from(["*", "/"]), unary).map("".join), max_size=2)
    product = _join(unary, factors.map("".join))
    plus = st.tuples(_space, st.sampled_from(["+", "-"]), _space, product).map("".join)
    return _join(product, st.lists(plus, max_size=2).map("".join))


def expressions(depth: int = 2) -> st.SearchStrategy[str]:
    """``start: [value REPEAT] sum [PERCENT]``."""
    repeat = st.one_of(
        st.just(""), _join(st.sampled_from(["1", "2", "3", "(N)"]), st.sampled_from(["x", "×"]))
    )
    return _join(repeat, sum_rule(depth), st.sampled_from(["", "", "%"]))


# --- a brute-force oracle ---------------------------------------------------------------


class _PathRng:
    """Follows a prefix of choices, then always picks face 1; records every call."""

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.calls: list[tuple[int, int]] = []  # (sides, face)

    def randint(self, low: int, high: int) -> int:
        index = len(self.calls)
        face = self.prefix[index] if index < len(self.prefix) else low
        self.calls.append((high, face))
        return face


def enumerate_pmf(expr: DiceExpr, names: dict[str, int], budget: int = 20_000) -> dict | None:
    """The exact pmf of ``expr`` by trying every sequence of faces (None if over budget).

    Walks the tree of ``randint`` calls depth first: each run follows a prefix
    of faces and then picks 1; every call past the prefix spawns the runs
    that pick 2..sides there instead. Each path's probability is the product
    of 1/sides over its calls. This exercises the roller, not the
    distribution code, so the two can be compared.
    """
    weights: dict[int, Fraction] = defaultdict(Fraction)
    stack: list[list[int]] = [[]]
    runs = 0
    while stack:
        runs += 1
        if runs > budget:
            return None
        prefix = stack.pop()
        rng = _PathRng(prefix)
        total = expr.roll(rng, names).total
        probability = Fraction(1)
        for sides, _face in rng.calls:
            probability /= sides
        weights[total] += probability
        chosen = [face for _, face in rng.calls]
        for i in range(len(prefix), len(rng.calls)):
            for alt in range(2, rng.calls[i][0] + 1):
                stack.append(chosen[:i] + [alt])
    return {k: v for k, v in sorted(weights.items()) if v}


# --- hostile inputs ---------------------------------------------------------------------

HOSTILE_FILE = __import__("pathlib").Path(__file__).with_name("hostile_inputs.yaml")


def hostile_inputs() -> list[dict]:
    """The entries of hostile_inputs.yaml, each with its ``text`` built."""
    from ruamel.yaml import YAML

    entries = YAML(typ="safe").load(HOSTILE_FILE.read_text(encoding="utf-8"))
    for entry in entries:
        if "repeat" in entry:
            piece, times = entry["repeat"]
            entry["text"] = piece * times + entry.get("then", "")
    return entries


def first_error(entry: dict) -> tuple[str | None, Exception | None]:
    """Parse, roll, then ask the distribution of a hostile entry: ``(stage, error)``."""
    import random

    from stratagem.dice import DiceDialect, DiceError, DiceLimits, parse_dice

    dialect = DiceDialect(**entry.get("dialect", {}))
    limits = DiceLimits(**entry.get("limits", {}))
    names = entry.get("names", {})
    try:
        expr = parse_dice(entry["text"], dialect, limits)
    except DiceError as err:
        return "parse", err
    try:
        expr.roll(random.Random(0), names)
    except DiceError as err:
        return "roll", err
    try:
        expr.distribution(names)
    except DiceError as err:
        return "dist", err
    return None, None
