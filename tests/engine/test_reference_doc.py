"""docs/ruleset-reference.md: its examples are valid, and the test ruleset uses every step."""

import json
import re
from pathlib import Path

from jsonschema import Draft202012Validator
from ruamel.yaml import YAML

from stratagem.compile.steps import STEPS

from .conftest import SKIRMISH

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "ruleset-reference.md").read_text(encoding="utf-8")
SCHEMA = json.loads((ROOT / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))


def yaml_blocks() -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", DOC, re.DOTALL)


def step_schema() -> Draft202012Validator:
    schema = {"$defs": SCHEMA["$defs"], "$ref": "#/$defs/step"}
    return Draft202012Validator(schema)


def test_every_yaml_example_parses():
    yaml = YAML(typ="safe", pure=True)
    for block in yaml_blocks():
        yaml.load(block)


def test_every_step_example_is_a_valid_step():
    yaml = YAML(typ="safe", pure=True)
    validator = step_schema()
    checked = set()
    for block in yaml_blocks():
        data = yaml.load(block)
        if not isinstance(data, list):
            continue
        for step in data:
            if isinstance(step, dict) and next(iter(step)) in STEPS:
                errors = list(validator.iter_errors(step))
                assert not errors, (step, [e.message for e in errors])
                checked.add(next(iter(step)))
    headings = re.findall(r"^### (.*)$", DOC, re.MULTILINE)
    documented = {name for h in headings for name in re.findall(r"`(\w+)`", h)}
    assert documented == set(STEPS), "every step has a section in the reference"
    assert checked >= set(STEPS) - {"break"}, "every step with options has an example"


def test_the_test_ruleset_uses_every_step():
    text = (SKIRMISH / "ruleset.yaml").read_text(encoding="utf-8")
    used = set(re.findall(r"^\s*-\s+(\w+):", text, re.MULTILINE))
    assert set(STEPS) <= used
