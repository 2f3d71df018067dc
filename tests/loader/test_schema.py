"""Schemas: the static files, the ones generated from a ruleset, and readable error messages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from stratagem.compile.pipeline import load_ruleset, validate_file
from stratagem.compile.schemas import army_schema, scenario_schema
from stratagem.errors import StratagemError, ValidationFailed
from stratagem.loader.resolve import load_document
from stratagem.loader.schema import (
    KINDS,
    overlay_schema,
    static_schema,
    validate_document,
)
from stratagem.loader.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"
RULESET = FIXTURES / "skirmish" / "ruleset.yaml"


def errors(text: str, kind: str | None = None, **schema: Any) -> list[tuple[str, str, str]]:
    doc = load_yaml("t.yaml", text=text)
    return [(e.message, f"{e.location.line}:{e.location.column}", e.hint or "")
            for e in validate_document(doc, kind, **schema)]


@pytest.fixture(scope="module")
def ruleset() -> Any:
    return load_ruleset(RULESET)


@pytest.mark.parametrize("kind", [k for k in KINDS])
def test_every_static_schema_is_valid_and_named(kind: str) -> None:
    path = ROOT / "schemas" / f"{kind}.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$id"].startswith("urn:stratagem:schema:")
    assert schema["title"] and schema["description"]


def test_the_setting_schema_file_is_generated_from_the_ruleset_schema() -> None:
    on_disk = json.loads((ROOT / "schemas" / "setting.schema.json").read_text(encoding="utf-8"))
    assert on_disk == overlay_schema(static_schema("ruleset")), (
        "run: stratagem schema setting > schemas/setting.schema.json")


def test_the_fixture_files_are_valid() -> None:
    for name in ("skirmish/ruleset.yaml", "skirmish/settings/border.yaml",
                 "skirmish/locales/en.yaml", "army.yaml", "scenario.yaml"):
        assert validate_file(FIXTURES / name) == [], name


def test_a_typo_gets_the_closest_name() -> None:
    assert errors("kind: ruleset\nid: x\nprocedurs: {}\n") == [
        ("unknown field 'procedurs' in ruleset", "3:1", "did you mean 'procedures'?")]


def test_steps_are_named_in_errors() -> None:
    text = ("kind: ruleset\nid: x\nprocedures:\n  p:\n    steps:\n"
            "      - rol: 3d\n      - {roll: 3d, ass: r}\n      - {roll: 3d, lookup: t}\n"
            "      - {as: r}\n      - {update: unit, set: {count: 1}}\n"
            "      - repeat: {do: []}\n")
    assert errors(text) == [
        ("unknown step 'rol'", "6:9", "did you mean 'roll'?"),
        ("unknown field 'ass' in roll step", "7:20", "did you mean 'as'?"),
        ("a step has exactly one step key; this one has 'roll' and 'lookup'", "8:9",
         "split it into one step per key"),
        ("this step has no step key", "9:9",
         ("start the step with one of: set, roll, check, contest, lookup, for_each, if, repeat, "
          "decide, update, create, emit, call, return, break, require, schedule, remove")),
        ("this repeat never ends: it needs 'until', 'while' or 'max'", "11:17", ""),
    ]


def test_values_are_described_in_the_users_terms() -> None:
    text = ("kind: ruleset\nid: x\nlimits: {max_rounds: ten}\nenums: {q: [a, a]}\n"
            "entities:\n  unit:\n    fields:\n      n: {type: integer}\n      e: {type: enum}\n"
            "tables:\n  t: {match: ranges, rows: [{range: [1]}]}\nformulas: {f: [1]}\n")
    assert errors(text) == [
        ("expected a whole number, got 'ten'", "3:22", ""),
        ("'a' is listed twice", "4:12", "each value may appear once"),
        (("'integer' is not a valid field type; must be one of: int, number, bool, str, enum, "
          "list, dice, any"), "8:17", "did you mean 'int'?"),
        ("a field of type enum needs 'enum', 'values' or 'table'", "9:10", ""),
        ("'ranges' is not a valid match; must be one of: range, exact, keys, threshold", "11:14",
         "did you mean 'range'?"),
        ("range must be [low, high] (numbers; null for open-ended)", "11:37", ""),
        ("expected text, a number, true/false or a map (key: value lines), got a list", "12:15",
         ""),
    ]


def test_a_missing_kind_or_id_is_reported() -> None:
    with pytest.raises(StratagemError) as caught:
        validate_document(load_yaml("t.yaml", text="id: x\n"))
    assert caught.value.message == "the document has no 'kind'"  # not an error reading it
    assert errors("kind: ruleset\n") == [
        ("missing required field 'id' in ruleset", "1:1", "add 'id: ...' to this ruleset")]


def test_the_setting_schema_takes_partial_changes_and_markers() -> None:
    text = ("kind: setting\nextends: skirmish\nentities: {unit: {fields: {quality: "
            "{default: green}, count: {$remove: true}}}}\nenums: {terrain: {$replace: [a]}}\n"
            "tables: {t: {rows: [{key: a, $remove: true}]}}\n")
    assert errors(text) == []
    assert errors("kind: setting\nextends: s\nentities: {unit: {fields: {q: {defualt: 1}}}}\n"
                  ) == [("unknown field 'defualt' in field declaration", "3:32",
                         "did you mean 'default'?")]


def test_the_army_schema_comes_from_the_rulesets_declarations(ruleset: Any) -> None:
    schema = army_schema(ruleset)
    Draft202012Validator.check_schema(schema)
    props = schema["properties"]
    assert props["strategy"] == {"title": "strategy", "type": "integer", "minimum": 3,
                                 "maximum": 20, "description": "int, default 10", "default": 10}
    assert props["role"]["enum"] == ["attacker", "defender"]
    assert props["units"]["items"] == {"$ref": "#/$defs/unit"}
    unit = schema["$defs"]["unit"]
    assert unit["properties"]["troop"]["enum"] == ["infantry", "cavalry", "archers"]  # table rows
    assert unit["properties"]["quality"]["enum"] == ["green", "average", "veteran"]  # enums:
    assert unit["properties"]["ts"]["type"] == ["number", "null"]  # optional
    assert unit["required"] == ["count", "troop"]
    assert unit["x-derived"] == ["strength"]
    assert unit["additionalProperties"] is False
    assert schema["required"] == ["kind", "ruleset"]


def test_a_setting_changes_the_generated_schema() -> None:
    schema = army_schema(load_ruleset(FIXTURES / "skirmish" / "settings" / "border.yaml"))
    assert schema["$defs"]["unit"]["properties"]["troop"]["enum"] == [
        "infantry", "cavalry", "knights"]


def test_army_errors_name_the_entity_and_the_closest_value(ruleset: Any) -> None:
    text = ("kind: army\nruleset: skirmish\nstrength: 3\nunits:\n"
            "  - {troop: knigth, count: ten, qualty: green}\n  - {troop: cavalry, quality: avrage}\n")
    assert errors(text, schema=army_schema(ruleset)) == [
        ("'strength' is computed by the ruleset, so a file cannot state it", "3:1",
         "remove 'strength'; the ruleset derives it from other fields"),
        ("'knigth' is not a valid troop; must be one of: infantry, cavalry, archers", "5:13", ""),
        ("expected a whole number, got 'ten'", "5:28", ""),
        ("unknown field 'qualty' in unit", "5:33", "did you mean 'quality'?"),
        ("missing required field 'count' in unit", "6:5", "add 'count: ...' to this unit"),
        ("'avrage' is not a valid quality; must be one of: green, average, veteran", "6:31",
         "did you mean 'average'?"),
    ]


def test_the_scenario_schema_knows_the_battle_sides_and_decisions(ruleset: Any) -> None:
    schema = scenario_schema(ruleset)
    Draft202012Validator.check_schema(schema)
    assert set(schema["properties"]["battle"]["properties"]) == {"name", "id", "plural", "terrain", "days"}
    assert list(schema["properties"]["decisions"]["properties"]) == ["risk"]
    text = ("kind: scenario\nruleset: skirmish\nbattle: {terain: open}\nsides:\n  - army: a.yaml\n"
            "  - {name: Blue}\n  - {units: [{troop: archers}]}\ndecisions:\n  risk: {Red: 7}\n"
            "  rsik: 1\n")
    assert errors(text, schema=schema) == [
        ("unknown field 'terain' in battle", "3:10", "did you mean 'terrain'?"),
        ("missing required field 'count' in unit", "7:14", "add 'count: ...' to this unit"),
        ("must be at most 3, got 7", "9:15", ""),
        ("unknown field 'rsik' in decisions", "10:3", "did you mean 'risk'?"),
    ]


def test_validate_file_calls_the_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    import stratagem.compile.pipeline

    seen = []

    def compile_ruleset(doc: Any, ref: str | None = None) -> None:
        seen.append(doc["id"])
        raise ValidationFailed([StratagemError("compiler says no")])

    monkeypatch.setattr(stratagem.compile.pipeline, "compile_ruleset", compile_ruleset)
    monkeypatch.setattr(stratagem.compile.pipeline, "_CACHE", {})
    assert [e.message for e in validate_file(RULESET)] == ["compiler says no"]
    assert seen == ["skirmish"]
    # an army of a ruleset that does not compile: the ruleset's own errors, as `battle`
    # would raise them (the ruleset is compiled once)
    found = validate_file(FIXTURES / "army.yaml")
    assert [e.message for e in found] == ["compiler says no"]
    assert seen == ["skirmish"]


@pytest.mark.parametrize("text, message, hint", [
    ("name: x\n", "missing 'kind:' (what this file is)", "kinds: ruleset"),
    ("kind: rulset\n", "unknown kind 'rulset'", "did you mean 'ruleset'?"),
    ("# nothing\n", "the file is empty", "kind:"),
])
def test_the_kind_must_be_known(tmp_path: Path, text: str, message: str, hint: str) -> None:
    path = tmp_path / "f.yaml"
    path.write_text(text)
    [error] = validate_file(path)
    assert error.message == message and hint in (error.hint or "")


def test_a_rulesets_id_must_be_its_folder_name(tmp_path: Path) -> None:
    path = tmp_path / "mine" / "ruleset.yaml"
    path.parent.mkdir()
    path.write_text(f"kind: ruleset\nid: theirs\nextends: {RULESET}\n")
    [error] = validate_file(path)
    assert error.message == "the ruleset id 'theirs' differs from its folder name 'mine'"
    assert (error.location.line, error.location.column) == (2, 5)


def test_a_locale_file_is_read_by_the_i18n_reader(tmp_path: Path) -> None:
    path = tmp_path / "en.yaml"
    path.write_text("kind: locale\nlanguage: en\nmessages:\n  a: '{n, plural, one {x}'\n")
    [error] = validate_file(path)
    assert error.location.line == 4


def test_every_step_is_declared_in_all_the_places_the_step_schema_needs() -> None:
    """Adding a step to schemas/ruleset.schema.json takes a ``step_KEY`` definition (with
    ``x-step: KEY``) and KEY in the ``step`` definition's properties, anyOf, dependentSchemas
    (``set`` in allOf instead: it is also a key of ``update``) and x-step-keys; this test keeps
    them together."""
    defs = static_schema("ruleset")["$defs"]
    step = defs["step"]
    keys = step["x-step-keys"]
    assert sorted(keys) == sorted(name[len("step_"):] for name in defs if name.startswith("step_"))
    assert [b["required"] for b in step["anyOf"]] == [[k] for k in keys]
    checked = {k: v["$ref"] for k, v in step["dependentSchemas"].items()}
    checked.update({b["if"]["required"][0]: b["then"]["$ref"] for b in step["allOf"]})
    assert checked == {k: f"#/$defs/step_{k}" for k in keys}
    for key in keys:
        assert key in step["properties"]
        assert defs[f"step_{key}"]["x-step"] == key
        assert key in defs[f"step_{key}"]["properties"]
