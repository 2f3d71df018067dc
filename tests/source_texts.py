"""The source texts of the rule systems, for the tests that compare an encoding with them.

The texts are not part of the repository. ``STRATAGEM_SOURCE_TEXTS`` names the folder
that holds them; unset, the tests that read them skip, saying why. A test
that needs a text it cannot find skips, saying which text and where it looked.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDER = Path(os.environ.get("STRATAGEM_SOURCE_TEXTS") or "/nonexistent-source-texts")

#: The texts by the book each one is.
GURPS_MASS_COMBAT = "000_d381bc3b6bfbdc74.txt"
GURPS_CASUALTIES = "001_2daa1bc6cd9709c9.txt"  # a second copy of the morale and casualty pages
WAR_MACHINE = "002_25fdfdf7bce6606e.txt"
MAZES_MINOTAURS = "003_dc6d2fa9e030db4f.txt"
NOTES = "GA" "PS.md"  # the notes file beside the texts: the tables they lack


def read(name: str) -> str | None:
    """The text of source ``name``, or None when it is not there."""
    path = FOLDER / name
    return path.read_text(encoding="utf-8") if path.is_file() else None


def reason(name: str) -> str:
    return f"source text {name} not found in {FOLDER} (set STRATAGEM_SOURCE_TEXTS to its folder)"


def need(name: str) -> str:
    """The text of source ``name``; the calling test skips when it is absent."""
    text = read(name)
    if text is None:
        pytest.skip(reason(name))
    return text


def params(name: str, rows: list[tuple[str, object]]) -> list[object]:
    """``rows`` for ``pytest.mark.parametrize``, or one skipped case when ``name`` is absent."""
    if read(name) is None:
        return [pytest.param(None, None, marks=pytest.mark.skip(reason=reason(name)))]
    return list(rows)
