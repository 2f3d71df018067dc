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


def _section(title: str) -> str:
    start = DOC.index(f"### {title}\n")
    end = DOC.find("\n## ", start)
    return DOC[start:end]


def test_the_plan_in_decisions_in_a_scenario_is_the_shipped_example():
    section = _section("Decisions in a scenario")
    block = re.search(r"```yaml\n(kind: scenario.*?)```", section, re.DOTALL).group(1)
    on_disk = (ROOT / "examples" / "gurps" / "caliburn-plan.yaml").read_text(encoding="utf-8")
    assert block.strip() in on_disk


def test_the_commands_of_decisions_in_a_scenario_print_what_it_shows(capsys):
    import shlex

    from stratagem.cli import main

    section = _section("Decisions in a scenario")
    commands = re.findall(r"```sh\n(stratagem [^\n]+)\n```", section)
    shown = re.findall(r"```text\n(.*?)```", section, re.DOTALL)
    assert len(commands) == len(shown) == 2
    odds, battle = commands
    args = [str(ROOT / a) if a.startswith("examples/") else a for a in shlex.split(odds)[1:]]
    assert main([*args, "--lang", "en"]) == 0
    assert capsys.readouterr().out.endswith("\n" + shown[0])
    args = [str(ROOT / a) if a.startswith("examples/") else a for a in shlex.split(battle)[1:]]
    assert main([*args, "--lang", "en"]) == 1
    assert capsys.readouterr().err == shown[1]
