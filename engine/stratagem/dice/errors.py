"""The errors of the dice language, each one something a person can act on.

``DiceError`` is the root; ``DiceSyntaxError`` (the text is not a dice
expression), ``DiceValueError`` (it is one, but a value is impossible: 0 sides,
an unbound name, a division by zero) and ``DiceLimitError`` (a resource bound
was hit) narrow it. When the column is known, ``context`` holds the
expression with a caret under it, ready to print.
"""

from __future__ import annotations

from collections.abc import Mapping

from stratagem.errors import LimitError, StratagemError, Texts, caret


def short(number: int) -> str:
    """``number`` for a message; a huge one as "a number of about 900 digits"."""
    if -(10**15) < number < 10**15:
        return str(number)
    digits = int(abs(number).bit_length() * 0.30103) + 1
    return f"{'minus ' if number < 0 else ''}a number of about {digits} digits"


def as_text(number: int) -> str:
    """``str(number)``, or :func:`short` past Python's limit on the digits of an int."""
    try:
        return str(number)
    except ValueError:
        return short(number)


class DiceError(StratagemError):
    """Root of every error raised for a dice expression.

    ``text`` is the expression, ``column`` the 1-based column of the problem
    (``None`` when the whole expression is at fault). A caller that knows where
    the expression sits in a file adds that with :meth:`with_location`.
    """

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        text: str | None = None,
        pos: int | None = None,
        key: str | None = None,
        params: Mapping[str, object] | None = None,
        hint_key: str | None = None,
    ) -> None:
        context = caret(text, pos) if text is not None and pos is not None else None
        super().__init__(message, hint=hint, context=context, key=key, params=params,
                         hint_key=hint_key)
        self.text = text
        self.column = None if pos is None else pos + 1

    def to_json(self, texts: Texts | None = None) -> dict[str, object]:
        data = super().to_json(texts)
        data["expression"] = self.text
        data["expression_column"] = self.column
        return data


class DiceSyntaxError(DiceError):
    """The text is not a dice expression (or uses a form the language does not have)."""


class DiceValueError(DiceError):
    """A value in the expression is impossible: 0 sides, a negative count, an unbound name..."""


class DiceLimitError(DiceError, LimitError):
    """A bound of :class:`~stratagem.dice.DiceLimits` was hit."""
