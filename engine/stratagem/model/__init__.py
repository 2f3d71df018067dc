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

#: path -> (the compiled ruleset, the modification time of every file it was read from)
_CACHE: dict[str, tuple[Ruleset, dict[Path, float]]] = {}


def _resolve(ref: str, base_dir: Path | None) -> Path:
    from stratagem.loader.resolve import find_ruleset

    return find_ruleset(ref, base_dir)


def load_ruleset(ref: str | Path, base_dir: Path | None = None) -> Ruleset:
    """Load and compile a ruleset, setting or overlay by id (``my-rules``,
    ``my-rules/my-world``) or by path. A compiled ruleset is reused until one of the
    files it was read from (includes and extended rulesets too) changes."""
    from stratagem.loader.resolve import load_document_chain

    path = _resolve(str(ref), base_dir)
    cached = _CACHE.get(str(path))
    if cached is not None and all(_mtime(f) == t for f, t in cached[1].items()):
        return cached[0]
    files: list[Path] = []
    doc, chain = load_document_chain(path, read=files)
    rs = compile_ruleset(doc, ref=str(ref))
    rs.path = str(path)
    rs.locale_files = _locale_files(chain)
    rs.overlays = [_overlay_name(file) for file in chain[1:]]
    _CACHE[str(path)] = (rs, {f: _mtime(f) for f in files})
    return rs


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return -1.0


def _overlay_name(path: Path) -> str:
    """How the report names an overlay: a shipped setting as `ruleset/setting`, another
    file by its file name."""
    if path.parent.name == "settings" and (path.parent.parent / "ruleset.yaml").is_file():
        return f"{path.parent.parent.name}/{path.stem}"
    return path.name


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
