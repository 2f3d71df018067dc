"""Expressions compiled to Python functions: the fast evaluator.

An expression that passed :func:`stratagem.expr.compile_expr` uses only the whitelisted
syntax (names, constants, arithmetic, comparisons, ``and/or/not``, ``x if c else y``,
subscripts, literals, comprehensions, attribute reads, calls of named functions). This
module rewrites that tree so that nothing in it can reach Python itself, then compiles
it once into a function of the scope:

- a name ``x`` becomes ``scope['x']`` (comprehension variables stay local); a name that
  is also a constant of the ruleset becomes ``scope['x'] if 'x' in scope else <constant>``,
  so a procedure's scope is a plain dict that holds only its own names (the constants are
  globals of the function, bound once); ``d[k]`` becomes ``item(d, k)`` (so a missing
  entry is told from a missing name);
- a derived value's expression may instead be compiled into a function of its entity
  (``own``: how the entity answers each of its names, known from its kind): a field is read
  from the entity's dict of fields, a derived value of the same entity through a reader made
  for its kind and name (a global of the function, as a typed read's), its parent and the
  battle through the readers the evaluator holds (``OWN_READERS``), ``self`` is the entity,
  and a name the entity does not answer is the constant, as the scope would have answered
  (the names stay constants of the tree in every case, never identifiers);
- a call ``f(a)`` calls the evaluator's function ``f`` (a global of the compiled
  function, which has no builtins at all);
- ``a.b`` becomes ``attr(a, 'b')``, which refuses methods (names starting with ``_``
  were refused at load); where the static checks know what ``a`` is (``reads``, from
  ``compile/typed_reads.py``), ``a.b`` is instead read from the dict in which ``a`` keeps
  its members (``a._f['b']``, an entity's field; ``a._cells['b']``, a row's cell) or by a
  reader made for ``a``'s kind and ``b`` (a derived value), a global of the function. The
  stores and the readers' globals are the engine's names, ``'b'`` a constant of the tree.
  An expression with such reads is compiled twice (the second time when first needed):
  should a store read fail (``a`` not what the checks said: ``AttributeError``,
  ``KeyError``), the function computes the expression again by the function without
  them, which gives what it always gave (an expression changes nothing; the only trace of
  the first try is the work it counted against ``limits.max_work`` before it failed). Such
  a failure never comes from an inner derived value or formula, whose errors reach it as
  rule-file errors, so it is computed again at most once. The readers test their owner
  themselves;
- ``+``, ``*``, ``/``, ``//``, ``%``, ``**`` call the same bounded operators the
  simpleeval evaluator uses (no ``'x' * 10**9``, exact division, no huge powers), but for
  ``+`` and ``*`` of two whole numbers, the most frequent case, written inline (see
  :meth:`_Rewrite.visit_BinOp`);
- every comprehension draws on one budget of items per evaluation, and a generator
  expression is made into a list at once (as simpleeval does).

The result is the same as simpleeval's for every expression (`tests/expr` and the
battle comparison in `tests/engine/test_evaluators.py` check it), several times faster.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Collection, Mapping
from fractions import Fraction
from typing import Any, Final

from mypy_extensions import mypyc_attr

from stratagem.expr.bounds import MAX_DIGITS, METER

#: Result types simpleeval need not inspect for forbidden functions or modules: plain
#: values, and the engine's own state objects (which register themselves here).
SAFE_RESULT_TYPES: set[type] = {int, float, str, bool, type(None), Fraction}

#: Items all the comprehensions of one evaluation may walk through together.
MAX_COMPREHENSION_ITEMS: Final = 10_000

class MethodRefused(Exception):
    """An expression read a method (it could change the state if called)."""

    def __init__(self, attr: str) -> None:
        super().__init__(attr)
        self.attr = attr


class MissingEntry(Exception):
    """``d[key]`` found no entry (told apart from a name missing from the scope)."""

    def __init__(self, key: Any) -> None:
        super().__init__(key)
        self.key = key


def item(container: Any, key: Any) -> Any:
    """``container[key]`` for a compiled expression."""
    try:
        return container[key]
    except KeyError:
        raise MissingEntry(key) from None


class TooManyItems(Exception):
    """The comprehensions of one evaluation walked through too many items."""


def read_attribute(owner: Any, name: str) -> Any:
    """``owner.name`` for a compiled expression: a value, never a method. (An evaluator
    may be given a reader that answers the engine's own state objects faster, falling back
    to this one.)"""
    value = getattr(owner, name)
    if callable(value):
        raise MethodRefused(name)
    return value


def budgeted(items: Any, budget: list[int]) -> Any:
    """The items of one comprehension loop, counted against the evaluation's budget."""
    if type(items) is not list and not isinstance(items, (list, tuple, range, dict, str)):
        items = list(items)
    n = len(items)
    walked = budget[0] + n
    budget[0] = walked
    if walked > MAX_COMPREHENSION_ITEMS:
        raise TooManyItems(f"comprehensions walk more than {MAX_COMPREHENSION_ITEMS:,} items")
    left = METER.left - n  # METER.charge(n), written out (a hot path)
    METER.left = left
    if left < 0:
        METER.charge(0)  # the meter's error
    return items


