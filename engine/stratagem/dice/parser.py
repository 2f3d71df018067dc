"""``parse_dice``: text → :class:`~stratagem.dice.DiceExpr`, cached.

Cheap checks come first (length, emptiness, nesting of parentheses) so a
hostile string is refused before the parser sees it. The Lark parser lives in
:mod:`stratagem.dice.builder`, imported on the first parse, never at import
time. Results are cached by (text, dialect, limits): a ruleset names the same
dice cells many times.
"""

from __future__ import annotations

from functools import lru_cache

from stratagem.dice.config import DiceDialect, DiceLimits
from stratagem.dice.errors import DiceLimitError, DiceSyntaxError
from stratagem.dice.expr import _INTERNED, DiceExpr, interned

DEFAULT_DIALECT = DiceDialect()
DEFAULT_LIMITS = DiceLimits()

#: Typographic signs copied from books, read as their plain forms (one character
#: for one, so columns stay right): the minus sign and en dash, the times sign.
_PLAIN = str.maketrans({"\u2212": "-", "\u2013": "-", "\u00d7": "x"})


def parse_dice(
    text: str,
    dialect: DiceDialect = DEFAULT_DIALECT,
    limits: DiceLimits = DEFAULT_LIMITS,
) -> DiceExpr:
    """Parse a dice expression (see docs/dice.md) into an immutable :class:`DiceExpr`.

    An expression without names is also checked in full (``1d0`` fails here).
    Raises :class:`~stratagem.dice.DiceError` (syntax, value or limit).
    """
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str):
        raise DiceSyntaxError(f"a dice expression must be text, not {type(text).__name__}",
                              key="dice.not_text", params={"type": type(text).__name__})
    return _parse(text, dialect, limits)


def clear_caches() -> None:
    """Forget every parsed expression (for tests and benchmarks)."""
    _parse.cache_clear()
    _INTERNED.clear()


@lru_cache(maxsize=4096)
def _parse(text: str, dialect: DiceDialect, limits: DiceLimits) -> DiceExpr:
    if len(text) > limits.max_length:
        raise DiceLimitError(
            f"the expression is {len(text)} characters long, more than the limit of "
            f"{limits.max_length}",
            hint="a dice expression is short; check that the right text was given",
            text=text,
            pos=limits.max_length,
            key="dice.too_long", params={"n": str(len(text)), "max": str(limits.max_length)},
        )
    stripped = text.strip()
    if not stripped:
        raise DiceSyntaxError(
            "empty dice expression", hint="write a roll such as 1d6, 3d6+2 or 2d20kh1",
            key="dice.nothing",
        )
    plain = stripped.translate(_PLAIN)
    _check_nesting(plain, limits)
    from stratagem.dice.builder import build

    try:
        repeat, body, is_percent = build(plain, dialect)
    except RecursionError:
        raise DiceLimitError("the expression nests too deeply", text=stripped,
                             key="dice.too_deep") from None
    return interned(stripped, body, repeat, is_percent, dialect, limits)


def _check_nesting(text: str, limits: DiceLimits) -> None:
    depth = 0
    for pos, ch in enumerate(text):
        if ch == "(":
            depth += 1
            if depth > limits.max_nesting:
                raise DiceLimitError(
                    f"parentheses are nested more than {limits.max_nesting} deep",
                    hint="remove the extra parentheses",
                    text=text,
                    pos=pos,
                    key="dice.parentheses_deep", params={"max": str(limits.max_nesting)},
                )
        elif ch == ")":
            depth -= 1
