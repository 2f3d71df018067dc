"""The model: compiled rulesets, entities, tables, and the files that describe battles."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stratagem.model.ruleset import Ruleset

__all__ = ["compile_ruleset", "load_ruleset", "ruleset_for_document"]


def compile_ruleset(doc: Any, ref: str | None = None) -> Ruleset:
    """Compile a merged ruleset document (see :func:`stratagem.model.ruleset.compile_ruleset`)."""
    from stratagem.model.ruleset import compile_ruleset as compile_

    return compile_(doc, ref)

_CACHE: dict[tuple[str, float], Ruleset] = {}


def _resolve(ref: str, base_dir: Path | None) -> Path:
    from stratagem.loader.resolve import find_ruleset

    return find_ruleset(ref, base_dir)


def load_ruleset(ref: str | Path, base_dir: Path | None = None) -> Ruleset:
    """Load and compile a ruleset, setting or overlay by id (``my-rules``,
    ``my-rules/my-world``) or by path. Compiled rulesets are cached per file."""
    from stratagem.loader.resolve import load_document_chain

    path = _resolve(str(ref), base_dir)
    stamp = _stamp(path)
    key = (str(path), stamp)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    doc, chain = load_document_chain(path)
    rs = compile_ruleset(doc, ref=str(ref))
    rs.path = str(path)
    rs.locale_files = _locale_files(chain)
    _CACHE[key] = rs
    return rs


def _stamp(path: Path) -> float:
    """A fingerprint of a ruleset folder: the newest modification time in it."""
    folder = path.parent
    try:
        return max(p.stat().st_mtime for p in folder.rglob("*.yaml"))
    except ValueError:
        return path.stat().st_mtime


def _locale_files(chain: list[Path]) -> dict[str, list[Path]]:
    """Locale files of a ruleset and the ones it extends, base first, per language."""
    out: dict[str, list[Path]] = {}
    for file in chain:
        for folder in (file.parent / "locales", file.parent / file.stem / "locales"):
            if folder.is_dir():
                for loc in sorted(folder.glob("*.yaml")):
                    out.setdefault(loc.stem, []).append(loc)
    return out


def ruleset_for_document(doc: Any, path: Path) -> Ruleset:
    """The ruleset an army or scenario file names in its `ruleset:` key."""
    from stratagem.errors import StratagemError
    from stratagem.model.values import where

    ref = doc.get("ruleset") if hasattr(doc, "get") else None
    if not ref:
        raise StratagemError("the file does not say which ruleset it uses",
                             location=where(doc), hint="add e.g. `ruleset: my-rules`")
    try:
        return load_ruleset(str(ref), path.parent)
    except StratagemError as err:
        if err.location is None:
            err.location = where(doc, "ruleset")
        raise
