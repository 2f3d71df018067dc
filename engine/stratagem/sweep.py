"""Sweeps: the odds of a scenario over a grid of its values (``stratagem sweep``).

Each ``--vary FIELD=v1,v2,...`` is an axis: FIELD addresses one value of the scenario by
its keys and list positions, ``sides.0.units.1.count`` or ``battle.days`` (a field of the
battle may be named alone: ``days``), a side or a unit also by its name
(``sides.Red.strategy``). The grid is every combination of the axes' values, the
first axis varying slowest. Each combination is the scenario with those values set,
checked as a scenario file is, and fought with the seeds ``stratagem odds`` uses (SEED ..
SEED+N-1), so its figures are exactly those of ``stratagem odds`` on that variant.

The battles are fought in tasks of :data:`stratagem.odds.CHUNK` battles: one after the
other, in local processes, or on a Dask cluster (``run_tasks``). A task names the
scenario's file and the values set, so that any process can rebuild the variant; the
figures are added up in the order of the seeds, so they are the same however the tasks
ran.
"""

from __future__ import annotations

import copy
import itertools
import multiprocessing
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stratagem.compile.documents import ARMY_META
from stratagem.compile.pipeline import DEFAULT
from stratagem.errors import Location, StratagemError, ValidationFailed, did_you_mean
from stratagem.i18n.names import NameBook
from stratagem.loader.yamlio import PosDict, PosList, load_yaml
from stratagem.model.ruleset import Ruleset
from stratagem.model.scenario import Scenario
from stratagem.odds import (
    CHUNK,
    Fought,
    fallback_figures,
    fight_seeds,
    figures,
    plain_error,
)
from stratagem.render import render
from stratagem.render.views import sweep_view

#: The most combinations one sweep may have (a grid is the product of its axes).
MAX_CELLS = 10_000

#: A task: (combination, first seed, battles, scenario file, the values set as
#: (FIELD, value text) pairs, the GM's decisions).
Task = tuple[int, int, int, str, tuple[tuple[str, str], ...], dict[str, Any]]


@dataclass(frozen=True)
class Axis:
    """One ``--vary``: the field as written, its path of keys and list positions, and its
    values as written."""

    field: str
    path: tuple[str | int, ...]
    texts: tuple[str, ...]


def parse_vary(text: str) -> tuple[str, list[str]]:
    """``FIELD=v1,v2,...`` → (FIELD, value texts). Commas inside brackets, braces or
    quotes belong to a value (``position=[castle],[]``)."""
    field, sep, rest = text.partition("=")
    field = field.strip()
    if not sep or not field:
        raise StratagemError(f"--vary {text}: expected FIELD=VALUE,VALUE,...",
                             hint="e.g. --vary sides.0.units.1.count=10,20,30",
                             key="sweep.vary_form", params={"text": text})
    values: list[str] = []
    depth, quote, token = 0, "", ""
    for ch in rest:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            values.append(token.strip())
            token = ""
            continue
        token += ch
    values.append(token.strip())
    if any(v == "" for v in values):
        raise StratagemError(f"--vary {text}: an empty value",
                             hint="separate the values with single commas: FIELD=1,2,3",
                             key="sweep.vary_empty", params={"text": text})
    if len(set(values)) != len(values):
        raise StratagemError(f"--vary {text}: a value is given twice", hint="give each once",
                             key="sweep.vary_twice", params={"text": text})
    return field, values


def value_of(field: str, text: str) -> Any:
    """A value as written on the command line, read as YAML (``12``, ``true``, ``castle``,
    ``[castle, manor]``); its errors name the ``--vary``."""
    return load_yaml(f"--vary {field}", text=text)


def axis(text: str, raw: PosDict, schema: Mapping[str, Any], folder: Path) -> Axis:
    """The ``--vary`` checked against the scenario's document and its schema: every key
    must be one the schema knows (else: the keys it knows, the closest first), every list
    position one the file has."""
    field, texts = parse_vary(text)
    return Axis(field, resolve(field, raw, schema, folder), tuple(texts))


