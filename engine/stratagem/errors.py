"""The one root of every error a user can cause.

Every error carries *where* (a file position or a path inside a document),
*what* went wrong in the user's terms, and a *hint* on how to fix it. The
command line prints these and exits 1; it never shows a traceback for them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """A place in a user's file: ``file:line:col`` and/or a document path like ``$.units[3]``.

    ``line`` and ``column`` are 1-based, as editors show them.
    """

    file: str | None = None
    line: int | None = None
    column: int | None = None
    path: str | None = None

    def __str__(self) -> str:
        parts = []
        if self.file:
            where = self.file
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            parts.append(where)
        if self.path:
            parts.append(self.path)
        return " ".join(parts)


def describe(location: Location | None, message: str, context: str | None = None,
             hint: str | None = None) -> str:
    """How every error reads, from every command: ``file:line:col: message ($.path)`` (the
    place first, as editors and compilers write it), the source line with a caret, the
    hint."""
    where = Location(location.file, location.line, location.column) if location else None
    head = f"{where}: {message}" if where and str(where) else message
    if location is not None and location.path and location.path != "$":
        head += f" ({location.path})"
    lines = [head]
    if context:
        lines.append(context)
    if hint:
        lines.append(f"  hint: {hint}")
    return "\n".join(lines)


#: How many characters of a long line :func:`caret` shows around the caret.
CARET_WINDOW = 60


def caret(text: str, offset: int) -> str:
    """The line of ``text`` that holds the 0-based character ``offset``, and a caret under
    that character: the ``context`` of an error, ready to print (indented two spaces).

    A long line is cut to a window around the caret with ``…`` marks; control characters
    are shown as ``?`` so the caret stays aligned.
    """
    offset = max(0, min(offset, len(text)))
    start_of_line = text.rfind("\n", 0, offset) + 1
    end_of_line = text.find("\n", offset)
    line = text[start_of_line:end_of_line if end_of_line >= 0 else len(text)]
    pos = offset - start_of_line
    start = max(0, pos - CARET_WINDOW // 2)
    end = min(len(line), start + CARET_WINDOW)
    shown = "".join(ch if ch.isprintable() else "?" for ch in line[start:end])
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(line) else ""
    return f"  {prefix}{shown}{suffix}\n  {' ' * (len(prefix) + pos - start)}^"


def place(error: StratagemError) -> tuple[str, int, int]:
    """Where an error is, to report errors in order: file, line, column."""
    loc = error.location or Location()
    return (loc.file or "", loc.line or 0, loc.column or 0)


class StratagemError(Exception):
    """Root of every error caused by user input (files, expressions, options)."""

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        location: Location | None = None,
        context: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.location = location
        #: Optional extra lines shown under the message (e.g. the source line with a caret).
        self.context = context

    def with_location(self, location: Location) -> StratagemError:
        self.location = location
        return self

    def render(self) -> str:
        """The text a person reads (see :func:`describe`)."""
        return describe(self.location, self.message, self.context, self.hint)

    def to_json(self) -> dict[str, object]:
        loc = self.location or Location()
        return {
            "file": loc.file,
            "line": loc.line,
            "column": loc.column,
            "path": loc.path,
            "message": self.message,
            "hint": self.hint,
        }

    def __str__(self) -> str:
        return self.render()


class LimitError(StratagemError):
    """A resource bound was hit (dice count, loop iterations, file size...)."""


class ValidationFailed(StratagemError):
    """Several user errors found at once (a file, a ruleset, a set of files).

    ``errors`` holds every error found, in file order; the message counts them.
    """

    def __init__(self, errors: list[StratagemError]) -> None:
        self.errors = list(errors)
        first = self.errors[0].render() if self.errors else "no errors"
        more = len(self.errors) - 1
        suffix = f"\n({more} more error{'s' if more != 1 else ''})" if more > 0 else ""
        super().__init__(first + suffix)

    def render(self) -> str:
        return "\n".join(err.render() for err in self.errors)


class UnknownMember(StratagemError, AttributeError):
    """An expression asked an entity or a table row for a member it does not have."""


def a_or_an(word: object) -> str:
    """``word`` after its English article: "a unit", "an army", "an engine"."""
    text = str(word)
    vowel = text[:1].lower() in "aeio" or (
        text[:1].lower() == "u" and not text.lower().startswith(("uni", "use", "usu", "ure")))
    return f"{'an' if vowel else 'a'} {text}"


def did_you_mean(name: object, candidates: Iterable[object]) -> str | None:
    """A "did you mean 'x'?" hint for a misspelt name: up to three of ``candidates`` close
    to it (exact case first, then any case), or None.

    (difflib is imported with this module: a compiled module that imports inside a function
    an expression calls would look for ``__import__`` in the expression's empty builtins.)
    """
    word = str(name)
    names = [str(c) for c in candidates]
    close = difflib.get_close_matches(word, names, n=3, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in names}
        close = [lowered[m] for m in difflib.get_close_matches(word.lower(), list(lowered),
                                                               n=3, cutoff=0.6)]
    if not close:
        return None
    return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"


def in_order(errors: Iterable[StratagemError]) -> list[StratagemError]:
    """Errors ordered by place (:func:`place`; errors with no place first, errors at one
    place in the order found)."""
    return sorted(errors, key=place)
