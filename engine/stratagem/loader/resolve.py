"""Finding rulesets and loading a document with its ``include:`` files and ``extends:`` chain.

A ruleset is named by its folder (``my-rules``), a setting by
``<ruleset>/<setting>`` (``my-rules/my-world``); both are looked up among the
shipped rulesets. A reference that looks like a path (ends in ``.yaml``/``.yml``
or starts with ``.``, ``/`` or ``~``) is a file, relative to the referring file.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from stratagem.errors import (
    LimitError,
    Location,
    StratagemError,
    ValidationFailed,
    did_you_mean,
)
from stratagem.loader.access import INCLUDED_FILE, RULESET, STRICT, Access, is_file, shipped_root
from stratagem.loader.limits import DEFAULT_LIMITS, LoadLimits
from stratagem.loader.merge import merge, resolve_markers
from stratagem.loader.yamlio import PosDict, PosList, load_yaml

_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*\Z")


@dataclass(frozen=True)
class RulesetInfo:
    """A shipped ruleset: its id, title (from its locale), file and settings (``id/setting``)."""

    id: str
    title: str | None
    path: Path
    settings: tuple[str, ...] = ()


def display_path(path: Path) -> str:
    """How a file is named in messages: relative to the current folder when inside it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _shipped_root() -> Path | None:
    return shipped_root()


def _looks_like_path(ref: str) -> bool:
    return (
        ref.endswith((".yaml", ".yml"))
        or ref.startswith((".", "/", "~"))
        or "\\" in ref
        or os.path.isabs(ref)
    )


def _as_ruleset_file(path: Path) -> Path | None:
    """The file a ruleset path names: the folder's ruleset.yaml, the file itself, or a
    path that is there but is no regular file (a device, a pipe: the reader says so, which
    is clearer than "not found"); None when nothing is there."""
    if is_file(path / "ruleset.yaml"):
        return path / "ruleset.yaml"
    try:
        if path.is_file() or (path.exists() and not path.is_dir()):
            return path
    except (OSError, ValueError):  # a name too long or otherwise impossible
        pass
    return None


def find_ruleset(ref: str, base_dir: Path | None = None, access: Access | None = None,
                 home: Path | None = None) -> Path:
    """The file a ruleset reference names: a shipped id, ``id/setting``, or a path.

    Paths are relative to ``base_dir`` (the referring file's folder; default: the
    current folder). A reference written in a file (``home``: the folder of the file the
    user named) may only lead where ``access`` allows; one given on the command line
    (``home`` None) is the user's own. Raises :class:`StratagemError` (without a
    location: the caller knows where the reference was written) when nothing matches.
    """
    base = Path(base_dir) if base_dir is not None else Path.cwd()
    ref = ref.strip()
    if not ref:
        raise StratagemError("the ruleset reference is empty", hint="name a ruleset, e.g. 'my-rules'",
                             key="loader.empty_ruleset_ref")
    if _looks_like_path(ref):
        if home is not None:
            target = (access or STRICT).reference(ref, base, home, None, RULESET)
        else:
            target = base / Path(ref).expanduser()
        found = _as_ruleset_file(target)
        if found is None:
            raise StratagemError(
                f"file not found: {ref}",
                hint=f"the path is relative to {display_path(base) or '.'}",
                key="loader.ruleset_not_found",
                params={"path": ref, "folder": display_path(base) or "."},
            )
        return found
    parts = ref.split("/")
    root = _shipped_root()
    if root is not None and len(parts) <= 2 and all(_NAME.match(p) and p != ".." for p in parts):
        if len(parts) == 1:
            candidate = root / parts[0] / "ruleset.yaml"
        else:
            candidate = root / parts[0] / "settings" / f"{parts[1]}.yaml"
        if candidate.is_file():
            return candidate
    local = _as_ruleset_file(base / ref)
    if local is not None:
        if home is not None:
            (access or STRICT).check(local, home, ref, None, RULESET)
        return local
    known = [info.id for info in list_rulesets()]
    known += [setting for info in list_rulesets() for setting in info.settings]
    hint_key = "loader.unknown_ruleset.hint"
    close = did_you_mean(ref, known)
    if close:
        hint = close
    elif known:
        hint = "shipped rulesets and settings: " + ", ".join(known)
    else:
        hint, hint_key = ("name a ruleset folder, a setting as 'ruleset/setting', or a .yaml file",
                          "loader.no_rulesets.hint")
    raise StratagemError(f"unknown ruleset '{ref}'", hint=hint, key="loader.unknown_ruleset",
                         hint_key=hint_key, params={"ref": ref, "known": ", ".join(known)})


