"""JSON-Schema validation with errors a person can read, and the schemas made from a ruleset.

The static schemas live in ``schemas/`` (``ruleset``, ``army``, ``scenario``,
``locale``); the ``setting`` schema is the ruleset one made lenient for overlays
(:func:`overlay_schema`). The full schemas of army and scenario files are made from a
compiled ruleset (``stratagem.compile.schemas``).

jsonschema's messages are rewritten in the user's terms ("unknown field 'qualty'
in unit", "expected a whole number, got 'ten'") with a hint (the closest valid
names), and placed at the ``file:line:col`` the data was read from. A few schema
annotations steer the messages: ``x-name`` (what an object is called),
``x-message`` (the message of an ``anyOf``/``oneOf``), ``x-hint``,
``x-derived`` (computed names that cannot be stated), ``x-battle`` (fields the battle
owns: name -> the error that says so: its message, hint, key and parameters) and
``x-step-keys``.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

from stratagem.errors import (
    Either,
    LimitError,
    Location,
    StratagemError,
    Term,
    did_you_mean,
    place,
)
from stratagem.loader.yamlio import PosDict, PosList, child_path
from stratagem.resources import data_dir

#: The file kinds, each with its schema.
KINDS = ("ruleset", "setting", "army", "scenario", "locale", "campaign")
DRAFT = "https://json-schema.org/draft/2020-12/schema"
_Path = tuple[Any, ...]
_Schema = dict[str, Any]
_TYPE_WORDS = {
    "integer": Term("type.integer", "a whole number"),
    "number": Term("type.number", "a number"),
    "string": Term("type.string", "text"),
    "boolean": Term("type.boolean", "true/false"),
    "array": Term("type.array", "a list"),
    "object": Term("type.object", "a map (key: value lines)"),
    "null": Term("type.null", "nothing (null)"),
}
#: A name: text, or text per language (``{en: Orcs, ru: Орки}``; see i18n/names.py).
NAME_SCHEMA: dict[str, Any] = {"anyOf": [
    {"type": "string"},
    {"type": "object", "title": "names by language", "minProperties": 1,
     "propertyNames": {"pattern": "^[a-z]{2,3}(-[A-Za-z0-9]+)*$", "title": "language code"},
     "additionalProperties": {"type": "string"}},
]}
_A_LIST, _A_MAP = Term("value.list", "a list"), Term("value.map", "a map")


# -- the schemas ----------------------------------------------------------------------------


@cache
def _static_text(kind: str) -> str:
    return (data_dir("schemas") / f"{kind}.schema.json").read_text(encoding="utf-8")


def static_schema(kind: str) -> dict[str, Any]:
    """The schema of a file kind (a fresh copy); ``setting`` is derived from ``ruleset``."""
    if kind == "setting":
        return overlay_schema(static_schema("ruleset"))
    if kind not in KINDS:
        raise StratagemError(
            f"unknown file kind '{kind}'",
            hint=did_you_mean(kind, KINDS) or "kinds: " + ", ".join(KINDS),
            key="schema.unknown_kind", hint_key="schema.kinds.hint",
            params={"kind": kind, "kinds": ", ".join(KINDS)},
        )
    schema: dict[str, Any] = json.loads(_static_text(kind))
    return schema


_MARKER = {
    "type": "object",
    "title": "overlay marker",
    "description": "{$replace: VALUE} puts VALUE in place instead of merging; "
    "{$remove: true} deletes the key (docs/overlays.md).",
    "properties": {
        "$replace": {"description": "The value that replaces the base's."},
        "$remove": {"const": True, "description": "Delete this key or item."},
    },
    "additionalProperties": False,
    "minProperties": 1,
    "maxProperties": 1,
}


def overlay_schema(ruleset: dict[str, Any]) -> dict[str, Any]:
    """The schema of a setting (an overlay): the ruleset schema without required keys,
    with ``$replace``/``$remove`` markers allowed in place of any value."""
    schema = copy.deepcopy(ruleset)
    schema["$id"] = "urn:stratagem:schema:setting"
    schema["title"] = "Stratagem setting"
    schema["x-name"] = "setting"
    schema["$comment"] = ("Generated from ruleset.schema.json; do not edit. Regenerate with: "
                          "stratagem schema setting > schemas/setting.schema.json")
    schema["description"] = (
        "A setting or house rule: an overlay merged over the ruleset it extends "
        "(docs/overlays.md). Generated from ruleset.schema.json by 'stratagem schema setting'."
    )
    props = schema["properties"]
    props["kind"] = {"const": "setting", "title": "kind", "description": "What this file is."}
    schema["required"] = ["kind", "extends"]
    schema.pop("if", None)
    schema.pop("then", None)
    for key, value in list(props.items()):
        if key not in ("kind", "extends", "include"):
            props[key] = _lenient(value)
    schema["$defs"] = {name: _lenient(d, wrap=False) for name, d in schema["$defs"].items()}
    schema["$defs"]["overlay_marker"] = copy.deepcopy(_MARKER)
    return schema


def _lenient(schema: Any, wrap: bool = True) -> Any:
    """``schema`` without ``required`` (where it sits beside ``properties``), markers allowed."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "required" and "properties" in schema:
            continue
        if key == "properties":
            out[key] = {k: _lenient(v) for k, v in value.items()}
            out[key]["$remove"] = {"const": True, "description": "With the item's id: "
                                   "delete that item of the base (docs/overlays.md)."}
        elif key == "patternProperties":
            out[key] = {k: _lenient(v) for k, v in value.items()}
        elif key == "propertyNames":
            out[key] = {"anyOf": [value, {"const": "$remove"}]}
            if isinstance(value, dict) and "$ref" not in value:
                out[key].update({k: value[k] for k in ("title", "x-hint") if k in value})
        elif key in ("additionalProperties", "items") and isinstance(value, dict):
            out[key] = _lenient(value)
        elif key in ("anyOf", "oneOf", "allOf") and isinstance(value, list):
            out[key] = [_lenient(v, wrap=False) for v in value]
        elif key == "then" and isinstance(value, dict):
            out[key] = _lenient(value, wrap=False)
        else:
            out[key] = value
    if not wrap:
        return out
    wrapper: dict[str, Any] = {
        "anyOf": [out, {"$ref": "#/$defs/overlay_marker"}],
        "x-overlay": True,
    }
    for key in ("title", "description"):
        if key in out:
            wrapper[key] = out[key]
    return wrapper


