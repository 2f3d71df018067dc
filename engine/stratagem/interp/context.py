"""The state of one run of a procedure: dice, decisions, the trace, the limits."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from stratagem.errors import LimitError
from stratagem.expr.bounds import METER
from stratagem.i18n.catalog import Translator, translator
from stratagem.interp.decisions import Decisions
from stratagem.interp.dicesource import DiceSource
from stratagem.interp.trace import Event
from stratagem.model.entities import Entity
from stratagem.model.ruleset import Ruleset
from stratagem.model.steps import KIND, Step

#: Steps between two looks at the clock (``--max-seconds``) and at ``limits.max_steps``.
CHECK_EVERY: Final = 1000


class BreakLoop(Exception):
    """`break`: leave the innermost loop."""


class Return(Exception):
    """`return`: leave the procedure with a value."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


#: The seconds each battle of this process may run (the command's ``--max-seconds``), or
#: None: no bound. A list, not a class attribute: a compiled class's attributes are fixed.
_SECONDS: list[float | None] = [None]


def limit_battles(seconds: float | None) -> None:
    """Every battle this process starts from now on stops after ``seconds``."""
    _SECONDS[0] = seconds


def battle_seconds() -> float | None:
    """The bound :func:`limit_battles` set."""
    return _SECONDS[0]


class Run:
    """Everything one battle (or one rating) needs while its steps execute."""

    def __init__(self, ruleset: Ruleset, root: Entity, dice: DiceSource,
                 decisions: Decisions, *, tracing: bool = True,
                 generated: Mapping[str, Callable[[Run, dict[str, Any]], Any]] | None = None
                 ) -> None:
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
        #: the procedures as Python functions, by name (``interp.codegen``, made for this
        #: run's `tracing`), or None: the interpreter runs their step records
        self.generated = generated
        #: evaluates the expressions (steps call ``run.evaluator.eval``: a compiled call)
        self.evaluator = ruleset.evaluator
        #: the steps after which run_block next looks at the clock and the bound on steps
        #: (:meth:`checkpoint`): one comparison per block on the hot path
        self.max_steps = min(self.limits.max_steps, CHECK_EVERY)
        #: when the battle must have ended (time.monotonic()), or None: no bound
        self.deadline: float | None = None
        self.max_seconds: float | None = None
        #: the entities the battle may still create (limits.max_entities)
        self.entities_left = self.limits.max_entities
        METER.reset(self.limits.max_work)
        self.limit_time(_SECONDS[0])
        #: The language of messages raised while running (the report picks its own).
        self.lang = "en"
        self._translator: Translator | None = None

    def limit_time(self, seconds: float | None) -> None:
        """Stop the battle with an error once it has run ``seconds`` (``--max-seconds``)."""
        self.max_seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds

    def translate(self, key: str, params: Mapping[str, Any]) -> str:
        """The text of one of the ruleset's message keys, in the run's language."""
        if self._translator is None:
            self._translator = translator(self.ruleset, self.lang)
        return self._translator.t(key, **params)

    # -- helpers used by steps ----------------------------------------------------------
    def checkpoint(self, step: Step) -> None:
        """Every :data:`CHECK_EVERY` steps: stop a battle that ran more steps than its limit
        allows, or past its deadline."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise LimitError(
                f"the battle ran longer than {self.max_seconds:g} seconds",
                location=step.location,
                hint="a battle that never ends? raise --max-seconds, or check the ruleset's "
                     "loops")
        if self.steps <= self.limits.max_steps:
            self.max_steps = min(self.steps + CHECK_EVERY, self.limits.max_steps)
            return
        raise LimitError(
            f"the battle ran more than {self.limits.max_steps:,} steps",
            location=step.location,
            hint="a loop that never ends? check `until:`/`while:` conditions, or raise "
                 "limits.max_steps in the ruleset",
            key="run.max_steps", params={"max": self.limits.max_steps},
        )

    def made_entity(self, step: Step) -> None:
        """A `create` step makes one more entity (``limits.max_entities``)."""
        self.entities_left -= 1
        if self.entities_left < 0:
            raise LimitError(f"the battle created more than {self.limits.max_entities:,} "
                             "entities", location=step.location,
                             hint="a `create` in a loop that never ends? limits.max_entities "
                                  "raises the bound")

    def record(self, step: Step, values: dict[str, Any], key: str | None = None,
               params: dict[str, Any] | None = None, level: str | None = None) -> None:
        if not self.tracing:
            return
        if len(self.trace) >= self.limits.max_trace:
            raise LimitError(f"the trace of this battle would keep more than "
                             f"{self.limits.max_trace:,} events", location=step.location,
                             hint="a loop that never ends? limits.max_trace raises the bound; "
                                  "without a trace (`odds`) there is none")
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
