"""The result of one roll: total, per-repetition values, every die, and the trace.

A :class:`RollResult` comes from :meth:`DiceExpr.roll
<stratagem.dice.DiceExpr.roll>`, or from the dice a game master rolled at the
table: :meth:`RollResult.from_faces` replays the faces given (in the order the
expression rolls its dice), :meth:`RollResult.from_total` and
:meth:`RollResult.from_values` take stated results and check they are possible.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from stratagem.dice.config import NO_NAMES
from stratagem.dice.errors import DiceLimitError, DiceValueError, as_text, short
from stratagem.dice.render import render
from stratagem.dice.resolve import Env
from stratagem.dice.roller import Group

if TYPE_CHECKING:
    from stratagem.dice.distribution import Distribution
    from stratagem.dice.expr import DiceExpr


class DieRecord(NamedTuple):
    """One die thrown: its sides, the faces it showed, whether it counted.

    ``faces`` has one face, or for an exploding die the whole chain
    (``(6, 6, 2)``: it showed 6, exploded, 6 again, then 2; worth 14).
    """

    sides: int
    faces: tuple[int, ...]
    kept: bool = True
    #: Which repetition of ``Nx(...)`` the die belongs to (0 without one).
    repetition: int = 0

    @property
    def face(self) -> int:
        """The first face shown."""
        return self.faces[0]

    @property
    def value(self) -> int:
        """What the die is worth: its faces summed."""
        return sum(self.faces)

    @property
    def exploded(self) -> bool:
        """Whether the die showed its highest face and rolled again."""
        return len(self.faces) > 1

    @property
    def dropped(self) -> bool:
        """Whether a keep/drop suffix left this die out of the total."""
        return not self.kept


@dataclass(frozen=True)
class RollResult:
    """One roll of a dice expression.

    ``total`` is the sum over repetitions; ``values`` has one value per
    repetition (one element without a repetition). ``source`` says where the
    dice came from: ``"rolled"``, ``"faces"`` (given by a person) or
    ``"stated"`` (only the result was given: there are no dice).
    """

    expr: DiceExpr = field(repr=False)
    total: int
    values: tuple[int, ...]
    groups: tuple[tuple[Group, ...], ...] = field(repr=False)
    env: Env = field(repr=False)
    source: str = "rolled"

    @classmethod
    def rolled(cls, expr: DiceExpr, total: int, values: tuple[int, ...],
               groups: tuple[tuple[Group, ...], ...], env: Env) -> RollResult:
        """A roll just made (what ``cls(...)`` makes, without the frozen dataclass's
        field-by-field ``__init__``: a battle rolls dice thousands of times)."""
        result = object.__new__(cls)
        fields = result.__dict__  # written one by one: no mapping of keywords made a roll
        fields["expr"] = expr
        fields["total"] = total
        fields["values"] = values
        fields["groups"] = groups
        fields["env"] = env
        fields["source"] = "rolled"
        return result

    @property
    def text(self) -> str:
        """The expression as written."""
        return self.expr.text

    @property
    def is_percent(self) -> bool:
        """Whether the result is a percentage (the expression ends in ``%``)."""
        return self.expr.is_percent

    @cached_property
    def dice(self) -> tuple[DieRecord, ...]:
        """Every die thrown, in the order rolled."""
        records = []
        for repetition, groups in enumerate(self.groups):
            for sides, values, chains, kept in groups:
                for i, value in enumerate(values):
                    faces = chains[i] if chains is not None else (value,)
                    flag = True if kept is None else kept[i]
                    records.append(DieRecord(sides, faces, flag, repetition))
        return tuple(records)

    def describe(self) -> str:
        """The trace a person reads, e.g. ``4d+20 = [3,5,1,6]+20 = 35%``.

        ``~3`` is a dropped die, ``6!6!2`` an exploding die's faces; a
        repetition lists each result then the total.
        """
        pct = "%" if self.is_percent else ""
        total = as_text(self.total) + pct
        if self.source == "stated":
            shown = ", ".join(as_text(v) + pct for v in self.values)
            tail = f"; total {total}" if len(self.values) > 1 else ""
            return f"{self.text} = {shown} (stated){tail}"
        env = dict(self.env)
        parts = []
        for value, groups in zip(self.values, self.groups):
            shown = render(self.expr.body, env, iter(groups))
            number = as_text(value)
            plain = shown in (number, self.text.replace(" ", "").rstrip("%"))
            parts.append(number + pct if plain else f"{shown} = {number}{pct}")
        if len(parts) == 1:
            return f"{self.text} = {parts[0]}"
        return f"{self.text} = {'; '.join(parts)}; total {total}"

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready summary (the ``--json`` output of ``stratagem roll``)."""
        return {
            "expression": self.text,
            "total": self.total,
            "values": list(self.values),
            "percent": self.is_percent,
            "source": self.source,
            "dice": [
                {
                    "sides": d.sides,
                    "faces": list(d.faces),
                    "value": d.value,
                    "kept": d.kept,
                    "exploded": d.exploded,
                    "repetition": d.repetition,
                }
                for d in self.dice
            ],
            "trace": self.describe(),
        }

    @classmethod
    def from_faces(
        cls, expr: DiceExpr, faces: Iterable[int], names: Mapping[str, object] = NO_NAMES
    ) -> RollResult:
        """Replay the faces a person rolled, in the order the expression rolls its dice.

        An exploding die that shows its highest face takes the next face as its
        extra roll. Too few or too many faces, or a face a die cannot show, is a
        :class:`~stratagem.dice.DiceValueError`.
        """
        script = _Script(expr.text, list(faces))
        result = expr.roll(script, names)
        script.finish()
        return replace(result, source="faces")

    @classmethod
    def from_total(
        cls, expr: DiceExpr, total: int, names: Mapping[str, object] = NO_NAMES
    ) -> RollResult:
        """A stated result, checked to be possible ("3d cannot roll 19 (range 3..18)")."""
        repeat = expr.plan(names).repeat
        if repeat != 1:
            raise DiceValueError(
                f"{expr.text} gives {repeat} separate results; state each one",
                hint="use RollResult.from_values(expr, [first, second, ...])",
                key="dice.state_each", params={"expr": expr.text, "n": repeat},
            )
        return cls.from_values(expr, [total], names)

    @classmethod
    def from_values(
        cls, expr: DiceExpr, values: Iterable[int], names: Mapping[str, object] = NO_NAMES
    ) -> RollResult:
        """Stated results, one per repetition, each checked to be possible."""
        plan = expr.plan(names)
        stated = list(values)
        if len(stated) != plan.repeat:
            raise DiceValueError(
                f"{expr.text} gives {plan.repeat} result{'s' if plan.repeat > 1 else ''}, "
                f"but {len(stated)} were stated",
                key="dice.results_count",
                params={"expr": expr.text, "n": plan.repeat, "stated": len(stated)},
            )
        single: Distribution | None = None
        checked = False
        for value in stated:
            if isinstance(value, bool) or not isinstance(value, int):
                raise DiceValueError(f"a stated result must be a whole number, not {value!r}",
                                     key="dice.stated_not_whole", params={"value": repr(value)})
            if not plan.low <= value <= plan.high:
                raise DiceValueError(
                    f"{expr.text} cannot roll {short(value)} "
                    f"(range {short(plan.low)}..{short(plan.high)})",
                    key="dice.cannot_roll_range",
                    params={"expr": expr.text, "value": short(value), "low": short(plan.low),
                            "high": short(plan.high)},
                )
            if not checked:
                checked = True
                try:
                    single = expr.distribution(names).per_repetition
                except DiceLimitError:
                    single = None  # too large to look for holes; the range check stands
            if single is not None and not single.probability(value):
                raise DiceValueError(
                    f"{expr.text} cannot roll {value}",
                    hint=f"it rolls {_sample(single)} within {plan.low}..{plan.high}",
                    key="dice.cannot_roll",
                    params={"expr": expr.text, "value": str(value), "sample": _sample(single),
                            "low": str(plan.low), "high": str(plan.high)},
                )
        return cls(expr, sum(stated), tuple(stated), (), plan.env, "stated")


