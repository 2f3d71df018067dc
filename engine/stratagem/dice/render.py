"""The human trace of a roll: ``4d+20 = [3,5,1,6]+20 = 35%``.

The original tree is walked in rolling order; each die node is shown as the
faces it rolled, each name as its value. In a die list ``~3`` is a dropped
die and ``6!6!2`` an exploding die that rolled 6, 6, then 2 (worth 14).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from stratagem.dice.ast import Call, CeilDiv, Const, Die, Name, Neg, Node, Product, Sum
from stratagem.dice.errors import as_text
from stratagem.dice.roller import Group

_ATOM, _UNARY, _PRODUCT, _SUM = 4, 3, 2, 1


def show_group(group: Group) -> str:
    """``(6, (3, 14), ((3,), (6, 6, 2)), (False, True))`` → ``[~3,6!6!2]``."""
    _sides, values, chains, kept = group
    shown = []
    for index, value in enumerate(values):
        text = (
            "!".join(map(str, chains[index])) if chains and len(chains[index]) > 1 else str(value)
        )
        if kept is not None and not kept[index]:
            text = "~" + text
        shown.append(text)
    return "[" + ",".join(shown) + "]"


def render(node: Node, env: Mapping[str, int], groups: Iterator[Group]) -> str:
    """``node`` with its dice replaced by their faces and its names by their values."""
    return _render(node, env, groups)[0]


def _wrap(part: tuple[str, int], below: int, right: bool = True) -> str:
    """Parenthesize ``part`` if it binds no tighter than ``below`` (or is a negative right operand)."""
    text, precedence = part
    return f"({text})" if precedence <= below or (right and text.startswith("-")) else text


def _render(node: Node, env: Mapping[str, int], groups: Iterator[Group]) -> tuple[str, int]:
    if isinstance(node, Const):
        return as_text(node.value), _ATOM
    if isinstance(node, Name):
        value = env[node.name]
        return as_text(value), _ATOM if value >= 0 else _UNARY
    if isinstance(node, Die):
        return show_group(next(groups)), _ATOM
    if isinstance(node, Neg):
        return "-" + _wrap(_render(node.operand, env, groups), _UNARY - 1), _UNARY
    if isinstance(node, Sum):
        text = _wrap(_render(node.first, env, groups), _SUM - 1, right=False)
        for op, term, _ in node.rest:
            text += op + _wrap(_render(term, env, groups), _SUM)
        return text, _SUM
    if isinstance(node, Product):
        text = _wrap(_render(node.first, env, groups), _PRODUCT - 1, right=False)
        for op, factor, _ in node.rest:
            text += op + _wrap(_render(factor, env, groups), _PRODUCT)
        return text, _PRODUCT
    if isinstance(node, CeilDiv):
        num = _wrap(_render(node.num, env, groups), _PRODUCT - 1, right=False)
        den = _wrap(_render(node.den, env, groups), _PRODUCT)
        return f"ceil({num}/{den})", _ATOM
    if isinstance(node, Call):
        args = ",".join(_render(a, env, groups)[0] for a in node.args)
        return f"{node.func}({args})", _ATOM
    raise TypeError(f"not a dice AST node: {node!r}")  # pragma: no cover
