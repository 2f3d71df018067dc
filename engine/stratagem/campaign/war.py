"""A campaign: battles that change the armies, a calendar, and a journal that replays.

Every step of a war is a function of the armies' texts (and the calendar, the scheduled
events, the journal): :func:`fight` and :func:`advance` return the new texts and the
journal entry without writing anything, so ``--dry-run``, the real command and
:func:`replay` run the very same code. The command line writes what they return with
:mod:`stratagem.campaign.store`.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stratagem.api import run_battle
from stratagem.campaign.rules import CampaignRules, campaign_rules
from stratagem.campaign.store import digest
from stratagem.campaign.yamledit import Editor, block
from stratagem.compile import pipeline
from stratagem.compile.documents import build_army, build_scenario, sides_collection
from stratagem.errors import Location, StratagemError, ValidationFailed
from stratagem.i18n.catalog import record_locale_names
from stratagem.i18n.names import NameBook, extract_names
from stratagem.interp.codegen import procedures_for
from stratagem.interp.context import Decisions, Run
from stratagem.interp.dicesource import SeededDice
from stratagem.interp.steps import call
from stratagem.interp.trace import Event, plainify
from stratagem.loader.access import ARMY_FILE
from stratagem.loader.schema import static_schema, validate_document
from stratagem.loader.yamlio import load_yaml
from stratagem.model.entities import Entity
from stratagem.model.ruleset import Ruleset
from stratagem.model.values import Label, plain, where
from stratagem.report import message, translator

#: Army name -> the text of its file.
Texts = dict[str, str]


@dataclass
class Campaign:
    """A campaign file, read: its ruleset, armies, calendar, schedule and journal."""

    path: Path
    text: str
    name: str
    ruleset: Ruleset
    rules: CampaignRules
    armies: dict[str, Path]
    day: int
    scheduled: list[dict[str, Any]]
    journal: list[dict[str, Any]]

    def read_armies(self) -> Texts:
        out = {}
        for name, path in self.armies.items():
            try:
                out[name] = path.read_text(encoding="utf-8")
            except OSError as err:
                raise StratagemError(f"cannot read the army file {path}: {err.strerror}",
                                     hint="the paths under `armies:` are relative to the "
                                     "campaign file", key="campaign.army_unreadable",
                                     params={"path": str(path), "reason": err.strerror}
                                     ) from None
        return out

    def relative(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.path.parent.resolve()).as_posix()
        except ValueError:
            return str(path)

    def history(self, entry: int) -> Path:
        """The folder keeping copies of the armies as they were at a journal entry."""
        return self.path.with_name(f"{self.path.stem}.history") / str(entry)

    def last_files(self) -> dict[str, str]:
        return dict(self.journal[-1].get("files") or {}) if self.journal else {}


def load_campaign(path: str | Path) -> Campaign:
    path = Path(path).resolve()
    doc = pipeline.DEFAULT.document(path, "campaign")
    errors = validate_document(doc, schema=static_schema("campaign"))
    if errors:
        raise ValidationFailed(errors)
    rs = pipeline.DEFAULT.ruleset_for(doc, path, "campaign")
    access = pipeline.DEFAULT.access
    armies = {str(k): access.reference(str(v), path.parent, path.parent,
                                       where(doc["armies"], k), ARMY_FILE).resolve()
              for k, v in doc["armies"].items()}
    campaign = Campaign(path, path.read_text(encoding="utf-8"), str(doc.get("name") or path.stem),
                        rs, campaign_rules(rs), armies, int(doc.get("day") or 0),
                        _plain(doc.get("scheduled") or []), _plain(doc.get("journal") or []))
    for name, army in armies.items():
        if not army.is_file():
            raise StratagemError(f"army file not found: {doc['armies'][name]}",
                                 location=where(doc["armies"], name),
                                 hint=f"paths are relative to the campaign's folder "
                                 f"({path.parent})", key="campaign.army_not_found",
                                 params={"path": doc["armies"][name],
                                         "folder": str(path.parent)})
    return campaign


# -- what changed -----------------------------------------------------------------------


@dataclass
class Change:
    army: str
    entity: str
    field: str
    old: Any
    new: Any

    def line(self) -> str:
        if self.old is None and self.new == "+":
            return f"{self.army}: + {self.entity} ({self.field})"
        return f"{self.army}: {self.entity}.{self.field} {_show(self.old)} → {_show(self.new)}"


def _show(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


@dataclass
class Step:
    """What one command does: the new texts, calendar and schedule, and its journal entry."""

    texts: Texts
    day: int
    scheduled: list[dict[str, Any]]
    entry: dict[str, Any]
    changes: list[Change] = field(default_factory=list)
    trace: list[Event] = field(default_factory=list)
    battle: Any = None
    #: what the command scheduled
    new: list[dict[str, Any]] = field(default_factory=list)


_PATH = re.compile(r"\.(\w+)|\[(\d+)\]")


def _doc_path(location: Location | None) -> tuple[Any, ...] | None:
    if location is None or location.path is None or not location.path.startswith("$"):
        return None
    return tuple(m.group(1) if m.group(1) is not None else int(m.group(2))
                 for m in _PATH.finditer(location.path))


class _Armies:
    """The campaign's army files while a command runs: texts, documents, and where each
    entity of the battle came from."""

    def __init__(self, campaign: Campaign, texts: Texts) -> None:
        self.campaign = campaign
        self.texts = dict(texts)
        self.docs = {name: load_yaml(campaign.armies[name], text=text)
                     for name, text in texts.items()}
        self.by_file = {str(path): name for name, path in campaign.armies.items()}
        #: the names the army files give per language (i18n/names.py)
        self.names = NameBook()

    def doc(self, path: Path, location: Location | None, folder: Path) -> Any:
        """The document of an army file a scenario of ``folder`` names (the campaign's own:
        its current text), checked as `validate` checks one."""
        access = pipeline.DEFAULT.access
        if not access.confined(path, self.campaign.path.parent):  # the campaign's own
            ref = str(path.relative_to(folder)) if path.is_relative_to(folder) else str(path)
            access.check(path, folder, ref, location, ARMY_FILE)
        path = path.resolve()
        name = self.by_file.get(str(path))
        if name is None:
            doc = pipeline.DEFAULT.document(path, "army", location, self.names)
        else:
            doc = self.docs[name]
            if not hasattr(doc, "get") or doc.get("kind") != "army":
                raise StratagemError(f"{path} is not an army file any more", location=location,
                                     key="campaign.not_army", params={"path": str(path)})
            extract_names(doc, self.names)
            record_locale_names(path.parent / "locales", self.names)
        pipeline.DEFAULT.side_schema(doc, "army", self.campaign.ruleset)
        return doc

    def army_of(self, entity: Entity) -> str | None:
        origin = entity.origin
        return self.by_file.get(origin.file) if origin is not None and origin.file else None

    def ref(self, entity: Entity) -> dict[str, Any] | None:
        """How a scheduled event names an entity of an army file: the army, its place in
        the file, and its name (a force split off for the battle is the force it came
        from)."""
        army = self.army_of(entity)
        path = _doc_path(entity.origin)
        if army is None or path is None:
            return None
        node = _node(self.docs[army], path)
        name = node.get("name") if hasattr(node, "get") else None
        return {"army": army, "at": _path_text(path),
                **({"name": str(name)} if name is not None else {})}


def _node(doc: Any, path: Sequence[Any]) -> Any:
    node = doc
    for step in path:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _path_text(path: Sequence[Any]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _parse_path(text: str) -> tuple[Any, ...]:
    return _doc_path(Location(path="$." + text if text and not text.startswith("[")
                              else "$" + text)) or ()


# -- writing the end state back -----------------------------------------------------------


def carry_over(armies: _Armies, root: Entity, rules: CampaignRules, rs: Ruleset
               ) -> tuple[Texts, list[Change]]:
    """The army files with the fields the ruleset keeps (`campaign.keep`) set to their
    values in ``root``, and entities made during the battle added to their lists."""
    changes: list[Change] = []
    texts = dict(armies.texts)
    for side in root.member(sides_collection(rs)):
        army = armies.army_of(side)
        if army is None or _doc_path(side.origin) != ():
            continue  # a side written in the scenario itself: nothing to keep
        doc = armies.docs[army]
        editor = Editor(texts[army], str(armies.campaign.armies[army]))
        seen: dict[tuple[Any, ...], Entity] = {}
        for entity in side.walk():
            path = _doc_path(entity.origin) if armies.army_of(entity) == army else None
            if path is None:
                _add_new(editor, armies, army, entity, changes)
                continue
            if path in seen:
                file = armies.campaign.relative(armies.campaign.armies[army])
                raise StratagemError(
                    f"after the battle, '{entity.label()}' and '{seen[path].label()}' both "
                    f"stand for one entry of {file} ({_path_text(path) or 'the army'})",
                    hint="the ruleset's campaign.after_battle procedure must merge the parts "
                    "of a force split for the battle back into it (`remove` the parts)",
                    key="campaign.split_entry",
                    params={"first": entity.label(), "second": seen[path].label(),
                            "file": file, "entry": _path_text(path) or None})
            seen[path] = entity
            node = _node(doc, path)
            for name in rules.keep.get(entity.kind_name, ()):
                spec = entity.declaration.fields[name]
                stated = node.get(name, spec.default) if hasattr(node, "get") else spec.default
                old = plain(spec.check(stated, None, entity.kind_name)) if stated is not None \
                    else None
                new = plain(entity.member(name))
                if new != old:
                    editor.set(path, name, new)
                    changes.append(Change(army, entity.label(), name, old, new))
        texts[army] = _checked(editor, armies.campaign.armies[army])
    return texts, changes


def _add_new(editor: Editor, armies: _Armies, army: str, entity: Entity,
             changes: list[Change]) -> None:
    """An entity made during the battle (a captured engine): appended to its list, with
    its name and every field that differs from the default."""
    parent = entity.parent
    if not isinstance(parent, Entity):
        return
    parent_path = _doc_path(parent.origin) if armies.army_of(parent) == army else None
    if parent_path is None:
        return  # inside another new entity: written with it
    coll = next((c for c, items in parent.children_of() if any(i is entity for i in items)),
                None)
    if coll is None:
        return
    item: dict[str, Any] = {"name": entity.label()}
    for name, spec in entity.declaration.fields.items():
        value = plain(entity.member(name))
        if name not in ("name", "id") and value != plain(spec.default):
            item[name] = value
    node = _node(armies.docs[army], (*parent_path, coll))
    if isinstance(node, list):
        editor.append((*parent_path, coll), item)
    else:
        editor.set(parent_path, coll, [item])
    changes.append(Change(army, entity.label(), coll, None, "+"))


def _checked(editor: Editor, path: Path) -> str:
    """The edited text, read back: it must still be YAML (a guard against a bad edit)."""
    text = editor.text()
    load_yaml(path, text=text)
    return text


# -- scheduled events ---------------------------------------------------------------------


def _scheduled(trace: Sequence[Event], start: int, armies: _Armies, rules: CampaignRules,
               day: int, entry: int, note: Callable[[Event], str]) -> list[dict[str, Any]]:
    out = []
    for event in trace[start:]:
        if event.step != "schedule":
            continue
        values = event.values
        args: dict[str, Any] = {}
        lost = False
        for name, value in values["args"].items():
            if isinstance(value, Entity):
                ref = armies.ref(value)
                if ref is None:
                    lost = True  # an entity of a side written in the scenario
                    break
                args[name] = {"$": ref}
            else:
                args[name] = plainify(value)
        if lost:
            continue
        item = {"day": day + rules.days(values["after"], values["unit"]),
                "call": values["procedure"], "with": args, "from": entry}
        named = {k: (armies.ref(v) or {}).get("name", v.label()) if isinstance(v, Entity)
                 else v for k, v in event.params.items()}
        text = note(Event(event.index, event.step, event.procedure, event.at, event.values,
                          event.key, named, event.level, event.depth))
        if text:
            item["note"] = text
        out.append(item)
    return out


def _resolve(value: Any, world: Entity, rs: Ruleset, armies: _Armies) -> Any:
    if not (isinstance(value, Mapping) and set(value) == {"$"}):
        return value
    ref = value["$"]
    sides = {armies.army_of(s): s for s in world.member(sides_collection(rs))}
    side = sides.get(ref.get("army"))
    if side is None:
        raise StratagemError(f"a scheduled event names the army '{ref.get('army')}', which "
                             "the campaign no longer has",
                             hint="add it back under `armies:`, or delete the event from "
                             "`scheduled:`", key="campaign.event_no_army",
                             params={"army": str(ref.get("army"))})
    path = _parse_path(str(ref.get("at") or ""))
    try:
        return _follow(side, path, ref)
    except (IndexError, TypeError, AttributeError):
        raise StratagemError(f"a scheduled event names '{ref.get('at')}' of the army "
                             f"'{ref['army']}', which is not in its file",
                             hint="delete the event from `scheduled:`",
                             key="campaign.event_no_entry",
                             params={"entry": str(ref.get("at")), "army": ref["army"]}
                             ) from None


def _follow(side: Entity, path: Sequence[Any], ref: Mapping[str, Any]) -> Any:
    entity: Any = side
    for i, step in enumerate(path):
        if isinstance(step, int):
            items = entity if isinstance(entity, list) else []
            want = ref.get("name") if i == len(path) - 1 else None
            if want is not None and not (0 <= step < len(items)
                                         and items[step].label() == want):
                found = [e for e in items if e.label() == want]
                if not found:
                    raise StratagemError(
                        f"a scheduled event names '{want}' of the army '{ref['army']}', "
                        "which is not in its file any more",
                        hint="put it back, or delete the event from `scheduled:`",
                        key="campaign.event_entry_gone",
                        params={"entry": want, "army": ref["army"]})
                entity = found[0]
                continue
            entity = items[step]
        else:
            entity = entity.member(step)
    if not isinstance(entity, Entity):
        raise TypeError(entity)
    return entity


# -- the commands ---------------------------------------------------------------------------


def _note_maker(rs: Ruleset, lang: str) -> Callable[[Event], str]:
    t = translator(rs, lang)
    return lambda event: message(t, event) if event.key else ""


def fight(campaign: Campaign, texts: Texts, scenario: str | Path, *, seed: int | None = None,
          dice: Sequence[Any] | None = None, decisions: Mapping[str, Any] | None = None,
          ask_dice: Callable[[str], str] | None = None,
          ask_decision: Callable[[str, str, Any], Any] | None = None,
          lang: str = "en", number: int | None = None) -> Step:
    """Fight a scenario with the campaign's armies as their texts are now."""
    rs = campaign.ruleset
    path = Path(scenario)
    if not path.is_absolute():
        path = (Path.cwd() / path)
    path = path.resolve()
    armies = _Armies(campaign, texts)
    doc = pipeline.DEFAULT.document(path, "scenario", names=armies.names)
    if pipeline.DEFAULT.ruleset_for(doc, path, "scenario") is not rs:
        raise StratagemError(f"the scenario uses the ruleset '{doc.get('ruleset')}', the "
                             f"campaign '{rs.ref}'", location=where(doc, "ruleset"),
                             hint="a campaign fights with one ruleset: name the same one",
                             key="campaign.other_ruleset",
                             params={"scenario": str(doc.get("ruleset")), "campaign": rs.ref})
    pipeline.DEFAULT.side_schema(doc, "scenario", rs)
    built = build_scenario(rs, doc, path.parent,
                           lambda army, at: armies.doc(army, at, path.parent))
    built.names = armies.names
    used = [armies.army_of(s) for s in built.template.member(sides_collection(rs))]
    names = [u for u in used if u is not None]
    if len(set(names)) != len(names):
        raise StratagemError("the scenario names one army of the campaign twice",
                             location=where(doc, "sides"), key="campaign.army_twice")
    if not names:
        raise StratagemError("none of the scenario's sides is an army of the campaign",
                             location=where(doc, "sides"),
                             hint="name the campaign's army files under `sides: - army: ...`",
                             key="campaign.no_campaign_army")
    n = number if number is not None else len(campaign.journal) + 1
    scripted = dice is not None or built.dice is not None or ask_dice is not None
    if seed is None:
        seed = built.seed if built.seed is not None else n
    after = [campaign.rules.after_battle] if campaign.rules.after_battle else []
    result = run_battle(built, seed=seed, dice=dice, decisions=decisions, lang=lang,
                        ask_dice=ask_dice, ask_decision=ask_decision, after=after)
    new_texts, changes = carry_over(armies, result.root, campaign.rules, rs)
    later = _scheduled(result.trace, 0, armies, campaign.rules, campaign.day, n,
                       _note_maker(rs, lang))
    entry: dict[str, Any] = {"n": n, "day": campaign.day, "did": "fight",
                             "scenario": campaign.relative(path),
                             "scenario_sha": digest(path.read_text(encoding="utf-8"))}
    if scripted:
        entry["dice"] = plain(result.dice_log)
    else:
        entry["seed"] = seed
    taken = {**(decisions or {}), **result.decisions}
    if taken:
        entry["decisions"] = plain(taken)
    entry["outcome"] = _outcome(rs, result.root)
    entry["changes"] = [c.line() for c in changes]
    if later:
        entry["scheduled"] = len(later)
    scheduled = sorted(campaign.scheduled + later, key=lambda i: i["day"])
    return Step(new_texts, campaign.day, scheduled, entry, changes, result.trace, result,
                later)


