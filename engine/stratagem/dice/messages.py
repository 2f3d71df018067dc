"""Lark's parse errors, said in plain words.

Lark reports *which terminal* it did not expect in *which parser state*.
A person needs to hear what is wrong with their dice expression and how to
fix it, so :func:`translate` looks at the unexpected token, the character
before it and the set of terminals that would have been accepted, and picks
the most specific message it has. Raw terminal names never reach the user.
"""

from __future__ import annotations

import re
import unicodedata

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from stratagem.dice.errors import DiceSyntaxError

#: Terminals of grammar/dice.lark in plain words.
WORDS = {
    "INT": "a number",
    "NAME": "a name",
    "DIE": "a die such as d6",
    "PCT_DIE": "d%",
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "BANG": "'!'",
    "KEEP": "kh/kl/dh/dl",
    "REPEAT": "'x'",
    "PERCENT": "'%'",
    "$END": "the end of the expression",
}
_OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH"}
_VALUE = "a number, a die (1d6), a name or '('"
_MULTIPLY_HINT = "write * to multiply, e.g. 2*TL"


def expected_words(expected: set[str]) -> str:
    """``{'INT', 'PLUS', ...}`` → ``"a number, an operator (+ - * /) or ')'"``."""
    words = []
    if expected & _OPERATORS:
        words.append("an operator (+ - * /)")
    words += sorted({WORDS.get(name, name.lower()) for name in expected - _OPERATORS})
    if len(words) <= 1:
        return "".join(words) or "nothing more"
    return ", ".join(words[:-1]) + " or " + words[-1]


def translate(text: str, err: UnexpectedInput) -> DiceSyntaxError:
    """A :class:`DiceSyntaxError` with a caret for one of Lark's parse errors."""
    if isinstance(err, UnexpectedCharacters):
        return _bad_character(text, err.pos_in_stream or 0)
    if isinstance(err, UnexpectedToken):
        return _bad_token(text, err)
    return DiceSyntaxError("this is not a dice expression", text=text, pos=0)  # pragma: no cover


def _bad_character(text: str, pos: int) -> DiceSyntaxError:
    ch = text[pos]
    hint = None
    if ch.isdigit() or unicodedata.category(ch) == "Nd":
        key, message = "dice.digit", f"'{ch}' is not one of the digits 0-9"
        hint = "retype the number with plain digits 0-9"
    elif ch in "дД":
        key, message = "dice.cyrillic_d", (f"'{ch}' is the Cyrillic letter; dice are written "
                                           "with the Latin d")
        hint = "retype it as d, e.g. 3d6"
    elif ch.isalpha():
        key, message = "dice.letter", (f"'{ch}' cannot be part of a name: names use the Latin "
                                       "letters, digits and '_'")
    elif ch == ".":
        key, message = "dice.fraction", "dice expressions use whole numbers only"
        hint = "'/' divides rounding down and ceil(a/b) rounds up"
    elif ch == "^":
        key, message = "dice.power", "'^' (power) is not part of the dice language"
        hint = "use * to multiply"
    elif ch in "[]{}":
        key, message = "dice.bracket", f"'{ch}' is not a parenthesis of the dice language"
        hint = "use round parentheses ( )"
    elif ch in "<>=":
        key, message = "dice.comparison", "comparisons are not part of a dice expression"
        hint = "compare the result in the rule that uses the roll"
    elif not ch.isprintable():
        key, message = "dice.invisible", f"unexpected invisible character U+{ord(ch):04X}"
        hint = "retype the expression"
    else:
        key, message = "dice.character", f"unexpected character '{ch}'"
    error = DiceSyntaxError(message, hint=hint, text=text, pos=pos)
    error.key, error.params = key, {"char": ch, "code": f"U+{ord(ch):04X}"}
    return error


def _bad_token(text: str, err: UnexpectedToken) -> DiceSyntaxError:
    token = err.token
    kind = token.type
    expected = set(err.expected)
    at_end = kind == "$END"
    before = text[: len(text) if at_end else token.start_pos].rstrip()
    pos = len(before) if at_end else token.start_pos
    prev = before[-1:] if before else ""
    message, hint, key, params = _explain(text, kind, str(token), before, prev, expected)
    error = DiceSyntaxError(message, hint=hint, text=text, pos=pos)
    error.key, error.params = key, params
    return error


#: What :func:`_explain` says: the English message and hint, the key and its parameters.
_Said = tuple[str, str | None, str, dict[str, object]]


def _said(key: str, message: str, hint: str | None = None, **params: object) -> _Said:
    return message, hint, f"dice.{key}", params


