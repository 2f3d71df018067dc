"""The one root of every error a user can cause.

Every error carries *where* (a file position or a path inside a document),
*what* went wrong in the user's terms, and a *hint* on how to fix it. The
command line prints these and exits 1; it never shows a traceback for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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


def did_you_mean(name: object, candidates: Any) -> str | None:
    """A 'did you mean' hint for a misspelt name (exact case first, then any case)."""
    import difflib

    names = [str(c) for c in candidates]
    close = difflib.get_close_matches(str(name), names, n=3, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in names}
        close = [lowered[m] for m in difflib.get_close_matches(str(name).lower(), list(lowered),
                                                               n=3, cutoff=0.6)]
    if not close:
        return None
    return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"


def in_order(errors: list[StratagemError]) -> list[StratagemError]:
    """Errors ordered by place: file, line, column (errors with no place first)."""
    def place(err: StratagemError) -> tuple[str, int, int]:
        loc = err.location or Location()
        return (loc.file or "", loc.line or 0, loc.column or 0)

    return sorted(errors, key=place)
