"""Every example in docs/dice.md parses (and rolls); every error example is refused."""

from __future__ import annotations

import doctest
import random
import re
from pathlib import Path

import pytest

import stratagem.dice
from stratagem.dice import DiceError, parse_dice

DOC = Path(__file__).resolve().parents[2] / "docs" / "dice.md"
NAMES = {"TL": 6, "DR": 2, "unit.TL": 5, "dex": 3, "Damage": 4, "N": 2}


def blocks(kind: str) -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    lines = []
    for block in re.findall(rf"^```{kind}\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE):
        lines += [line.strip() for line in block.splitlines() if line.strip()]
    return lines


EXAMPLES = blocks("dice")
ERRORS = blocks("dice-error")


def test_the_doc_has_examples() -> None:
    assert len(EXAMPLES) >= 60 and len(ERRORS) >= 8


@pytest.mark.parametrize("text", EXAMPLES)
def test_doc_example_parses_and_rolls(text: str) -> None:
    expr = parse_dice(text)
    low, high = expr.bounds(NAMES)
    assert low <= expr.roll(random.Random(0), NAMES).total <= high


@pytest.mark.parametrize("line", ERRORS)
def test_doc_error_example_is_refused(line: str) -> None:
    """Each line is an expression and, after `#`, the error the doc says it raises."""
    text, _, named = line.partition("#")
    error = getattr(stratagem.dice, named.strip(), None)
    assert isinstance(error, type) and issubclass(error, DiceError), f"{line!r} names no error"
    with pytest.raises(error):
        parse_dice(text.strip()).roll(random.Random(0), NAMES)


def test_package_docstring_examples() -> None:
    failures, tried = doctest.testmod(stratagem.dice)
    assert tried >= 4 and failures == 0
