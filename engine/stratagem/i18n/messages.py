"""Messages: a small subset of ICU MessageFormat, parsed once and formatted many times.

The subset (see docs/translating.md for a translator's view):

``{name}``
    a parameter; numbers are written in the language's style (``decimal:``);
    a dotted name (``{unit.name}``) reads a key or attribute of a parameter.
``{n, plural, =0 {нет} one {# отряд} few {# отряда} many {# отрядов} other {# отряда}}``
    a plural form chosen by the language's ``plural:`` rule; ``=0 {...}`` matches
    an exact number first; ``#`` inside the branches is the number, written as
    the language writes numbers (``#`` belongs to the innermost plural around it).
``{x, number}``, ``{x, number, percent}``, ``{x, number, ::currency/USD}``
    a number in the language's style (CLDR): ``percent`` shows a share
    (0.25 → ``25 %`` in Russian), ``currency/USD`` a sum of money
    (``308 833 $`` in Russian, ``$308,833`` in English).
``{side, select, attacker {...} defender {...} other {...}}``
    a branch chosen by the parameter's value (``true``/``false`` for yes/no values);
    ``{side.plural, select, true {win} other {wins}}`` selects on an attribute, and a value
    without that attribute takes ``other``.
quotes, as ICU writes them
    ``''`` is one apostrophe; an apostrophe before ``{``, ``}`` (or ``#`` in a
    plural) starts quoted text that runs to the next apostrophe: ``'{'`` shows ``{``.
    Any other apostrophe is just an apostrophe (``it's``).

Formatting never raises: a missing parameter stays visible as ``{name}``, a
missing plural form falls back to ``other`` (then to the last branch), an
unknown select value to ``other`` (then to the value itself).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from stratagem.errors import StratagemError, Term, caret
from stratagem.i18n.language import Language, is_number
from stratagem.i18n.plural import CATEGORIES

#: Deepest nesting of plural/select inside one another.
MAX_DEPTH = 8

_NAME = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*")
_WORD = re.compile(r"[^\s{}]+")
_EXACT = re.compile(r"=(-?\d+(?:\.\d+)?)")
_SPACE = re.compile(r"\s*")
#: What the parser must look at in a text (anything else is literal), and a run of literal
#: text up to the next such character (``#`` counts only inside a plural).
_SPECIAL = re.compile(r"['{}]")
_LITERAL = re.compile(r"[^'{}]+")
_LITERAL_IN_PLURAL = re.compile(r"[^'{}#]+")


class MessageSyntaxError(StratagemError):
    """A message that does not parse; ``offset`` is the 0-based character where it went wrong."""

    def __init__(self, reason: str, text: str, offset: int, reason_key: str = "",
                 **params: object) -> None:
        self.reason = reason
        self.offset = offset
        #: The reason as a translatable term (its key and parameters).
        self.term = Term(reason_key or "message.reason.other", reason, tuple(params.items()))
        super().__init__(
            f"malformed message: {reason}",
            context=caret(text, offset), key="message.syntax", params={"reason": self.term},
            hint="placeholders are {name}, {n, plural, one {...} other {...}} and "
            "{x, select, a {...} other {...}}; to show a brace write '{' or '}'",
        )


    def of_key(self, key: str) -> MessageSyntaxError:
        """Say which message key the malformed text belongs to (``message.malformed``)."""
        self.keyed("message.malformed", f"malformed message {key!r}: {self.reason}", field=key,
                   reason=self.term)
        return self


@dataclass(frozen=True, slots=True)
class Arg:
    """``{name}``: a parameter, possibly dotted (``unit.name``)."""

    name: str
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Pound:
    """``#`` inside a plural: the number."""


@dataclass(frozen=True, slots=True)
class Plural:
    """``{n, plural, =0 {...} one {...} other {...}}``."""

    arg: Arg
    exact: Mapping[str, tuple[Part, ...]]  # keyed by the number as shown in ASCII ("0", "1.5")
    forms: Mapping[str, tuple[Part, ...]]
    last: tuple[Part, ...]


@dataclass(frozen=True, slots=True)
class Select:
    """``{x, select, a {...} other {...}}``."""

    arg: Arg
    branches: Mapping[str, tuple[Part, ...]]


