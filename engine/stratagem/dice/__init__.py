"""The dice language: parse once, roll with a given random source, compute exact odds.

>>> import random
>>> from stratagem.dice import parse_dice
>>> expr = parse_dice("4d+20%")          # 4d is 4d6 in the default dialect; the result is a percentage
>>> expr.bounds()
(24, 44)
>>> expr.roll(random.Random(1)).describe()
'4d+20% = [2,5,1,3]+20 = 31%'
>>> parse_dice("2d20kh1").distribution().mean
Fraction(553, 40)

The language is documented in docs/dice.md; the grammar is grammar/dice.lark.
Importing this package is cheap: the Lark parser is built on the first parse.
"""

from stratagem.dice.config import DiceDialect, DiceLimits
from stratagem.dice.distribution import Distribution
from stratagem.dice.errors import DiceError, DiceLimitError, DiceSyntaxError, DiceValueError
from stratagem.dice.expr import DiceExpr, RandomSource
from stratagem.dice.parser import DEFAULT_DIALECT, DEFAULT_LIMITS, parse_dice
from stratagem.dice.roll import DieRecord, RollResult

__all__ = [
    "DEFAULT_DIALECT",
    "DEFAULT_LIMITS",
    "DiceDialect",
    "DiceError",
    "DiceExpr",
    "DiceLimitError",
    "DiceLimits",
    "DiceSyntaxError",
    "DiceValueError",
    "DieRecord",
    "Distribution",
    "RandomSource",
    "RollResult",
    "parse_dice",
]
