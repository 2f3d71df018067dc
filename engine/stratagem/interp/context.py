"""The state of one run of a procedure: dice, decisions, the trace, the limits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from stratagem.errors import LimitError
from stratagem.interp.decisions import Decisions
from stratagem.interp.dicesource import DiceSource
from stratagem.interp.trace import Event
from stratagem.model.entities import Entity

if TYPE_CHECKING:
    from stratagem.interp.steps import Step
    from stratagem.model.ruleset import Ruleset


@dataclass(frozen=True)
class RunLimits:
    """Bounds of one battle. A ruleset may lower or raise them within reason."""

    max_rounds: int = 1000
    max_steps: int = 1_000_000
    max_call_depth: int = 50


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

    # -- helpers used by steps ----------------------------------------------------------
    def too_many_steps(self, step: Step) -> None:
        """Stop a battle that ran more steps than its limit allows."""
        raise LimitError(
            f"the battle ran more than {self.limits.max_steps:,} steps",
            location=step.location,
            hint="a loop that never ends? check `until:`/`while:` conditions, or raise "
                 "limits.max_steps in the ruleset",
        )

    def record(self, step: Step, values: dict[str, Any], key: str | None = None,
               params: dict[str, Any] | None = None, level: str | None = None) -> None:
        if not self.tracing:
            return
        self.trace.append(Event(
            index=len(self.trace),
            step=step.kind,
            procedure=self.procedure,
            at=step.at,
            values=values,
            key=key,
            params=params or {},
            level=level or step.level,
            depth=self.depth,
        ))