@dataclass(frozen=True, slots=True)
class Number:
    """``{x, number, percent}``: a number in a CLDR style (``decimal``, ``percent``, ``currency``)."""

    arg: Arg
    style: str
    currency: str = ""


Part = str | Arg | Pound | Plural | Select | Number

_POUND = Pound()
_MISSING = object()


class Message:
    """One parsed message: :func:`parse_message` builds it, :meth:`format` fills it in."""

    __slots__ = ("_arguments", "_plurals", "_text", "parts", "quoted", "source")

    def __init__(self, source: str, parts: tuple[Part, ...],
                 quoted: tuple[tuple[int, str], ...] = ()) -> None:
        self.source = source
        self.parts = parts
        #: ``(offset of the opening apostrophe, the text it quotes)`` of each quoted span:
        #: shown as it is written, braces and all (see :func:`literal_placeholders`)
        self.quoted = quoted
        self._arguments: frozenset[str] | None = None
        self._plurals: tuple[tuple[str, frozenset[str]], ...] | None = None
        self._text = parts[0] if len(parts) == 1 and isinstance(parts[0], str) else None
        if not parts:
            self._text = ""

    @property
    def arguments(self) -> frozenset[str]:
        """Every parameter name the message reads (plural and select ones included)."""
        if self._arguments is None:  # what the checks ask, not formatting: found when asked
            self._arguments = frozenset(_arguments(self.parts))
        return self._arguments

    @property
    def plurals(self) -> tuple[tuple[str, frozenset[str]], ...]:
        """``(parameter, forms written)`` for each plural, in order."""
        if self._plurals is None:
            self._plurals = tuple(_plurals(self.parts))
        return self._plurals

    def format(
        self,
        params: Mapping[str, object],
        language: Language,
        display: Callable[[object, Language], str] | None = None,
    ) -> str:
        """The message with ``params`` filled in, in ``language``'s style. Never raises.

        ``display(value, language)`` turns a ``{name}`` value into text
        (default: :meth:`Language.format_value`); the catalog passes one that
        also localises labels.
        """
        if self._text is not None:
            return self._text
        out: list[str] = []
        _render(self.parts, params, _Context(language, display or _plain_display), None, out)
        return "".join(out)

    def __repr__(self) -> str:
        return f"Message({self.source!r})"


def parse_message(text: str) -> Message:
    """Parse ``text``; raise :class:`MessageSyntaxError` with the offset of the fault."""
    if _SPECIAL.search(text) is None:  # most texts: no placeholder, quote or brace at all
        return Message(text, (text,) if text else ())
    parser = _Parser(text)
    parts = parser.parts(in_plural=False, depth=0)
    if parser.pos < len(text):  # only a stray '}' stops the top level early
        raise MessageSyntaxError(
            "'}' closes nothing (to show a brace write '}')", text, parser.pos,
            "message.reason.stray_brace")
    return Message(text, parts, tuple(parser.spans))


_QUOTED_NAME = re.compile(r"\{\s*([^\W\d]\w*)")


def literal_placeholders(message: Message) -> list[tuple[int, str]]:
    """Placeholders that ICU quoting shows as literal text: in ``{side} needs '{field}'``
    the apostrophe before ``{`` quotes ``{field}``, so the reader sees the braces, not the
    value. Each is ``(offset in the text, parameter name)``."""
    found = []
    for start, chunk in message.quoted:
        for match in _QUOTED_NAME.finditer(chunk):
            found.append((start + 1 + match.start(), match.group(1)))
    return found