def _explain(
    text: str, kind: str, value: str, before: str, prev: str, expected: set[str]
) -> _Said:
    """``(message, hint)`` for an unexpected token of type ``kind``."""
    if kind == "$END":
        return _early_end(text, before, prev, expected)
    if kind == "BANG":
        if prev == "!":
            return _said("explode_twice", "a die explodes with a single '!'",
                         "write d6!, not d6!! or d6!!!")
        return _said("explode", "'!' (explode) can only follow a die", "e.g. d6! or 3d6!")
    if kind == "PERCENT":
        return _said("percent",
                     "'%' marks the whole result as a percentage, so it may only end the "
                     "expression", "e.g. (4d+20)% or 2x(1d+2)%")
    if kind == "REPEAT":
        return _said("repeat", "a repetition 'Nx' may only start the expression",
                     "e.g. 2x(1d+2-DR)")
    if kind == "KEEP":
        return _said("keep", f"'{value}' keeps or drops dice of a roll and must follow the die "
                     "directly", "e.g. 4d6kh3 or 2d20kl1; to keep the better (or worse) of "
                     "different dice, write max(d8!, d6!) (or min(...))", value=value)
    if kind == "COMMA":
        return _said("comma", "',' only separates the values of min(...) or max(...)",
                     "e.g. max(1d-2, 1)")
    if kind == "RPAR":
        if before.count("(") <= before.count(")"):
            return _said("unmatched", "')' has no matching '('")
        if prev == "(":
            return _said("empty", "empty parentheses", f"put a value inside: {_VALUE}")
        return _said("before_close", f"expected {_VALUE} before ')'")
    if kind == "MINUS" and prev == "-":
        return _said("minus", "too many minus signs in a row", "use parentheses, e.g. 1-(-2)")
    if kind in _OPERATORS:
        return _said("value_before", f"'{value}' needs a value before it",
                     f"put {_VALUE} before '{value}'", value=value)
    return _missing_operator(kind, value, before, prev, expected)


def _early_end(text: str, before: str, prev: str, expected: set[str]) -> _Said:
    if prev in ("+", "-", "*", "/"):
        return _said("value_after", f"'{prev}' needs a value after it", f"add {_VALUE}",
                     value=prev)
    if prev in ("(", ","):
        return _said("after_open", f"expected {_VALUE} after '{prev}'", value=prev)
    if text.count("(") > text.count(")") and "RPAR" in expected:
        return _said("unclosed", "a '(' is never closed", "add ')'")
    if re.search(r"[kKdD][hHlL]?$", before) and expected <= {"INT", "LPAR"}:
        return _said("keep_count", "say how many dice to keep or drop", "e.g. 2d20kh1 or 4d6dl1")
    if prev in ("x", "X"):
        return _said("repeat_what", "say what to repeat after 'x'", "e.g. 2x(1d6+2)")
    return _said("early_end", f"the expression ends too early; expected "
                 f"{expected_words(expected)}", expected=expected_words(expected))


def _missing_operator(
    kind: str, value: str, before: str, prev: str, expected: set[str]
) -> _Said:
    if kind == "NAME" and prev.isdigit():
        number = re.search(r"[0-9]+$", before)
        num = number.group(0) if number else prev
        if value[:1] in "dD":
            hint = (
                f"a die is 'd' followed by its number of sides (e.g. {num}d6); "
                f"to multiply write {num}*{value}"
            )
            return _said("name_not_die", f"after a number, '{value}' is read as a name, not a "
                         "die", hint, value=value, num=num)
        return _said("number_name", f"a number cannot be followed directly by the name "
                     f"'{value}'", f"write {num}*{value} to multiply, or ({value})d6 to roll "
                     f"{value} dice", value=value, num=num)
    if kind in ("DIE", "PCT_DIE") and (prev.isalpha() or prev == "_"):
        name = re.search(r"[A-Za-z_][A-Za-z0-9_.]*$", before)
        word = name.group(0) if name else "N"
        return _said("name_dice", f"a name used as a number of dice needs parentheses: write "
                     f"({word})d", f"e.g. ({word})d6", word=word)
    if kind in ("DIE", "PCT_DIE"):
        return _said("roll_dice", "a roll cannot be the number of dice of another roll",
                     "to drop dice write dl1 or dh1, e.g. 4d6dl1")
    if expected & _OPERATORS:
        shown = WORDS.get(kind, repr(value))
        if kind in ("INT", "NAME"):
            shown = f"'{value}'"
        return _said("operator", f"missing an operator before {shown}", _MULTIPLY_HINT,
                     shown=shown)
    shown = WORDS.get(kind, repr(value))
    return _said("unexpected", f"unexpected {shown}; expected {expected_words(expected)}",
                 shown=shown, expected=expected_words(expected))
