"""Odds: the same scenario fought many times with successive seeds."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from stratagem.api import load_scenario, run_battle
from stratagem.compile.decisions import compile_decisions
from stratagem.errors import StratagemError
from stratagem.i18n.catalog import translator
from stratagem.interp.context import battle_seconds, limit_battles
from stratagem.interp.decisions import reason_text
from stratagem.interp.trace import Label
from stratagem.model.decisions import Reason, merge_decisions
from stratagem.model.ruleset import Ruleset
from stratagem.model.scenario import Scenario
from stratagem.model.values import plain
from stratagem.render import render
from stratagem.render.stats import summary, wilson
from stratagem.render.views import odds_view, side_kind

if TYPE_CHECKING:
    from stratagem.i18n.names import NameBook


def outcome_of(ruleset: Ruleset, root: Any) -> str:
    """The outcome of a finished battle: the ruleset's `outcome:` expression, else its
    first reported battle field."""
    expr = ruleset.outcome
    if expr is not None:
        value = ruleset.evaluator.eval(expr, {"battle": root})
    else:
        names = ruleset.report.get("battle") or []
        value = root.member(names[0]) if names else None
    if hasattr(value, "label") and callable(value.label):
        value = value.label()
    if isinstance(value, Label):
        return value.key
    return "—" if value is None else str(plain(value))


#: Battles one worker process fights per task (progress is shown per task).
CHUNK = 100

#: A battle's outcome, its own summarised numbers (`report.odds.battle`), and per side its
#: label and summarised numbers (None: not a number).
Record = tuple[str, list[float | None], list[tuple[str, list[float | None]]]]


def default_jobs(n: int) -> int:
    """Processes to fight ``n`` battles in: one per CPU this process may use, or one for a
    few battles (starting the others would cost more than it saves)."""
    if n < 2 * CHUNK:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, n // CHUNK))


def simulate(scenario: Scenario, n: int, seed: int, decisions: Mapping[str, Any],
             progress: Callable[[int], None] | None = None, jobs: int = 1) -> dict[str, Any]:
    """Fight battles with seeds ``seed`` .. ``seed + n - 1`` and sum up their outcomes and
    reported numbers. ``jobs`` processes fight them at once; the figures are the same for
    any number of them (each battle has its own seed, and they are added up in order).

    Where an answer of the scenario cannot apply, the plan's ``else:`` or the step's default
    is taken, and the figures count in how many battles (``fallbacks``). A battle that
    cannot be fought (such an answer with neither) stops the run: :class:`OddsStopped`
    holds the figures of the battles fought before it."""
    rs = scenario.ruleset
    if decisions:
        compile_decisions(rs, decisions)  # a mistake in them is found before any battle
    scenario = replace(scenario, dice=None)  # odds roll every die: a scripted battle is one case
    chunks = [(first, min(CHUNK, seed + n - first)) for first in range(seed, seed + n, CHUNK)]
    if jobs > 1 and len(chunks) > 1 and (_start_method() == "fork" or scenario.path):
        parts = _in_processes(scenario, chunks, decisions, progress, jobs)
    else:
        parts = []
        done = 0
        for first, count in chunks:
            parts.append(fight_seeds(scenario, first, count, decisions))
            done += len(parts[-1].records)
            if progress is not None:
                progress(done)
            if parts[-1].stopped is not None:
                break
    fought = Fought()
    for part in parts:
        fought.records.extend(part.records)
        fought.fallbacks.update(part.fallbacks)
        if part.stopped is not None:
            fought.stopped = part.stopped
            break
    if fought.stopped is not None and not fought.records:
        raise fought.stopped[1]
    result = figures(rs, fought.records, len(fought.records), seed)
    result["fallbacks"] = fallback_figures(fought.fallbacks)
    if fought.stopped is not None:
        stop_seed, error = fought.stopped
        result["partial"] = {"asked": n, "stopped_at_seed": stop_seed, "error": error.to_json()}
        raise OddsStopped(error, result)
    return result


def figures(rs: Ruleset, records: list[Record], n: int, seed: int) -> dict[str, Any]:
    """The outcomes with their shares and 95 % (Wilson) intervals, and the distribution of
    every number the ruleset summarises (`report.odds`), in a fixed order: the same battles
    give the same bytes."""
    outcomes: Counter[str] = Counter(record[0] for record in records)
    battle_fields, side_fields = _summarised(rs)
    per_side: dict[str, dict[str, list[float]]] = {}
    for _, _, sides in records:
        for label, values in sides:
            bucket = per_side.setdefault(label, {name: [] for name in side_fields})
            for name, value in zip(side_fields, values):
                if value is not None:
                    bucket[name].append(value)
    battle = {name: summary([v for v in (r[1][i] for r in records) if v is not None])
              for i, name in enumerate(battle_fields)}
    return {
        "battles": n,
        "first_seed": seed,
        "outcomes": {k: {"count": v, "percent": round(100 * v / n, 2) if n else 0.0,
                         "interval": [round(x, 5) for x in wilson(v, n)]}
                     for k, v in sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0]))},
        "values": {"battle": battle,
                   "sides": {side: {name: summary(vals) for name, vals in fields.items()}
                             for side, fields in per_side.items()}},
    }


#: A fallback counted by :func:`simulate`: (decision, subject, why), and (decision, subject,
#: None) for the battles with any fallback of that decision and subject.
FallbackKey = tuple[str, str, Reason | None]


@dataclass
class Fought:
    """What a run of battles found: their records, in how many of them each fallback was
    taken, and the battle that stopped the run (its seed and error), if one did."""

    records: list[Record] = field(default_factory=list)
    fallbacks: Counter[FallbackKey] = field(default_factory=Counter)
    stopped: tuple[int, StratagemError] | None = None


class OddsStopped(StratagemError):
    """A battle could not be fought: the error, and the figures of the battles before it."""

    def __init__(self, error: StratagemError, figures: dict[str, Any]) -> None:
        super().__init__(error.message, hint=error.hint, location=error.location,
                         context=error.context, key=error.key, params=error.params,
                         hint_key=error.hint_key)
        self.error = error
        self.figures = figures


def fallback_figures(counts: Counter[FallbackKey]) -> list[dict[str, Any]]:
    """Per decision and subject: in how many battles a fallback was taken, and why."""
    out: list[dict[str, Any]] = []
    for (decision, who, why), battles in sorted(
            ((k, v) for k, v in counts.items() if k[2] is None), key=lambda kv: kv[0][:2]):
        reasons = sorted(((k[2], v) for k, v in counts.items()
                          if k[:2] == (decision, who) and k[2] is not None),
                         key=lambda kv: (-kv[1], repr(kv[0])))
        out.append({"decision": decision, "subject": who, "battles": battles,
                    "reasons": [{"key": r[0], "params": dict(r[1]), "battles": k}
                                for r, k in reasons]})
    return out


def _summarised(rs: Ruleset) -> tuple[list[str], list[str]]:
    """The battle's and each side's numbers `stratagem odds` summarises (`report.odds`)."""
    return list(rs.odds_report.get("battle", [])), list(rs.odds_report.get(side_kind(rs), []))


def fight_seeds(scenario: Scenario, first: int, count: int, decisions: Mapping[str, Any],
                starting: Callable[[int], None] | None = None) -> Fought:
    """The battles with seeds ``first`` .. ``first + count - 1``, up to one that stops
    (``starting(seed)`` is told of each before it is fought)."""
    rs = scenario.ruleset
    if decisions:
        scenario = replace(scenario, decisions=merge_decisions(
            scenario.decisions, compile_decisions(rs, decisions)))
    kind = side_kind(rs)
    battle_fields, fields = _summarised(rs)
    fought = Fought()
    for battle_seed in range(first, first + count):
        if starting is not None:
            starting(battle_seed)
        try:
            result = run_battle(scenario, seed=battle_seed, tracing=False, rule_defaults=True)
        except StratagemError as err:
            # which battle failed, and how to fight that one alone
            again = f"stratagem battle {scenario.path} --seed {battle_seed}" if scenario.path \
                else f"seed {battle_seed}"
            err.add_hint(f"it happened in the battle with seed {battle_seed} (to see it: "
                         f"{again})", "odds.failed_after.hint", "odds.failed.hint",
                         seed=battle_seed, again=again)
            fought.stopped = (battle_seed, err)
            break
        root = result.root
        sides = [(side.label(), [_number(side.member(name)) for name in fields])
                 for side in root.walk() if side.kind_name == kind]
        fought.records.append((outcome_of(rs, root), [_number(root.member(name))
                                                      for name in battle_fields], sides))
        fought.fallbacks.update(result.fallbacks)
        fought.fallbacks.update({(d, w, None) for d, w, _ in result.fallbacks})
    return fought


def _number(value: Any) -> float | None:
    """A reported value as the number averaged (true counts 1), or None if it is none."""
    if isinstance(value, (int, float)) or hasattr(value, "denominator"):
        return float(value)
    return None


def _start_method() -> str:
    """How worker processes start: forked on Linux, so that each starts with the parent's
    loaded scenario; elsewhere as the platform does by default (macOS and Windows spawn a
    new interpreter, which reads the scenario file again)."""
    return "fork" if sys.platform.startswith("linux") else multiprocessing.get_start_method()


#: The scenario a worker process fights: the parent's, inherited when the worker is forked,
#: else loaded again from its file (see :func:`_start_worker`).
_WORKER_SCENARIO: Scenario | None = None


#: Why a worker could not load the scenario (a failing initializer would be restarted
#: without end; the error is raised by the worker's first task instead).
_WORKER_ERROR: StratagemError | None = None

#: Shared with the parent: per task, the seed its worker is fighting and the worker's
#: process id (so that a worker that dies names the battle that killed it).
_WORKER_SEEDS: Any = None
_WORKER_PIDS: Any = None


def _start_worker(path: str | None, seeds: Any = None, pids: Any = None,
                  seconds: float | None = None) -> None:
    global _WORKER_SCENARIO, _WORKER_ERROR, _WORKER_SEEDS, _WORKER_PIDS
    limit_battles(seconds)  # a spawned worker knows the command's --max-seconds only so
    # Ctrl-C is the parent's to handle: it stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_SEEDS, _WORKER_PIDS = seeds, pids
    if _WORKER_SCENARIO is None and path is not None:
        try:
            _WORKER_SCENARIO = replace(load_scenario(path), dice=None)
        except StratagemError as err:
            _WORKER_ERROR = plain_error(err)


def _worker_fight(task: tuple[int, int, int, dict[str, Any]]) -> tuple[int, Fought]:
    index, first, count, decisions = task
    if _WORKER_SCENARIO is None:
        raise _WORKER_ERROR or StratagemError("the scenario could not be loaded in a worker",
                                              key="odds.worker_load")
    seeds, pids = _WORKER_SEEDS, _WORKER_PIDS
    if pids is not None:
        pids[index] = os.getpid()

    def starting(battle_seed: int) -> None:
        if seeds is not None:
            seeds[index] = battle_seed

    try:
        fought = fight_seeds(_WORKER_SCENARIO, first, count, decisions, starting)
    except StratagemError as err:
        raise plain_error(err) from None
    if fought.stopped is not None:
        fought.stopped = (fought.stopped[0], plain_error(fought.stopped[1]))
    return index, fought


def plain_error(err: StratagemError) -> StratagemError:
    """The error as the parent process receives it: the plain error every command prints
    (a subclass's own arguments might not survive the trip between processes)."""
    return StratagemError(err.message, hint=err.hint, location=err.location,
                          context=err.context, key=err.key, params=err.params,
                          hint_key=err.hint_key)


def _in_processes(scenario: Scenario, chunks: list[tuple[int, int]],
                  decisions: Mapping[str, Any], progress: Callable[[int], None] | None,
                  jobs: int) -> list[Fought]:
    """The chunks fought in worker processes, in order, up to the first that stopped (the
    chunks after it are not waited for). A worker that dies (a crash, the memory it may
    use) stops the run with an error naming the seed of the battle it was fighting."""
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    global _WORKER_SCENARIO
    context = multiprocessing.get_context(_start_method())
    _WORKER_SCENARIO = scenario if context.get_start_method() == "fork" else None
    tasks = [(i, first, count, dict(decisions)) for i, (first, count) in enumerate(chunks)]
    seeds = context.Array("q", [-1] * len(chunks), lock=False)
    pids = context.Array("q", [0] * len(chunks), lock=False)
    results: dict[int, Fought] = {}
    stopped = len(chunks)
    done = 0
    pool = ProcessPoolExecutor(min(jobs, len(chunks)), mp_context=context,
                               initializer=_start_worker,
                               initargs=(scenario.path, seeds, pids, battle_seconds()))
    try:
        pending = {pool.submit(_worker_fight, task) for task in tasks}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                index, fought = future.result()
                results[index] = fought
                done += len(fought.records)
                if progress is not None:
                    progress(done)
                if fought.stopped is not None:
                    stopped = min(stopped, index)
            if stopped < len(chunks) and all(i in results for i in range(stopped)):
                break
    except BrokenProcessPool:
        dying = [seeds[i] for i in range(len(chunks)) if i not in results and seeds[i] >= 0]
        raise _worker_died(scenario, dying, decisions) from None
    finally:
        _stop(pool, [pids[i] for i in range(len(chunks)) if i not in results])
        _WORKER_SCENARIO = None
    return [results[i] for i in range(min(stopped + 1, len(chunks)))]


def _stop(pool: Any, busy: list[int]) -> None:
    """Shut the pool down at once, also on an error or Ctrl-C: the workers still fighting
    are ended (``busy``: their process ids), the tasks not started dropped."""
    pool.shutdown(wait=False, cancel_futures=True)
    mine = {child.pid for child in multiprocessing.active_children()}
    for pid in busy:
        if pid in mine:
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass
    pool.shutdown(wait=True)


def _worker_died(scenario: Scenario, seeds: list[int],
                 decisions: Mapping[str, Any]) -> StratagemError:
    """The error of a worker process that died: which battle it was fighting (with several
    in flight, each is fought again alone until one kills its process)."""
    seed = seeds[0] if len(seeds) == 1 else _killer(scenario, seeds, decisions)
    again = f"stratagem battle {scenario.path or 'SCENARIO'} --seed {seed}"
    if seed is None:
        return StratagemError(
            "a worker process died while fighting a battle (it crashed, or ran out of the "
            "memory it may use); the odds are not complete", key="odds.worker_died_unknown",
            hint="run the odds with -j 1 to find the battle; if it ends with no error, this "
                 "is a bug to report (docs/security.md)")
    return StratagemError(
        f"a worker process died while fighting the battle of seed {seed} (it crashed, or ran "
        "out of the memory it may use); the odds are not complete",
        hint=f"fight that battle alone: {again}; if it ends with no error either, this is a "
             "bug to report (docs/security.md)",
        key="odds.worker_died", params={"seed": str(seed), "again": again})


def _killer(scenario: Scenario, seeds: list[int],
            decisions: Mapping[str, Any]) -> int | None:
    """The first of ``seeds`` whose battle kills the process that fights it alone."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    global _WORKER_SCENARIO
    context = multiprocessing.get_context(_start_method())
    for seed in seeds:
        _WORKER_SCENARIO = scenario if context.get_start_method() == "fork" else None
        with ProcessPoolExecutor(1, mp_context=context, initializer=_start_worker,
                                 initargs=(scenario.path,)) as pool:
            try:
                pool.submit(_worker_fight, (0, seed, 1, dict(decisions))).result()
            except BrokenProcessPool:
                return seed
            except StratagemError:
                continue
            finally:
                _WORKER_SCENARIO = None
    return None


def readable_outcomes(ruleset: Ruleset, outcomes: dict[str, Any], lang: str) -> dict[str, Any]:
    """The outcomes keyed as a reader names them: a side by its name, any other outcome (an
    enum value such as "nobody holds the field") by its text in ``lang``, with the value
    itself beside the counts (``"value": "field_held.none"``)."""
    t = translator(ruleset, lang)
    out: dict[str, Any] = {}
    for outcome, data in outcomes.items():
        if outcome.startswith("enum.") and t.catalog.message(outcome) is not None:
            out[t.t(outcome)] = {"value": outcome[len("enum."):], **data}
        else:
            out[outcome] = data
    return out


def render_odds(ruleset: Ruleset, figures: dict[str, Any], lang: str, fmt: str = "text",
                names: NameBook | None = None) -> str:
    """The figures as text, Markdown or HTML (templates `odds.*.j2`), the sides named in
    ``lang`` (``names``); in text, a run that stopped says so first, and the fallbacks taken
    follow."""
    out = render("odds", fmt, odds_view(ruleset, figures, lang, names), ruleset)
    if fmt != "text":
        return out
    t = translator(ruleset, lang, names)
    partial = figures.get("partial")
    if partial:  # under the title
        title, _, rest = out.partition("\n")
        out = title + "\n" + t.t("odds.partial", n=figures["battles"], total=partial["asked"],
                                  seed=partial["stopped_at_seed"]) + "\n" + rest
    extra = fallback_lines(t, figures)
    return out.rstrip("\n") + "\n" + "\n".join(extra) + "\n" if extra else out


def fallback_lines(t: Any, figures: Mapping[str, Any]) -> list[str]:
    """The fallbacks taken, in the translator's language (none: no lines)."""
    found = figures.get("fallbacks") or []
    if not found:
        return []
    lines = ["", t.t("odds.fallbacks")]
    for entry in found:
        reasons = entry["reasons"]
        texts = [reason_text(t, (r["key"], tuple(r["params"].items()))) for r in reasons]
        if len(texts) > 1:
            texts = [f"{text} ({t.number(r['battles'])})" for text, r in zip(texts, reasons)]
        decision = entry["decision"]  # as the scenario and --decide name it
        if entry["subject"]:
            decision += f" ({t.catalog.name(entry['subject'])})"
        lines.append("  " + t.t("odds.fallback", decision=decision, n=entry["battles"],
                                total=figures["battles"], reasons="; ".join(texts)))
    return lines
