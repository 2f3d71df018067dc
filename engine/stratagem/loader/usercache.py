"""The user's cache folder: plain JSON that saves work a later run would repeat.

What is kept here is never a verdict taken on trust: an entry holds data the engine made
from a file, with that file's whole text and a stamp of the code that read it, and whoever
reads an entry compares them and checks its whole shape again (see ``i18n/catalog.py``). An
entry that cannot be read, is not JSON, is too large or has the wrong shape is ignored and
written anew; a folder that cannot be made or written, or that someone else could write,
means no cache, never an error. JSON only: nothing read from here can run code.

The folder is ``$STRATAGEM_CACHE`` if set, else ``$XDG_CACHE_HOME/stratagem``, else
``~/.cache/stratagem``; ``STRATAGEM_CACHE=off`` turns the cache off (docs/security.md, "The
user's cache").
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from stratagem.errors import StratagemError
from stratagem.loader.yamlio import open_regular

#: The environment variable naming the cache folder, or ``off``.
CACHE_VARIABLE = "STRATAGEM_CACHE"
#: Entries kept in one part of the cache; past it, the oldest are removed as one is written.
MAX_ENTRIES = 100


def cache_folder(part: str) -> Path | None:
    """The folder of one part of the cache (``locales``), made if missing; None when the
    cache is off, the folder cannot be made, or it is not the user's own."""
    chosen = os.environ.get(CACHE_VARIABLE, "")
    if chosen.strip().lower() == "off":
        return None
    try:
        if chosen:
            root = Path(chosen)
        else:
            xdg = os.environ.get("XDG_CACHE_HOME", "")
            # the XDG specification ignores a relative path
            root = (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "stratagem"
        folder = root / part
        os.makedirs(folder, mode=0o700, exist_ok=True)
        return folder if _own(folder) else None
    except (OSError, RuntimeError, ValueError):  # no home, a file in the way, a NUL in a name
        return None


def _own(folder: Path) -> bool:
    """``folder`` is a folder that only this user can write (as ssh asks of ~/.ssh)."""
    info = os.stat(folder)
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    uid = getattr(os, "geteuid", None)
    return uid is None or info.st_uid == uid()


def read_entry(folder: Path, name: str, max_bytes: int) -> Any:
    """The JSON data of entry ``name``, or None when it is missing, not a regular file,
    larger than ``max_bytes``, unreadable or not JSON."""
    try:
        with open_regular(folder / name, name) as handle:
            if os.fstat(handle.fileno()).st_size > max_bytes:
                return None
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:
            return None
        return json.loads(data.decode("utf-8"))
    except (OSError, StratagemError, ValueError, RecursionError):
        return None


def write_entry(folder: Path, name: str, data: Any, max_bytes: int) -> None:
    """Write entry ``name`` atomically (a temporary file in the folder, flushed to disk, then
    renamed over it); an entry over ``max_bytes`` is not written, nor one that cannot be."""
    import tempfile

    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(text) > max_bytes:
        return
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, folder / name)
    except OSError:
        Path(temp).unlink(missing_ok=True)
        return
    _prune(folder)


def _prune(folder: Path) -> None:
    """Remove the oldest entries past :data:`MAX_ENTRIES` (there is one for each file read:
    those of files since deleted or moved, and temporary files a killed run left, go)."""
    try:
        entries = [e for e in os.scandir(folder) if e.is_file(follow_symlinks=False)]
        if len(entries) <= MAX_ENTRIES:
            return
        entries.sort(key=lambda e: e.stat().st_mtime_ns)
        for entry in entries[: len(entries) - MAX_ENTRIES]:
            os.unlink(entry.path)
    except OSError:
        return