class _Parser:
    """Recursive descent over the message text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        #: the quoted spans read: (offset of the apostrophe, the text quoted)
        self.spans: list[tuple[int, str]] = []

    def fail(self, reason: str, offset: int | None = None, key: str = "",
             **params: object) -> MessageSyntaxError:
        """The error at ``offset`` (default: here); ``key`` names the reason's text."""
        return MessageSyntaxError(reason, self.text, self.pos if offset is None else offset,
                                  f"message.reason.{key}" if key else "", **params)

    def parts(self, *, in_plural: bool, depth: int) -> tuple[Part, ...]:
        """Read literal text and placeholders up to an unmatched ``}`` or the end."""
        text = self.text
        literal = _LITERAL_IN_PLURAL if in_plural else _LITERAL
        out: list[Part] = []
        buf: list[str] = []
        while self.pos < len(text):
            char = text[self.pos]
            if char == "'":
                buf.append(self.quoted(in_plural))
            elif char == "{":
                if buf:
                    out.append("".join(buf))
                    buf = []
                out.append(self.placeholder(in_plural=in_plural, depth=depth))
            elif char == "}":
                break
            elif char == "#" and in_plural:
                if buf:
                    out.append("".join(buf))
                    buf = []
                out.append(_POUND)
                self.pos += 1
            else:
                run = literal.match(text, self.pos)
                assert run is not None  # char is none of the characters the pattern stops at
                buf.append(run.group())
                self.pos = run.end()
        if buf:
            out.append("".join(buf))
        return tuple(out)

    def quoted(self, in_plural: bool) -> str:
        """ICU apostrophes: ``''`` → ``'``; ``'{...'`` quotes; else a plain apostrophe."""
        text, start = self.text, self.pos
        following = text[start + 1 : start + 2]
        if following == "'":
            self.pos += 2
            return "'"
        if following in ("{", "}") or (following == "#" and in_plural):
            chunk: list[str] = []
            k = start + 1
            while k < len(text):
                if text[k] == "'":
                    if text[k + 1 : k + 2] == "'":
                        chunk.append("'")
                        k += 2
                        continue
                    self.pos = k + 1
                    self.spans.append((start, text[start + 1:k]))
                    return "".join(chunk)
                chunk.append(text[k])
                k += 1
            raise self.fail("this quote is never closed (close it with another ')", start,
                            "unclosed_quote")
        self.pos += 1
        return "'"

    def skip_space(self) -> None:
        match = _SPACE.match(self.text, self.pos)
        assert match is not None
        self.pos = match.end()

    def placeholder(self, *, in_plural: bool, depth: int) -> Part:
        text, start = self.text, self.pos
        self.pos += 1
        self.skip_space()
        match = _NAME.match(text, self.pos)
        if not match:
            if self.pos >= len(text):
                raise self.fail("this '{' is never closed", start, "unclosed")
            raise self.fail("expected a parameter name after '{'", None, "name")
        name = match.group()
        path = tuple(name.split("."))
        hidden = next((k for k, segment in enumerate(path) if segment.startswith("_")), None)
        if hidden is not None:
            at = match.start() + sum(len(segment) + 1 for segment in path[:hidden])
            raise self.fail("a parameter name may not start with '_'", at, "underscore")
        arg = Arg(name, path)
        self.pos = match.end()
        self.skip_space()
        if self.pos >= len(text):
            raise self.fail("this '{' is never closed", start, "unclosed")
        if text[self.pos] == "}":
            self.pos += 1
            return arg
        if text[self.pos] != ",":
            raise self.fail(f"expected '}}' or ',' after the name {name!r}", None, "after_name",
                            name=name)
        self.pos += 1
        self.skip_space()
        kind_at = self.pos
        kind_match = _NAME.match(text, self.pos)
        kind = kind_match.group() if kind_match else ""
        if kind not in ("plural", "select", "number"):
            shown = f"{kind!r}" if kind else "nothing"
            raise self.fail(f"expected 'plural', 'select' or 'number' after {name!r}, found "
                            f"{shown}", kind_at, "kind", name=name, found=shown)
        self.pos = kind_match.end()  # type: ignore[union-attr]
        self.skip_space()
        if kind == "number":
            return self.number(arg, start)
        if text[self.pos : self.pos + 1] != ",":
            raise self.fail(f"expected ',' after {kind!r}", None, "comma", kind=kind)
        self.pos += 1
        if depth + 1 > MAX_DEPTH:
            raise self.fail(f"plural and select nest deeper than {MAX_DEPTH} levels", start,
                            "depth", max=MAX_DEPTH)
        branches = self.branches(kind, start, in_plural=in_plural or kind == "plural", depth=depth)
        if kind == "select":
            return Select(arg, dict(branches))
        exact = {key[1:]: parts for key, parts in branches if key.startswith("=")}
        forms = {key: parts for key, parts in branches if not key.startswith("=")}
        return Plural(arg, exact, forms, branches[-1][1])

    def number(self, arg: Arg, start: int) -> Number:
        """The rest of ``{x, number}`` / ``{x, number, STYLE}`` after the word ``number``."""
        text = self.text
        if text[self.pos : self.pos + 1] == "}":
            self.pos += 1
            return Number(arg, "decimal")
        if text[self.pos : self.pos + 1] != ",":
            raise self.fail("expected '}' or ',' after 'number'", None, "after_number")
        end = text.find("}", self.pos)
        if end < 0:
            raise self.fail("this '{' is never closed", start, "unclosed")
        style_at = self.pos + 1
        style = text[style_at:end].strip().removeprefix("::")
        self.pos = end + 1
        if style in ("percent", "integer", "decimal"):
            return Number(arg, style)
        code = style.removeprefix("currency/")
        if style.startswith("currency/") and len(code) == 3 and code.isalpha():
            return Number(arg, "currency", code.upper())
        raise self.fail(f"unknown number style {style!r}; use percent, integer or "
                        "currency/USD (any ISO 4217 code)", style_at, "number_style", style=style)

    def branches(
        self, kind: str, start: int, *, in_plural: bool, depth: int
    ) -> list[tuple[str, tuple[Part, ...]]]:
        text = self.text
        found: list[tuple[str, tuple[Part, ...]]] = []
        seen: set[str] = set()
        while True:
            self.skip_space()
            if self.pos >= len(text):
                raise self.fail("this '{' is never closed", start, "unclosed")
            if text[self.pos] == "}":
                self.pos += 1
                break
            key_at = self.pos
            key = self.selector(kind)
            if key in seen:
                raise self.fail(f"the branch {key!r} is written twice", key_at, "twice",
                                branch=key)
            seen.add(key)
            self.skip_space()
            if text[self.pos : self.pos + 1] != "{":
                raise self.fail(f"expected '{{' to open the text of the branch {key!r}", None,
                                "open_branch", branch=key)
            open_at = self.pos
            self.pos += 1
            parts = self.parts(in_plural=in_plural, depth=depth + 1)
            if self.pos >= len(text):
                raise self.fail(f"the text of the branch {key!r} is never closed", open_at,
                                "unclosed_branch", branch=key)
            self.pos += 1
            found.append((key, parts))
        if not found:
            raise self.fail(f"a {kind} needs at least one branch, e.g. other {{...}}", start,
                            "no_branch", kind=kind)
        return found

    def selector(self, kind: str) -> str:
        text = self.text
        if kind == "plural":
            exact = _EXACT.match(text, self.pos)
            if exact:
                self.pos = exact.end()
                return "=" + _plain_exact(exact.group(1))
            if text.startswith("offset:", self.pos):
                raise self.fail("'offset:' is not supported; write the exact branches instead",
                                None, "offset")
        match = _WORD.match(text, self.pos)
        if not match:
            raise self.fail(f"expected a {kind} branch name", None, "branch_name", kind=kind)
        word = match.group()
        if kind == "plural" and word not in CATEGORIES:
            raise self.fail(
                f"unknown plural form {word!r}; use {', '.join(CATEGORIES)} or =N", self.pos,
                "plural_form", form=word, forms=", ".join(CATEGORIES))
        self.pos = match.end()
        return word


