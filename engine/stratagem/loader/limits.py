"""Bounds on what loading one document may cost.

Rule files may come from strangers, so every resource the loader spends is
bounded. The bounds travel in a :class:`LoadLimits` value passed to the
loader, never in module globals, so a caller (or a test) can tighten them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LoadLimits:
    """How much one load may read and build.

    ``max_file_bytes``: the size of any one file (5 MB).
    ``max_alias_nodes``: nodes produced by expanding YAML aliases (``*name``) in one file.
    ``max_depth``: nesting of maps and lists in one file.
    ``max_files``: files one document may pull in through ``extends:`` and ``include:``.
    """

    max_file_bytes: int = 5 * 1024 * 1024
    max_alias_nodes: int = 10_000
    max_depth: int = 100
    max_files: int = 100


#: The bounds used when a caller names none.
DEFAULT_LIMITS = LoadLimits()
