"""Each case that once passed `validate` and failed mid-battle (or the other way round) is
now one clear error at load time, with file:line:col and a hint, in both expression
back-ends (the compiled one and the simpleeval reference)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "tests" / "engine" / "skirmish"
SCENARIO = ROOT / "benchmarks" / "scenarios" / "skirmish-12v12.yaml"

#: (what the case is, the change to the skirmish ruleset (old, new), the words the error
#: says, its hint)
RULESET_CASES = [
    ("a misspelt field of a side", ('target: "a.skill"', 'target: "a.skil"'),
     "`a.skil`: a side has no field or value 'skil'", "did you mean 'skill'?"),
    ("a misspelt field of the battle", ("until: battle.over", "until: battle.ovr"),
     "`battle.ovr`: a battle has no field or value 'ovr'", "did you mean 'over'?"),
    ("a misspelt field of a unit in a comprehension",
     ('"sum(u.count for u in units)"', '"sum(u.cont for u in units)"'),
     "a unit has no field or value 'cont'", "did you mean 'count'?"),
    ("a formula called with too many values", ("with: {side: a, margin: margin_a}",
                                               "with: {side: a, margin: 'lose(1, 2, 3)'}"),
     "formula 'lose' takes 2 values, got 3", "lose(count, percent)"),
    ("clamp() with too few values", ('"side.troops * 1 <', '"clamp(side.troops, 1) <'),
     "clamp() takes 3 values, got 2", "clamp(value, lowest, highest)"),
    ("label() of a value its enum lacks", ("with: {n: round}", "with: {n: \"label('stance', 'bolt')\"}"),
     "label(): 'bolt' is not a value of enum 'stance'", "did you mean 'bold'?"),
    ("break outside a loop", ("    - set:\n        survivors:", "    - break:\n    - set:\n        survivors:"),
     "`break` outside a loop", "use `return`"),
]


def _stratagem(args: list[str], evaluator: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "STRATAGEM_EVALUATOR": evaluator}
    return subprocess.run([sys.executable, "-m", "stratagem", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def _copy(tmp_path: Path, old: str, new: str) -> tuple[Path, Path]:
    folder = tmp_path / "skirmish"
    shutil.copytree(SKIRMISH, folder)
    ruleset = folder / "ruleset.yaml"
    text = ruleset.read_text(encoding="utf-8")
    assert old in text, old
    ruleset.write_text(text.replace(old, new, 1), encoding="utf-8")
    scenario = tmp_path / "battle.yaml"
    scenario.write_text(SCENARIO.read_text(encoding="utf-8").replace(
        "../../tests/engine/skirmish/ruleset.yaml", str(ruleset)), encoding="utf-8")
    return ruleset, scenario


@pytest.mark.parametrize("evaluator", ["compiled", "simpleeval"])
@pytest.mark.parametrize(("case", "change", "message", "hint"), RULESET_CASES,
                         ids=[c[0] for c in RULESET_CASES])
def test_a_ruleset_mistake_is_one_error_at_load(case, change, message, hint, evaluator,
                                                tmp_path):
    ruleset, scenario = _copy(tmp_path, *change)
    for args in (["validate", str(ruleset)], ["validate", str(scenario)],
                 ["battle", str(scenario)]):
        done = _stratagem(args, evaluator, tmp_path)
        out = done.stdout + done.stderr
        assert done.returncode == 1, out
        assert "Traceback" not in out
        assert message in out and hint in out, out
        # at its place in the rule file, before any battle was fought
        assert re.search(re.escape(str(ruleset)) + r":\d+:\d+: ", out), out
        assert "Battle report" not in out


#: scenario keys: (the key added, accepted?)
@pytest.mark.parametrize(("line", "valid"), [
    ("id: my-battle", True), ("title: My battle", False), ("options: {days: 3}", False),
    ("decisions: {stance: {Red: {Blue: bold}}}", False)])
def test_validate_and_battle_agree_on_scenario_keys(line, valid, tmp_path):
    scenario = tmp_path / "battle.yaml"
    scenario.write_text(SCENARIO.read_text(encoding="utf-8").replace(
        "../../tests/engine/skirmish/ruleset.yaml", str(SKIRMISH / "ruleset.yaml"))
        + line + "\n", encoding="utf-8")
    checked = _stratagem(["validate", str(scenario)], "compiled", tmp_path)
    fought = _stratagem(["battle", str(scenario)], "compiled", tmp_path)
    assert (checked.returncode == 0) is valid, checked.stdout + checked.stderr
    assert (fought.returncode == 0) is valid, fought.stderr
    if not valid:
        first = checked.stdout.splitlines()[0]
        added = len(scenario.read_text(encoding="utf-8").splitlines())
        assert first.startswith(f"{scenario}:{added}:"), first  # the line added, not another
        assert first.split(": ")[0] in fought.stderr  # the same place
        assert "hint:" in checked.stdout


def test_a_ruleset_whose_id_is_not_its_folder_fails_everywhere(tmp_path):
    ruleset, scenario = _copy(tmp_path, "id: skirmish", "id: skirmish-two")
    for args in (["validate", str(ruleset)], ["battle", str(scenario)]):
        done = _stratagem(args, "compiled", tmp_path)
        out = done.stdout + done.stderr
        assert done.returncode == 1
        assert "the ruleset id 'skirmish-two' differs from its folder name 'skirmish'" in out
        assert f"{ruleset}:6:5" in out