_SCOPE = "__s"
_BUDGET = "__b"
_ATTR = "__attr"
_ITEMS = "__items"
_ITEM = "__item"
_CALL = "__call"
_TYPE = "__type"
_INT = "__int"
_ENTITY = "__e"
_FIELDS = "__f"
_SLOW = "__slow"
_MISS = "__miss"
_QUOTIENT = "__quotient"

#: The rounding functions whose call of a quotient, ``floor(a / b)``, is written as one call
#: of the namespace's ``__quotient`` (see :meth:`_Rewrite.visit_Call`).
_ROUNDINGS: Final = frozenset({"floor", "ceil", "round_down", "round_up"})

#: How a member read whose owner's type the static checks know (:func:`compile_function`'s
#: ``reads``) is written: from the dict in which the owner keeps its members by name
#: (``owner.<store>['b']``, the store one of :data:`STORES`), or through a reader of its own,
#: a global of the function (``reader(owner)``, the global one :func:`reader_name` names).
TYPED_STORE: Final = "store"
TYPED_READER: Final = "reader"
#: The stores a typed read may read from: an entity's fields (``model.entities.Entity``)
#: and a table row's cells (``model.tables.Row``); no other object has either attribute.
STORES: Final = ("_f", "_cells")
#: What a function with typed reads catches to fall back on the function without them: what
#: a store read raises when its owner is not what the checks said (no store: AttributeError)
#: or lacks the member (KeyError).
_FALLBACK_ERRORS: Final = (AttributeError, KeyError)

#: How a function of an entity (:func:`compile_function`'s ``own``) reads a name the entity
#: answers: a field (or a child collection) from the dict of its fields, the function's second
#: parameter; ``self``, the entity, its first; ``parent`` and ``battle`` through the reader of
#: that name, a global of the function (``namespace``'s ``own``), called with the entity and
#: the name; a derived value through a reader of its own (a global :func:`reader_name` names,
#: as a typed read's), called with the entity alone.
OWN_FIELD: Final = "field"
OWN_SELF: Final = "self"
OWN_READERS: Final = ("parent", "battle")
#: Every way :func:`compile_function` takes of reading a name but a reader's global.
_OWN_WAYS: Final = (OWN_FIELD, OWN_SELF) + OWN_READERS


def _own_reader(how: str) -> str:
    return f"__own_{how}"


def reader_name(index: int) -> str:
    """The global through which compiled code calls the reader of a typed member read."""
    return f"__read{int(index)}"


#: A typed member read, as :func:`compile_function` takes it: (the ``ast.Attribute`` node
#: of the expression's tree, :data:`TYPED_STORE` or :data:`TYPED_READER`, the store or the
#: reader's global).
TypedRead = tuple[ast.AST, str, str]


def constant_name(name: str) -> str:
    """The global through which compiled code reads a constant of the ruleset."""
    return f"__k_{name}"


def global_name(function: str) -> str:
    """The global through which compiled code calls a rule-file function."""
    return f"__f_{function}"


def _op(op: type) -> str:
    return f"__op_{op.__name__}"


#: Binary operators evaluated natively: they cannot grow a value out of bounds.
_NATIVE_BINOPS = (ast.Sub,)
#: Binary operators written inline for two whole numbers (see `_Rewrite.visit_BinOp`).
_INLINE_BINOPS = (ast.Add, ast.Mult)
#: The bound of a whole number an operator may make (`bounds.check_number`'s).
_INT_BOUND: Final = 10**MAX_DIGITS