def _outcome(rs: Ruleset, root: Entity) -> Any:
    if rs.outcome is None:
        return None
    value = rs.evaluator.eval(rs.outcome, {"battle": root})
    return value.fallback if isinstance(value, Label) else plainify(value)


def advance(campaign: Campaign, texts: Texts, to_day: int, *, seed: int | None = None,
            lang: str = "en", number: int | None = None) -> Step:
    """Let time pass to ``to_day``: the ruleset's `pass_time` for the days between, and the
    scheduled events in the order they fall due."""
    if to_day < campaign.day:
        raise StratagemError(f"the campaign is at day {campaign.day}; it cannot go back to "
                             f"day {to_day}", hint="time only moves forward",
                             key="campaign.backwards",
                             params={"day": str(campaign.day), "to": str(to_day)})
    rs = campaign.ruleset
    rules = campaign.rules
    n = number if number is not None else len(campaign.journal) + 1
    seed = seed if seed is not None else n
    armies = _Armies(campaign, texts)
    world = rs.new_entity(rs.kinds["battle"], {}, None)
    for name in campaign.armies:
        world.adopt(sides_collection(rs), build_army(rs, armies.docs[name], world))
    run = Run(rs, world, SeededDice(seed), Decisions({}), tracing=True,
              generated=procedures_for(rs, True))
    run.lang = lang
    note = _note_maker(rs, lang)
    pending = sorted(enumerate(copy.deepcopy(campaign.scheduled)),
                     key=lambda p: (p[1]["day"], p[0]))
    queue = [item for _, item in pending]
    applied: list[str] = []
    new: list[dict[str, Any]] = []
    day = campaign.day
    while True:
        due = [item for item in queue if item["day"] <= to_day]
        if not due:
            break
        item = min(due, key=lambda i: i["day"])
        queue.remove(item)
        _pass(run, rules, rs, item["day"] - day)
        day = max(day, item["day"])
        args = {k: _resolve(v, world, rs, armies) for k, v in item["with"].items()}
        start = len(run.trace)
        if item["call"] not in rs.procedures:
            raise StratagemError(f"a scheduled event calls '{item['call']}', which the ruleset "
                                 "does not have", hint="delete it from `scheduled:`",
                                 key="campaign.event_no_procedure",
                                 params={"procedure": item["call"]})
        call(run, item["call"], args)
        made = _scheduled(run.trace, start, armies, rules, day, n, note)
        queue.extend(made)
        new.extend(made)
        applied.append(f"day {item['day']}: " + (item.get("note") or item["call"]))
    _pass(run, rules, rs, to_day - day)
    new_texts, changes = carry_over(armies, world, rules, rs)
    entry: dict[str, Any] = {"n": n, "day": to_day, "did": "advance", "from": campaign.day,
                             "seed": seed, "applied": applied,
                             "changes": [c.line() for c in changes]}
    queue.sort(key=lambda i: i["day"])
    return Step(new_texts, to_day, queue, entry, changes, run.trace, None,
                [i for i in new if i in queue])