def list_rulesets(lang: str = "en") -> list[RulesetInfo]:
    """The shipped rulesets, sorted by id, with their settings and titles."""
    root = _shipped_root()
    if root is None:
        return []
    result = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        path = folder / "ruleset.yaml"
        if not path.is_file():
            continue
        settings_dir = folder / "settings"
        settings = tuple(
            f"{folder.name}/{p.stem}" for p in sorted(settings_dir.glob("*.yaml"))
        ) if settings_dir.is_dir() else ()
        result.append(RulesetInfo(folder.name, _title(folder, lang), path, settings))
    return result


def _title(folder: Path, lang: str) -> str | None:
    """``ruleset.title`` from the ruleset's locale in ``lang``, else English, else Russian,
    else the ruleset file's own ``title:``."""
    for language in dict.fromkeys((lang, "en", "ru")):
        path = folder / "locales" / f"{language}.yaml"
        if not path.is_file():
            continue
        try:
            data = load_yaml(path)
        except StratagemError:
            continue
        messages = data.get("messages") if isinstance(data, dict) else None
        if not isinstance(messages, dict):
            continue
        title = messages.get("ruleset.title")
        if title is None and isinstance(messages.get("ruleset"), dict):
            title = messages["ruleset"].get("title")
        if isinstance(title, str):
            return title
    try:
        data = load_yaml(folder / "ruleset.yaml")
    except StratagemError:
        return None
    title = data.get("title") if isinstance(data, dict) else None
    return title if isinstance(title, str) else None


def load_document(path: Path | str, limits: LoadLimits = DEFAULT_LIMITS,
                  access: Access = STRICT) -> PosDict:
    """Load a file with its ``include:`` files and ``extends:`` chain, merged.

    The file's own keys come first, then each included file is merged over them in
    order; the result is merged over the document the file ``extends`` (loaded the
    same way). ``kind`` is the topmost file's. Raises :class:`StratagemError` or
    :class:`ValidationFailed` (every file error found) and :class:`LimitError`.
    """
    return load_document_chain(path, limits, access=access)[0]


def load_document_chain(path: Path | str, limits: LoadLimits = DEFAULT_LIMITS,
                        read: list[Path] | None = None,
                        access: Access = STRICT) -> tuple[PosDict, list[Path]]:
    """:func:`load_document`, plus the file and each file it extends, base first (their
    ``locales/`` folders hold the texts of the merged document). ``read``, if given,
    receives every file read (includes too). Every file the document pulls in must lie
    in the document's folder, a shipped ruleset or a folder ``access`` allows."""
    loader = _DocumentLoader(limits, access, _home(Path(path)))
    if read is not None:
        loader.read_files = read
    doc = loader.document(Path(path), ())
    return doc, list(reversed(loader.chain))


def _home(path: Path) -> Path:
    """The folder a document may read files under: its own, or for a setting in a
    ruleset's ``settings/`` folder the ruleset's folder (``extends: ../ruleset.yaml``)."""
    folder = path.parent
    if folder.name == "settings" and is_file(folder.parent / "ruleset.yaml"):
        return folder.parent
    return folder


