"""Where the shipped data (rulesets, schemas, grammar) lives.

In an installed wheel the data sits inside the package under ``_data``; in a
source checkout (or an editable install) it sits in the checkout's root, beside ``engine/``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """Return the folder of shipped data called ``name`` ("rulesets", "schemas", "grammar")."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"shipped data folder {name!r} is missing from the installation")
