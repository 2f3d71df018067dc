"""Lark parse tree → immutable AST. Imported lazily: importing lark costs time.

The Lark parser is built once, on first use, from ``grammar/dice.lark``. The
tree is transformed without recursion (``Transformer_NonRecursive``), and every
rule of the grammar has one small method below. Checks that need the
dialect or the exact text (``4d%``, ``-1d6``, unknown functions) happen here
so that they are syntax errors with a caret.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, cast

from lark import Lark, Token, Transformer_NonRecursive, v_args
from lark.exceptions import UnexpectedInput, VisitError

from stratagem.dice.ast import (
    Call,
    CeilDiv,
    Const,
    Die,
    Keep,
    Name,
    Neg,
    Node,
    Product,
    Sum,
    has_dice,
)
from stratagem.dice.config import DiceDialect
from stratagem.dice.errors import DiceError, DiceLimitError, DiceSyntaxError
from stratagem.dice.messages import translate
from stratagem.resources import data_dir


@cache
def lark_parser() -> Lark:
    """The LALR parser of ``grammar/dice.lark``, built on first use."""
    return Lark.open(
        str(data_dir("grammar") / "dice.lark"),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=True,
    )


def build(text: str, dialect: DiceDialect) -> tuple[Node | None, Node, bool]:
    """Parse ``text`` into ``(repeat count or None, body, is_percent)``."""
    try:
        tree = lark_parser().parse(text)
    except UnexpectedInput as err:
        raise translate(text, err) from None
    try:
        return _ToAst(text, dialect).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, DiceError):
            raise err.orig_exc from None
        raise


def _end_of_die(text: str, pos: int) -> int:
    """The end of the plain ``NdM`` written at ``pos`` (for quoting it in a hint)."""
    match = _PLAIN_DIE.match(text, pos)
    return match.end() if match else pos + 1


_PLAIN_DIE = re.compile(r"[0-9]+\s*[dD](%|[0-9]*)")


#: What :meth:`_fixed` names (the ``what`` of ``dice.rolled_count``), in English.
_FIXED = {"repetitions": "the number of repetitions", "keep": "the number of dice to keep or drop",
          "dice": "the number of dice", "sides": "the number of sides"}

class _ToAst(Transformer_NonRecursive[Token, Any]):
    """One method per grammar rule or alias; returns AST nodes."""

    def __init__(self, text: str, dialect: DiceDialect) -> None:
        super().__init__(visit_tokens=False)
        self.text = text
        self.dialect = dialect

    def _error(self, message: str, pos: int, hint: str | None = None, *, key: str,
               **params: object) -> DiceSyntaxError:
        return DiceSyntaxError(message, hint=hint, text=self.text, pos=pos, key=key,
                               params=params)

    def _fixed(self, node: Node | None, pos: int, what: str) -> None:
        if node is not None and has_dice(node):
            raise self._error(
                f"{_FIXED[what]} must be known before rolling; it cannot itself be rolled",
                pos,
                hint="use numbers and names here, e.g. (TL/2)d6 or 2x(1d6)",
                key="dice.rolled_count", what=what,
            )

    def start(self, children: list[Any]) -> tuple[Node | None, Node, bool]:
        count, repeat_token, body, percent = children
        if repeat_token is not None:
            self._fixed(count, 0, "repetitions")
        return count, body, percent is not None

    def int(self, children: list[Token]) -> Const:
        token = children[0]
        try:
            return Const(int(token))
        except ValueError:  # over Python's limit on the digits of an int (4300)
            raise DiceLimitError(
                f"a number of {len(token)} digits is too long",
                text=self.text,
                pos=token.start_pos,
                key="dice.long_number", params={"digits": len(token)},
            ) from None

    def name(self, children: list[Token]) -> Name:
        token = children[0]
        return Name(str(token), cast(int, token.start_pos))  # the lexer set it

    def add(self, children: list[Any]) -> Sum[Node]:
        left, op, right = children
        item = (str(op), right, op.start_pos)
        if isinstance(left, Sum):
            return Sum(left.first, (*left.rest, item))
        return Sum(left, (item,))

    sub = add

    def mul(self, children: list[Any]) -> Product[Node]:
        left, op, right = children
        item = (str(op), right, op.start_pos)
        if isinstance(left, Product):
            return Product(left.first, (*left.rest, item))
        return Product(left, (item,))

    div = mul

    def neg(self, children: list[Any]) -> Neg[Node]:
        minus, operand = children
        if (
            isinstance(operand, Die)
            and self.text[operand.pos].isdigit()
            and not self.text[minus.end_pos : operand.pos].strip()
        ):
            die = self.text[operand.pos : _end_of_die(self.text, operand.pos)]
            raise self._error(
                "a minus sign right before a number of dice is ambiguous: "
                "a die count cannot be negative",
                minus.start_pos,
                hint=f"to subtract a roll write -({die}) or 0-{die}",
                key="dice.negative_count", die=die,
            )
        return Neg(operand)

    def args(self, children: list[Any]) -> tuple[Node, ...]:
        return tuple(children)

    @v_args(meta=True)
    def call(self, meta, children: list[Any]) -> Node:  # type: ignore[no-untyped-def]
        name, args = children
        func = str(name)
        pos = meta.start_pos
        if func in ("min", "max"):
            if len(args) < 2:
                raise self._error(
                    f"{func}(...) needs at least two values separated by commas",
                    pos,
                    hint=f"e.g. {func}(1d6-2, 1)",
                    key="dice.min_max_values", func=func,
                )
            return Call(func, args, pos)
        if func in ("ceil", "floor"):
            arg = args[0] if len(args) == 1 else None
            if not (isinstance(arg, Product) and arg.rest[-1][0] == "/"):
                raise self._error(
                    f"{func}(...) takes one division, e.g. {func}(TL/2)",
                    pos,
                    hint="'/' alone already rounds down; ceil(a/b) rounds up",
                    key="dice.ceil_floor_division", func=func,
                )
            if func == "floor":
                return arg
            num: Node = arg.first if len(arg.rest) == 1 else Product(arg.first, arg.rest[:-1])
            return CeilDiv(num, arg.rest[-1][1], pos)
        raise self._error(
            f"unknown function '{func}'",
            pos,
            hint="the functions are min(...), max(...), ceil(a/b) and floor(a/b)",
            key="dice.unknown_function", func=func,
        )

    def plain_die(self, children: list[Any]) -> tuple[Token, Node | None, bool]:
        token, sides = children
        return token, sides, False

    def percent_die(self, children: list[Token]) -> tuple[Token, Node | None, bool]:
        return children[0], Const(100), True

    def keep(self, children: list[Any]) -> Keep:
        token, count = children
        kind = str(token).lower()
        self._fixed(count, token.end_pos, "keep")
        return Keep("kh" if kind == "k" else kind, count, token.start_pos)

    @v_args(meta=True)
    def dice(self, meta, children: list[Any]) -> Die:  # type: ignore[no-untyped-def]
        count, (token, sides, percentile), bang, keep = children
        pos = meta.start_pos
        default = self.dialect.default_sides
        if sides is None:
            if default is None:
                raise self._error(
                    "a die needs a number of sides, e.g. 1d6",
                    token.end_pos,
                    hint="this ruleset has no default die, so write the sides after 'd'",
                    key="dice.no_sides",
                )
            sides = Const(default)
        if percentile and count is not None and default is not None:
            raise self._error(
                f"'{self.text[pos : token.end_pos]}' is ambiguous in a ruleset where "
                f"'d' alone means d{default}",
                token.start_pos,
                hint=f"write {self.text[pos : token.start_pos].strip()}d100 for percentile dice, "
                f"or ({self.text[pos : token.start_pos].strip()}d)% for a roll read as a percentage",
                key="dice.percent_ambiguous", written=self.text[pos : token.end_pos],
                count=self.text[pos : token.start_pos].strip(), default=str(default),
            )
        self._fixed(count, pos, "dice")
        self._fixed(sides, token.end_pos, "sides")
        return Die(
            count if count is not None else Const(1),
            sides,
            bang is not None,
            keep,
            pos,
            percentile,
        )
