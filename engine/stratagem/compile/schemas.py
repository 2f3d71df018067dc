"""The JSON Schemas of a ruleset's army and scenario files, made from the compiled ruleset.

The schemas say what the builder of those files (``stratagem.compile.documents``) accepts,
because both read the same compiled declarations: the kinds and their input fields (typed,
with their bounds, defaults and allowed values), the collections, the ``decide`` steps. A
field the battle owns (``owner: battle``) and a derived value are absent, and named in
``x-battle`` and ``x-derived`` so that a file stating one is told why it cannot
(``stratagem.loader.schema`` reads the annotations).
"""

from __future__ import annotations

from typing import Any

from stratagem.compile.documents import battle_state_error, side_kind
from stratagem.errors import StratagemError
from stratagem.expr import Expr
from stratagem.loader.schema import DRAFT, NAME_SCHEMA, static_schema
from stratagem.model.entities import EntityKind, FieldSpec
from stratagem.model.ruleset import Ruleset
from stratagem.model.steps import DecideStep
from stratagem.model.values import plain

_SIMPLE = {"int": "integer", "number": "number", "bool": "boolean", "str": "string"}


def army_schema(rs: Ruleset) -> dict[str, Any]:
    """The full schema of army files for a ruleset (one side of the battle)."""
    gen = _Generator(rs, "army")
    header = static_schema("army")
    side = _side(rs)
    body: dict[str, Any] = gen.entity(side) if side else {"type": "object", "properties": {}}
    root: dict[str, Any] = {
        "$schema": DRAFT,
        "$id": f"urn:stratagem:schema:army:{rs.id}",
        "title": f"Stratagem army ({rs.id})",
        "x-name": "army",
        "description": header["description"].split(" The fields")[0]
        + f" Generated from the ruleset '{rs.id}'.",
        "type": "object",
        "properties": {**header["properties"], **body["properties"]},
        "required": ["kind", "ruleset", *body.get("required", [])],
    }
    if side:
        root["additionalProperties"] = False
        root["x-derived"] = body.get("x-derived", [])
        root["x-battle"] = body.get("x-battle", {})
    root["$defs"] = gen.defs
    return root


def scenario_schema(rs: Ruleset) -> dict[str, Any]:
    """The full schema of scenario files for a ruleset."""
    gen = _Generator(rs, "scenario")
    header = static_schema("scenario")
    props: dict[str, Any] = dict(header["properties"])
    battle = rs.kinds.get("battle")
    if battle is not None:
        fields = gen.entity(battle, with_children=False)
        fields["title"] = "battle"
        props["battle"] = fields
        for collection, kind_name in battle.children.items():
            kind = rs.kinds.get(kind_name)
            if kind is None:
                continue
            entry = gen.entity(kind)
            entry["properties"] = {
                "army": {"type": "string", "description": "An army file (relative to this "
                         "file); the other keys here override its fields."},
                **entry["properties"],
            }
            required = entry.pop("required", [])
            if required:
                entry["if"] = {"required": ["army"]}
                entry["else"] = {"required": required}
            props[collection] = {"type": "array", "items": entry,
                                 "description": f"The {collection}: army files or inline."}
    props["decisions"] = {
        **header["properties"]["decisions"],
        "properties": {name: _decision(rs, name, step) for name, step in rs.decisions.items()},
        "additionalProperties": False,
        "x-name": "decisions",
    }
    return {
        "$schema": DRAFT,
        "$id": f"urn:stratagem:schema:scenario:{rs.id}",
        "title": f"Stratagem scenario ({rs.id})",
        "x-name": "scenario",
        "description": f"A battle of the ruleset '{rs.id}': the sides, the "
        "circumstances, the GM's decisions and options.",
        "type": "object",
        "properties": props,
        "additionalProperties": False,
        "required": ["kind", "ruleset"],
        "$defs": gen.defs,
    }


def _side(rs: Ruleset) -> EntityKind | None:
    try:
        return side_kind(rs)
    except (StratagemError, KeyError):
        return None


