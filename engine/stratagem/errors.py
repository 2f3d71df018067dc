"""The one root of every error a user can cause.

Every error carries *where* (a file position or a path inside a document),
*what* went wrong in the user's terms, and a *hint* on how to fix it. The
command line prints these and exits 1; it never shows a traceback for them.

An error may also carry a message *key* and its *parameters*: where it is
printed, :meth:`StratagemError.render` is given the user's catalog
(:class:`Texts`) and shows the key's text in their language; the English
text written at the raise site is the fallback. A key's hint is the key
``<key>.hint`` (or the error's ``hint_key``), given the same parameters. The
texts live in the engine's locale files (``engine/stratagem/locales/``);
``stratagem i18n check`` finds the keys in the code.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Term:
    """A word inside an error that is translated too ("a number", "a list"): the catalog shows
    the text of ``key``, the English ``fallback`` without one."""

    key: str
    fallback: str
    #: The parameters of the key's text, as pairs.
    params: tuple[tuple[str, object], ...] = ()

    def __str__(self) -> str:
        return self.fallback


@dataclass(frozen=True)
class Either:
    """Words joined by "or" in the reader's language: 'a', 'b' or 'c'."""

    terms: tuple[object, ...]

    def __str__(self) -> str:
        words = [str(t) for t in self.terms]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class Keyed(str):
    """An English text (a prompt, a note) that also carries its message key and parameters,
    so that where it is shown it can be shown in the reader's language."""

    key: str
    params: dict[str, object]

    def __new__(cls, text: str, key: str, **params: object) -> Keyed:
        self = super().__new__(cls, text)
        self.key = key
        self.params = params
        return self

    def localized(self, texts: Texts | None) -> str:
        """The text in the language of ``texts`` (this English text without)."""
        shown = texts.keyed(self.key, self.params) if texts is not None else None
        return shown if shown is not None else str(self)


class Texts(Protocol):
    """What an error needs to show itself in a language (a catalog has it)."""

    def keyed(self, key: str, params: Mapping[str, object]) -> str | None:
        """The text of ``key`` with ``params``, or None when no language has the key."""


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
             hint: str | None = None, texts: Texts | None = None) -> str:
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
        label = texts.keyed("error.hint_label", {}) if texts is not None else None
        lines.append(f"  {label or 'hint'}: {hint}")
    return "\n".join(lines)


#: How every check writes its suggestion for a misspelt name.
_DID_YOU_MEAN = re.compile(r"did you mean ('[^']*'(?: or '[^']*')*)\?")


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
        key: str | None = None,
        params: Mapping[str, object] | None = None,
        hint_key: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.location = location
        #: Optional extra lines shown under the message (e.g. the source line with a caret).
        self.context = context
        #: The message key of ``message`` (its text in every language), and its parameters.
        self.key = key
        self.params: dict[str, object] = dict(params or {})
        #: The key of the hint (default ``<key>.hint``); it is given the same parameters.
        self.hint_key = hint_key

    def keyed(self, key: str, message: str, hint: str | None = None,
              **params: object) -> StratagemError:
        """Set the key, English text, hint and parameters at once (for re-worded errors)."""
        self.key, self.message, self.params = key, message, dict(params)
        if hint is not None:
            self.hint = hint
        return self

    def localized(self, texts: Texts | None = None) -> str:
        """The message in the language of ``texts`` (the English one without)."""
        if texts is not None and self.key:
            shown = texts.keyed(self.key, self.params)
            if shown is not None:
                return shown
        return self.message

    def localized_hint(self, texts: Texts | None = None) -> str | None:
        """The hint in the language of ``texts`` (the English one without).

        A "did you mean 'a' or 'b'?" hint, written the same way by every check, is
        shown as ``hint.did_you_mean``; any other as ``hint_key`` (``<key>.hint``).
        """
        if texts is None or not self.hint:
            return self.hint
        close = suggestion(self.hint)
        hint_key = self.hint_key or (self.key + ".hint" if self.key else None)
        shown = None
        if close is not None:
            shown = texts.keyed(close.key, dict(close.params))
        elif hint_key:
            shown = texts.keyed(hint_key, self.params)
        return shown if shown is not None else self.hint

    def add_hint(self, english: str, key: str, alone_key: str,
                 **params: object) -> StratagemError:
        """Add to the hint (after ``; ``, or as the hint when there is none): ``english`` in
        English, ``key`` (given the earlier hint as ``{earlier}``) or ``alone_key`` in the
        reader's language, with ``params`` added to the error's."""
        said: dict[str, object] = {**self.params, **params}
        if self.hint:
            said["earlier"] = suggestion(self.hint) or Term(
                self.hint_key or (f"{self.key}.hint" if self.key else ""), self.hint,
                tuple(self.params.items()))
        self.hint = f"{self.hint}; {english}" if self.hint else english
        self.hint_key = key if self.hint != english else alone_key
        self.params = said
        return self

    def with_location(self, location: Location) -> StratagemError:
        self.location = location
        return self

    def render(self, texts: Texts | None = None) -> str:
        """The text a person reads (see :func:`describe`), in the language of ``texts``."""
        return describe(self.location, self.localized(texts), self.context,
                        self.localized_hint(texts), texts)

    def to_json(self, texts: Texts | None = None) -> dict[str, object]:
        loc = self.location or Location()
        return {
            "file": loc.file,
            "line": loc.line,
            "column": loc.column,
            "path": loc.path,
            "message": self.localized(texts),
            "hint": self.localized_hint(texts),
            "key": self.key,
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

    def render(self, texts: Texts | None = None) -> str:
        return "\n".join(err.render(texts) for err in self.errors)


class UnknownMember(StratagemError, AttributeError):
    """An expression asked an entity or a table row for a member it does not have."""


def a_or_an(word: object) -> str:
    """``word`` after its English article: "a unit", "an army", "an engine"."""
    text = str(word)
    vowel = text[:1].lower() in "aeio" or (
        text[:1].lower() == "u" and not text.lower().startswith(("uni", "use", "usu", "ure")))
    return f"{'an' if vowel else 'a'} {text}"


class Word(str):
    """A word inside a message that English writes after its article: ``{kind.article}
    {kind}`` reads "an army", "a unit" (other languages show ``{kind}`` alone)."""

    __slots__ = ()

    @property
    def article(self) -> str:
        return a_or_an(self).split(" ", 1)[0]


def did_you_mean(name: object, candidates: Iterable[object]) -> str | None:
    """A "did you mean 'x'?" hint for a misspelt name: up to three of ``candidates`` close
    to it (exact case first, then any case), or None.

    (difflib is imported when first asked, for the command line's start-up, and by a call
    rather than an ``import`` statement: compiled by mypyc, such a statement inside a
    function an expression calls would look for ``__import__`` in the expression's empty
    builtins.)
    """
    difflib = importlib.import_module("difflib")
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


def suggestion(hint: str) -> Term | None:
    """A "did you mean 'a' or 'b'?" hint (as :func:`did_you_mean` writes it) as a term shown
    in the reader's language, or None for any other hint."""
    close = _DID_YOU_MEAN.fullmatch(hint)
    if close is None:
        return None
    names = tuple(close.group(1).split(" or "))
    return Term("hint.did_you_mean", hint, (("suggestions", Either(names)),))


def in_order(errors: Iterable[StratagemError]) -> list[StratagemError]:
    """Errors ordered by place (:func:`place`; errors with no place first, errors at one
    place in the order found)."""
    return sorted(errors, key=place)
