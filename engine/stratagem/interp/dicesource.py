"""Dice sources: where the results of a battle's rolls come from.

- :class:`SeededDice` rolls with one seeded random generator, so the same
  seed gives the same battle on every machine;
- :class:`ScriptedDice` takes stated results in order (tests; the dice a GM
  rolled at the table), each a total or a list of faces;
- :class:`PromptDice` asks a person at the terminal for each roll.

Every roll of a battle goes through exactly one source.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from stratagem.dice import DiceError, DiceExpr, RollResult
from stratagem.errors import Keyed, StratagemError, Term


def stated_result(expr: DiceExpr, stated: Any, names: Mapping[str, int]) -> RollResult:
    """A result a person states: a total (``12``), the faces (``[3, 5, 1, 6]``), or the
    separate results of a repetition (``{values: [4, 7]}``)."""
    if isinstance(stated, Mapping):
        if "values" in stated:
            return RollResult.from_values(expr, list(stated["values"]), names)
        if "faces" in stated:
            return RollResult.from_faces(expr, list(stated["faces"]), names)
        if "total" in stated:
            return RollResult.from_total(expr, stated["total"], names)
        raise DiceError("a stated roll is a total, a list of faces, or {values: [...]}",
                        key="dice.stated_shape")
    if isinstance(stated, list):
        return RollResult.from_faces(expr, stated, names)
    if isinstance(stated, bool) or not isinstance(stated, int):
        raise DiceError(f"a stated roll must be a whole number, not {stated!r}",
                        key="dice.stated_whole", params={"value": repr(stated)})
    return RollResult.from_total(expr, stated, names)


class DiceSource:
    """Produces a :class:`RollResult` for a dice expression. ``label`` says which roll it
    is ("Red: casualties"), for a person to read."""

    #: Whether the source shows labels to anyone (seeded dice do not: a battle fought
    #: with them does not make the text).
    uses_labels = True

    def roll(self, expr: DiceExpr, names: Mapping[str, int], label: str) -> RollResult:
        raise NotImplementedError

    def total(self, expr: DiceExpr, names: Mapping[str, int], label: str) -> int:
        """Only the total of a roll (for a caller that keeps nothing else): the roll's, so a
        source sees every roll, asked as ``roll`` is asked."""
        return self.roll(expr, names, label).total


class FirstRoll(Exception):
    """Raised by :class:`StopAtFirstRoll`: the battle reached its first roll of the dice."""


class StopAtFirstRoll(DiceSource):
    """Ends a battle at its first roll: what comes before it is certain, whatever the
    dice (``stratagem validate`` runs a scenario this far)."""

    uses_labels = False

    def roll(self, expr: DiceExpr, names: Mapping[str, int], label: str) -> RollResult:
        raise FirstRoll()


class RecordingDice(DiceSource):
    """Wraps a source and keeps every result, so a battle can be replayed exactly."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.log: list[Any] = []
        self.uses_labels = inner.uses_labels

    def roll(self, expr: DiceExpr, names: Mapping[str, int], label: str) -> RollResult:
        result = self.inner.roll(expr, names, label)
        faces = [face for die in result.dice for face in die.faces]
        if faces:
            self.log.append(faces)
        else:  # stated results carry no dice
            self.log.append(result.total if len(result.values) == 1
                            else {"values": list(result.values)})
        return result


class SeededDice(DiceSource):
    """Rolls with one generator (``rng``, else a ``random.Random`` seeded with ``seed``).
    A ``random.Random`` itself is asked for the bits its ``randint`` would draw (the same
    numbers, fewer calls: :mod:`stratagem.dice.roller`); a generator of another kind (its
    own ``randint``, say) is asked as it is."""

    uses_labels = False

    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(seed)

    def roll(self, expr: DiceExpr, names: Mapping[str, int], label: str) -> RollResult:
        return expr.roll(self.rng, names)

    def total(self, expr: DiceExpr, names: Mapping[str, int], label: str) -> int:
        if type(self) is not SeededDice:  # a source made from this one: its own roll
            return self.roll(expr, names, label).total
        return expr.roll_total(self.rng, names)


class ScriptedDice(DiceSource):
    """Results given in advance, used in order; then an error or a fallback source."""

    def __init__(self, results: Sequence[Any], fallback: DiceSource | None = None) -> None:
        self.results = list(results)
        self.position = 0
        self.fallback = fallback

    def roll(self, expr: DiceExpr, names: Mapping[str, int], label: str) -> RollResult:
        if self.position >= len(self.results):
            if self.fallback is not None:
                return self.fallback.roll(expr, names, label)
            raise StratagemError(
                f"the scripted dice ran out at roll #{self.position + 1} ({label}: {expr.text})",
                hint="add more results to `dice:` (or --dice), or allow seeded dice "
                     "after the script with --dice-fallback",
                key="run.dice_exhausted",
                params={"n": self.position + 1, "label": label, "expr": expr.text},
            )
        stated = self.results[self.position]
        self.position += 1
        try:
            return stated_result(expr, stated, names)
        except DiceError as err:
            raise StratagemError(
                f"scripted roll #{self.position} ({label}: {expr.text}) = {stated!r}: "
                f"{err.message}",
                hint="check the order of the scripted dice against --explain",
                key="run.dice_bad_roll", params={"n": self.position, "label": label,
                                                 "expr": expr.text, "stated": repr(stated),
                                                 "reason": err.message},
            ) from None

    @property
    def unused(self) -> int:
        return max(0, len(self.results) - self.position)


class PromptDice(DiceSource):
    """Asks for every roll; an empty answer rolls with the seeded source."""

    def __init__(self, ask: Callable[[str], str], fallback: DiceSource) -> None:
        self.ask = ask
        self.fallback = fallback

    def roll(self, expr: DiceExpr, names: Mapping[str, int], label: str) -> RollResult:
        prompt = Keyed(f"{label}: roll {expr.text} (Enter rolls for you): ", "prompt.dice",
                       label=label, expr=expr.text)
        while True:
            answer = self.ask(prompt).strip()
            if not answer:
                return self.fallback.roll(expr, names, label)
            try:
                stated: Any = ([int(x) for x in answer.replace(",", " ").split()]
                               if " " in answer.strip() or "," in answer else int(answer))
                return stated_result(expr, stated, names)
            except ValueError:
                reason = Term("prompt.whole_number", "a whole number, please")
            except DiceError as err:
                reason = Term(err.key or "", err.message, tuple(err.params.items()))
            # what was wrong, then the question again: both in the reader's language
            prompt = Keyed(f"  {reason}\n{label}: roll {expr.text} (Enter rolls for you): ",
                           "prompt.dice_again", reason=reason, label=label, expr=expr.text)
