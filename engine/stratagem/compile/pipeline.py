"""The one pipeline every command reads files through.

    YAML with positions (loader.yamlio) -> overlays merged (loader.resolve, loader.merge)
    -> JSON Schema (loader.schema) -> compiled into frozen data (compile.ruleset)
    -> static checks (compile.compiler, compile.checks) -> the messages the steps format
    checked against the locale texts (compile.messages) -> the army or scenario checked
    against the schema made from the compiled ruleset (compile.schemas) and built
    (compile.documents)

``validate`` is this pipeline stopped before the battle: :meth:`Pipeline.validate` runs
exactly what :meth:`Pipeline.scenario`, :meth:`Pipeline.army` and :meth:`Pipeline.ruleset`
run for ``battle``, ``odds``, ``rate``, ``schema`` and ``i18n check``, and turns what
they raise into a list of errors. So what it accepts is exactly what runs.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratagem.compile.documents import build_army, build_scenario, sides_collection
from stratagem.compile.messages import check_messages
from stratagem.compile.ruleset import compile_ruleset
from stratagem.compile.schemas import army_schema, scenario_schema
from stratagem.errors import (
    Location,
    StratagemError,
    ValidationFailed,
    a_or_an,
    did_you_mean,
    in_order,
)
from stratagem.i18n.catalog import parse_locale, record_locale_names
from stratagem.i18n.names import NameBook, extract_names
from stratagem.loader.access import ARMY_FILE, STRICT, Access, is_file
from stratagem.loader.limits import DEFAULT_LIMITS, LoadLimits
from stratagem.loader.resolve import find_ruleset, load_document_chain
from stratagem.loader.schema import validate_document
from stratagem.loader.yamlio import PosDict, PosList, load_yaml
from stratagem.model.ruleset import Ruleset
from stratagem.model.scenario import Army, Scenario
from stratagem.model.values import where

KINDS = ("ruleset", "setting", "army", "scenario", "locale", "campaign")


def errors_of(err: StratagemError) -> list[StratagemError]:
    """The errors an exception carries: its list for ValidationFailed, else itself."""
    return list(err.errors) if isinstance(err, ValidationFailed) else [err]


def _fail(errors: list[StratagemError]) -> ValidationFailed:
    return ValidationFailed(in_order(errors))


@dataclass
class LoadedRuleset:
    """A ruleset as the pipeline found it: the merged document (None if it did not load),
    the compiled ruleset (None if it has errors), and its errors."""

    doc: PosDict | None
    ruleset: Ruleset | None = None
    errors: list[StratagemError] = field(default_factory=list)
    #: every file read, with its modification time (a cached ruleset is reused until one
    #: changes)
    files: dict[Path, float] = field(default_factory=dict)


#: (path, access) -> the ruleset loaded from it, across pipelines (reused until a file
#: changes)
_CACHE: dict[tuple[Path, Access], LoadedRuleset] = {}


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return -1.0


class Pipeline:
    """Reads files of every kind, loading (and compiling) each ruleset they name once.

    ``access`` says which files the files read may name (:mod:`stratagem.loader.access`):
    what a file names must lie under the folder of the file the user named."""

    def __init__(self, limits: LoadLimits = DEFAULT_LIMITS, access: Access = STRICT) -> None:
        self.limits = limits
        self.access = access
        self._active: set[Path] = set()

    # -- rulesets -------------------------------------------------------------------------
    def loaded(self, path: Path, ref: str | None = None) -> LoadedRuleset:
        """The merged, validated and compiled ruleset at ``path``, and its errors."""
        key = (path.resolve(), self.access)
        cached = _CACHE.get(key)
        if cached is not None and all(_mtime(f) == t for f, t in cached.files.items()):
            return cached
        loaded = self._load_ruleset(path, ref)
        _CACHE[key] = loaded
        return loaded

    def ruleset(self, ref: str | Path, base_dir: Path | None = None,
                home: Path | None = None) -> Ruleset:
        """The compiled ruleset named by id (``my-rules``, ``my-rules/my-world``) or path
        (written in a file of the folder ``home``, or given by the user when None);
        raises :class:`ValidationFailed` with every error."""
        path = find_ruleset(str(ref), base_dir, self.access, home)
        loaded = self.loaded(path, str(ref))
        if loaded.ruleset is None:
            raise _fail(loaded.errors)
        return loaded.ruleset

    def _load_ruleset(self, path: Path, ref: str | None) -> LoadedRuleset:
        read: list[Path] = []
        try:
            doc, chain = load_document_chain(path, self.limits, read=read, access=self.access)
        except StratagemError as err:
            return LoadedRuleset(None, errors=errors_of(err),
                                 files={f: _mtime(f) for f in read})
        files = {f: _mtime(f) for f in read}
        kind, errors = kind_of(doc, str(path))
        if kind is None:  # not a Stratagem file: named, never quoted
            return LoadedRuleset(None, errors=errors, files=files)
        errors = validate_document(doc, "ruleset")
        if errors:
            return LoadedRuleset(doc, errors=errors, files=files)
        errors = _folder_errors(path, doc)
        try:
            rs = compile_ruleset(doc, ref=ref)
        except StratagemError as err:
            return LoadedRuleset(doc, errors=in_order([*errors, *errors_of(err)]), files=files)
        if errors:
            return LoadedRuleset(doc, errors=errors, files=files)
        rs.path = str(path)
        rs.locale_files = _locale_files(chain, self.access)
        rs.template_dirs = _folders(chain, "templates")
        rs.overlays = [_overlay_name(file) for file in chain[1:]]
        files.update({f: _mtime(f) for paths in rs.locale_files.values() for f in paths})
        errors = check_messages(rs)
        if errors:
            return LoadedRuleset(doc, errors=errors, files=files)
        return LoadedRuleset(doc, rs, files=files)

    def ruleset_for(self, doc: Any, path: Path, kind: str | None = None,
                    home: Path | None = None) -> Ruleset:
        """The ruleset an army or scenario file names in its `ruleset:` key (a path must lie
        under ``home``, the folder of the file the user named; default: the file's own)."""
        ref = doc.get("ruleset") if hasattr(doc, "get") else None
        if not isinstance(ref, str) or not ref.strip():
            errors = validate_document(doc, kind) if kind else []
            if errors:  # the file's own schema says what is missing, with the rest
                raise _fail(errors)
            raise StratagemError("the file does not say which ruleset it uses",
                                 location=where(doc, "ruleset") if ref is not None
                                 else where(doc), hint="add e.g. `ruleset: my-rules`",
                                 key="loader.no_ruleset")
        try:
            return self.ruleset(ref, path.parent, home or path.parent)
        except ValidationFailed:
            raise
        except StratagemError as err:
            if err.location is None:
                err.location = where(doc, "ruleset")
            raise

    # -- armies and scenarios -------------------------------------------------------------
    def document(self, path: Path, kind: str | tuple[str, ...],
                 location: Location | None = None, names: NameBook | None = None
                 ) -> PosDict:
        """A file that must be of ``kind`` (or of one of several kinds): read, its kind
        checked; the names it gives per language (and its folder's locale files give) go
        into ``names`` (i18n/names.py)."""
        kinds = (kind,) if isinstance(kind, str) else kind
        named = " or ".join(a_or_an(k) for k in kinds)
        if not is_file(path) and not os.path.lexists(path):
            raise StratagemError(f"no such {' or '.join(kinds)} file: {path}",
                                 location=location,
                                 hint="paths in a scenario are relative to the scenario file"
                                 if location is not None else "check the path",
                                 key="api.no_file", hint_key="api.relative.hint"
                                 if location is not None else "api.check_path.hint",
                                 params={"kind": " or ".join(kinds), "path": str(path)})
        raw = load_yaml(path, self.limits, document=True)
        if names is not None:
            _note_names(raw, path, names)
        found, errors = kind_of(raw, str(path))
        if found is None:
            raise _fail(errors)
        if found not in kinds:
            raise StratagemError(
                f"expected {named} file, but this one says kind: {found}",
                location=raw.where("kind"),
                hint="`stratagem battle` fights a scenario; `stratagem rate` rates an army or "
                "the sides of a scenario" if found in ("army", "scenario")
                else f"start the file with `kind: {kinds[0]}`",
                key="api.wrong_kind" if len(kinds) == 1 else "api.wrong_kind_rated",
                hint_key="api.battle_or_rate.hint"
                if found in ("army", "scenario") else "api.wrong_kind.hint",
                params={"kind": kinds[0], "found": found})
        assert isinstance(raw, PosDict)
        return raw

    def side_schema(self, raw: PosDict, kind: str, rs: Ruleset) -> None:
        schema = rs.schemas.get(kind)
        if schema is None:
            make = army_schema if kind == "army" else scenario_schema
            schema = rs.schemas[kind] = make(rs)
        errors = validate_document(raw, schema=schema)
        if errors:
            raise _fail(errors)

    def army(self, path: str | Path, ruleset: Ruleset | None = None) -> Army:
        path = Path(path)
        names = NameBook()
        return self.army_from(self.document(path, "army", names=names), path, ruleset, names)

    def army_from(self, raw: PosDict, path: Path, ruleset: Ruleset | None,
                  names: NameBook) -> Army:
        """An army from its document as read from ``path``; ``names``: those its files
        give."""
        rs = ruleset or self.ruleset_for(raw, path, "army")
        self.side_schema(raw, "army", rs)
        root = rs.new_entity(rs.kinds["battle"], {}, None)
        side = build_army(rs, raw, root)
        root.adopt(sides_collection(rs), side)
        return Army(rs, side, root, str(path), names)

    def scenario(self, path: str | Path, ruleset: Ruleset | None = None) -> Scenario:
        path = Path(path)
        names = NameBook()
        return self.scenario_from(self.document(path, "scenario", names=names), path,
                                  ruleset, names)

    def scenario_from(self, raw: PosDict, path: Path, ruleset: Ruleset | None = None,
                      names: NameBook | None = None) -> Scenario:
        """A scenario from its document as read from ``path`` (a sweep changes some of its
        values first), checked as a scenario file is; ``names``: those its files give."""
        names = names if names is not None else NameBook()
        rs = ruleset or self.ruleset_for(raw, path, "scenario")
        self.side_schema(raw, "scenario", rs)
        scenario = build_scenario(rs, raw, path.parent,
                                  lambda army, at: self.army_doc(army, at, path.parent, names))
        scenario.names = names
        return scenario

    def army_doc(self, path: Path, location: Location | None, folder: Path,
                 names: NameBook | None = None) -> PosDict:
        """An army file a scenario names, checked as ``validate`` checks one on its own (it
        must lie under the scenario's ``folder``)."""
        ref = str(path.relative_to(folder)) if path.is_relative_to(folder) else str(path)
        self.access.check(path, folder, ref, location, ARMY_FILE)
        path = path.resolve()
        if not is_file(path):
            raise StratagemError(f"army file not found: {os.path.relpath(path, folder)}",
                                 location=location,
                                 hint=f"the path is relative to the scenario's folder ({folder})",
                                 key="loader.army_not_found",
                                 params={"path": os.path.relpath(path, folder),
                                         "folder": str(folder)})
        key = path.resolve()
        if key in self._active:
            raise StratagemError("an army file names itself through its scenario",
                                 location=location, key="loader.army_cycle")
        self._active.add(key)
        try:
            raw = self.document(path, "army", location, names)
            rs = self.ruleset_for(raw, path, "army", folder)
            self.side_schema(raw, "army", rs)
        finally:
            self._active.discard(key)
        return raw

    def rated(self, path: Path | str) -> Army | Scenario:
        """An army or a scenario file, as `stratagem rate` reads it (its ``kind:`` says
        which)."""
        path = Path(path)
        names = NameBook()
        raw = self.document(path, ("army", "scenario"), names=names)
        if raw.get("kind") == "army":
            return self.army_from(raw, path, None, names)
        return self.scenario_from(raw, path, None, names)

    def campaign_errors(self, path: Path, raw: Any) -> list[StratagemError]:
        """A campaign file (docs/campaign.md): its schema, its ruleset, its army files."""
        errors = validate_document(raw, "campaign")
        if errors:
            return errors
        try:
            self.ruleset_for(raw, path, "campaign")
        except StratagemError as err:
            return errors_of(err)
        for name, army in raw["armies"].items():
            try:
                file = self.access.reference(str(army), path.parent, path.parent,
                                             raw["armies"].where(name), ARMY_FILE)
            except StratagemError as err:
                errors.append(err)
                continue
            if not is_file(file):
                errors.append(StratagemError(
                    f"army file not found: {army}", location=raw["armies"].where(name),
                    hint=f"the paths are relative to the campaign's folder ({path.parent})",
                    key="loader.army_not_found", hint_key="loader.campaign_relative.hint",
                    params={"path": str(army), "folder": str(path.parent)}))
            else:
                errors += self.validate(file)
        return in_order(errors)

    # -- validate -------------------------------------------------------------------------
    def load(self, path: Path | str) -> tuple[str, Ruleset | Army | Scenario | None]:
        """A file of any kind (its ``kind:`` says which), loaded as a battle, a rating or a
        translation check loads it: its kind, and the ruleset, army or scenario (None for
        a locale file). Raises :class:`ValidationFailed` with every error, in file order."""
        path = Path(path)
        raw = load_yaml(path, self.limits, document=True)
        kind, errors = kind_of(raw, str(path))
        if kind is None:
            raise _fail(errors)
        if kind in ("ruleset", "setting"):
            loaded = self.loaded(path)
            if loaded.ruleset is None:
                raise _fail(loaded.errors)
            return kind, loaded.ruleset
        if kind in ("army", "scenario"):
            assert isinstance(raw, PosDict)  # kind_of found a kind: a mapping
            names = NameBook()
            _note_names(raw, path, names)
            if kind == "army":
                return kind, self.army_from(raw, path, None, names)
            return kind, self.scenario_from(raw, path, None, names)
        if kind == "campaign":
            errors = self.campaign_errors(path, raw)
            if errors:
                raise _fail(errors)
            return kind, None
        errors = locale_errors(raw, str(path))
        if errors:
            raise _fail(errors)
        return kind, None

    def validate(self, path: Path | str) -> list[StratagemError]:
        """Every error of one file of any kind, in file order (an empty list: it loads)."""
        try:
            self.load(path)
        except StratagemError as err:
            return in_order(errors_of(err))
        return []


def _folder_errors(path: Path, doc: PosDict) -> list[StratagemError]:
    """A ruleset file named `ruleset.yaml` is named by its folder: its `id` must agree."""
    folder = path.resolve().parent.name
    if (doc.get("kind") == "ruleset" and path.name == "ruleset.yaml"
            and isinstance(doc.get("id"), str) and doc["id"] != folder):
        return [StratagemError(
            f"the ruleset id '{doc['id']}' differs from its folder name '{folder}'",
            location=doc.where("id"),
            hint="a ruleset is named by its folder: rename one of them",
            key="loader.id_not_folder", params={"id": doc["id"], "folder": folder})]
    return []


def _overlay_name(path: Path) -> str:
    """How the report names an overlay: a shipped setting as `ruleset/setting`, another
    file by its file name."""
    if path.parent.name == "settings" and (path.parent.parent / "ruleset.yaml").is_file():
        return f"{path.parent.parent.name}/{path.stem}"
    return path.name


def _locale_files(chain: list[Path], access: Access) -> dict[str, list[Path]]:
    """Locale files of a ruleset and the ones it extends, base first, per language (a
    link that leads out of the ruleset's folder is not one)."""
    out: dict[str, list[Path]] = {}
    for folder in _folders(chain, "locales"):
        for loc in sorted(folder.glob("*.yaml")):
            if access.confined(loc, folder.parent):
                out.setdefault(loc.stem, []).append(loc)
    return out


def _folders(chain: list[Path], name: str) -> list[Path]:
    """The folders ``name`` beside each file of a ruleset's chain (or in the folder named
    after the file), base first."""
    return [folder for file in chain
            for folder in (file.parent / name, file.parent / file.stem / name)
            if folder.is_dir()]


def locale_errors(doc: PosDict, name: str) -> list[StratagemError]:
    """The errors the locale reader finds in a locale file: message syntax, plural rule,
    language code."""
    errors = validate_document(doc, "locale")
    if errors:
        return errors
    path = Path(name)
    expected = path.stem if path.parent.name == "locales" else None
    try:
        parse_locale(doc, name, expected=expected)
    except StratagemError as err:
        return in_order(errors_of(err))
    return []


def kind_of(raw: Any, name: str) -> tuple[str | None, list[StratagemError]]:
    """What a file says it is (``kind:``), or why it says nothing usable."""
    listed = ", ".join(KINDS)
    if raw is None:
        return None, [StratagemError(
            "the file is empty", location=Location(name, 1, 1),
            hint=f"start it with 'kind:' and one of: {listed}",
            key="loader.empty", params={"kinds": listed},
        )]
    if not isinstance(raw, PosDict):
        return None, [StratagemError(
            "expected a map of keys at the top of the file, starting with 'kind:'",
            location=Location(name, raw.line, raw.col) if isinstance(raw, PosList)
            else Location(name, 1, 1),
            hint=f"start the file with 'kind:' and one of: {listed}",
            key="loader.not_a_map", params={"kinds": listed},
        )]
    kind = raw.get("kind")
    if kind is None:
        return None, [StratagemError(
            "missing 'kind:' (what this file is)",
            location=raw.key_where("kind") if "kind" in raw else raw.where(),
            hint=f"add e.g. 'kind: ruleset' as the first line; kinds: {listed} (a file "
            "pulled in by 'include:' is checked through the file that includes it)",
            key="loader.no_kind", params={"kinds": listed},
        )]
    if kind not in KINDS:
        return None, [StratagemError(
            f"unknown kind '{kind}'",
            location=raw.where("kind"),
            hint=did_you_mean(str(kind), KINDS) or f"kinds: {listed}",
            key="loader.unknown_kind", hint_key="schema.kinds.hint",
            params={"kind": kind, "kinds": listed},
        )]
    return str(kind), []


#: The pipeline the API and the commands share (its rulesets are cached by file).
DEFAULT = Pipeline()


def load_ruleset(ref: str | Path, base_dir: Path | None = None) -> Ruleset:
    return DEFAULT.ruleset(ref, base_dir)


def validate_file(path: Path | str, limits: LoadLimits = DEFAULT_LIMITS) -> list[StratagemError]:
    return Pipeline(limits, DEFAULT.access).validate(path)


def ruleset_for_document(doc: Mapping[str, Any], path: Path) -> Ruleset:
    return DEFAULT.ruleset_for(doc, path)


def _note_names(raw: Any, path: Path, names: NameBook) -> None:
    """The names a file gives per language, and those of the locale files beside it."""
    if isinstance(raw, PosDict):
        extract_names(raw, names)
        record_locale_names(path.parent / "locales", names)
