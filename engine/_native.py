"""Which build of the engine runs: the modules setup.py compiled with mypyc, or their sources.

A build that compiled the engine leaves ``compiled.json`` beside this file: for each compiled
module, a checksum of the source it was compiled from. Python prefers a compiled module to
its source, so after an edit to one of those sources (an editable install, a ``git pull``)
the old compiled module would still run. :func:`choose` checks the sources against the
record and, when one has changed or ``STRATAGEM_PURE=1`` is set, makes every compiled
module load from its source instead (all of them: compiled modules call one another
directly, so mixing builds is not an option). Nothing is compiled in a plain-Python build,
and then nothing happens here.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import zlib
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

MANIFEST = "compiled.json"
ROOT = Path(__file__).resolve().parent


def checksum(path: Path) -> str:
    """What the build records of a source file."""
    data = path.read_bytes()
    return f"{len(data)}:{zlib.crc32(data):08x}"


def source_of(module: str, root: Path = ROOT) -> Path:
    """``stratagem.expr`` → ``<root>/expr/__init__.py``; ``stratagem.a.b`` → ``<root>/a/b.py``."""
    parts = module.split(".")[1:]
    folder = root.joinpath(*parts)
    return folder / "__init__.py" if folder.is_dir() else folder.with_suffix(".py")


def stale_modules(record: dict[str, str], root: Path = ROOT) -> list[str]:
    """The compiled modules whose source is no longer the one they were compiled from."""
    stale = []
    for module, recorded in sorted(record.items()):
        source = source_of(module, root)
        if not source.is_file() or checksum(source) != recorded:
            stale.append(module)
    return stale


class Sources:
    """An import finder that loads the listed modules from their ``.py`` sources."""

    def __init__(self, modules: set[str], root: Path = ROOT) -> None:
        self.modules = modules
        self.root = root

    def find_spec(self, name: str, path: Any = None, target: ModuleType | None = None
                  ) -> ModuleSpec | None:
        if name not in self.modules:
            return None
        source = source_of(name, self.root)
        package = [str(source.parent)] if source.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(name, source,
                                                      submodule_search_locations=package)


def pure_wanted() -> bool:
    """``STRATAGEM_PURE`` is set (and not ``0``): at install, build plain Python; at run
    time, run the sources."""
    return os.environ.get("STRATAGEM_PURE", "") not in ("", "0")


def unrecorded(root: Path = ROOT) -> set[str]:
    """Compiled modules with no record of their build (left by another checkout, say)."""
    found = set()
    for path in [*root.glob("*.so"), *root.glob("*/*.so"), *root.glob("*.pyd"),
                 *root.glob("*/*.pyd")]:
        parts = [*path.relative_to(root).parent.parts, path.name.split(".")[0]]
        if parts[-1] == "__init__":
            parts.pop()
        if not parts[-1].endswith("__mypyc"):
            found.add(".".join(["stratagem", *parts]))
    return found


def choose(root: Path = ROOT) -> str:
    """Set up which build runs; return ``"compiled"``, ``"sources"`` or ``"plain"``."""
    manifest = root / MANIFEST
    if not manifest.is_file():
        strays = unrecorded(root)
        if not strays:
            return "plain"
        print("stratagem: compiled modules without a record of their build are in "
              f"{root} (from another checkout?); running the sources. Remove them "
              "(git clean -fX engine/) or reinstall (pip install -e .).", file=sys.stderr)
        sys.meta_path.insert(0, Sources(strays, root))
        return "sources"
    import json

    try:
        record = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = None
    if not isinstance(record, dict):
        record, stale = {}, ["(its record, compiled.json)"]
    else:
        stale = stale_modules(record, root)
    wanted = pure_wanted()
    if not stale and not wanted:
        return "compiled"
    if stale and not wanted:
        names = ", ".join(m.removeprefix("stratagem.") for m in stale)
        print(f"stratagem: {names} changed since the engine was compiled; running the "
              "sources as plain Python (slower). Reinstall to compile them again "
              "(pip install -e .), or set STRATAGEM_PURE=1 to hide this note.",
              file=sys.stderr)
    sys.meta_path.insert(0, Sources(set(record), root))
    return "sources"
