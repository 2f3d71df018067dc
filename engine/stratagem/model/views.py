"""Derived values kept up to date item by item: *filtered collections*.

A derived value of the form ``[f for f in forces if <condition of f>]`` — one of the
entity's child collections (or another of its derived lists), filtered by a condition that
reads only members of the item itself (``f.location == 'rout'``, ``f.on_field and f.count
> 0``) and constants — is what most rules keep about a side: the forces still on the
field, those routed. Computed again from the start after every change of one force, it
costs as many steps as the side has forces, after every engagement: a battle of n forces a
side then takes n² steps. The entity keeps such a value item by item instead
(`entities.py`, ``_View``): when a force changes, only that force's condition is evaluated
again, and the force enters or leaves the list in its place. The value is the list the
comprehension gives, in the same order (a new list whenever it changes: a list once read
never changes).

The comprehension may also give a value of each item instead of the item, made of the
same things as a condition: ``[f.name for f in forces if f.opponent == none]`` (the names
of the forces without an opponent, the options of a decision), with or without a
condition. Such a value is kept as the items whose condition holds, in order, beside the
values they give (the filter alone, ``[f for f in forces if ...]``, made when the ruleset
is compiled, finds them when the value is computed whole).

A condition that reads anything else (a field of the entity itself, another entity through
the item, a function's result) is not kept so: the value is computed whole, as before. The
item-by-item update is exact only because every change that can alter an item's condition
reaches the value through that item.
"""

from __future__ import annotations

import ast
from collections.abc import Collection

#: The syntax a condition may use: comparisons, truth operators, arithmetic, literals, the
#: item's members and constants. No call (a function could read other entities), no
#: subscript, no comprehension.
_ALLOWED = (ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd,
            ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In,
            ast.NotIn, ast.Is, ast.IsNot, ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Div,
            ast.FloorDiv, ast.Mod, ast.IfExp, ast.Constant, ast.Tuple, ast.List, ast.Name,
            ast.Attribute, ast.Load)


#: The names a derived value sees besides its entity's members.
_SCOPE_NAMES = frozenset({"self", "parent", "battle", "kind"})


def filtered_collection(node: ast.AST, lists: Collection[str],
                        members: Collection[str]) -> str | None:
    """The list (one of ``lists``: the entity's collections and other derived values) that
    the derived value ``node`` filters, if it is ``[x for x in LIST if CONDITION]``, or
    ``[VALUE for x in LIST]`` with or without conditions, whose conditions and value read
    nothing but members of ``x`` (``x.name``) and constants; else None. ``members`` are the
    names of the entity's own members, which a bare name would read (refused). (Both are
    looked in, not copied: a kind of many derived values asks once for each.)"""
    if not isinstance(node, ast.ListComp) or len(node.generators) != 1:
        return None
    loop = node.generators[0]
    if not (isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Name)
            and loop.iter.id in lists and not loop.is_async):
        return None
    item = loop.target.id
    whole = isinstance(node.elt, ast.Name) and node.elt.id == item
    if whole and not loop.ifs:
        return None  # the list itself
    for part in (*loop.ifs, *(() if whole else (node.elt,))):
        if not _of_the_item(part, item, members):
            return None
    return loop.iter.id


def _of_the_item(node: ast.AST, item: str, own: Collection[str]) -> bool:
    """Whether ``node`` reads nothing but members of the item ``item`` and constants."""
    for part in ast.walk(node):
        if not isinstance(part, _ALLOWED):
            return False
        if isinstance(part, ast.Attribute) and not (
                isinstance(part.value, ast.Name) and part.value.id == item):
            return False
        if isinstance(part, ast.Name) and part.id != item and (
                part.id in own or part.id in _SCOPE_NAMES):
            return False
    return True


def item_filter(node: ast.AST) -> str | None:
    """For a filtered collection that gives a value of each item (``[x.name for x in LIST
    if COND]``), the text of the filter that gives the items themselves (``[x for x in
    LIST if COND]``); None when it gives the items."""
    assert isinstance(node, ast.ListComp)
    item = node.generators[0].target
    assert isinstance(item, ast.Name)
    if isinstance(node.elt, ast.Name) and node.elt.id == item.id:
        return None
    return ast.unparse(ast.ListComp(elt=ast.Name(item.id, ast.Load()),
                                    generators=node.generators))
