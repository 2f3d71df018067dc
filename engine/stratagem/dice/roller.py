"""Rolling: a resolved tree compiled once into small closures.

:func:`compile_roller` turns a resolved tree (see :mod:`stratagem.dice.resolve`)
into a function ``run(randint, groups) -> int``. ``randint`` is the caller's
``rng.randint`` (all randomness goes through it, one call per die face), or,
compiled with ``bits=True``, a ``random.Random``'s ``getrandbits``, from which
each face is drawn as that generator's ``randint(1, sides)`` draws it (see
below); ``groups`` receives one entry per die node, in the order the dice are
rolled::

    (sides, values, chains, kept)

``values`` holds the value of each die (an exploded die's faces summed),
``chains`` the faces of each die when the die explodes (else ``None``) and
``kept`` one flag per die when a keep/drop suffix chose some (else ``None``).

Dice are rolled left to right, in the order they are written, so the trace
(:mod:`stratagem.dice.render`) can walk the original tree and meet the same
groups in the same order. Constants never roll, so folding them is safe.

:func:`compile_total` turns the same tree into ``total(getrandbits) -> int``,
for a caller that keeps only the total (a battle without a trace): the same
faces in the same order as the runner, none of them recorded.

A face drawn from ``getrandbits`` is the one ``randint(1, sides)`` gives: ``1 +
r``, ``r`` made of ``sides.bit_length()`` bits, drawn again while it is
``sides`` or more (``randint(a, b)`` is ``a + _randbelow(b - a + 1)`` once its
arguments are checked, and ``_randbelow`` is ``_randbelow_with_getrandbits`` in
CPython 3.11-3.13). A die always has at least one side. The tests check the
faces against ``randint`` itself, and that the generator moves on alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from stratagem.dice.ast import Call, CeilDiv, Const, Neg, Product, Sum
from stratagem.dice.resolve import RDie, RNode

Group = tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...] | None, tuple[bool, ...] | None]
RandInt = Callable[[int, int], int]
Bits = Callable[[int], int]
#: ``run(randint, groups)``, or ``run(getrandbits, groups)`` compiled with ``bits=True``
Runner = Callable[[Any, list[Group]], int]
Total = Callable[[Bits], int]


def compile_roller(node: RNode, bits: bool = False) -> Runner:
    """A function that rolls ``node`` once (see the module doc): with ``randint``, or with
    ``getrandbits`` when ``bits``."""
    if isinstance(node, Const):
        value = node.value
        return lambda randint, groups: value
    if isinstance(node, RDie):
        return _die_bits(node) if bits else _die(node)
    if isinstance(node, Neg):
        inner = compile_roller(node.operand, bits)
        return lambda randint, groups: -inner(randint, groups)
    if isinstance(node, Sum):
        return _sum(node, bits)
    if isinstance(node, Product):
        return _product(node, bits)
    if isinstance(node, CeilDiv):
        num, den = compile_roller(node.num, bits), compile_roller(node.den, bits)
        return lambda randint, groups: -(-num(randint, groups) // den(randint, groups))
    if isinstance(node, Call):
        args = [compile_roller(a, bits) for a in node.args]
        pick = min if node.func == "min" else max
        return lambda randint, groups: pick([f(randint, groups) for f in args])
    raise TypeError(f"not a resolved dice node: {node!r}")  # pragma: no cover


def _sum(node: Sum[RNode], bits: bool) -> Runner:
    constant = 0
    terms: list[tuple[bool, Runner]] = []
    for op, term in [("+", node.first), *((op, n) for op, n, _ in node.rest)]:
        if isinstance(term, Const):
            constant += term.value if op == "+" else -term.value
        else:
            terms.append((op == "+", compile_roller(term, bits)))
    if len(terms) == 1 and terms[0][0]:
        only = terms[0][1]
        return lambda randint, groups: only(randint, groups) + constant

    def run(randint: RandInt, groups: list[Group]) -> int:
        total = constant
        for plus, term in terms:
            if plus:
                total += term(randint, groups)
            else:
                total -= term(randint, groups)
        return total

    return run


def _product(node: Product[RNode], bits: bool) -> Runner:
    first = compile_roller(node.first, bits)
    rest = [(op == "*", compile_roller(n, bits)) for op, n, _ in node.rest]

    def run(randint: RandInt, groups: list[Group]) -> int:
        value = first(randint, groups)
        for times, factor in rest:
            if times:
                value *= factor(randint, groups)
            else:
                value //= factor(randint, groups)
        return value

    return run


def _die(node: RDie) -> Runner:
    count, sides = node.count, node.sides
    if node.depth == 0 and node.keep is None:
        if count == 1:

            def one(randint: RandInt, groups: list[Group]) -> int:
                face = randint(1, sides)
                groups.append((sides, (face,), None, None))
                return face

            return one
        # randint(1, sides) for each die, called by map (no comprehension's frame a roll)
        ones, each = (1,) * count, (sides,) * count

        def plain(randint: RandInt, groups: list[Group]) -> int:
            faces = tuple(map(randint, ones, each))
            groups.append((sides, faces, None, None))
            return sum(faces)

        return plain
    return _general_die(node)


def _general_die(node: RDie) -> Runner:
    count, sides, depth, keep, highest = node.count, node.sides, node.depth, node.keep, node.highest
    dice = range(count)

    def run(randint: RandInt, groups: list[Group]) -> int:
        chains: tuple[tuple[int, ...], ...] | None = None
        if depth:
            rolled = []
            for _ in dice:
                face = randint(1, sides)
                chain = [face]
                while face == sides and len(chain) <= depth:
                    face = randint(1, sides)
                    chain.append(face)
                rolled.append(tuple(chain))
            chains = tuple(rolled)
            values = tuple([sum(chain) for chain in chains])
        else:
            values = tuple([randint(1, sides) for _ in dice])
        if keep is None:
            groups.append((sides, values, chains, None))
            return sum(values)
        order = sorted(dice, key=values.__getitem__, reverse=highest)[:keep]
        flags = [False] * count
        for index in order:
            flags[index] = True
        groups.append((sides, values, chains, tuple(flags)))
        return sum(values[index] for index in order)

    return run


def _die_bits(node: RDie) -> Runner:
    """:func:`_die` drawing from ``getrandbits`` (see the module doc)."""
    count, sides = node.count, node.sides
    k = sides.bit_length()
    if node.depth or node.keep is not None:  # explodes or keeps: drawn through a randint
        general = _general_die(node)
        return lambda bits, groups: general(_randint(bits), groups)
    if count == 1:

        def one(bits: Bits, groups: list[Group]) -> int:
            r = bits(k)
            while r >= sides:
                r = bits(k)
            groups.append((sides, (r + 1,), None, None))
            return r + 1

        return one
    dice = range(count)

    def plain(bits: Bits, groups: list[Group]) -> int:
        faces = []
        for _ in dice:
            r = bits(k)
            while r >= sides:
                r = bits(k)
            faces.append(r + 1)
        groups.append((sides, tuple(faces), None, None))
        return sum(faces)

    return plain


def _randint(bits: Bits) -> RandInt:
    """``randint`` drawn from ``getrandbits`` (see the module doc; a die asks for
    ``randint(1, sides)``, never an empty range)."""

    def randint(low: int, high: int) -> int:
        n = high - low + 1
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return low + r

    return randint


# -- the total only -----------------------------------------------------------------------
def compile_total(node: RNode) -> Total:
    """A function that rolls ``node`` once with ``getrandbits`` and gives only its total
    (see the module doc): the runner's faces, in the runner's order."""
    if isinstance(node, Const):
        value = node.value
        return lambda bits: value
    if isinstance(node, RDie):
        return _die_total(node)
    if isinstance(node, Neg):
        inner = compile_total(node.operand)
        return lambda bits: -inner(bits)
    if isinstance(node, Sum):
        return _sum_total(node)
    if isinstance(node, Product):
        return _product_total(node)
    if isinstance(node, CeilDiv):
        num, den = compile_total(node.num), compile_total(node.den)
        return lambda bits: -(-num(bits) // den(bits))
    if isinstance(node, Call):
        args = [compile_total(a) for a in node.args]
        pick = min if node.func == "min" else max
        return lambda bits: pick([f(bits) for f in args])
    raise TypeError(f"not a resolved dice node: {node!r}")  # pragma: no cover


def _sum_total(node: Sum[RNode]) -> Total:
    constant = 0
    terms: list[tuple[bool, Total]] = []
    for op, term in [("+", node.first), *((op, n) for op, n, _ in node.rest)]:
        if isinstance(term, Const):
            constant += term.value if op == "+" else -term.value
        else:
            terms.append((op == "+", compile_total(term)))
    if len(terms) == 1 and terms[0][0]:
        only = terms[0][1]
        return lambda bits: only(bits) + constant

    def run(bits: Bits) -> int:
        total = constant
        for plus, term in terms:
            if plus:
                total += term(bits)
            else:
                total -= term(bits)
        return total

    return run


def _product_total(node: Product[RNode]) -> Total:
    first = compile_total(node.first)
    rest = [(op == "*", compile_total(n)) for op, n, _ in node.rest]

    def run(bits: Bits) -> int:
        value = first(bits)
        for times, factor in rest:
            if times:
                value *= factor(bits)
            else:
                value //= factor(bits)
        return value

    return run


def _die_total(node: RDie) -> Total:
    # a face is 1 + r, r drawn as randint(1, sides) draws it (see the module doc)
    count, sides, depth, keep, highest = node.count, node.sides, node.depth, node.keep, node.highest
    k = sides.bit_length()
    dice = range(count)
    if depth == 0 and keep is None:
        if count == 1:

            def one(bits: Bits) -> int:
                r = bits(k)
                while r >= sides:
                    r = bits(k)
                return r + 1

            return one

        def plain(bits: Bits) -> int:
            total = count  # the 1 of each face
            for _ in dice:
                r = bits(k)
                while r >= sides:
                    r = bits(k)
                total += r
            return total

        return plain

    def run(bits: Bits) -> int:
        values = []
        for _ in dice:
            r = bits(k)
            while r >= sides:
                r = bits(k)
            face = value = r + 1
            rolls = 1
            while face == sides and rolls <= depth:  # an exploding die rolls again
                r = bits(k)
                while r >= sides:
                    r = bits(k)
                face = r + 1
                value += face
                rolls += 1
            values.append(value)
        if keep is None:
            return sum(values)
        # the kept dice's values: the same whichever of equal dice the runner flags
        return sum(sorted(values, reverse=highest)[:keep])

    return run