# -- validation -----------------------------------------------------------------------------


@cache
def _static_validator(kind: str) -> Any:
    return _make_validator(static_schema(kind))


def _make_validator(schema: dict[str, Any]) -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema)


def validate_document(
    doc: Any, kind: str | None = None, *, schema: dict[str, Any] | None = None
) -> list[StratagemError]:
    """Every schema error of ``doc`` (by its ``kind``, or ``kind``, or an explicit ``schema``),
    in file order, each placed where the data was written."""
    if schema is not None:
        validator = _make_validator(schema)
    else:
        kind = kind or (doc.get("kind") if isinstance(doc, dict) else None)
        if not isinstance(kind, str):
            raise StratagemError("the document has no 'kind'", hint="kinds: " + ", ".join(KINDS),
                                 key="schema.no_kind", params={"kinds": ", ".join(KINDS)})
        validator = _static_validator(kind)
    try:
        raw = list(validator.iter_errors(doc))
    except RecursionError:
        where = doc.where() if isinstance(doc, (PosDict, PosList)) else Location()
        raise LimitError(
            "the document is nested too deeply to check", location=where,
            hint="flatten the structure", key="schema.too_deep",
        ) from None
    converter = _Converter(doc, validator.schema)
    for error in raw:
        converter.convert(error)
    return converter.result()


