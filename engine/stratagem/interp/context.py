"""The state of one run of a procedure: dice, decisions, the trace, the limits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stratagem.errors import LimitError
from stratagem.i18n.catalog import Translator, translator
from stratagem.interp.decisions import Decisions
from stratagem.interp.dicesource import DiceSource
from stratagem.interp.trace import Event
from stratagem.model.entities import Entity
from stratagem.model.ruleset import Ruleset
from stratagem.model.steps import KIND, Step


class BreakLoop(Exception):
    """`break`: leave the innermost loop."""


class Return(Exception):
    """`return`: leave the procedure with a value."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


class Run:
    """Everything one battle (or one rating) needs while its steps execute."""

    def __init__(self, ruleset: Ruleset, root: Entity, dice: DiceSource,
                 decisions: Decisions, *, tracing: bool = True) -> None:
        self.ruleset = ruleset
        self.root = root
        self.dice = dice
        self.decisions = decisions
        self.tracing = tracing
        self.limits = ruleset.limits
        self.trace: list[Event] = []
        self.steps = 0
        self.depth = 0
        self.procedure = ""
        #: evaluates the expressions (steps call ``run.evaluator.eval``: a compiled call)
        self.evaluator = ruleset.evaluator
        self.max_steps = self.limits.max_steps
        #: The language of messages raised while running (the report picks its own).
        self.lang = "en"
        self._translator: Translator | None = None

    def translate(self, key: str, params: Mapping[str, Any]) -> str:
        """The text of one of the ruleset's message keys, in the run's language."""
        if self._translator is None:
            self._translator = translator(self.ruleset, self.lang)
        return self._translator.t(key, **params)

    # -- helpers used by steps ----------------------------------------------------------
    def too_many_steps(self, step: Step) -> None:
        """Stop a battle that ran more steps than its limit allows."""
        raise LimitError(
            f"the battle ran more than {self.limits.max_steps:,} steps",
            location=step.location,
            hint="a loop that never ends? check `until:`/`while:` conditions, or raise "
                 "limits.max_steps in the ruleset",
            key="run.max_steps", params={"max": self.limits.max_steps},
        )

    def record(self, step: Step, values: dict[str, Any], key: str | None = None,
               params: dict[str, Any] | None = None, level: str | None = None) -> None:
        if not self.tracing:
            return
        self.trace.append(Event(
            index=len(self.trace),
            step=KIND[type(step)],
            procedure=self.procedure,
            at=step.at,
            values=values,
            key=key,
            params=params or {},
            level=level or step.level,
            depth=self.depth,
        ))
