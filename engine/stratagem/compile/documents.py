"""Army and scenario files: the sides, circumstances and decisions of a battle.

Building them from their documents: a scenario is checked against its ruleset's
declarations once, kept as a template state (``stratagem.model.scenario``), and cloned
for each battle, so thousands of simulated battles never re-read or re-validate a file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from stratagem.compile.decisions import compile_decisions
from stratagem.errors import Location, StratagemError, ValidationFailed, Word, a_or_an
from stratagem.loader.schema import static_schema
from stratagem.model.entities import Entity, EntityKind, FieldSpec
from stratagem.model.ruleset import Ruleset
from stratagem.model.scenario import Scenario
from stratagem.model.values import closest, where

#: Keys of army/scenario files that are not fields of the side/battle they describe: the
#: static schemas' (schemas/*.schema.json), so that the schema and the builder agree.
ARMY_META = tuple(k for k in static_schema("army")["properties"] if k not in ("name", "id"))
SCENARIO_KEYS = (*static_schema("scenario")["properties"], "sides")


class _Builder:
    """Builds entities from user documents, collecting every error."""

    def __init__(self, ruleset: Ruleset, file: str) -> None:
        self.rs = ruleset
        #: the kind of file the entities are read from ("army", "scenario"), for messages
        self.file = file
        self.errors: list[StratagemError] = []

    def entity(self, kind: EntityKind, node: Mapping[str, Any], parent: Entity | None,
               skip: tuple[str, ...] = ()) -> Entity:
        entity = self.rs.new_entity(kind, {}, parent, where(node))
        allowed = set(kind.stated_fields()) | set(kind.children)
        for key, value in node.items():
            if key in skip:
                continue
            loc = where(node, key)
            if key in kind.children:
                if not isinstance(value, list):
                    self.errors.append(StratagemError(
                        f"'{key}' must be a list of {kind.children[key]} entries", location=loc,
                        key="army.not_a_list",
                        params={"collection": key, "kind": kind.children[key]}))
                    continue
                child_kind = self.rs.kinds[kind.children[key]]
                for i, item in enumerate(value):
                    if not isinstance(item, Mapping):
                        self.errors.append(StratagemError(
                            f"each entry of '{key}' must be a map of fields",
                            location=where(value, i), key="army.entry_not_map",
                            params={"collection": key}))
                        continue
                    entity._f[key].append(self.entity(child_kind, item, entity))
                continue
            spec = kind.fields.get(key)
            if spec is not None and not spec.stated:
                self.errors.append(battle_state_error(kind.name, spec, self.file,
                                                      _key_loc(node, key)))
                continue
            if spec is None:
                if key in kind.derived:
                    self.errors.append(StratagemError(
                        f"'{key}' of {a_or_an(kind.name)} is computed by the rules and cannot be "
                        "typed in", location=_key_loc(node, key),
                        hint="remove it; `stratagem rate` shows the computed value",
                        key="army.derived_given",
                        params={"field": key, "kind": Word(kind.name)}))
                else:
                    fields = ", ".join(sorted(allowed))
                    self.errors.append(StratagemError(
                        f"{a_or_an(kind.name)} has no field '{key}'", location=_key_loc(node, key),
                        hint=closest(key, allowed) or "fields: " + fields,
                        key="army.unknown_field",
                        params={"kind": Word(kind.name), "field": key,
                                "fields": fields}))
                continue
            try:
                entity._f[key] = spec.check(value, loc, kind.name)
            except StratagemError as err:
                self.errors.append(err)
        for name, spec in kind.fields.items():
            if spec.required and name not in node:
                label = node.get("name") if isinstance(node, Mapping) else None
                self.errors.append(StratagemError(
                    f"{kind.name}{f' {label!r}' if label else ''} needs '{name}'",
                    location=where(node), hint=f"add `{name}: ...`", key="army.needs_field",
                    params={"kind": kind.name, "label": label or None, "field": name}))
        return entity


def battle_state_error(kind: str, spec: FieldSpec, file: str, location: Location | None
                       ) -> StratagemError:
    """A file states a field the battle owns (``owner: battle``)."""
    default = spec.default
    shown = "true" if default is True else "false" if default is False else str(default)
    start = f"starts it at {shown}" if default is not None else "starts without it"
    return StratagemError(
        f"the {kind}'s field '{spec.name}' is battle state: the battle sets it, so "
        f"{a_or_an(file)} file cannot state it", location=location,
        hint=f"remove it; the ruleset declares it `owner: battle`, and every battle {start}",
        key="documents.battle_state", params={"kind": kind, "field": spec.name, "file": file,
                                              "start": shown},
        hint_key="documents.battle_state.hint" if default is not None
        else "documents.battle_state.no_default.hint")


def _key_loc(node: Any, key: str) -> Any:
    locate = getattr(node, "key_where", None)
    return locate(key) if locate else where(node, key)


def side_kind(ruleset: Ruleset) -> EntityKind:
    battle = ruleset.kinds["battle"]
    if not battle.children:
        raise StratagemError("the ruleset's battle entity has no collection of sides",
                             location=battle.location, key="army.no_sides_collection")
    return ruleset.kinds[next(iter(battle.children.values()))]


def sides_collection(ruleset: Ruleset) -> str:
    side_kind(ruleset)  # the ruleset has a collection of sides (else an error saying so)
    return next(iter(ruleset.kinds["battle"].children))


def build_army(ruleset: Ruleset, doc: Mapping[str, Any], parent: Entity,
               overrides: Mapping[str, Any] | None = None) -> Entity:
    builder = _Builder(ruleset, "army")
    side = builder.entity(side_kind(ruleset), doc, parent, skip=ARMY_META)
    if overrides:
        builder.file = "scenario"
        extra = builder.entity(side_kind(ruleset), overrides, parent, skip=("army",))
        for key in overrides:
            if key != "army" and key in extra._f:
                side.set(key, extra._f[key])
    if builder.errors:
        raise ValidationFailed(builder.errors)
    return side


def build_scenario(ruleset: Ruleset, doc: Mapping[str, Any], base_dir: Path,
                   load: Any) -> Scenario:
    """Build a scenario from its document; ``load(path, location)`` reads a referenced army
    file (``path`` is the scenario's folder joined with the path the scenario wrote)."""
    builder = _Builder(ruleset, "scenario")
    errors: list[StratagemError] = []
    for key in doc:
        if key not in SCENARIO_KEYS:
            errors.append(StratagemError(
                f"unknown scenario key '{key}'", location=_key_loc(doc, key),
                hint=closest(key, SCENARIO_KEYS) or "keys: " + ", ".join(SCENARIO_KEYS),
                key="scenario.unknown_key",
                params={"name": key, "keys": ", ".join(SCENARIO_KEYS)}))
    battle_node = doc.get("battle") or {}
    root = builder.entity(ruleset.kinds["battle"], battle_node, None)
    if doc.get("name") and not root._f.get("name"):
        root.set("name", str(doc["name"]))
    coll = sides_collection(ruleset)
    sides = doc.get("sides") or []
    if not isinstance(sides, list) or not sides:
        errors.append(StratagemError("a scenario needs `sides:`, a list of armies",
                                     location=where(doc, "sides") or where(doc),
                                     key="scenario.no_sides"))
        sides = []
    for i, side_node in enumerate(sides):
        if not isinstance(side_node, Mapping):
            errors.append(StratagemError("each side is a map: {army: FILE} or inline fields",
                                         location=where(sides, i), key="scenario.side_not_map"))
            continue
        try:
            if "army" in side_node:
                path = base_dir / str(side_node["army"])
                army_doc = load(path, where(side_node, "army"))
                side = build_army(ruleset, army_doc, root, side_node)
            else:
                side = builder.entity(side_kind(ruleset), side_node, root, skip=ARMY_META)
            root.adopt(coll, side)
        except ValidationFailed as failed:
            errors.extend(failed.errors)
        except StratagemError as err:
            errors.append(err)
    errors.extend(builder.errors)
    decisions = doc.get("decisions") or {}
    if not isinstance(decisions, Mapping):
        errors.append(StratagemError("`decisions` must be a map: {decision: value or "
                                     "{who: value}}", location=where(doc, "decisions"),
                                     key="scenario.decisions_not_map"))
        decisions = {}
    plans = compile_decisions(ruleset, decisions, errors)
    dice = doc.get("dice")
    if dice is not None and not isinstance(dice, list):
        errors.append(StratagemError("`dice` must be a list of results",
                                     location=where(doc, "dice"), key="scenario.dice_not_list"))
    seed = doc.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        errors.append(StratagemError("`seed` must be a whole number", location=where(doc, "seed"),
                                     key="scenario.seed_not_whole"))
    if errors:
        raise ValidationFailed(errors)
    root.warm()
    root.freeze()
    return Scenario(ruleset, root, plans, list(dice) if dice is not None else None,
                    seed, str(doc.get("name") or doc.get("title") or ""),
                    (loc.file if (loc := where(doc)) else None))

