"""Which files a file may make Stratagem read (docs/security.md).

Rule files come from strangers. A path written in a file (an ``include:``, an
``extends:``, a scenario's army, a ruleset's locale or template) may only lead to a file
under the folder of the file the user named (its *home*), under the shipped rulesets, or
under a folder the user allowed with ``--allow-path``. ``~``, absolute paths, ``..`` and
symbolic links that leave those folders are refused before the file is even looked at,
so an error can neither show what such a file holds nor say whether it exists. Paths the
user gives on the command line are the user's own choice and are not confined.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from stratagem.errors import Location, StratagemError, Term
from stratagem.resources import data_dir


def _real(path: Path | str) -> Path:
    return Path(os.path.realpath(path))


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def shipped_root() -> Path | None:
    """The folder of the shipped (installed) rulesets, if there is one."""
    try:
        return data_dir("rulesets")
    except FileNotFoundError:
        return None


def _shipped() -> Path | None:
    root = shipped_root()
    return _real(root) if root is not None else None


def is_file(path: Path) -> bool:
    """Whether ``path`` is a file (False, not an error, for a name too long or otherwise
    impossible)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def shown(path: Path) -> str:
    """A path as messages show it: relative to the current folder when inside it."""
    try:
        return str(path.relative_to(Path.cwd())) or "."
    except ValueError:
        return str(path)


#: What a file names, in the words of every language (the ``what`` of :meth:`Access.check`).
ARMY_FILE = Term("access.what.army", "the army file")
RULESET = Term("access.what.ruleset", "the ruleset")
INCLUDED_FILE = Term("access.what.include", "the included file")


@dataclass(frozen=True)
class Access:
    """The folders files may be read from, beyond each file's home: ``allowed`` (from
    ``--allow-path``, resolved)."""

    allowed: tuple[Path, ...] = ()

    @classmethod
    def allowing(cls, folders: Iterable[str | Path]) -> Access:
        """The policy with ``--allow-path`` folders (each must be an existing folder)."""
        found = []
        for folder in folders:
            text = str(folder)
            real = _real(Path(text).expanduser())
            if not real.is_dir():
                raise StratagemError(f"--allow-path {text}: no such folder",
                                     hint="name a folder Stratagem may read files from",
                                     key="access.no_folder", params={"folder": text})
            found.append(real)
        return cls(tuple(dict.fromkeys(found)))

    def roots(self, home: Path) -> list[Path]:
        shipped = _shipped()
        return [_real(home), *([shipped] if shipped else []), *self.allowed]

    def reference(self, ref: str, base: Path, home: Path, location: Location | None,
                  what: Term) -> Path:
        """The file ``ref``, written in a file of folder ``base``, names: refused unless it
        stays under ``home``, a shipped ruleset or an allowed folder."""
        target = Path(ref) if os.path.isabs(ref) else base / ref
        self.check(target, home, ref, location, what)
        return target

    def check(self, target: Path, home: Path, ref: str, location: Location | None,
              what: Term) -> None:
        """Refuse ``target`` (named ``ref`` in the file at ``location``) unless it resolves,
        symbolic links followed, to a file under ``home``, a shipped ruleset or an allowed
        folder."""
        if ref.startswith("~"):
            raise self._refused(ref, home, location, what,
                                Term("access.why.home", "a path starting with '~' (a home "
                                     "folder)"))
        if "\0" in str(target):
            raise StratagemError(f"{what} '{ref}' holds a NUL character, which no file name "
                                 "can", location=location, hint="fix the file name",
                                 key="access.nul", params={"what": what, "ref": ref})
        real = _real(target)
        if any(_inside(real, root) for root in self.roots(home)):
            return
        if os.path.isabs(ref):
            why = Term("access.why.absolute", "an absolute path")
        elif any(_inside(Path(os.path.abspath(target)), root)
                 for root in [Path(os.path.abspath(home)), *self.roots(home)]):
            why = Term("access.why.link", "a symbolic link that leads out of the folder")
        else:
            why = Term("access.why.parent", "'..' leads out of the folder")
        raise self._refused(ref, home, location, what, why)

    def confined(self, target: Path, folder: Path) -> bool:
        """Whether ``target`` resolves to a file under ``folder`` (or an allowed folder):
        a ruleset's locale or template file must not be a link to a file elsewhere."""
        real = _real(target)
        return any(_inside(real, root) for root in self.roots(folder))

    @staticmethod
    def _refused(ref: str, home: Path, location: Location | None, what: Term,
                 why: Term) -> StratagemError:
        return StratagemError(
            f"{what} '{ref}' is outside the folder {shown(home)}/ ({why}); a file may only "
            "read files in its own folder and shipped rulesets by id",
            location=location,
            hint="copy the file into that folder and name it by a relative path, or let "
                 "Stratagem read its folder with --allow-path DIR",
            key="access.outside", params={"what": what, "ref": ref, "home": shown(home),
                                          "why": why})


#: The policy when the user allowed no folder.
STRICT = Access()
