"""The Python API: load rulesets, armies and scenarios; fight battles; rate armies.

>>> from stratagem.api import load_ruleset, run_battle
>>> battle = run_battle("my-battle.yaml", seed=7)   # doctest: +SKIP
>>> print(battle.report(lang="en"))                                 # doctest: +SKIP
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratagem.compile import pipeline
from stratagem.compile.decisions import compile_decisions
from stratagem.compile.pipeline import load_ruleset
from stratagem.errors import StratagemError, in_order
from stratagem.i18n.names import NameBook
from stratagem.interp.codegen import procedures_for
from stratagem.interp.context import Run
from stratagem.interp.decisions import Decisions
from stratagem.interp.dicesource import (
    DiceSource,
    FirstRoll,
    PromptDice,
    RecordingDice,
    ScriptedDice,
    SeededDice,
    StopAtFirstRoll,
)
from stratagem.interp.steps import call
from stratagem.interp.trace import Event, plainify
from stratagem.loader.yamlio import open_regular
from stratagem.model.decisions import Reason, merge_decisions
from stratagem.model.entities import Entity
from stratagem.model.ruleset import Ruleset
from stratagem.model.scenario import Army, Scenario
from stratagem.report import (
    MAX_JSON_BYTES,
    bounded_json,
    render_rating,
    render_report,
    trace_json,
)
from stratagem.resources import data_dir

__all__ = [
    "Army",
    "BattleResult",
    "load_army",
    "load_ruleset",
    "load_scenario",
    "rate_army",
    "rate_scenario",
    "run_battle",
]


def validate(path: str | Path) -> list[StratagemError]:
    """Every error of one file of any kind, in file order (an empty list: it is valid).

    The file is loaded through the pipeline every command uses; then a scenario is fought,
    and an army rated, up to their first roll of the dice: whatever the rules check before
    anything is random (a `require:`, a decision the scenario must give) fails here as it
    would in every battle.
    """
    try:
        _, loaded = pipeline.Pipeline(access=pipeline.DEFAULT.access).load(path)
        if isinstance(loaded, Scenario):
            _opening(loaded.ruleset, loaded.instantiate(), loaded.decisions,
                     loaded.ruleset.entry["battle"], {})
        elif isinstance(loaded, Army) and loaded.ruleset.entry.get("rate"):
            proc = loaded.ruleset.entry["rate"]
            (param,) = loaded.ruleset.procedures[proc].params
            _opening(loaded.ruleset, loaded.root, {}, proc, {param: loaded.side})
    except StratagemError as err:
        return in_order(pipeline.errors_of(err))
    return []


def _opening(rs: Ruleset, root: Entity, decisions: Mapping[str, Any], proc: str,
             args: Mapping[str, Any]) -> None:
    run = Run(rs, root, StopAtFirstRoll(), Decisions(decisions), tracing=False,
              generated=procedures_for(rs, False))
    try:
        call(run, proc, args)
    except FirstRoll:
        pass


def load_army(path: str | Path, ruleset: Ruleset | None = None) -> Army:
    """Load one army file through the pipeline (``stratagem.compile.pipeline``)."""
    return pipeline.DEFAULT.army(path, ruleset)


def load_scenario(path: str | Path, ruleset: Ruleset | None = None) -> Scenario:
    """Load a scenario and the armies it names, checked as ``stratagem validate`` checks
    them (it is the same pipeline)."""
    return pipeline.DEFAULT.scenario(path, ruleset)


@dataclass
class BattleResult:
    """A finished battle: the final state and the trace of everything that happened."""

    ruleset: Ruleset
    root: Entity
    start: Entity
    trace: list[Event]
    seed: int | None = None
    scripted: int | None = None
    name: str = ""
    dice_log: list[Any] = field(default_factory=list)
    decisions: dict[str, Any] = field(default_factory=dict)
    #: (decision, subject, why) of every fallback the battle took
    fallbacks: set[tuple[str, str, Reason]] = field(default_factory=set)
    #: The battle's names in other languages (its files' ``name: {en: ..., ru: ...}``).
    names: NameBook = field(default_factory=NameBook)

    def report(self, lang: str = "en", explain: bool = False) -> str:
        return render_report(self, lang=lang, explain=explain)

    def to_plain(self) -> dict[str, Any]:
        return {**self._head(), "trace": [event.to_plain() for event in self.trace]}

    def _head(self) -> dict[str, Any]:
        """Everything :meth:`to_plain` holds but the trace."""
        return {
            "format": TRACE_FORMAT,
            "version": TRACE_VERSION,
            "ruleset": self.ruleset.ref,
            "scenario": self.name,
            "seed": self.seed,
            "dice": self.dice_log,
            "decisions": self.decisions,
            "start": self.start.to_plain(),
            "end": self.root.to_plain(),
        }

    def to_json(self) -> str:
        """The trace `--replay` reads (at most :data:`MAX_TRACE_BYTES`)."""
        return trace_json(self._head(), self.trace)


def _dice_source(seed: int | None, dice: Sequence[Any] | None, fallback: bool,
                 ask: Callable[[str], str] | None) -> DiceSource:
    seeded = SeededDice(seed)
    if ask is not None:
        return PromptDice(ask, seeded)
    if dice is not None:
        return ScriptedDice(dice, seeded if fallback else None)
    return seeded


def run_battle(scenario: str | Path | Scenario, *, seed: int | None = None,
               dice: Sequence[Any] | None = None, decisions: Mapping[str, Any] | None = None,
               dice_fallback: bool = False, tracing: bool = True,
               ask_dice: Callable[[str], str] | None = None,
               ask_decision: Callable[[str, str, Any], Any] | None = None,
               lang: str = "en", rule_defaults: bool = False,
               after: Sequence[str] = (), backend: str | None = None) -> BattleResult:
    """Fight one battle. ``seed`` (else the scenario's, else 0) seeds every random draw;
    ``dice`` scripts the results instead; ``decisions`` (answers, preferences or policies,
    as a scenario writes them) add to the scenario's. An answer that cannot apply and has
    no ``else:`` is an error, or with ``rule_defaults`` the step's default (noted in
    :attr:`BattleResult.fallbacks`). ``after`` names procedures (without parameters) run
    next in the same run (a campaign's ``after_battle``), with the same dice and decisions.
    ``backend`` runs the procedures as generated Python (``generated``) or interprets their
    step records (``interpreter``); the default is STRATAGEM_BACKEND's, else generated (the
    interpreter in a compiled build)."""
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    rs = scenario.ruleset
    seed = seed if seed is not None else (scenario.seed if scenario.seed is not None else 0)
    if dice is None:
        dice = scenario.dice
    merged = merge_decisions(scenario.decisions, compile_decisions(rs, decisions)) \
        if decisions else scenario.decisions
    root = scenario.instantiate()
    start = root.clone() if tracing else root
    source = _dice_source(seed, dice, dice_fallback, ask_dice)
    if tracing:
        source = RecordingDice(source)
    decided = Decisions(merged, ask_decision, seed=seed if dice is None else None,
                        rule_defaults=rule_defaults)
    run = Run(rs, root, source, decided, tracing=tracing,
              generated=procedures_for(rs, tracing, backend))
    run.lang = lang
    call(run, rs.entry["battle"], {})
    for procedure in after:
        call(run, procedure, {})
    scripted = len(dice) if dice is not None else None
    return BattleResult(rs, root, start, run.trace, seed if dice is None else None, scripted,
                        scenario.name, getattr(source, "log", []), decided.taken,
                        decided.fallbacks, names=scenario.names or NameBook())


#: The largest trace `--replay` reads: the most `--json` writes.
MAX_TRACE_BYTES = MAX_JSON_BYTES

#: What `battle --json` writes (schemas/trace.schema.json describes it).
TRACE_FORMAT = "stratagem-trace"
TRACE_VERSION = 1


def replay_inputs(path: str | Path) -> tuple[list[Any], dict[str, Any]]:
    """The dice and decisions recorded in a `--json` trace, to fight the same battle again.
    The file is checked against schemas/trace.schema.json first."""
    import jsonschema  # only a replay needs it

    hint = "give the file `stratagem battle SCENARIO --json > trace.json` wrote"
    try:
        with open_regular(Path(path), str(path)) as handle:
            raw = handle.read(MAX_TRACE_BYTES + 1)
        if len(raw) > MAX_TRACE_BYTES:
            raise StratagemError(f"the trace {path} is larger than "
                                 f"{MAX_TRACE_BYTES // (1024 * 1024)} MB", hint=hint,
                                 key="replay.too_large", hint_key="replay.hint",
                                 params={"path": str(path),
                                         "mb": MAX_TRACE_BYTES // (1024 * 1024)})
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else "not UTF-8 text"
        raise StratagemError(f"cannot read the trace {path}: {reason}", hint=hint,
                             key="replay.unreadable", hint_key="replay.hint",
                             params={"path": str(path), "reason": reason}) from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise StratagemError(f"the trace {path} is nested too deeply to be a battle trace",
                             hint=hint, key="replay.too_deep", hint_key="replay.hint",
                             params={"path": str(path)}) from None
    except ValueError as err:
        raise StratagemError(f"the trace {path} is not JSON: {err}", hint=hint,
                             key="replay.not_json", hint_key="replay.hint",
                             params={"path": str(path), "reason": str(err)}) from None
    schema = json.loads((data_dir("schemas") / "trace.schema.json").read_text(encoding="utf-8"))
    problem = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema)
                                               .iter_errors(data))
    if problem is not None:
        at = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in problem.absolute_path)
        raise StratagemError(f"the trace {path} is not a battle trace: {problem.message}"
                             + (f" (at ${at})" if at else ""), hint=hint,
                             key="replay.not_trace", hint_key="replay.hint",
                             params={"path": str(path), "problem": problem.message,
                                     "at": f"${at}" if at else None})
    return list(data["dice"]), dict(data["decisions"])


@dataclass
class RatedArmy:
    ruleset: Ruleset
    side: Entity
    trace: list[Event]
    names: NameBook = field(default_factory=NameBook)

    def report(self, lang: str = "en", explain: bool = False) -> str:
        return render_rating(self, lang=lang, explain=explain)

    def to_plain(self) -> dict[str, Any]:
        return {**self._head(), "trace": [e.to_plain() for e in self.trace]}

    def _head(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset.ref, "side": plainify(self.side.to_plain()),
                "derived": derived_values(self.side)}

    def to_json(self) -> str:
        return trace_json(self._head(), self.trace)


@dataclass
class RatedScenario:
    """Every side of a scenario rated where it fights: on the scenario's battle (its terrain
    and options), with its role and overrides, under its ruleset and overlays."""

    ruleset: Ruleset
    root: Entity
    sides: list[RatedArmy]
    name: str = ""
    names: NameBook = field(default_factory=NameBook)

    def report(self, lang: str = "en", explain: bool = False) -> str:
        return render_rating(self, lang=lang, explain=explain)

    def to_json(self) -> str:
        """``{"ruleset", "scenario", "sides": [...]}``: each side as `rate ARMY --json`
        writes one army."""
        return bounded_json({"ruleset": self.ruleset.ref, "scenario": self.name}, "sides",
                            ((side.to_json(), None) for side in self.sides))


def derived_values(entity: Entity) -> dict[str, Any]:
    """Every derived value of an entity and its descendants, by name (entities by name;
    null for a value that cannot be computed, as the text report shows it as —)."""
    out: dict[str, Any] = {name: _derived(entity, name) for name in entity.declaration.derived}
    for coll, items in entity.children_of():
        out[coll] = [derived_values(child) | {"name": child.label()} for child in items]
    return out


def _derived(entity: Entity, name: str) -> Any:
    try:
        return plainify(entity.member(name))
    except StratagemError:
        return None


def rate_army(army: str | Path | Army, *, explain: bool = True,
              decisions: Mapping[str, Any] | None = None, seed: int = 0,
              lang: str = "en", backend: str | None = None) -> RatedArmy:
    """Run the ruleset's `entry.rate` procedure (if any) on one army (``backend``: as
    :func:`run_battle` takes it)."""
    if not isinstance(army, Army):
        army = load_army(army)
    plans = compile_decisions(army.ruleset, decisions) if decisions else None
    return _rate(army.ruleset, army.side, plans, seed, explain, lang, army.names, backend)


def rate_scenario(scenario: str | Path | Scenario, *, explain: bool = True,
                  decisions: Mapping[str, Any] | None = None, seed: int | None = None,
                  lang: str = "en") -> RatedScenario:
    """Run the ruleset's `entry.rate` procedure on every side of a scenario, each on the
    scenario's battle as `battle` starts it (the same pipeline, the same template state):
    values that read the terrain, a side's role or the battle's options are those of this
    battle. The scenario's decisions answer the rate procedure's, and its seed (else 0)
    seeds its dice."""
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    rs = scenario.ruleset
    plans = merge_decisions(scenario.decisions, compile_decisions(rs, decisions)) \
        if decisions else scenario.decisions
    if seed is None:
        seed = scenario.seed if scenario.seed is not None else 0
    root = scenario.instantiate()
    collection = next(iter(rs.kinds["battle"].children))
    sides = [_rate(rs, side, plans, seed, explain, lang, scenario.names)
             for side in dict(root.children_of())[collection]]
    return RatedScenario(rs, root, sides, scenario.name, scenario.names or NameBook())


def _rate(rs: Ruleset, side: Entity, plans: Mapping[str, Any] | None, seed: int,
          explain: bool, lang: str, names: NameBook | None,
          backend: str | None = None) -> RatedArmy:
    run = Run(rs, side.root(), SeededDice(seed), Decisions(plans), tracing=explain,
              generated=procedures_for(rs, explain, backend))
    run.lang = lang
    proc = rs.entry.get("rate")
    if proc:
        (param,) = rs.procedures[proc].params
        call(run, proc, {param: side})
    return RatedArmy(rs, side, run.trace, names or NameBook())