def _plain_exact(number: str) -> str:
    """``=1.50`` and ``=1.5`` are one branch: normalise as numbers are shown."""
    if "." in number:
        number = number.rstrip("0").rstrip(".")
    if number in ("-0", ""):
        return "0"
    return number


def _arguments(parts: tuple[Part, ...]) -> list[str]:
    names: list[str] = []
    for part in parts:
        if isinstance(part, Arg):
            names.append(part.name)
        elif isinstance(part, Number):
            names.append(part.arg.name)
        elif isinstance(part, Plural):
            names.append(part.arg.name)
            for branch in (*part.exact.values(), *part.forms.values()):
                names.extend(_arguments(branch))
        elif isinstance(part, Select):
            names.append(part.arg.name)
            for branch in part.branches.values():
                names.extend(_arguments(branch))
    return names


def _plurals(parts: tuple[Part, ...]) -> list[tuple[str, frozenset[str]]]:
    found: list[tuple[str, frozenset[str]]] = []
    for part in parts:
        if isinstance(part, Plural):
            found.append((part.arg.name, frozenset(part.forms)))
            for branch in (*part.exact.values(), *part.forms.values()):
                found.extend(_plurals(branch))
        elif isinstance(part, Select):
            for branch in part.branches.values():
                found.extend(_plurals(branch))
    return found


