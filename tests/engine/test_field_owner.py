"""Who owns a field (docs/ruleset-reference.md, "Who owns a field"): input fields are stated
by army and scenario files, battle state only by the battle, derived values by nobody."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from stratagem.api import validate
from stratagem.cli import main
from stratagem.compile.pipeline import load_ruleset
from stratagem.compile.schemas import army_schema, scenario_schema

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "ruleset-reference.md").read_text(encoding="utf-8")
SECTION = DOC[DOC.index("### Who owns a field"):DOC.index("`derived` values are")]

ARMY = """\
kind: army
ruleset: owned
name: Red
units:
  - name: Spearmen
    count: 100
  - {name: Archers, dead: 3, count: 40}
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A ruleset whose unit is the reference's example, with a battle-owned round."""
    block = re.search(r"```yaml\n(.*?)```", SECTION, re.DOTALL).group(1)
    entities = YAML(typ="safe", pure=True).load(block)["entities"]
    entities["battle"] = {"fields": {"round": {"type": "int", "default": 0, "owner": "battle"}},
                          "children": {"sides": "side"}}
    entities["side"] = {"children": {"units": "unit"}}
    ruleset = {"kind": "ruleset", "id": "owned", "entities": entities,
               "procedures": {"fight": [{"update": "battle", "set": {"round": "1"}}]},
               "entry": {"battle": "fight"}}
    (tmp_path / "owned").mkdir()
    (tmp_path / "owned" / "ruleset.yaml").write_text(json.dumps(ruleset), encoding="utf-8")
    (tmp_path / "my-army.yaml").write_text(ARMY, encoding="utf-8")
    return tmp_path


def test_an_army_file_stating_battle_state_is_refused_as_the_reference_shows(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shown = re.search(r"```text\n(.*?)```", SECTION, re.DOTALL).group(1)
    (error,) = validate(folder / "my-army.yaml")
    assert error.render().replace(str(folder) + "/", "") + "\n" == shown
    assert (error.location.line, error.location.column) == (7, 21)


def test_validate_and_battle_refuse_it_alike_in_a_scenario(folder: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    scenario = folder / "battle.yaml"
    scenario.write_text("kind: scenario\nruleset: owned\nbattle: {round: 2}\nsides:\n"
                        "  - army: my-army.yaml\n  - {name: Blue, units: [{count: 5, dead: 1}]}\n",
                        encoding="utf-8")
    found = [(e.location.file, e.location.line, e.location.column, e.message)
             for e in validate(scenario)]
    assert found[0][1:] == (3, 10, "the battle's field 'round' is battle state: the battle "
                            "sets it, so a scenario file cannot state it")
    assert main(["battle", str(scenario)]) == 1
    assert capsys.readouterr().err.startswith(f"stratagem: {scenario}:3:10: the battle's field 'round'")
    # each file is blamed at its own line: the army file, the scenario's inline side
    (folder / "battle.yaml").write_text(
        "kind: scenario\nruleset: owned\nsides:\n  - army: my-army.yaml\n"
        "  - {name: Blue, units: [{count: 5, dead: 1}]}\n", encoding="utf-8")
    places = [(Path(e.location.file).name, e.location.line) for e in validate(scenario)]
    assert places == [("battle.yaml", 5)]
    assert main(["battle", str(scenario)]) == 1
    assert f"{scenario}:5:" in capsys.readouterr().err
    (folder / "battle.yaml").write_text(
        "kind: scenario\nruleset: owned\nsides:\n  - army: my-army.yaml\n"
        "  - {name: Blue, units: [{count: 5}]}\n", encoding="utf-8")
    places = [(Path(e.location.file).name, e.location.line) for e in validate(scenario)]
    assert places == [("my-army.yaml", 7)]
    assert main(["battle", str(scenario)]) == 1
    assert "my-army.yaml:7:21: the unit's field 'dead' is battle state" in \
        capsys.readouterr().err


def test_battle_state_is_absent_from_the_schemas_and_the_hints(folder: Path) -> None:
    rs = load_ruleset(folder / "owned" / "ruleset.yaml")
    unit = army_schema(rs)["$defs"]["unit"]
    assert "dead" not in unit["properties"] and "count" in unit["properties"]
    assert set(unit["x-battle"]) == {"dead"} and unit["x-derived"] == ["alive"]
    assert "round" not in scenario_schema(rs)["properties"]["battle"]["properties"]
    (folder / "my-army.yaml").write_text(ARMY.replace("dead: 3", "daed: 3"), encoding="utf-8")
    (error,) = validate(folder / "my-army.yaml")
    assert error.message == "unknown field 'daed' in unit"
    assert "dead" not in (error.hint or "")


def test_a_shipped_rulesets_battle_state_is_refused(tmp_path: Path) -> None:
    army = tmp_path / "orcs.yaml"
    text = (ROOT / "examples" / "war-machine" / "orcs.yaml").read_text(encoding="utf-8")
    army.write_text(text.replace("kind: scenario", "kind: scenario"), encoding="utf-8")
    source = ROOT / "examples" / "war-machine" / "elves.yaml"
    lines = source.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("count:"))
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
    lines.insert(at + 1, f"{indent}dead: 40")
    army.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (error,) = validate(army)
    assert error.message == ("the force's field 'dead' is battle state: the battle sets it, "
                             "so an army file cannot state it")
    assert error.location.line == at + 2


def test_battle_state_cannot_be_required_nor_kept_by_a_campaign(folder: Path) -> None:
    from stratagem.campaign.rules import campaign_rules
    from stratagem.compile.pipeline import validate_file
    from stratagem.errors import StratagemError

    path = folder / "owned" / "ruleset.yaml"
    ruleset = json.loads(path.read_text(encoding="utf-8"))
    ruleset["entities"]["unit"]["fields"]["dead"]["required"] = True
    path.write_text(json.dumps(ruleset, indent=1), encoding="utf-8")
    (error,) = validate_file(path)
    assert error.message == ("field 'unit.dead' is battle state (`owner: battle`), so no "
                             "file states it: it cannot be `required`")
    del ruleset["entities"]["unit"]["fields"]["dead"]["required"]
    ruleset["campaign"] = {"keep": {"unit": ["count", "dead"]}}
    path.write_text(json.dumps(ruleset, indent=1), encoding="utf-8")
    with pytest.raises(StratagemError) as caught:
        campaign_rules(load_ruleset(path))
    assert "the unit's field 'dead' is battle state (`owner: battle`), so an army file " \
        "cannot keep it" in str(caught.value)
