"""What a ruleset chooses (the dialect) and what every caller bounds (the limits).

Both are frozen values passed in by the caller; nothing here is a module
global that tests or rulesets would have to patch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType

from stratagem.dice.errors import DiceValueError

#: The default for "no names given" (read-only, so it is a safe default argument).
NO_NAMES: Mapping[str, int] = MappingProxyType({})


@dataclass(frozen=True)
class DiceDialect:
    """How a ruleset writes dice.

    ``default_sides`` is the die meant by ``Nd`` with no number of sides
    (e.g. ``4d`` is ``4d6``). With ``None`` the ruleset has no default die
    and ``4d`` is a syntax error. ``d%`` is always ``d100``.
    """

    default_sides: int | None = 6

    def __post_init__(self) -> None:
        sides = self.default_sides
        if sides is not None and (type(sides) is not int or sides < 1):
            raise DiceValueError(
                f"the default die must have a whole number of sides of at least 1, not {sides!r}",
                hint="6 is the common choice; use None for a ruleset where every die states its sides",
                key="dice.default_sides", params={"sides": repr(sides)},
            )


@dataclass(frozen=True)
class DiceLimits:
    """Resource bounds for parsing, rolling and exact distributions.

    Hitting one is a :class:`~stratagem.dice.DiceLimitError` with a message, never
    a hang. The one exception is ``max_explosion_depth``: it is the *cap* of an
    exploding die (``d6!`` adds at most this many extra rolls), applied the same
    way when rolling and when computing distributions, so a lucky streak is cut
    short rather than turned into an error.
    """

    #: Characters in one expression.
    max_length: int = 1_000
    #: Parentheses (and function calls) nested inside each other.
    max_nesting: int = 20
    #: Dice thrown by one roll, over all repetitions, not counting explosions.
    max_dice: int = 10_000
    #: Sides of one die.
    max_sides: int = 10_000
    #: Extra rolls an exploding die may add (the cap described above).
    max_explosion_depth: int = 20
    #: The N of a repetition ``Nx(...)``.
    max_repeat: int = 100
    #: Outcomes between the least and greatest value of an exact distribution.
    max_outcomes: int = 100_000
    #: Size of an exact table: outcomes times the bits of one exact weight.
    max_distribution_bits: int = 1 << 25
    #: Elementary steps when two rolled values meet in ``*``, ``/``, ``min``/``max``
    #: or when counting kept dice (``kh``/``kl``).
    max_distribution_work: int = 2_000_000

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if type(value) is not int or value < 1:
                raise DiceValueError(
                    f"dice limit {field.name} must be a whole number of at least 1, not {value!r}",
                    key="dice.bad_limit", params={"limit": field.name, "value": repr(value)},
                )