def _lookup(params: Mapping[str, object], arg: Arg) -> object:
    """The value ``{a.b.c}`` names: keys of maps, members of entities (what a rule may
    read), public attributes of other values; never a method or anything private (``_``):
    a placeholder cannot print ``<bound method ...>`` or reach the objects behind a value."""
    value = params.get(arg.path[0], _MISSING)
    for segment in arg.path[1:]:
        if value is _MISSING or value is None or segment.startswith("_"):
            return _MISSING
        if isinstance(value, Mapping):
            value = value.get(segment, _MISSING)
        elif callable(getattr(type(value), "member", None)):
            try:
                value = value.member(segment)  # type: ignore[attr-defined]
            except (AttributeError, KeyError, LookupError):
                return _MISSING
        else:
            value = getattr(value, segment, _MISSING)
    return _MISSING if callable(value) else value


def _as_number(value: object) -> int | float | Fraction | Decimal | None:
    if is_number(value):
        return value  # type: ignore[return-value]
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            try:
                return float(value)
            except ValueError:
                return None
    return None


def _select_key(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def _plain_display(value: object, language: Language) -> str:
    return language.format_value(value)


class _Context:
    """What one formatting call needs besides the parameters."""

    __slots__ = ("display", "language")

    def __init__(self, language: Language, display: Callable[[object, Language], str]) -> None:
        self.language = language
        self.display = display


def _render(
    parts: tuple[Part, ...],
    params: Mapping[str, object],
    ctx: _Context,
    pound: str | None,
    out: list[str],
) -> None:
    for part in parts:
        kind = type(part)
        if kind is str:
            out.append(part)  # type: ignore[arg-type]
        elif kind is Arg:
            value = _lookup(params, part)  # type: ignore[arg-type]
            if value is _MISSING:
                out.append("{" + part.name + "}")  # type: ignore[union-attr]
            else:
                out.append(ctx.display(value, ctx.language))
        elif kind is Pound:
            out.append("#" if pound is None else pound)
        elif kind is Plural:
            _render_plural(part, params, ctx, out)  # type: ignore[arg-type]
        elif kind is Number:
            _render_number(part, params, ctx, out)  # type: ignore[arg-type]
        else:
            _render_select(part, params, ctx, pound, out)  # type: ignore[arg-type]


def _render_plural(
    part: Plural, params: Mapping[str, object], ctx: _Context, out: list[str]
) -> None:
    value = _lookup(params, part.arg)
    number = None if value is _MISSING else _as_number(value)
    if number is None:
        branch = part.forms.get("other", part.last)
        pound = "{" + part.arg.name + "}" if value is _MISSING else ctx.display(value, ctx.language)
    else:
        language = ctx.language
        numbers = language.numbers
        shown = numbers.plain(number)
        exact = part.exact.get(shown)
        if exact is not None:
            branch = exact
        else:
            forms = part.forms
            branch = forms.get(language.plural.category(shown))  # type: ignore[assignment]
            if branch is None:
                branch = forms.get("other", part.last)
        pound = numbers.localize(shown)
    _render(branch, params, ctx, pound, out)


def _render_number(part: Number, params: Mapping[str, object], ctx: _Context,
                   out: list[str]) -> None:
    value = _lookup(params, part.arg)
    number = None if value is _MISSING else _as_number(value)
    if number is None:
        out.append("{" + part.arg.name + "}" if value is _MISSING
                   else ctx.display(value, ctx.language))
        return
    numbers = ctx.language.numbers
    if part.style == "percent":
        out.append(numbers.percent(number))
    elif part.style == "currency":
        out.append(numbers.currency(number, part.currency))
    elif part.style == "integer":
        out.append(numbers.format(round(Fraction(number))))
    else:
        out.append(numbers.format(number))


def _render_select(
    part: Select,
    params: Mapping[str, object],
    ctx: _Context,
    pound: str | None,
    out: list[str],
) -> None:
    value = _lookup(params, part.arg)
    if value is _MISSING and (len(part.arg.path) == 1 or part.arg.path[0] not in params):
        out.append("{" + part.arg.name + "}")
        return
    # an attribute the value lacks (`{side.plural}` of a plain text) takes `other`
    branch = None if value is _MISSING else part.branches.get(_select_key(value))
    if branch is None:
        branch = part.branches.get("other")
    if branch is None:
        out.append(ctx.display(value, ctx.language))
        return
    _render(branch, params, ctx, pound, out)


def to_icu(parts: tuple[Part, ...], *, in_plural: bool = False) -> str:
    """The ICU text of parsed ``parts``: ``parse_message(to_icu(m.parts))`` parses to the same
    parts (used to write a branch of a plural on its own, for PO files)."""
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(_quote(part, in_plural))
        elif isinstance(part, Arg):
            out.append("{" + part.name + "}")
        elif isinstance(part, Pound):
            out.append("#")
        elif isinstance(part, Number):
            style = {"decimal": "", "percent": ", percent", "integer": ", integer"}.get(
                part.style, f", ::currency/{part.currency}")
            out.append("{" + part.arg.name + ", number" + style + "}")
        elif isinstance(part, Plural):
            branches = [(f"={k}", v) for k, v in part.exact.items()] + list(part.forms.items())
            out.append("{" + part.arg.name + ", plural, " + " ".join(
                f"{k} {{{to_icu(v, in_plural=True)}}}" for k, v in branches) + "}")
        else:
            out.append("{" + part.arg.name + ", select, " + " ".join(
                f"{k} {{{to_icu(v, in_plural=in_plural)}}}" for k, v in part.branches.items())
                + "}")
    return "".join(out)


def to_data(message: Message) -> object:
    """``message`` as plain JSON data that :func:`from_data` turns back into the same message:
    a text that needs no parsing as itself, else ``[source, parts, quoted spans]``."""
    if _SPECIAL.search(message.source) is None:
        return message.source
    return [message.source, _parts_data(message.parts), [list(span) for span in message.quoted]]


def _parts_data(parts: tuple[Part, ...]) -> list[object]:
    out: list[object] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Arg):
            out.append(["a", part.name])
        elif isinstance(part, Pound):
            out.append(["#"])
        elif isinstance(part, Number):
            out.append(["n", part.arg.name, part.style, part.currency])
        elif isinstance(part, Plural):
            last = "e" if part.exact and part.last is list(part.exact.values())[-1] else "f"
            out.append(["p", part.arg.name, _branches_data(part.exact), _branches_data(part.forms),
                        last])
        else:
            out.append(["s", part.arg.name, _branches_data(part.branches)])
    return out


