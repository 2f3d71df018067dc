"""Named hostile inputs (hostile_inputs.yaml): each gets a clear DiceError.

Speed (each under 100 ms) is measured by ``benchmarks/bench_dice.py --hostile``,
not here: the project keeps timed assertions out of tests.
"""

from __future__ import annotations

import re

import pytest
from dice_helpers import first_error, hostile_inputs

from stratagem.dice import DiceLimitError, DiceSyntaxError, DiceValueError
from stratagem.errors import LimitError

ENTRIES = hostile_inputs()
KINDS = {"syntax": DiceSyntaxError, "value": DiceValueError, "limit": DiceLimitError}
#: Parser internals that must never reach a person.
INTERNAL = re.compile(r"\$END|\bINT\b|\bNAME\b|\bLPAR\b|\bRPAR\b|Token|Tree|Traceback|lark")


def test_there_are_at_least_forty_distinct_hostile_inputs() -> None:
    names = [entry["name"] for entry in ENTRIES]
    assert len(names) >= 40 and len(set(names)) == len(names)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["name"] for e in ENTRIES])
def test_hostile_input_gets_a_clear_error(entry: dict) -> None:
    stage, err = first_error(entry)
    assert err is not None, "accepted, but should have been refused"
    assert stage == entry.get("stage", "parse")
    assert isinstance(err, KINDS[entry["error"]]), repr(err)
    assert entry["message"] in err.message
    text = err.render()
    assert not INTERNAL.search(text.replace(entry["text"], "")), text
    assert len(text) < 600
    if err.column is not None:
        _line, caret = err.context.splitlines()  # type: ignore[union-attr]
        assert caret.strip() == "^"
    if entry["error"] == "limit":
        assert isinstance(err, LimitError)