def _deref(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return root["$defs"][ref[len("#/$defs/"):]]
    return schema


def _wrong(field: str, message: str, hint: str | None, key: str, hint_key: str | None = None,
           **params: object) -> StratagemError:
    return StratagemError(f"--vary {field}: {message}", hint=hint, key=key, hint_key=hint_key,
                          params={"field": field, **params})


def resolve(field: str, raw: PosDict, schema: Mapping[str, Any],
            folder: Path) -> tuple[str | int, ...]:
    """The path of keys and list positions that ``field`` names in the scenario."""
    keys = field.split(".")
    top = schema.get("properties", {})
    battle = top.get("battle", {}).get("properties", {})
    if keys[0] not in top and keys[0] in battle:
        keys.insert(0, "battle")  # `days` is `battle.days`
    path: list[str | int] = []
    node: Any = raw
    here: Mapping[str, Any] = schema
    for n, key in enumerate(keys):
        here = _deref(here, schema)
        shown = ".".join(str(k) for k in path) or "the scenario"
        if here.get("type") == "array" and isinstance(here.get("items"), Mapping):
            items = node if isinstance(node, list) else []
            index = _position(key, items)
            if index is None and any(isinstance(i, Mapping) and "army" in i for i in items):
                items = [_army_view(i, folder) if isinstance(i, Mapping) and "army" in i
                         else i for i in items]  # a side is named in its army file
                index = _position(key, items)
            if index is None:
                names = [str(i.get("name")) for i in items if isinstance(i, Mapping)
                         and i.get("name") is not None]
                hint_key = ("sweep.no_item_named.hint" if names else "sweep.no_item.hint") \
                    if items else "sweep.no_items.hint"
                raise _wrong(field, f"{shown} has no item '{key}' (it has {len(items)})",
                             f"give a position from 0 to {len(items) - 1}"
                             + (f" or a name: {', '.join(names)}" if names else "")
                             if items else "the file lists none to change", "sweep.no_item",
                             hint_key, shown=shown, item=key, n=len(items),
                             last=len(items) - 1, names=", ".join(names))
            path.append(index)
            node = items[index]
            here = here["items"]
            if isinstance(node, Mapping) and "army" in node and n + 1 < len(keys):
                node = _army_view(node, folder)
            continue
        if len(path) == 2 and path[0] == "decisions" and n == len(keys) - 1:
            path.append(key)  # decisions.ID.WHO: the answer for one subject
            break
        props = here.get("properties")
        if not isinstance(props, Mapping) or "anyOf" in here:
            raise _wrong(field, f"{shown} is a value: it has no '{key}'",
                         f"vary {shown} itself", "sweep.not_a_map", shown=shown, name=key)
        if key not in props or key in ("kind", "ruleset", "army"):
            known = [k for k in props if k not in ("kind", "ruleset", "army")]
            raise _wrong(field, f"{shown} has no field '{key}'",
                         did_you_mean(key, known) or f"fields: {', '.join(known)}",
                         "sweep.no_field", shown=shown, name=key, fields=", ".join(known))
        path.append(key)
        node = node.get(key) if isinstance(node, Mapping) else None
        here = props[key]
    here = _deref(here, schema)
    if here.get("type") == "array" and "$ref" in here.get("items", {}):
        kind = here["items"]["$ref"].rsplit("/", 1)[-1]
        raise _wrong(field, f"{field} is a list of {kind}s",
                     f"vary a field of one of them, e.g. {field}.0.count", "sweep.a_list",
                     kind=kind)
    if here.get("type") == "object" and "properties" in here:
        some = ", ".join(list(here["properties"])[:4])
        raise _wrong(field, f"{field} holds several values", f"vary one of them: {some} ...",
                     "sweep.a_map", fields=some)
    return tuple(path)


def _position(key: str, items: Sequence[Any]) -> int | None:
    if key.lstrip("-").isdigit():
        index = int(key)
        return index if 0 <= index < len(items) else None
    for i, item in enumerate(items):
        if isinstance(item, Mapping) and key in (item.get("name"), item.get("id")):
            return i
    return None


def _army_view(side: Mapping[str, Any], folder: Path) -> PosDict:
    """A side that names an army file, as if the army were written in the scenario: the
    army's keys, then the side's own (which override the army's fields)."""
    army = DEFAULT.army_doc((folder / str(side["army"])).resolve(),
                            getattr(side, "where", lambda k: None)("army"), folder)
    view = PosDict(file=army.pos[0], line=army.pos[1], col=army.pos[2], path=army.path)
    for key, value in army.items():
        if key not in ARMY_META:
            view.put(key, value, army.key_pos.get(key), army.value_pos.get(key))
    for key, value in side.items():
        if key != "army":
            view.put(key, value, *_positions(side, key))
    return view


def _positions(node: Any, key: str) -> tuple[Any, Any]:
    return (getattr(node, "key_pos", {}).get(key), getattr(node, "value_pos", {}).get(key))


def variant(raw: PosDict, folder: Path, values: Sequence[tuple[Axis, str]]) -> PosDict:
    """The scenario's document with each axis's value set (the file is not changed)."""
    doc = copy.deepcopy(raw)
    for ax, text in values:
        value = value_of(ax.field, text)
        pos = (f"--vary {ax.field}={text}", 1, 1)
        node: Any = doc
        for n, key in enumerate(ax.path[:-1]):
            child = node[key] if isinstance(key, int) else node.get(key)
            if isinstance(child, Mapping) and "army" in child and n + 2 < len(ax.path):
                child = _army_view(child, folder)  # the army's units become the scenario's
                node[key] = child
            elif child is None:
                child = PosDict(file=pos[0], line=1, col=1)
                node.put(key, child, pos, pos)
            elif ax.path[0] == "decisions" and n == 1 and (
                    not isinstance(child, Mapping) or {"prefer", "policy"} & set(child)):
                answer, child = child, PosDict(file=pos[0], line=1, col=1)
                child.put("*", answer, pos, pos)  # the answer for the other subjects
                node.put(key, child, pos, pos)
            node = child
        last = ax.path[-1]
        if isinstance(last, int):
            node[last] = value
            node.item_pos[last] = pos
        else:
            node.put(last, value, pos, pos)
    return doc


def cells(axes: Sequence[Axis]) -> list[tuple[str, ...]]:
    """Every combination of the axes' values, the first axis varying slowest."""
    return list(itertools.product(*(ax.texts for ax in axes)))


@dataclass
class Grid:
    """A sweep ready to fight: the scenario's file and document, its axes and their
    combinations, and each combination's scenario (built once, to check it)."""

    path: Path
    raw: PosDict
    axes: list[Axis]
    combinations: list[tuple[str, ...]]
    scenarios: list[Scenario]


def grid(path: str | Path, varies: Sequence[str]) -> Grid:
    """Read the scenario, check every ``--vary`` and build every combination (so that a
    mistake is found before any battle)."""
    path = Path(path)
    raw = DEFAULT.document(path, "scenario")
    rs = DEFAULT.ruleset_for(raw, path, "scenario")
    DEFAULT.side_schema(raw, "scenario", rs)
    schema = rs.schemas["scenario"]
    if not varies:
        raise StratagemError("nothing to vary", hint="add e.g. --vary sides.0.strategy=12,14",
                             key="sweep.nothing")
    axes = [axis(text, raw, schema, path.parent) for text in varies]
    seen: dict[tuple[str | int, ...], str] = {}
    for ax in axes:
        if ax.path in seen:
            raise StratagemError(f"--vary {ax.field}: the same field as --vary {seen[ax.path]}",
                                 hint="give all its values in one --vary",
                                 key="sweep.same_field",
                                 params={"field": ax.field, "other": seen[ax.path]})
        seen[ax.path] = ax.field
    count = 1
    for ax in axes:
        count *= len(ax.texts)
    if count > MAX_CELLS:
        raise StratagemError(f"the grid has {count:,} combinations, more than {MAX_CELLS:,}",
                             hint="vary fewer fields or fewer values", key="sweep.too_many",
                             params={"n": count, "most": MAX_CELLS})
    combos = cells(axes)
    scenarios = [build(path, raw, axes, combo) for combo in combos]
    return Grid(path, raw, axes, combos, scenarios)


def build(path: Path, raw: PosDict, axes: Sequence[Axis], combo: Sequence[str]) -> Scenario:
    """One combination's scenario; its errors say which values made it."""
    doc = variant(raw, path.parent, list(zip(axes, combo)))
    try:
        return DEFAULT.scenario_from(doc, path, None)
    except ValidationFailed as failed:
        raise _for_combination(failed.errors[0], axes, combo) from None
    except StratagemError as err:
        raise _for_combination(err, axes, combo) from None


def _for_combination(err: StratagemError, axes: Sequence[Axis], combo: Sequence[str]) -> StratagemError:
    """The error of one combination, the values that made it under its message (a line of
    the command's own words, the same in every language)."""
    location = err.location
    if location is not None and location.file and location.file.startswith("--vary "):
        location = Location(path=location.path)  # the value is named below
    made = "  " + " ".join(f"--vary {ax.field}={text}" for ax, text in zip(axes, combo))
    return StratagemError(err.message, hint=err.hint, location=location,
                          context=(err.context + "\n" if err.context else "") + made,
                          key=err.key, params=err.params, hint_key=err.hint_key)


def tasks(g: Grid, n: int, seed: int, decisions: Mapping[str, Any]) -> list[Task]:
    """The tasks of a sweep, combination by combination, each of CHUNK battles or fewer."""
    out: list[Task] = []
    for index, combo in enumerate(g.combinations):
        assigned = tuple((ax.field, text) for ax, text in zip(g.axes, combo))
        for first in range(seed, seed + n, CHUNK):
            out.append((index, first, min(CHUNK, seed + n - first), str(g.path.resolve()),
                        assigned, dict(decisions)))
    return out


#: The combinations a process has built, by (file, values): a worker fights many tasks of
#: the same combination in a row.
_BUILT: dict[tuple[str, tuple[tuple[str, str], ...]], Scenario] = {}


def fight_task(task: Task) -> tuple[int, int, Fought]:
    """Fight one task (in any process): the combination is rebuilt from the scenario's
    file and the values set. Errors come back as the plain errors every command prints."""
    index, first, count, file, assigned, decisions = task
    key = (file, assigned)
    try:
        scenario = _BUILT.get(key)
        if scenario is None:
            path = Path(file)
            raw = DEFAULT.document(path, "scenario")
            rs = DEFAULT.ruleset_for(raw, path, "scenario")
            schema = rs.schemas.get("scenario")
            if schema is None:
                DEFAULT.side_schema(raw, "scenario", rs)
                schema = rs.schemas["scenario"]
            axes = [Axis(field, resolve(field, raw, schema, path.parent), (text,))
                    for field, text in assigned]
            scenario = build(path, raw, axes, [text for _, text in assigned])
            if len(_BUILT) >= 8:
                _BUILT.clear()
            _BUILT[key] = scenario
        fought = fight_seeds(scenario, first, count, decisions)
    except StratagemError as err:
        raise plain_error(err) from None
    if fought.stopped is not None:
        fought.stopped = (fought.stopped[0], plain_error(fought.stopped[1]))
    return index, first, fought


#: Runs tasks and yields each one's result as it is done (in any order).
Runner = Callable[[list[Task]], Iterable[tuple[int, int, Fought]]]


def in_processes(jobs: int) -> Runner:
    """Tasks in ``jobs`` local processes (forked on Linux, else the platform's way: each
    task rebuilds its combination from the file, so spawned processes work too)."""

    def run(todo: list[Task]) -> Iterator[tuple[int, int, Fought]]:
        context = multiprocessing.get_context("fork" if sys.platform.startswith("linux")
                                              else None)
        pool = context.Pool(min(jobs, len(todo)), _ignore_interrupts)
        try:
            yield from pool.imap_unordered(fight_task, todo)
            pool.close()
        finally:
            pool.terminate()
            pool.join()

    return run


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def in_this_process(g: Grid) -> Runner:
    """Tasks one after the other, with the combinations already built."""

    def run(todo: list[Task]) -> Iterator[tuple[int, int, Fought]]:
        for index, first, count, _, _, decisions in todo:
            yield index, first, fight_seeds(g.scenarios[index], first, count, decisions)

    return run


def sweep(g: Grid, n: int, seed: int, decisions: Mapping[str, Any], run: Runner,
          progress: Callable[[int], None] | None = None,
          stops: list[StratagemError] | None = None) -> dict[str, Any]:
    """The odds of every combination: per combination the values set (``set``) and the
    figures of ``stratagem odds`` (outcomes, summarised numbers, fallbacks; ``partial``
    where a battle could not be fought, which stops that combination only: its error,
    with the values that made it, goes into ``stops``)."""
    rs = g.scenarios[0].ruleset
    todo = tasks(g, n, seed, decisions)
    parts: dict[tuple[int, int], Fought] = {}
    done = 0
    for index, first, fought in run(todo):
        parts[(index, first)] = fought
        done += fought_count(fought, first, seed, n)
        if progress is not None:
            progress(done)
    out = []
    for index, combo in enumerate(g.combinations):
        joined = Fought()
        for first in range(seed, seed + n, CHUNK):
            part = parts[(index, first)]
            joined.records.extend(part.records)
            joined.fallbacks.update(part.fallbacks)
            if part.stopped is not None:
                joined.stopped = part.stopped
                break
        cell = figures(rs, joined.records, len(joined.records), seed)
        cell["fallbacks"] = fallback_figures(joined.fallbacks)
        if joined.stopped is not None:
            stop_seed, error = joined.stopped
            cell["partial"] = {"asked": n, "stopped_at_seed": stop_seed,
                               "error": error.to_json()}
            if stops is not None:
                stops.append(_for_combination(error, g.axes, combo))
        out.append({"set": {ax.field: _plain(value_of(ax.field, text))
                               for ax, text in zip(g.axes, combo)}, **cell})
    return {"vary": [{"field": ax.field, "values": [_plain(value_of(ax.field, t))
                                                    for t in ax.texts]} for ax in g.axes],
            "battles": n, "first_seed": seed, "cells": out}


def fought_count(fought: Fought, first: int, seed: int, n: int) -> int:
    """The battles a task accounts for (a task that stopped counts its whole chunk)."""
    return min(CHUNK, seed + n - first) if fought.stopped is not None else len(fought.records)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, PosList)):
        return [_plain(v) for v in value]
    return value


def render_sweep(ruleset: Ruleset, result: dict[str, Any], lang: str, fmt: str = "text",
                 names: NameBook | None = None) -> str:
    """The sweep as text, Markdown or HTML (templates `sweep.*.j2`), the sides named in
    ``lang`` (``names``)."""
    return render("sweep", fmt, sweep_view(ruleset, result, lang, names), ruleset)