def _sample(dist: Distribution) -> str:
    outcomes = list(dist.outcomes())
    shown = ", ".join(map(str, outcomes[:8]))
    return shown + (", ..." if len(outcomes) > 8 else "")


class _Script:
    """A random source that hands out given faces, checking each against its die."""

    def __init__(self, text: str, faces: list[int]) -> None:
        self.text = text
        self.faces = faces
        self.used = 0

    def randint(self, low: int, high: int) -> int:
        if self.used >= len(self.faces):
            raise DiceValueError(
                f"{self.text} rolls more dice than the {len(self.faces)} faces given",
                hint="give one face per die, in the order the expression rolls them",
                key="dice.faces_short", params={"expr": self.text, "n": len(self.faces)},
            )
        face = self.faces[self.used]
        self.used += 1
        if isinstance(face, bool) or not isinstance(face, int) or not low <= face <= high:
            raise DiceValueError(
                f"face {face!r} (number {self.used}) is impossible on a d{high}",
                hint=f"a d{high} shows {low} to {high}",
                key="dice.face_impossible",
                params={"face": repr(face), "n": self.used, "high": high, "low": low},
            )
        return face

    def finish(self) -> None:
        if self.used != len(self.faces):
            raise DiceValueError(
                f"{len(self.faces)} faces were given but {self.text} rolls only {self.used} dice",
                key="dice.faces_extra",
                params={"n": len(self.faces), "expr": self.text, "used": self.used},
            )
