"""Loading, merging and validating Stratagem files.

The phases, one module each: :mod:`.yamlio` reads YAML safely with positions,
:mod:`.merge` merges overlays, :mod:`.resolve` finds rulesets and follows
``extends:``/``include:``, :mod:`.schema` validates against JSON Schemas with
readable errors. :func:`validate_file` runs them all on one file of any kind and,
for rulesets, hands the merged document to the compiler (``stratagem.model``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stratagem.errors import Location, StratagemError, ValidationFailed
from stratagem.loader.limits import DEFAULT_LIMITS, LoadLimits
from stratagem.loader.yamlio import PosDict, PosList, load_yaml

if TYPE_CHECKING:
    from stratagem.model.ruleset import Ruleset

__all__ = [
    "LoadLimits",
    "LoadedRuleset",
    "PosDict",
    "PosList",
    "Validator",
    "load_yaml",
    "validate_file",
]

KINDS = ("ruleset", "setting", "army", "scenario", "locale")


def validate_file(path: Path | str, limits: LoadLimits = DEFAULT_LIMITS) -> list[StratagemError]:
    """Every error of one file of any kind (its ``kind:`` says which), in file order.

    Rulesets and settings are loaded with their ``include:`` and ``extends:`` files,
    validated, then compiled by ``stratagem.model.compile_ruleset`` when that exists.
    Army and scenario files are validated against the schema generated from the
    ruleset they name. An empty list means the file is valid.
    """
    return Validator(limits).validate(path)


def errors_of(err: StratagemError) -> list[StratagemError]:
    """The errors an exception carries: its list for ValidationFailed, else itself."""
    return list(err.errors) if isinstance(err, ValidationFailed) else [err]


@dataclass
class LoadedRuleset:
    """A ruleset as validation found it: the merged document (None if it did not load),
    its errors, and whether it passed the schema (so army/scenario schemas can be made)."""

    doc: PosDict | None
    errors: list[StratagemError] = field(default_factory=list)
    schema_ok: bool = False
    #: the compiled ruleset, when it compiled (scenarios' policies are checked against it)
    compiled: Ruleset | None = None


class Validator:
    """Validates several files, loading (and compiling) each ruleset they name only once."""

    def __init__(self, limits: LoadLimits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self._rulesets: dict[Path, LoadedRuleset] = {}
        self._active: set[Path] = set()

    def validate(self, path: Path | str) -> list[StratagemError]:
        """Every error of the file at ``path`` (an empty list when it is valid)."""
        name = str(path)
        try:
            raw = load_yaml(path, self.limits)
        except StratagemError as err:
            return errors_of(err)
        kind, errors = _kind_of(raw, name)
        if kind is None:
            return errors
        if kind in ("ruleset", "setting"):
            return self.check_ruleset_file(Path(path), raw)
        if kind in ("army", "scenario"):
            return self.check_side_file(Path(path), raw, kind)
        from stratagem.loader.schema import validate_document

        errors = validate_document(raw, kind)
        if errors:
            return errors
        expected = Path(path).stem if Path(path).parent.name == "locales" else None
        return _sorted(locale_errors(raw, name, expected))

    def check_ruleset_file(self, path: Path, raw: PosDict) -> list[StratagemError]:
        errors = self.ruleset(path).errors
        if (raw.get("kind") == "ruleset" and path.name == "ruleset.yaml"
                and isinstance(raw.get("id"), str) and raw["id"] != path.resolve().parent.name):
            errors = [*errors, StratagemError(
                f"the ruleset id '{raw['id']}' differs from its folder name "
                f"'{path.resolve().parent.name}'",
                location=raw.where("id"),
                hint="a ruleset is named by its folder: rename one of them",
            )]
        return _sorted(errors)

    def ruleset(self, path: Path) -> LoadedRuleset:
        """The merged, validated and compiled ruleset at ``path``, and its errors (cached)."""
        key = path.resolve()
        if key not in self._rulesets:
            self._rulesets[key] = self._load_ruleset(path)
        return self._rulesets[key]

    def _load_ruleset(self, path: Path) -> LoadedRuleset:
        from stratagem.loader.resolve import load_document
        from stratagem.loader.schema import validate_document

        try:
            doc = load_document(path, self.limits)
        except StratagemError as err:
            return LoadedRuleset(None, errors_of(err))
        errors = validate_document(doc, "ruleset")
        if errors:
            return LoadedRuleset(doc, errors)
        from stratagem.model import compile_ruleset

        try:
            return LoadedRuleset(doc, schema_ok=True, compiled=compile_ruleset(doc))
        except StratagemError as err:
            return LoadedRuleset(doc, errors_of(err), schema_ok=True)

    def check_side_file(self, path: Path, raw: PosDict, kind: str) -> list[StratagemError]:
        from stratagem.loader.resolve import find_ruleset
        from stratagem.loader.schema import army_schema, scenario_schema, validate_document

        ref = raw.get("ruleset")
        if not isinstance(ref, str) or not ref.strip():
            return validate_document(raw, kind)
        try:
            ruleset_path = find_ruleset(ref, path.parent)
        except StratagemError as err:
            err.with_location(raw.where("ruleset"))
            return _sorted([err, *validate_document(raw, kind)])
        ruleset = self.ruleset(ruleset_path)
        errors: list[StratagemError] = []
        if ruleset.errors:
            count = len(ruleset.errors)
            errors.append(StratagemError(
                f"the ruleset '{ref}' has {count} error{'s' if count != 1 else ''}",
                location=raw.where("ruleset"),
                hint=f"run 'stratagem validate {ruleset_path}' to see them",
            ))
        if ruleset.doc is None or not ruleset.schema_ok:
            return _sorted([*errors, *validate_document(raw, kind)])
        make = army_schema if kind == "army" else scenario_schema
        errors += validate_document(raw, schema=make(ruleset.doc))
        if kind == "scenario":
            decisions = raw.get("decisions")
            if not errors and ruleset.compiled is not None and isinstance(decisions, Mapping):
                from stratagem.interp.decisions import compile_decisions

                compile_decisions(ruleset.compiled, decisions, errors)  # policies' names
            errors += self.check_armies(path, raw)
        return _sorted(errors)

    def check_armies(self, path: Path, raw: PosDict) -> list[StratagemError]:
        """The army files a scenario names: each must exist and be valid."""
        errors: list[StratagemError] = []
        for value in raw.values():
            if not isinstance(value, PosList):
                continue
            for entry in value:
                if not isinstance(entry, PosDict) or not isinstance(entry.get("army"), str):
                    continue
                army = path.parent / entry["army"]
                if not army.is_file():
                    errors.append(StratagemError(
                        f"army file not found: {entry['army']}",
                        location=entry.where("army"),
                        hint=f"the path is relative to the scenario's folder ({path.parent})",
                    ))
                    continue
                key = army.resolve()
                if key in self._active:
                    continue
                self._active.add(key)
                try:
                    errors += self.validate(army)
                finally:
                    self._active.discard(key)
        return errors


def locale_errors(doc: PosDict, name: str, expected: str | None) -> list[StratagemError]:
    """The errors the locale reader finds in a locale file: message syntax, plural rule,
    language code."""
    from stratagem.i18n.catalog import parse_locale

    try:
        parse_locale(doc, name, expected=expected)
    except StratagemError as err:
        return errors_of(err)
    return []


def _kind_of(raw: Any, name: str) -> tuple[str | None, list[StratagemError]]:
    from stratagem.loader.schema import _did_you_mean

    listed = ", ".join(KINDS)
    if raw is None:
        return None, [StratagemError(
            "the file is empty", location=Location(name, 1, 1),
            hint=f"start it with 'kind:' and one of: {listed}",
        )]
    if not isinstance(raw, PosDict):
        return None, [StratagemError(
            "expected a map of keys at the top of the file, starting with 'kind:'",
            location=Location(name, raw.line, raw.col) if isinstance(raw, PosList)
            else Location(name, 1, 1),
            hint=f"start the file with 'kind:' and one of: {listed}",
        )]
    kind = raw.get("kind")
    if kind is None:
        return None, [StratagemError(
            "missing 'kind:' (what this file is)",
            location=raw.key_where("kind") if "kind" in raw else raw.where(),
            hint=f"add e.g. 'kind: ruleset' as the first line; kinds: {listed} (a file "
            "pulled in by 'include:' is checked through the file that includes it)",
        )]
    if kind not in KINDS:
        return None, [StratagemError(
            f"unknown kind '{kind}'",
            location=raw.where("kind"),
            hint=_did_you_mean(str(kind), KINDS) or f"kinds: {listed}",
        )]
    return str(kind), []


def _sorted(errors: list[StratagemError]) -> list[StratagemError]:
    def order(err: StratagemError) -> tuple[str, int, int]:
        loc = err.location or Location()
        return (loc.file or "", loc.line or 0, loc.column or 0)

    return sorted(errors, key=order)