@mypyc_attr(native_class=False)
class _Rewrite(ast.NodeTransformer):
    def __init__(self, operators: Mapping[type, Any], constants: Collection[str],
                 checked: bool, own: Mapping[str, str] | None = None,
                 typed: Mapping[ast.AST, tuple[str, str]] | None = None,
                 quotient: bool = False) -> None:
        self.operators = operators
        #: the namespace has `__quotient` (see `visit_Call`)
        self.quotient = quotient
        self.constants = constants
        self.checked = checked
        self.own = own
        #: the member reads written without `attr` (each node: how, see `TypedRead`)
        self.typed = typed or {}
        self.bound: list[set[str]] = []
        self.uses_budget = False
        self.temps = 0
        #: inside the items a comprehension walks (where Python refuses `:=`)
        self.in_items = 0

    # names and calls -----------------------------------------------------------------
    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Store) or any(node.id in b for b in self.bound):
            return node
        if self.own is not None:
            return ast.copy_location(self._own(node.id), node)
        scope = ast.Name(_SCOPE, ast.Load())
        read: ast.expr = ast.Subscript(scope, ast.Constant(node.id), ast.Load())
        if node.id in self.constants:
            read = ast.IfExp(ast.Compare(ast.Constant(node.id), [ast.In()], [scope]), read,
                             ast.Name(constant_name(node.id), ast.Load()))
        return ast.copy_location(read, node)

    def _own(self, name: str) -> ast.expr:
        """A name read in a function of an entity, as the entity's scope would answer it
        (``model.entities.EntityScope``: its fields, its derived values, ``self``,
        ``parent``, ``battle``; then the ruleset's constants): a field that is also a
        constant is the constant while the entity has no such field; a name the entity does
        not answer is the constant, or the KeyError the scope raises (``{}['x']``)."""
        assert self.own is not None
        how = self.own.get(name)
        key = ast.Constant(name)
        if how == OWN_FIELD:
            fields = ast.Name(_FIELDS, ast.Load())
            read: ast.expr = ast.Subscript(fields, key, ast.Load())
            if name in self.constants:
                read = ast.IfExp(ast.Compare(ast.Constant(name), [ast.In()], [fields]), read,
                                 ast.Name(constant_name(name), ast.Load()))
            return read
        if how == OWN_SELF:
            return ast.Name(_ENTITY, ast.Load())
        if how is not None:
            if how in OWN_READERS:
                return _call(_own_reader(how), ast.Name(_ENTITY, ast.Load()), key)
            return _call(how, ast.Name(_ENTITY, ast.Load()))  # checked: `compile_function`
        if name in self.constants:
            return ast.Name(constant_name(name), ast.Load())
        return ast.Subscript(ast.Dict([], []), key, ast.Load())

    def visit_Call(self, node: ast.Call) -> ast.AST:
        assert isinstance(node.func, ast.Name)  # compile_expr refused every other callee
        if (self.quotient and not self.checked and node.func.id in _ROUNDINGS
                and len(node.args) == 1 and not node.keywords
                and isinstance(node.args[0], ast.BinOp) and isinstance(node.args[0].op, ast.Div)
                and ast.Div in self.operators):
            # floor(a / b) -> __quotient(floor, div, a, b): the function and the operator
            # read where the call would read them, then a and b, each once, in their order;
            # __quotient computes floor(div(a, b)) (of two whole numbers with the built-in
            # floor and `/`, by floor division: no Fraction made)
            quotient = node.args[0]
            return ast.copy_location(_call(
                _QUOTIENT, ast.Name(global_name(node.func.id), ast.Load()),
                ast.Name(_op(ast.Div), ast.Load()), self.visit(quotient.left),
                self.visit(quotient.right)), node)
        args = [self.visit(a) for a in node.args]
        keywords = [ast.keyword(k.arg, self.visit(k.value)) for k in node.keywords]
        function: ast.expr = ast.Name(global_name(node.func.id), ast.Load())
        if self.checked:  # __call('f', line, column, f, *args): says what a failed call got
            args = [ast.Constant(node.func.id), ast.Constant(node.lineno),
                    ast.Constant(node.col_offset), function, *args]
            function = ast.Name(_CALL, ast.Load())
        return ast.copy_location(ast.Call(function, args, keywords), node)

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        return ast.copy_location(ast.Call(ast.Name(_ITEM, ast.Load()),
                                          [self.visit(node.value), self.visit(node.slice)], []),
                                 node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        owner = self.visit(node.value)
        how = self.typed.get(node)
        if how is None:
            read: ast.expr = ast.Call(ast.Name(_ATTR, ast.Load()),
                                      [owner, ast.Constant(node.attr)], [])
        elif how[0] == TYPED_STORE:  # owner.<store>['b']
            read = ast.Subscript(ast.Attribute(owner, how[1], ast.Load()),
                                 ast.Constant(node.attr), ast.Load())
        else:  # reader(owner)
            read = _call(how[1], owner)
        return ast.copy_location(read, node)

    # operators -----------------------------------------------------------------------
    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        left, right = self.visit(node.left), self.visit(node.right)
        kind = type(node.op)
        if kind in _NATIVE_BINOPS:
            return ast.copy_location(ast.BinOp(left, node.op, right), node)
        if kind not in self.operators:
            raise UnsupportedSyntax(kind)
        if kind in _INLINE_BINOPS and not self.in_items:
            return ast.copy_location(self._inline(node.op, left, right), node)
        return ast.copy_location(_call(_op(kind), left, right), node)

    def _inline(self, operator: ast.operator, left: ast.expr, right: ast.expr) -> ast.expr:
        """``a + b`` and ``a * b`` with the bounded operator called only if either is not
        an int (a bool, a float, text: ``type(x) is int`` is false for them)::

            (l + r) if type(l := a) is type(r := b) is int else add(l, r)
            p if type(l := a) is type(r := b) is int and -B < (p := l * r) < B else mult(l, r)

        This answers exactly as the operators of ``stratagem.expr.core`` do: ``_add`` adds
        two numbers with no check, and ``_mult`` gives the product of two ints through
        ``bounds.check_number``, which returns it if it lies strictly within ``B`` =
        10**MAX_DIGITS and raises otherwise; a product out of bounds is left to ``_mult``
        (computed again, to raise its error). ``a`` is computed before ``b``, each once,
        as in the call. An operand that is an int constant is not checked."""
        kind = type(operator)
        checks: list[ast.expr] = []
        operands: list[ast.expr] = []
        for value in (left, right):
            if isinstance(value, ast.Constant) and type(value.value) is int:
                operands.append(value)
                continue
            self.temps += 1
            name = f"__t{self.temps}"
            checks.append(_call(_TYPE, ast.NamedExpr(ast.Name(name, ast.Store()), value)))
            operands.append(ast.Name(name, ast.Load()))
        if not checks:  # two constants: a bound still to check
            return _call(_op(kind), left, right)
        test: ast.expr = ast.Compare(checks[0], [ast.Is()] * len(checks),
                                     [*checks[1:], ast.Name(_INT, ast.Load())])
        result: ast.expr = ast.BinOp(operands[0], operator, operands[1])
        if kind is ast.Mult:
            self.temps += 1
            product = f"__t{self.temps}"
            test = ast.BoolOp(ast.And(), [test, ast.Compare(
                ast.Constant(-_INT_BOUND), [ast.Lt(), ast.Lt()],
                [ast.NamedExpr(ast.Name(product, ast.Store()), result),
                 ast.Constant(_INT_BOUND)])])
            result = ast.Name(product, ast.Load())
        return ast.IfExp(test, result, _call(_op(kind), *operands))

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        if type(node.op) not in self.operators:
            raise UnsupportedSyntax(type(node.op))
        return self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        for cmp in node.ops:
            if type(cmp) not in self.operators:
                raise UnsupportedSyntax(type(cmp))
        return self.generic_visit(node)

    # comprehensions ------------------------------------------------------------------
    def _comprehension(self, node: Any) -> ast.AST:
        self.uses_budget = True
        bound: set[str] = set()
        generators = []
        for i, gen in enumerate(node.generators):
            self.in_items += 1
            items = self.visit(gen.iter)  # the first loop's items: outside the comprehension
            self.in_items -= 1
            if i == 0:
                self.bound.append(bound)
            for target in ast.walk(gen.target):
                if isinstance(target, ast.Name):
                    bound.add(target.id)
            generators.append(ast.comprehension(
                target=gen.target,
                iter=ast.Call(ast.Name(_ITEMS, ast.Load()), [items, ast.Name(_BUDGET, ast.Load())],
                              []),
                ifs=[self.visit(cond) for cond in gen.ifs],
                is_async=0,
            ))
        node.generators = generators
        for part in ("elt", "key", "value"):
            if hasattr(node, part):
                setattr(node, part, self.visit(getattr(node, part)))
        self.bound.pop()
        return node

    def visit_ListComp(self, node: ast.ListComp) -> ast.AST:
        return self._comprehension(node)

    def visit_DictComp(self, node: ast.DictComp) -> ast.AST:
        return self._comprehension(node)

    def visit_GeneratorExp(self, node: ast.GeneratorExp) -> ast.AST:
        # A value, made at once (as simpleeval does): a `set` local or a derived value may
        # be read more than once, and errors come where the expression is.
        return self._comprehension(ast.copy_location(
            ast.ListComp(node.elt, node.generators), node))


def _call(function: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Name(function, ast.Load()), list(args), [])


class UnsupportedSyntax(Exception):
    def __init__(self, kind: type) -> None:
        super().__init__(kind.__name__)
        self.kind = kind


def compile_function(node: ast.AST, text: str, namespace: dict[str, Any],
                     operators: Mapping[type, Any], constants: Collection[str] = (),
                     checked: bool = False,
                     own: Mapping[str, str] | None = None,
                     reads: Mapping[int, TypedRead] | None = None) -> Callable[..., Any]:
    """A function ``f(scope)`` computing the (already validated) expression tree ``node``.

    ``namespace`` holds the functions and helpers as globals (see :func:`namespace`), and
    the value of each name in ``constants`` (see :func:`constant_name`). A ``checked``
    function calls each function through ``namespace['__call']`` (the evaluator's
    explanation of a failed call: the same expression, run again once it has failed).

    With ``own`` (each name the entity answers, and how: :data:`OWN_FIELD`,
    :data:`OWN_SELF`, one of :data:`OWN_READERS`, or the global of a reader of the entity,
    which :func:`reader_name` names), a function ``f(entity, fields)`` of an entity and the
    dict of its fields instead, reading the names as its scope would.

    ``reads`` (by the id of each ``ast.Attribute`` node, see :data:`TypedRead`) says how to
    read the members whose owner's type the static checks know without ``attr``. An
    expression that has any is compiled twice: as it would be without them, and with them;
    the function returned is the second, which, should it raise what a typed read raises
    when its owner is not what the checks said (:data:`_FALLBACK_ERRORS`), returns what the
    first gives (an expression changes nothing, so computing it again is safe; what it
    counted against ``limits.max_work`` before it failed stays counted). The first is
    compiled when it is first needed.
    """
    for how in (own or {}).values():
        if how not in _OWN_WAYS:  # (a starred tuple here stops mypyc: an internal error)
            _typed_read(TYPED_READER, how, namespace)  # a reader's global, or refused
    marks: dict[ast.AST, tuple[str, str]] = {}
    if reads:
        for part in ast.walk(node):
            if isinstance(part, ast.Attribute):
                typed = reads.get(id(part))
                if typed is not None and typed[0] is part:
                    marks[part] = _typed_read(typed[1], typed[2], namespace)
    if not marks:
        return _compile(node, text, namespace, operators, constants, checked, own, {}, None)

    def plain() -> Callable[..., Any]:
        return _compile(node, text, namespace, operators, constants, checked, own, {}, None)

    return _compile(node, text, namespace, operators, constants, checked, own, marks,
                    _later(plain))


def _later(make: Callable[[], Callable[..., Any]]) -> Callable[..., Any]:
    """A function that calls the one ``make`` makes, made when first called (a fallback
    that no battle may need is not compiled)."""
    made: list[Callable[..., Any]] = []

    def call(*args: Any) -> Any:
        if not made:
            made.append(make())
        return made[0](*args)

    return call


def _typed_read(form: str, target: str, namespace: Mapping[str, Any]) -> tuple[str, str]:
    """A typed read, checked: the store is one of :data:`STORES`, the reader a global of the
    namespace named by :func:`reader_name` (never a name from a rule file)."""
    if form == TYPED_STORE and target in STORES:
        return form, target
    if form == TYPED_READER and target.startswith("__read") and target[6:].isdigit() \
            and target in namespace:
        return form, target
    raise ValueError(f"no typed read {form} {target}")


def _compile(node: ast.AST, text: str, namespace: dict[str, Any],
             operators: Mapping[type, Any], constants: Collection[str], checked: bool,
             own: Mapping[str, str] | None, marks: Mapping[ast.AST, tuple[str, str]],
             fallback: Callable[..., Any] | None) -> Callable[..., Any]:
    """:func:`compile_function`'s function: with ``marks`` (the typed reads, by the node of
    ``node``'s tree), one that calls ``fallback`` should a typed read fail."""
    memo: dict[int, Any] = {}
    tree = copy.deepcopy(node, memo)
    # the typed reads, by the copy of each node (`memo` keeps the copies alive meanwhile)
    typed = {memo[id(part)]: how for part, how in marks.items()}
    rewrite = _Rewrite(operators, constants, checked, own, typed, _QUOTIENT in namespace)
    body = rewrite.visit(tree)
    statements: list[ast.stmt] = []
    if rewrite.uses_budget:
        statements.append(ast.Assign([ast.Name(_BUDGET, ast.Store())],
                                     ast.List([ast.Constant(0)], ast.Load())))
    statements.append(ast.Return(body))
    params = (_SCOPE,) if own is None else (_ENTITY, _FIELDS)
    if fallback is not None:  # try: ... except __miss: return __slow(<params>)
        again = ast.Return(_call(_SLOW, *(ast.Name(p, ast.Load()) for p in params)))
        statements = [ast.Try(body=statements, handlers=[ast.ExceptHandler(
            type=ast.Name(_MISS, ast.Load()), name=None, body=[again])], orelse=[],
            finalbody=[])]
    function = _function_def("expression", params, statements)
    if fallback is not None:  # made by a function of the fallback, which it keeps
        function = _function_def("typed", (_SLOW,), [
            function, ast.Return(ast.Name("expression", ast.Load()))])
    module = ast.fix_missing_locations(ast.Module([function], type_ignores=[]))
    code = compile(module, f"<expression {text[:60]}>", "exec")
    local: dict[str, Any] = {}
    exec(code, namespace, local)  # noqa: S102 - the tree holds only the whitelisted syntax
    if fallback is not None:
        return local["typed"](fallback)
    return local["expression"]


def _function_def(name: str, params: tuple[str, ...], body: list[ast.stmt]) -> ast.FunctionDef:
    parts: dict[str, Any] = {
        "name": name,
        "args": ast.arguments(posonlyargs=[], args=[ast.arg(p) for p in params],
                              kwonlyargs=[], kw_defaults=[], defaults=[]),
        "body": body, "decorator_list": [], "returns": None}
    if "type_params" in ast.FunctionDef._fields:  # Python 3.12+
        parts["type_params"] = []
    return ast.FunctionDef(**parts)


def namespace(functions: Mapping[str, Any], operators: Mapping[type, Any],
              attribute: Callable[[Any, str], Any] = read_attribute,
              call: Callable[..., Any] | None = None,
              own: Mapping[str, Callable[[Any, str], Any]] | None = None,
              quotient: Callable[[Any, Any, Any, Any], Any] | None = None) -> dict[str, Any]:
    """The globals of compiled expressions: no builtins, the functions, the operators, how
    to read an attribute, how a checked function calls a function (``call``), how a
    function of an entity reads its names (``own``: a reader for each of
    :data:`OWN_READERS`), and, if given, what ``floor(a / b)`` and the other roundings of
    :data:`_ROUNDINGS` call instead (``quotient(floor, div, a, b)``, which must answer as
    ``floor(div(a, b))`` does).

    With no builtins, a compiled module (mypyc) must never import inside a function that
    an expression calls: it would look for ``__import__`` among them."""
    names: dict[str, Any] = {"__builtins__": {}, _ATTR: attribute, _ITEMS: budgeted,
                             _ITEM: item, _CALL: call, _TYPE: type, _INT: int,
                             _MISS: _FALLBACK_ERRORS}
    if quotient is not None:
        names[_QUOTIENT] = quotient
    for kind, fn in operators.items():
        names[_op(kind)] = fn
    for how, reader in (own or {}).items():
        if how not in OWN_READERS:
            raise ValueError(f"no reader '{how}'")
        names[_own_reader(how)] = reader
    for name, fn in functions.items():
        names[global_name(name)] = fn
    return names


def function_name(name: str) -> str | None:
    """The rule-file name of a function the compiled code could not find, if it is one."""
    prefix = global_name("")
    return name[len(prefix):] if name.startswith(prefix) else None