def _branches_data(branches: Mapping[str, tuple[Part, ...]]) -> list[object]:
    return [[key, _parts_data(parts)] for key, parts in branches.items()]


class BadData(ValueError):
    """Data that :func:`to_data` cannot have written (a damaged or forged cache entry)."""


def from_data(data: object) -> Message:
    """The message :func:`to_data` wrote as ``data``. Raises :class:`BadData` for anything
    the parser could not have made (a name it refuses, an unknown plural form, nesting deeper
    than :data:`MAX_DEPTH`), so that data from a cache holds no more than a file could."""
    if isinstance(data, str):
        if _SPECIAL.search(data) is not None:
            raise BadData("a message with placeholders stored as plain text")
        return Message(data, (data,) if data else ())
    if not (isinstance(data, list) and len(data) == 3 and isinstance(data[0], str)
            and isinstance(data[2], list)):
        raise BadData("not a stored message")
    source, parts, spans = data
    quoted: list[tuple[int, str]] = []
    for span in spans:
        if not (isinstance(span, list) and len(span) == 2 and type(span[0]) is int
                and 0 <= span[0] < len(source) and isinstance(span[1], str)):
            raise BadData("not a quoted span")
        quoted.append((span[0], span[1]))
    return Message(source, _parts_from(parts, False, 0), tuple(quoted))


