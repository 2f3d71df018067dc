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
    blocks = yaml_blocks()
    assert len(blocks) >= 30  # the examples are found (a fence renamed would find none)
    for block in blocks:
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


# -- the reference cannot drift from the engine's own tables -----------------------------

def _functions_table() -> dict[str, tuple[list[str], list[str], bool]]:
    """function -> (its arguments, its options, whether it takes more of the last)."""
    section = DOC[DOC.index("### Functions\n"):DOC.index("`min` and `max` take a list")]
    found = {}
    for row in re.findall(r"^\| (`.*?) \|", section, re.MULTILINE):
        for name, args in re.findall(r"`(\w+)\(([^`]*)\)`", row):
            parts = [p.strip() for p in args.replace("[", "").replace("]", "").split(",")
                     if p.strip()]
            found[name] = ([p for p in parts if p != "..." and not p.endswith("=")],
                           [p[:-1] for p in parts if p.endswith("=")], "..." in parts)
    return found


def test_the_reference_documents_every_function_with_its_arguments_and_nothing_else():
    from stratagem.compile.checks import RULESET_SIGNATURES
    from stratagem.expr.calls import SIGNATURES
    from stratagem.expr.core import BASE_FUNCTIONS

    documented = _functions_table()
    assert set(documented) == set(BASE_FUNCTIONS) | set(RULESET_SIGNATURES)
    for name, (params, options, more) in documented.items():
        sig = SIGNATURES.get(name) or RULESET_SIGNATURES[name]
        assert (params, options, more) == (list(sig.params), list(sig.options),
                                           sig.most is None), name


def test_a_function_added_without_documentation_fails_the_check(monkeypatch):
    from stratagem.expr import core

    monkeypatch.setitem(core.BASE_FUNCTIONS, "median", lambda xs: xs)
    try:
        test_the_reference_documents_every_function_with_its_arguments_and_nothing_else()
    except AssertionError:
        return
    raise AssertionError("an undocumented built-in passed the check")


def test_the_functions_examples_give_what_the_reference_says():
    from stratagem.expr import Evaluator, compile_expr

    section = DOC[DOC.index("### Functions\n"):DOC.index("`min` and `max` take a list")]
    claims = re.findall(r"`([^`]+)` is `([^`]+)`", section)
    assert len(claims) >= 5
    evaluator = Evaluator()
    for expr, shown in claims:
        got = evaluator.eval(compile_expr(expr), {})
        assert (list(got) if isinstance(got, range) else got) == evaluator.eval(
            compile_expr(shown), {}), expr
    signed = compile_expr("'+' + str(b) if b > 0 else str(b)")
    assert "`'+' + str(b) if b > 0 else str(b)`" in section
    assert [evaluator.eval(signed, {"b": b}) for b in (3, 0, -2)] == ["+3", "0", "-2"]


def test_what_each_step_hands_its_message_is_what_the_engine_hands():
    section = DOC[DOC.index("### What each step hands to its message"):
                  DOC.index("### The report and `--explain`")]
    documented: dict[str, set[str]] = {}
    for steps, values in re.findall(r"^\| (`[^|]*`) \| (.*) \|$", section, re.MULTILINE):
        while re.search(r"\([^()]*\)", values):
            values = re.sub(r"\([^()]*\)", "", values)
        for step in re.findall(r"`(\w+)`", steps):
            documented[step] = set(re.findall(r"`(\w+)`", values))
    assert set(documented) == set(STEPS)
    for step, form in STEPS.items():
        assert documented[step] == set(form.hands), step


def test_every_option_of_every_step_is_documented_in_its_section():
    for step, form in STEPS.items():
        start = DOC.index(next(h for h in re.findall(r"^### .*$", DOC, re.MULTILINE)
                               if f"`{step}`" in h))
        section = DOC[start:DOC.index("\n### ", start + 1)]
        for option in form.keys:
            assert re.search(rf"\b{option}:", section), (step, option)


def _run_steps(tmp_path, steps, dice, messages=None):
    """Fight a battle of a ruleset whose battle procedure is ``steps``; its trace."""
    import json as _json

    from stratagem.api import run_battle

    folder = tmp_path / "mini"
    (folder / "locales").mkdir(parents=True)
    ruleset = {"kind": "ruleset", "id": "mini", "dice": {"default_sides": 6},
               "entities": {"battle": {"children": {"sides": "side"}},
                            "side": {"fields": {"archers": {"type": "int", "default": 0}}}},
               "procedures": {"fight": steps}, "entry": {"battle": "fight"}}
    (folder / "ruleset.yaml").write_text(_json.dumps(ruleset), encoding="utf-8")
    (folder / "locales" / "en.yaml").write_text(_json.dumps(
        {"kind": "locale", "language": "en", "messages": messages or {}}), encoding="utf-8")
    scenario = tmp_path / "s.yaml"
    scenario.write_text("kind: scenario\nruleset: mini/ruleset.yaml\nsides:\n"
                        "  - {name: Red, archers: 20}\n  - {name: Blue}\n", encoding="utf-8")
    return run_battle(scenario, dice=dice).trace


def test_the_check_example_decides_success_as_the_reference_says(tmp_path):
    yaml = YAML(typ="safe", pure=True)
    step = yaml.load(re.search(r"```yaml\n(- check:.*?)```", _section("`check` — a roll "
                                                                        "against a target"),
                               re.DOTALL).group(1))[0]
    step["check"]["target"] = "18"
    results = {}
    for rolled in (17, 4, 12):
        trace = _run_steps(tmp_path / str(rolled), [step], [rolled])
        (event,) = [e for e in trace if e.step == "check"]
        results[rolled] = (event.values["success"], event.values.get("critical"),
                           event.values["margin"])
    assert results == {17: (False, "failure", 1), 4: (True, "success", 14),
                       12: (True, None, 6)}


def test_with_values_are_expressions_and_a_text_is_quoted(tmp_path):
    yaml = YAML(typ="safe", pure=True)
    section = DOC[DOC.index("### What each step hands to its message"):
                  DOC.index("### The report and `--explain`")]
    (step,) = yaml.load(re.search(r"```yaml\n(.*?)```", section, re.DOTALL).group(1))
    loop = {"for_each": {"in": "battle.sides", "as": "side", "do": [step]}}
    trace = _run_steps(tmp_path, [loop], [], {"battle.volley": "{side}: {attack} ({arrows})"})
    params = [e.params for e in trace if e.key == "battle.volley"]
    assert [(p["attack"], p["arrows"]) for p in params] == [("ranged", 40), ("ranged", 0)]


def test_the_static_checks_take_the_options_each_function_takes():
    # `first(xs, default=0)` was refused before a battle although the function takes it
    from stratagem.compile.checks import NAMED_VALUES
    from stratagem.compile.checks import SIGNATURES as CHECKED
    from stratagem.expr.calls import RULESET_SIGNATURES, SIGNATURES

    for name, sig in {**SIGNATURES, **RULESET_SIGNATURES}.items():
        # a value that may also be given by its name (group_by's key=) counts as an option
        assert set(CHECKED[name][2]) == {*sig.options, *NAMED_VALUES.get(name, ())}, name