class _DocumentLoader:
    def __init__(self, limits: LoadLimits, access: Access, home: Path) -> None:
        self.limits = limits
        self.access = access
        #: the folder of the document loaded: what it pulls in must lie under it
        self.home = home
        self.files = 0
        #: the main file, then each file it extends (includes not counted)
        self.chain: list[Path] = []
        #: every file read, includes too
        self.read_files: list[Path] = []

    def read(self, path: Path, fragment: bool = False) -> PosDict:
        self.files += 1
        if self.files > self.limits.max_files:
            raise LimitError(
                f"more than {self.limits.max_files} files are pulled in by extends/include",
                location=Location(str(path)),
                hint="merge some of the files, or check for a runaway chain",
                key="loader.too_many_files", params={"max": self.limits.max_files},
            )
        self.read_files.append(path)
        data = load_yaml(path, self.limits, document=not fragment)
        if not isinstance(data, PosDict):
            shape = "empty" if data is None else "value"
            what = "empty" if data is None else "a list or a single value"
            raise StratagemError(
                f"the file is {what}; expected a map of keys, starting with 'kind:'",
                location=Location(str(path), 1, 1),
                hint="start the file with e.g. 'kind: ruleset'",
                key="loader.not_map_file", params={"what": shape},
            )
        return data

    def document(self, path: Path, chain: tuple[Path, ...]) -> PosDict:
        key = path.resolve()
        self.chain.append(key)
        raw = self.read(path)
        own = self.with_includes(raw, path, chain + (key,))
        ref = raw.get("extends")
        if ref is None:
            return cast(PosDict, resolve_markers(own))
        if not isinstance(ref, str):
            raise StratagemError(
                "'extends' must name a ruleset, a setting or a file",
                location=raw.where("extends"),
                hint="e.g. 'extends: my-rules' or 'extends: ../base.yaml'",
                key="loader.extends_value",
            )
        try:
            base_path = find_ruleset(ref, path.parent, self.access, self.home)
        except StratagemError as err:
            raise err.with_location(raw.where("extends")) from None
        self.check_cycle(base_path, chain + (key,), raw.where("extends"))
        if not _looks_like_path(ref):  # a ruleset named by id reads within its own folder
            self.home = _home(base_path)
        base = self.document(_tidy(base_path), chain + (key,))
        return cast(PosDict, merge(base, own))

    def with_includes(self, raw: PosDict, path: Path, chain: tuple[Path, ...]) -> PosDict:
        own = PosDict(file=raw.file, line=raw.line, col=raw.col, path=raw.path)
        for k, v in raw.items():
            if k != "include":
                own.put(k, v, raw.key_pos.get(k), raw.value_pos.get(k))
        includes = raw.get("include")
        if includes is None:
            return own
        if isinstance(includes, str):
            entries: list[tuple[Any, Location]] = [(includes, raw.where("include"))]
        elif isinstance(includes, PosList):
            entries = [(item, includes.where(i)) for i, item in enumerate(includes)]
        else:
            raise StratagemError(
                "'include' must be a file name or a list of file names",
                location=raw.where("include"),
                hint="e.g. 'include: [tables.yaml, procedures.yaml]'",
                key="loader.include_value",
            )
        errors: list[StratagemError] = []
        result = own
        for item, where in entries:
            try:
                part = self.include(item, where, raw, path, chain)
                result = merge(result, part)
            except ValidationFailed as err:
                errors.extend(err.errors)
            except LimitError:
                raise
            except StratagemError as err:
                errors.append(err)
        if len(errors) == 1:
            raise errors[0]
        if errors:
            raise ValidationFailed(errors)
        return result

    def include(
        self, item: Any, where: Location, parent: PosDict, path: Path, chain: tuple[Path, ...]
    ) -> PosDict:
        if not isinstance(item, str) or not item.strip():
            raise StratagemError(
                "an included file must be named by its path", location=where,
                hint="e.g. 'include: [tables.yaml]'", key="loader.include_not_path",
            )
        inc_path = _tidy(self.access.reference(item, path.parent, self.home, where,
                                               INCLUDED_FILE))
        if not is_file(inc_path):
            raise StratagemError(
                f"included file not found: {item}",
                location=where,
                hint=f"the path is relative to the including file's folder "
                f"({display_path(path.parent) or '.'})", key="loader.include_not_found",
                params={"path": item, "folder": display_path(path.parent) or "."},
            )
        self.check_cycle(inc_path, chain, where)
        part = self.read(inc_path, fragment=True)
        if "extends" in part:
            raise StratagemError(
                "an included file cannot 'extends' another",
                location=part.key_where("extends"),
                hint="put 'extends:' in the main file", key="loader.include_extends",
            )
        if "kind" in part and part["kind"] != parent.get("kind"):
            raise StratagemError(
                f"an included file must be of the same kind as the file including it "
                f"('{parent.get('kind')}'), not '{part['kind']}'",
                location=part.where("kind"),
                hint="drop 'kind:' from the included file, or fix it",
                key="loader.include_kind", params={"kind": part["kind"],
                                                   "parent": parent.get("kind")},
            )
        return self.with_includes(part, inc_path, chain + (inc_path.resolve(),))

    def check_cycle(self, target: Path, chain: tuple[Path, ...], where: Location) -> None:
        resolved = target.resolve()
        if resolved in chain:
            loop = [display_path(p) for p in chain[chain.index(resolved):]] + [
                display_path(resolved)
            ]
            raise StratagemError(
                "extends/include loop: " + " → ".join(loop),
                location=where,
                hint="a file cannot (even indirectly) extend or include itself",
                key="loader.cycle", params={"loop": " → ".join(loop)},
            )


def _tidy(path: Path) -> Path:
    """``a/b/../c.yaml`` as ``a/c.yaml``; a shipped (absolute) file relative to the current folder."""
    if path.is_absolute():
        return Path(display_path(Path(os.path.normpath(path))))
    return Path(os.path.normpath(path))
