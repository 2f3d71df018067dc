"""Expressions in rule files: parsed once at load, evaluated safely.

The code is in :mod:`stratagem.expr.core` (compiled by mypyc, see setup.py; a compiled
package would look for its submodules in the wrong folder, so this one stays plain
Python); :mod:`stratagem.expr.compiled` turns expressions into Python functions, and
:mod:`stratagem.expr.simple` is the simpleeval evaluator they are checked against.
"""

from stratagem.expr.core import (
    BASE_FUNCTIONS,
    EVALUATORS,
    SAFE_RESULT_TYPES,
    Evaluator,
    Expr,
    ExpressionError,
    compile_expr,
)

__all__ = ["BASE_FUNCTIONS", "EVALUATORS", "SAFE_RESULT_TYPES", "Evaluator", "Expr",
           "ExpressionError", "compile_expr"]
