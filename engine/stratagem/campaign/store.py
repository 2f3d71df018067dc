"""Writing a campaign's files: all of one command's files together, one writer at a time.

A command's new files are written next to their targets as temporary files and flushed to
disk; then a write-ahead record (``.NAME.pending``, beside the campaign file) lists them:
writing that record is the moment the command happens. The temporary files then replace
their targets, and the record is removed. A crash or Ctrl-C before the record exists
leaves the old files (the next command deletes the temporary ones); after it, the next
command finishes the replacements. Either way the set of files is the old one or the new
one, never a mix.

``STRATAGEM_FAULT_AT=POINT`` (tests) ends the process at once at one named write point:
``temp-N`` (the N-th temporary file written), ``record`` (the record written), ``replace-N``
(the N-th file replaced), ``done`` (the record removed).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from stratagem.errors import StratagemError

FAULT_VAR = "STRATAGEM_FAULT_AT"
TEMP_SUFFIX = ".stratagem-new"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def fault_point(name: str) -> None:
    """End the process here if the test hook names this point."""
    if os.environ.get(FAULT_VAR) == name:
        os._exit(86)


def temp_path(target: Path) -> Path:
    return target.with_name(f".{target.name}{TEMP_SUFFIX}")


def record_path(campaign: Path) -> Path:
    return campaign.with_name(f".{campaign.name}.pending")


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every system can open a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_flushed(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


def commit(campaign: Path, files: Mapping[Path, str]) -> None:
    """Write every file of ``files`` (target -> new text), all or none."""
    targets = list(files)
    for i, target in enumerate(targets, 1):
        _write_flushed(temp_path(target), files[target])
        fault_point(f"temp-{i}")
    record = {"files": [{"target": str(t), "temp": str(temp_path(t)), "sha": digest(files[t])}
                        for t in targets]}
    pending = record_path(campaign)
    scratch = pending.with_name(pending.name + ".tmp")
    _write_flushed(scratch, json.dumps(record, ensure_ascii=False, indent=1))
    os.replace(scratch, pending)
    _fsync_dir(pending.parent)
    fault_point("record")
    _finish(campaign, record)


def _finish(campaign: Path, record: Mapping[str, Any]) -> None:
    folders = set()
    entries: list[dict[str, str]] = record["files"]
    for i, entry in enumerate(entries, 1):
        target, temp = Path(entry["target"]), Path(entry["temp"])
        if temp.exists():
            os.replace(temp, target)
            folders.add(target.parent)
        elif not target.exists() or digest(target.read_text(encoding="utf-8")) != entry["sha"]:
            raise StratagemError(
                f"cannot finish the last command: {target} is neither the old nor the new "
                "file", hint=f"restore it by hand, then delete {record_path(campaign)}",
                key="campaign.cannot_finish",
                params={"file": str(target), "record": str(record_path(campaign))})
        fault_point(f"replace-{i}")
    for folder in folders:
        _fsync_dir(folder)
    record_path(campaign).unlink()
    _fsync_dir(campaign.parent)
    fault_point("done")


def recover(campaign: Path, known: list[Path]) -> str | None:
    """Finish or undo a command that was interrupted; says which (None: nothing to do).
    ``known`` are the files a command may write (their leftover temporary files go)."""
    pending = record_path(campaign)
    scratch = pending.with_name(pending.name + ".tmp")
    if pending.exists():
        try:
            record = json.loads(pending.read_text(encoding="utf-8"))
            files = record["files"]
            assert isinstance(files, list)
        except (OSError, ValueError, KeyError, AssertionError):
            raise StratagemError(f"the record of an interrupted command is unreadable: {pending}",
                                 hint="compare the files with the journal, then delete it",
                                 key="campaign.record_unreadable",
                                 params={"record": str(pending)}) from None
        _finish(campaign, record)
        return "finished"
    undone = False
    for target in [*known, scratch]:
        temp = target if target == scratch else temp_path(target)
        if temp.exists():
            temp.unlink()
            undone = True
    return "undone" if undone else None


@contextlib.contextmanager
def locked(campaign: Path, wait: float = 0.0) -> Iterator[None]:
    """Hold the campaign's lock (``.NAME.lock``); another holder makes this wait up to
    ``wait`` seconds, then refuse."""
    lock = campaign.with_name(f".{campaign.name}.lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                raise StratagemError(
                    f"another stratagem command is working on {campaign.name}",
                    hint="wait for it to finish, or give --wait SECONDS",
                    key="campaign.busy", params={"campaign": campaign.name})
            time.sleep(0.1)
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)


def _try_lock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def _unlock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:
        import msvcrt

        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
        return
    fcntl.flock(fd, fcntl.LOCK_UN)
