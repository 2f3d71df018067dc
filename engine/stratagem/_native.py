"""Which engine runs: the modules a wheel build compiled with mypyc, or the sources.

Compiled code is a build product only: ``pip install .`` (a wheel) compiles the engine's
hot modules where a C compiler exists, and installs them beside their sources; an editable
install (``pip install -e .``) and a source checkout always run the sources, so an edit is
never shadowed by an older compiled module. ``STRATAGEM_PURE=1`` at install builds a plain
wheel. setup.py reads this module too.
"""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parent
#: The shared module mypyc builds for the compiled group (setup.py's ``group_name``).
GROUP = "native__mypyc"


def pure_wanted() -> bool:
    """``STRATAGEM_PURE`` is set (and not ``0``): build a plain wheel."""
    return os.environ.get("STRATAGEM_PURE", "") not in ("", "0")


def build(root: Path = ROOT) -> str:
    """``"compiled"`` when this installation carries the compiled engine, else ``"plain"``."""
    return "compiled" if any((root / (GROUP + suffix)).is_file()
                             for suffix in EXTENSION_SUFFIXES) else "plain"