class _Generator:
    """Builds the JSON Schemas of entity kinds from their compiled declarations."""

    def __init__(self, rs: Ruleset, file: str) -> None:
        self.rs = rs
        #: the kind of file ("army", "scenario"): the messages about battle state name it
        self.file = file
        self.defs: dict[str, Any] = {}

    def ref(self, name: str) -> dict[str, Any]:
        kind = self.rs.kinds.get(name)
        if name not in self.defs and kind is not None:
            self.defs[name] = {}  # reserve (kinds may nest each other)
            self.defs[name] = self.entity(kind)
        return {"$ref": f"#/$defs/{name}"} if name in self.defs else {"type": "object"}

    def entity(self, kind: EntityKind, with_children: bool = True) -> dict[str, Any]:
        props: dict[str, Any] = {
            "name": {**NAME_SCHEMA, "description": f"The {kind.name}'s name: text, or text per "
                     "language ({en: Orcs, ru: Орки})."},
            "id": {"type": "string", "description": "Its id (defaults to the name)."},
            "plural": {"type": "boolean", "description": "The name is a plural noun (Orcs): "
                       "messages agree with it (default false)."},
        }
        required = []
        battle: dict[str, dict[str, Any]] = {}
        for name, spec in kind.fields.items():
            if name in props:
                continue
            if not spec.stated:
                err = battle_state_error(kind.name, spec, self.file, None)
                battle[name] = {"message": err.message, "hint": err.hint, "key": err.key,
                                "hint_key": err.hint_key, "params": err.params}
                continue
            props[name] = self.field(spec)
            if spec.required:
                required.append(name)
        if with_children:
            for collection, child in kind.children.items():
                props[collection] = {"type": "array", "items": self.ref(child),
                                     "description": f"The {kind.name}'s {collection} ({child})."}
        schema: dict[str, Any] = {
            "type": "object",
            "title": kind.name,
            "properties": props,
            "additionalProperties": False,
            "x-derived": list(kind.derived),
            "x-battle": battle,
        }
        if kind.description:
            schema["description"] = kind.description
        if required:
            schema["required"] = required
        return schema

    def field(self, spec: FieldSpec) -> dict[str, Any]:
        schema: dict[str, Any] = {"title": spec.name}
        if spec.type in _SIMPLE:
            schema["type"] = _SIMPLE[spec.type]
        elif spec.type == "dice":
            schema["type"] = ["string", "integer"]
        elif spec.type == "enum" and spec.values is not None:
            schema["enum"] = list(spec.values)
        elif spec.type == "list":
            schema["type"] = "array"
            schema["items"] = self.field(spec.of) if spec.of is not None else {}
        if spec.type in ("int", "number"):
            if spec.minimum is not None:
                schema["minimum"] = plain(spec.minimum)
            if spec.maximum is not None:
                schema["maximum"] = plain(spec.maximum)
        if spec.optional and spec.type != "any":
            if "enum" in schema:
                schema["enum"] = [*schema["enum"], None]
            elif "type" in schema:
                types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
                schema["type"] = [*types, "null"]
        about = spec.type
        if spec.default is not None and spec.default != []:
            about += f", default {plain(spec.default)!r}"
            schema["default"] = plain(spec.default)
        schema["description"] = f"{spec.description} ({about})" if spec.description else about
        return schema


def _decision(rs: Ruleset, name: str, step: DecideStep) -> dict[str, Any]:
    """One decision of a scenario: an answer, a list, preferences or a policy, or these by
    subject name."""
    value: dict[str, Any]
    bounds = [_constant(rs, e) for e in step.range] if step.range else None
    if bounds and all(isinstance(b, int) and not isinstance(b, bool) for b in bounds):
        value = {"type": "integer", "minimum": bounds[0], "maximum": bounds[1]}
    elif isinstance(step.options, list):
        value = {"enum": [plain(v) for v in step.options]}
    elif step.type in _SIMPLE:
        value = {"type": _SIMPLE[step.type]}
    else:
        value = {"type": ["string", "number", "boolean"]}
    value["title"] = f"decision '{name}'"
    plan = {
        "type": "object", "title": "preferences or a policy",
        "description": "{prefer: [answers, first that applies], else: fallback} or "
                       "{policy: EXPRESSION, else: fallback}",
        "properties": {
            "prefer": {"type": "array", "items": value, "minItems": 1},
            "policy": {"type": ["string", "number", "boolean"]},
            "else": {"description": "what to answer when none applies"},
        },
        "additionalProperties": False,
        "anyOf": [{"required": ["prefer"]}, {"required": ["policy"]}],
    }
    one = {"anyOf": [value, plan]}
    some = {"anyOf": [value, plan, {"type": "array", "items": one}]}
    return {
        "title": f"decision '{name}'",
        "description": f"The decision '{name}': an answer, preferences, a policy, a "
        "list used in order, or subject name: any of these.",
        "anyOf": [value, plan, {"type": "array", "items": one},
                  {"type": "object", "additionalProperties": some}],
    }


def _constant(rs: Ruleset, expr: Expr) -> Any:
    """The value of a number written as it is (``-6``), else None: a bound that reads a
    constant is the rule's to check when the decision is asked (an answer outside it is a
    fallback `odds` counts, not a load error)."""
    if expr.calls or expr.names:
        return None
    try:
        return plain(rs.evaluator.eval(expr, {}))
    except StratagemError:
        return None