class _Converter:
    """Rewrites jsonschema errors in the user's terms, at the place the data came from."""

    def __init__(self, doc: Any, schema: dict[str, Any]) -> None:
        self.doc = doc
        self.schema = schema
        # (instance path, category, error); categories steer the clean-up in result()
        self.found: list[tuple[tuple[Any, ...], str, StratagemError]] = []

    # -- places ----------------------------------------------------------------------------

    def node(self, path: tuple[Any, ...]) -> Any:
        node = self.doc
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return None
        return node

    def where(self, path: tuple[Any, ...]) -> Location:
        if not path:
            if isinstance(self.doc, (PosDict, PosList)):
                return self.doc.where()
            return Location(path="$")
        parent = self.node(path[:-1])
        if isinstance(parent, (PosDict, PosList)):
            try:
                return parent.where(path[-1])
            except (TypeError, IndexError):
                pass
        return Location(path=_path_text(path))

    def key_where(self, path: tuple[Any, ...], key: str) -> Location:
        node = self.node(path)
        if isinstance(node, PosDict):
            return node.key_where(key)
        return Location(path=child_path(_path_text(path), key))

    def add(self, path: tuple[Any, ...], category: str, message: str, location: Location,
            hint: str | None = None, *, key: str | None = None, hint_key: str | None = None,
            **params: object) -> None:
        """Record one error: its English text and hint, and the key and parameters that show
        it in the reader's language."""
        self.found.append((path, category, StratagemError(
            message, hint=hint, location=location, key=key, params=params, hint_key=hint_key)))

    def step_keys(self) -> list[str]:
        """The step keys, from the schema's ``step`` definition."""
        keys = self.schema.get("$defs", {}).get("step", {}).get("x-step-keys", [])
        return list(keys)

    def resolve(self, schema: Any) -> Any:
        """A local ``$ref`` (``#/$defs/name``) followed to its schema."""
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return self.schema.get("$defs", {}).get(ref[len("#/$defs/"):], schema)
        return schema

    # -- conversion ------------------------------------------------------------------------

    def convert(self, error: Any) -> None:
        path = tuple(error.absolute_path)
        schema = error.schema if isinstance(error.schema, dict) else {}
        validator = error.validator
        instance = error.instance
        where = self.where(path)
        if "propertyNames" in error.absolute_schema_path:
            if validator == "anyOf" and error.context:
                first = [e for e in error.context if e.relative_schema_path[0] == 0]
                self.convert(first[0] if first else error.context[0])
                return
            self.bad_key(path, instance, schema)
            return
        if schema.get("x-message") and validator in (
            "anyOf", "oneOf", "not", "minItems", "maxItems", "required"
        ):
            self.add(path, "other", schema["x-message"], where, schema.get("x-hint"),
                     key=schema.get("x-message-key"))
            return
        handler = getattr(self, f"on_{validator}", None)
        if handler is not None:
            handler(error, path, schema, instance, where)
        else:
            self.add(path, "other", error.message, where, key="schema.other",
                     detail=error.message)

    def on_type(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        expected = _types(schema.get("type"))
        hint = hint_key = None
        if "true/false" in str(expected) and isinstance(instance, str) and instance.lower() in (
            "yes", "no", "on", "off", "y", "n"
        ):
            hint, hint_key = ("YAML 1.2 reads yes/no/on/off as text: write true or false",
                              "schema.type.yes_no.hint")
        elif str(expected) in ("a number", "a whole number") and _numeric(instance):
            hint, hint_key = "write the number without quotes", "schema.type.quoted.hint"
        got = _describe(instance)
        self.add(path, "other", f"expected {expected}, got {got}", where, hint,
                 key="schema.type", hint_key=hint_key, expected=expected, got=got)

    def on_enum(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        values = [v for v in schema.get("enum", [])]
        name = _name(schema) or "value"
        listed = ", ".join(_show(v) for v in values[:15]) + (", …" if len(values) > 15 else "")
        hint = None
        choices = [v for v in values if isinstance(v, str)]
        if isinstance(instance, str):
            hint = did_you_mean(instance, choices)
        got = _describe(instance)
        self.add(path, "other", f"{got} is not a valid {name}; must be one of: {listed}",
                 where, hint, key="schema.enum", got=got,
                 name=name, listed=listed)

    def on_const(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        want, got = _show(schema.get("const")), _describe(instance)
        self.add(path, "other", f"must be {want}, got {got}", where, key="schema.const",
                 want=want, got=got)

    def on_required(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        name = _name(schema)
        for key in schema.get("required", []):
            if isinstance(instance, dict) and key not in instance:
                text = f"missing required field '{key}'" + (f" in {name}" if name else "")
                self.add(path, "other", text, where,
                         f"add '{key}: ...'" + (f" to this {name}" if name else ""),
                         key="schema.required", field=key, name=name)

    def on_additionalProperties(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        import re

        allowed = list(schema.get("properties", {}))
        patterns = list(schema.get("patternProperties", {}))
        extras = [
            k for k in instance
            if k not in allowed and not any(re.search(p, k) for p in patterns)
        ]
        own_step = schema.get("x-step")
        step_keys = schema.get("x-step-keys") or (self.step_keys() if own_step else [])
        present = [k for k in step_keys if k in instance]
        name = _name(schema)
        derived = schema.get("x-derived") or []
        battle = schema.get("x-battle") or {}
        for position, key in enumerate(extras):
            location = self.key_where(path, key)
            if step_keys and own_step is None:  # the schema of any step
                if present:
                    continue  # the schema of the step itself reports it, by the step's name
                if position == 0:
                    self.add(path, "unknown-step", f"unknown step '{key}'", location,
                             did_you_mean(key, step_keys) or "steps: " + ", ".join(step_keys),
                             key="schema.unknown_step",
                             hint_key="schema.steps.hint", step=key,
                             steps=", ".join(step_keys))
                    continue
            if own_step is not None and key in step_keys:
                self.add(path, "step-count",
                         f"a step has exactly one step key; this one has '{own_step}' and "
                         f"'{key}'", self.where(path), "split it into one step per key",
                         key="schema.two_step_keys", first=own_step, second=key)
                continue
            if key in battle:
                said = battle[key]
                self.add(path, "other", said["message"], location, said["hint"],
                         key=said["key"], hint_key=said["hint_key"], **said["params"])
                continue
            if key in derived:
                self.add(path, "other",
                         f"'{key}' is computed by the ruleset, so a file cannot state it",
                         location, f"remove '{key}'; the ruleset derives it from other fields",
                         key="schema.derived", field=key)
                continue
            text = f"unknown field '{key}'" + (f" in {name}" if name else "")
            hint = did_you_mean(key, allowed)
            listed = ", ".join(allowed[:25]) + (", …" if len(allowed) > 25 else "")
            if hint is None and allowed:
                hint = "allowed here: " + listed
            self.add(path, "other", text, location, hint, key="schema.unknown_field",
                     hint_key="schema.allowed.hint", field=key, name=name, allowed=listed)

    def on_oneOf(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        self.on_anyOf(error, path, schema, instance, where)

    def on_anyOf(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        branches: list[Any] = schema.get(error.validator, [])
        if schema.get("x-step-keys") and error.validator == "anyOf":
            self.add(path, "step-count", "this step has no step key", where,
                     "start the step with one of: " + ", ".join(schema["x-step-keys"]),
                     key="schema.no_step_key", steps=", ".join(schema["x-step-keys"]))
            return
        if schema.get("x-overlay"):
            marker = isinstance(instance, dict) and (
                "$replace" in instance or set(instance) == {"$remove"})
            chosen = 1 if marker else 0
            for sub in error.context:
                if sub.relative_schema_path and sub.relative_schema_path[0] == chosen:
                    self.convert(sub)
            return
        if branches and all(isinstance(b, dict) and set(b) == {"required"} for b in branches):
            keys = [k for b in branches for k in b["required"]]
            listed = ", ".join(f"'{k}'" for k in keys)
            self.add(path, "other", "needs one of: " + listed, where, key="schema.needs_one_of",
                     keys=listed)
            return
        grouped: dict[int, list[Any]] = {}
        for sub in error.context:
            grouped.setdefault(sub.relative_schema_path[0], []).append(sub)
        if not grouped:
            self.add(path, "other", "matches more than one of the allowed forms", where,
                     key="schema.many_forms")
            return
        fitting = [i for i, subs in grouped.items() if not any(_root_mismatch(s) for s in subs)]
        if fitting:
            best = min(fitting, key=lambda i: len(grouped[i]))
            for sub in grouped[best]:
                self.convert(sub)
            return
        wanted: list[object] = []
        for branch in branches:
            for word in _branch_words(self.resolve(branch)):
                if word not in wanted:
                    wanted.append(word)
        got = _describe(instance)
        if wanted:
            expected = Either(tuple(wanted))
            self.add(path, "other", f"expected {expected}, got {got}", where, schema.get("x-hint"),
                     key="schema.type", hint_key=_x_hint_key(schema), expected=expected,
                     got=got)
        else:
            self.add(path, "other", f"{got} is not allowed here", where, schema.get("x-hint"),
                     key="schema.not_allowed", hint_key=_x_hint_key(schema), got=got)

    def on_pattern(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        name = _name(schema) or "value"
        got = _describe(instance)
        self.add(path, "other", f"{got} is not a valid {name}", where,
                 schema.get("x-hint") or f"it must match the pattern {schema.get('pattern')}",
                 key="schema.pattern", hint_key=_x_hint_key(schema), got=got, name=name,
                 pattern=schema.get("pattern"))

    def bad_key(self, path: _Path, key: Any, schema: _Schema) -> None:
        name = _name(schema) or "name"
        hint, hint_key = schema.get("x-hint"), _x_hint_key(schema)
        if schema.get("pattern") is None and schema.get("enum"):
            hint = did_you_mean(str(key), schema["enum"])
        self.add(path, "other", f"'{key}' is not a valid {name}", self.key_where(path, str(key)),
                 hint, key="schema.bad_key", hint_key=hint_key, field=str(key), name=name)

    def on_minimum(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        self.add(path, "other", f"must be at least {schema['minimum']}, got {instance}", where,
                 key="schema.minimum", limit=schema["minimum"], got=instance)

    def on_maximum(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        self.add(path, "other", f"must be at most {schema['maximum']}, got {instance}", where,
                 key="schema.maximum", limit=schema["maximum"], got=instance)

    def on_exclusiveMinimum(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        self.add(path, "other", f"must be more than {schema['exclusiveMinimum']}, got {instance}", where,
                 key="schema.exclusive_minimum", limit=schema["exclusiveMinimum"], got=instance)

    def on_exclusiveMaximum(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        self.add(path, "other", f"must be less than {schema['exclusiveMaximum']}, got {instance}", where,
                 key="schema.exclusive_maximum", limit=schema["exclusiveMaximum"], got=instance)

    def on_minItems(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        n = schema["minItems"]
        self.add(path, "other", f"needs at least {n} item{'s' if n != 1 else ''}", where,
                 key="schema.min_items", n=n)

    def on_maxItems(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        n = schema["maxItems"]
        self.add(path, "other", f"may have at most {n} item{'s' if n != 1 else ''}", where,
                 key="schema.max_items", n=n)

    def on_uniqueItems(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        seen: list[Any] = []
        twice = None
        for item in instance:
            if item in seen:
                twice = item
                break
            seen.append(item)
        got = _describe(twice)
        self.add(path, "other", f"{got} is listed twice", where, "each value may appear once",
                 key="schema.unique", got=got)

    def on_minLength(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        self.add(path, "other", "must not be empty", where, key="schema.empty")

    def on_minProperties(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        self.add(path, "other", "must not be empty", where, key="schema.empty")

    def on_maxProperties(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        n = schema["maxProperties"]
        self.add(path, "other", f"may have at most {n} key{'s' if n != 1 else ''}", where,
                 key="schema.max_properties", n=n)

    def on_false(
        self, error: Any, path: _Path, schema: _Schema, instance: Any, where: Location
    ) -> None:
        self.add(path, "other", "nothing is allowed here", where, key="schema.nothing_allowed")

    # -- clean-up --------------------------------------------------------------------------

    def result(self) -> list[StratagemError]:
        unknown_steps = {path for path, category, _ in self.found if category == "unknown-step"}
        bad_steps = {path for path, category, _ in self.found
                     if category == "step-count" and path not in unknown_steps}
        kept: list[StratagemError] = []
        seen: set[tuple[str, str]] = set()
        for path, category, err in self.found:
            if category == "step-count" and path in unknown_steps:
                continue  # "unknown step 'rol'" says it better
            if category == "other" and any(path[: len(b)] == b for b in bad_steps):
                continue  # a step with two step keys (or none): one error is enough
            key = (str(err.location), "step-count" if category == "step-count" else err.message)
            if key in seen:
                continue
            seen.add(key)
            kept.append(err)
        kept.sort(key=place)
        return kept


def _root_mismatch(error: Any) -> bool:
    """True when a branch of anyOf/oneOf rejects the value's very type (so it is not meant)."""
    if len(error.relative_path) != 0:
        return False
    if error.validator in ("type", "const"):
        return True
    if error.validator == "enum":
        return not any(_json_type(v) == _json_type(error.instance) for v in error.validator_value)
    if error.validator == "$ref" or error.validator in ("anyOf", "oneOf"):
        return all(_root_mismatch(sub) for sub in error.context) if error.context else False
    return False


def _branch_words(branch: Any) -> list[object]:
    if not isinstance(branch, dict):
        return []
    if "type" in branch:
        types = branch["type"] if isinstance(branch["type"], list) else [branch["type"]]
        return [_TYPE_WORDS.get(t, t) for t in types]
    if "enum" in branch:
        listed = ", ".join(_show(v) for v in branch["enum"][:8])
        return [Term("value.one_of", "one of " + listed, (("listed", listed),))]
    if "const" in branch:
        return [_show(branch["const"])]
    if "$ref" in branch:
        return [branch["$ref"].rsplit("/", 1)[-1].replace("_", " ")]
    return []


def _numeric(value: Any) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return isinstance(value, str)


def _json_type(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "scalar"
    if isinstance(value, (int, float, str)):
        return "scalar"
    return "list" if isinstance(value, list) else "map"


def _name(schema: dict[str, Any]) -> str | None:
    name = schema.get("x-name") or schema.get("title")
    return name if isinstance(name, str) else None


def _types(types: Any) -> Either:
    if isinstance(types, str):
        types = [types]
    words = [_TYPE_WORDS.get(t, t) for t in types or []]
    if _TYPE_WORDS["integer"] in words and _TYPE_WORDS["number"] in words:
        words.remove(_TYPE_WORDS["integer"])
    return Either(tuple(words))


def _show(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _describe(value: Any) -> str | Term:
    """A value as the user wrote it: 'ten', 10, true, a list, a map, nothing."""
    if value is None:
        return _TYPE_WORDS["null"]
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"'{shown}'"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return _A_LIST
    if isinstance(value, dict):
        return _A_MAP
    return repr(value)


def _x_hint_key(schema: _Schema) -> str | None:
    """The key of a schema's own ``x-hint`` (``x-hint-key``); a hint without one stays English,
    never the text of another."""
    if not schema.get("x-hint"):
        return None
    return schema.get("x-hint-key") or "schema.x_hint"


def _path_text(path: tuple[Any, ...]) -> str:
    text = "$"
    for part in path:
        text = child_path(text, part)
    return text