def _pass(run: Run, rules: CampaignRules, rs: Ruleset, days: int) -> None:
    if days > 0 and rules.pass_time:
        call(run, rules.pass_time, {rs.procedures[rules.pass_time].params[0]: days})


# -- the journal ---------------------------------------------------------------------------


def begin(campaign: Campaign, texts: Texts, accept_edits: bool) -> tuple[list[dict[str, Any]],
                                                                        dict[Path, str]]:
    """Journal entries the command starts with: `start` (the first command: copies of the
    armies as they are), or `edit` (files changed by hand since the last command, with
    ``accept_edits``; else an error). Returns the entries and the copies to write."""
    last = campaign.last_files()
    if not campaign.journal:
        did = "start"
        changed = list(texts)
    else:
        changed = [name for name, text in texts.items() if last.get(name) != digest(text)]
        if not changed:
            return [], {}
        if not accept_edits:
            shown = ", ".join(campaign.relative(campaign.armies[c]) for c in changed)
            raise StratagemError(
                f"edited by hand since the last command: {shown}",
                hint="if the edits are meant, run the command again with --accept-edits "
                "(the journal keeps a copy, so the war still replays); else restore the file",
                key="campaign.edited_by_hand", params={"files": shown})
        did = "edit"
    n = len(campaign.journal) + 1
    folder = campaign.history(n)
    copies = {folder / f"{name}.yaml": texts[name] for name in changed}
    entry = {"n": n, "day": campaign.day, "did": did, "armies": changed,
             "copies": campaign.relative(folder),
             "files": {name: digest(text) for name, text in texts.items()}}
    return [entry], copies