_STYLES = frozenset({"decimal", "percent", "integer"})
_CURRENCY = re.compile(r"[A-Z]{3}")


def _exact_key(key: str) -> bool:
    """``key`` is an exact branch as the parser keeps it (``=1.50`` as ``1.5``)."""
    return _EXACT.fullmatch("=" + key) is not None and _plain_exact(key) == key


def _plural_form(key: str) -> bool:
    return key in CATEGORIES


def _branch_word(key: str) -> bool:
    return _WORD.fullmatch(key) is not None


def _parts_from(data: object, in_plural: bool, depth: int) -> tuple[Part, ...]:
    if not isinstance(data, list):
        raise BadData("not a list of parts")
    out: list[Part] = []
    for item in data:
        if isinstance(item, str):
            out.append(item)
            continue
        if not (isinstance(item, list) and item and isinstance(item[0], str)):
            raise BadData("not a part")
        kind, rest = item[0], item[1:]
        if kind == "#" and not rest and in_plural:
            out.append(_POUND)
            continue
        if not rest:
            raise BadData("a part without its parameter")
        arg = _arg_from(rest[0])
        if kind == "a" and len(rest) == 1:
            out.append(arg)
        elif kind == "n" and len(rest) == 3 and (
                (isinstance(rest[1], str) and rest[1] in _STYLES and rest[2] == "") or (
                    rest[1] == "currency" and isinstance(rest[2], str)
                    and _CURRENCY.fullmatch(rest[2]))):
            out.append(Number(arg, rest[1], rest[2]))
        elif kind == "p" and len(rest) == 4 and rest[3] in ("e", "f") and depth < MAX_DEPTH:
            exact = _branches_from(rest[1], True, depth, _exact_key)
            forms = _branches_from(rest[2], True, depth, _plural_form)
            chosen = exact if rest[3] == "e" else forms
            if not chosen:
                raise BadData("a plural without the branch it names last")
            out.append(Plural(arg, exact, forms, list(chosen.values())[-1]))
        elif kind == "s" and len(rest) == 2 and depth < MAX_DEPTH:
            branches = _branches_from(rest[1], in_plural, depth, _branch_word)
            if not branches:
                raise BadData("a select without branches")
            out.append(Select(arg, branches))
        else:
            raise BadData(f"not a part: {kind!r}")
    return tuple(out)


def _arg_from(name: object) -> Arg:
    arg = _named_arg(name) if isinstance(name, str) else None
    if arg is None:
        raise BadData("not a parameter name the parser takes")
    return arg


@lru_cache(maxsize=1024)
def _named_arg(name: str) -> Arg | None:
    """The parameter ``{name}`` (one for each name: a catalog names a few hundred), or None
    for a name the parser refuses."""
    path = tuple(name.split("."))
    if not _NAME.fullmatch(name) or any(segment.startswith("_") for segment in path):
        return None
    return Arg(name, path)


def _branches_from(data: object, in_plural: bool, depth: int,
                   allowed: Callable[[str], bool]) -> dict[str, tuple[Part, ...]]:
    if not isinstance(data, list):
        raise BadData("not a list of branches")
    branches: dict[str, tuple[Part, ...]] = {}
    for entry in data:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
            raise BadData("not a branch")
        name = entry[0]
        if name in branches or not allowed(name):
            raise BadData("not a branch name")
        branches[name] = _parts_from(entry[1], in_plural, depth + 1)
    return branches


def _quote(text: str, in_plural: bool) -> str:
    special = "{}#" if in_plural else "{}"
    out: list[str] = []
    for char in text:
        if char == "'":
            out.append("''")
        elif char in special:
            out.append(f"'{char}'")
        else:
            out.append(char)
    return "".join(out)
