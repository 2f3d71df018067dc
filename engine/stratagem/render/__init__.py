"""Reports as documents: Markdown and self-contained HTML (and the odds and dice tables as
text), rendered from template files by Jinja2.

The views (:mod:`stratagem.render.views`) turn a battle, a rating, odds or a dice
distribution into plain data, read from the same trace and state as the text report; a
template lays that data out. A ruleset may put its own templates in a ``templates/``
folder beside its ruleset file: a file there named like a shipped one replaces it, and
``{% extends "stratagem/battle.html.j2" %}`` extends the shipped one (docs/reports.md).
Templates from rule files are run in Jinja2's sandbox.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stratagem.errors import StratagemError

if TYPE_CHECKING:
    import jinja2

    from stratagem.model.ruleset import Ruleset

#: The formats every report command writes with ``--format``.
FORMATS = ("text", "md", "html", "json")

TEMPLATES = Path(__file__).resolve().parent / "templates"

def environment(ruleset: Ruleset | None) -> jinja2.Environment:
    """The template environment: a ruleset's own template folders first (the most specific
    one first), then the shipped templates, also reachable as ``stratagem/NAME``."""
    import jinja2
    from jinja2.sandbox import SandboxedEnvironment

    own = [str(p) for p in reversed(ruleset.template_dirs)] if ruleset is not None else []
    shipped = jinja2.FileSystemLoader(str(TEMPLATES))
    loader = jinja2.ChoiceLoader([
        jinja2.PrefixLoader({"stratagem": shipped}),
        _confined_loader(own),
        shipped,
    ])
    env = SandboxedEnvironment(
        loader=loader, autoescape=jinja2.select_autoescape(["html", "html.j2"]),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined)
    env.filters["md"] = md_cell
    return env


def _confined_loader(folders: list[str]) -> jinja2.BaseLoader:
    """A ruleset's template folders, where a template that is a link out of its folder is
    not found (docs/security.md)."""
    import jinja2

    class Confined(jinja2.FileSystemLoader):
        def get_source(self, environment: jinja2.Environment,
                       template: str) -> tuple[str, str, Callable[[], bool]]:
            source, filename, uptodate = super().get_source(environment, template)
            if not any(_within(filename, folder) for folder in self.searchpath):
                raise jinja2.TemplateNotFound(template)
            return source, filename, uptodate

    return Confined(folders)


def _within(file: str | Path, folder: str | Path) -> bool:
    real, root = os.path.realpath(file), os.path.realpath(folder)
    return real.startswith(root.rstrip(os.sep) + os.sep)


def render(name: str, fmt: str, view: dict[str, Any], ruleset: Ruleset | None) -> str:
    """Render the view with the template ``NAME.FORMAT.j2`` (``battle.html.j2``,
    ``odds.text.j2``); a broken template of a ruleset is a user error naming its file and
    line."""
    import jinja2

    env = environment(ruleset)
    file = f"{name}.{fmt}.j2"
    try:
        template = env.get_template(file)
        text = template.render(**view, css=_stylesheets(env, ruleset) if fmt == "html" else "")
    except jinja2.TemplateSyntaxError as err:
        raise StratagemError(f"template {err.filename or file}:{err.lineno}: {err.message}",
                             hint="see docs/reports.md for the template variables",
                             key="render.template_syntax", hint_key="render.template.hint",
                             params={"file": err.filename or file, "line": str(err.lineno),
                                     "problem": err.message}) from None
    except (jinja2.TemplateError, TypeError, ValueError, KeyError) as err:
        raise StratagemError(f"template {file} could not be rendered: {err}",
                             hint="see docs/reports.md for the template variables",
                             key="render.template_failed", hint_key="render.template.hint",
                             params={"file": file, "problem": str(err)}) from None
    return text if text.endswith("\n") else text + "\n"


def _stylesheets(env: jinja2.Environment, ruleset: Ruleset | None) -> str:
    """The shipped stylesheet, then a ruleset's ``report.css`` (its rules come later, so
    they win)."""
    css = (TEMPLATES / "report.css").read_text(encoding="utf-8")
    for folder in ruleset.template_dirs if ruleset is not None else []:
        extra = folder / "report.css"
        if extra.is_file() and _within(extra, folder):
            css += "\n" + extra.read_text(encoding="utf-8")
    # inside <style> only "</" could end the element early
    return css.replace("</", "<\\/")


def _mode(target: Path) -> int:
    """The permissions of the file replaced, else those a new file gets (umask applied)."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def md_cell(value: object) -> str:
    """Text safe in a Markdown table cell or list item: pipes and markup characters are
    escaped, line breaks become spaces."""
    text = str(value).replace("\\", "\\\\").replace("\n", " ")
    for ch in "|*_`[]<>#":
        text = text.replace(ch, "\\" + ch)
    return text


def _write_device(path: str, text: str) -> None:
    """Write to a device or a named pipe as it is (renaming over it would replace it)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
    except OSError as err:
        raise StratagemError(f"cannot write {path}: {err.strerror or err}",
                             hint="check the path and its permissions", key="render.device",
                             params={"path": path, "reason": err.strerror or str(err)}
                             ) from None


def write_file(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same folder, flushed
    to disk, then renamed over the target (a reader never sees half a report)."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise StratagemError(f"cannot write {path}: no folder {folder}",
                             hint="create the folder first, or give another path",
                             key="render.no_folder", params={"path": path, "folder": str(folder)})
    if target.is_dir():
        raise StratagemError(f"cannot write {path}: it is a folder", hint="give a file name",
                             key="render.is_folder", params={"path": path})
    if target.exists() and not target.is_file():  # /dev/null, a terminal: never replaced
        _write_device(path, text)
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
        try:
            os.chmod(tmp, _mode(target))
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as err:
        raise StratagemError(f"cannot write {path}: {err.strerror or err}",
                             hint="check the path and its permissions", key="render.cannot_write",
                             params={"path": path, "reason": str(err.strerror or err)}) from None