def campaign_text(campaign: Campaign, day: int, scheduled: list[dict[str, Any]],
                  journal: list[dict[str, Any]]) -> str:
    """The campaign file with its calendar, schedule and journal replaced (the rest of the
    file as the GM wrote it)."""
    editor = Editor(campaign.text, str(campaign.path))
    editor.set((), "day", day)
    editor.replace((), "scheduled", block(scheduled, 2))
    editor.replace((), "journal", block(journal, 2))
    return _checked(editor, campaign.path)


def files_of(campaign: Campaign, before: Texts, step: Step, entries: list[dict[str, Any]],
             copies: dict[Path, str]) -> dict[Path, str]:
    """Every file a command writes: the armies that changed, the campaign file, the copies."""
    step.entry["files"] = {name: digest(text) for name, text in step.texts.items()}
    journal = campaign.journal + entries + [step.entry]
    out: dict[Path, str] = dict(copies)
    for name, text in step.texts.items():
        if text != before.get(name):
            out[campaign.armies[name]] = text
    out[campaign.path] = campaign_text(campaign, step.day, step.scheduled, journal)
    return out


# -- replay ----------------------------------------------------------------------------------


def replay(campaign: Campaign, lang: str = "en") -> tuple[int, list[str]]:
    """Fight the journal again from the first copies of the armies; every entry must give
    the files it recorded, and the last the files as they are. Returns the number of
    entries replayed and the differences found."""
    problems: list[str] = []
    if not campaign.journal:
        return 0, []
    texts: Texts = {}
    sim = copy.copy(campaign)
    sim.journal = []
    sim.scheduled = []
    sim.day = int(campaign.journal[0].get("day") or 0)
    for entry in campaign.journal:
        did = entry.get("did")
        n = int(entry["n"])
        if did in ("start", "edit"):
            folder = (campaign.path.parent / str(entry["copies"])).resolve()
            if not folder.is_relative_to(campaign.history(1).parent.resolve()):
                problems.append(f"entry {n}: its copies ({entry['copies']}) are not in "
                                f"{campaign.relative(campaign.history(1).parent)}")
                return n, problems
            for name in entry.get("armies") or []:
                try:
                    texts[name] = (folder / f"{name}.yaml").read_text(encoding="utf-8")
                except OSError:
                    problems.append(f"entry {n}: the copy of {name} in {entry['copies']} is "
                                    "missing")
                    return n, problems
        elif did == "fight":
            scenario = campaign.path.parent / str(entry["scenario"])
            if not scenario.is_file():
                problems.append(f"entry {n}: the scenario {entry['scenario']} is missing")
                return n, problems
            if digest(scenario.read_text(encoding="utf-8")) != entry.get("scenario_sha"):
                problems.append(f"entry {n}: the scenario {entry['scenario']} has changed "
                                "since the battle")
            step = fight(sim, texts, scenario, seed=entry.get("seed"), dice=entry.get("dice"),
                         decisions=entry.get("decisions"), lang=lang, number=n)
            texts, sim.scheduled = step.texts, step.scheduled
        elif did == "advance":
            step = advance(sim, texts, int(entry["day"]), seed=entry.get("seed"), lang=lang,
                           number=n)
            texts, sim.scheduled, sim.day = step.texts, step.scheduled, step.day
        for name, sha in (entry.get("files") or {}).items():
            if name in texts and digest(texts[name]) != sha:
                problems.append(f"entry {n} ({did}): {name} comes out different from the "
                                "journal")
        sim.journal = [*sim.journal, entry]
    now = campaign.read_armies()
    for name, text in now.items():
        if texts.get(name) != text:
            problems.append(f"{campaign.relative(campaign.armies[name])} differs from the "
                            "replayed war")
    if _normal(sim.scheduled) != _normal(campaign.scheduled):
        problems.append("the scheduled events differ from the replayed war")
    return len(campaign.journal), problems


def _normal(items: list[dict[str, Any]]) -> str:
    return json.dumps([{k: v for k, v in i.items() if k != "note"} for i in items],
                      sort_keys=True)


def _plain(value: Any) -> Any:
    """A document's maps and lists as plain dicts and lists (positions dropped)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
