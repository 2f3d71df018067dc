"""docs/ruleset-reference.md, «Step ids»: an overlay replaces or removes one step of a
procedure by the step's `id:` (the homebrewer's way to change a procedure, not a table)."""

from __future__ import annotations

import shutil

from stratagem.api import run_battle

from .conftest import SKIRMISH


def _copy(tmp_path):
    folder = tmp_path / "skirmish"
    shutil.copytree(SKIRMISH, folder)
    rules = folder / "ruleset.yaml"
    text = rules.read_text(encoding="utf-8")
    step = '    - if: "len(survivors) == 1"\n'
    assert text.count(step) == 1
    rules.write_text(text.replace(step, step.replace("- if:", "- id: crown\n      if:")),
                     encoding="utf-8")
    return folder


def _keys(path) -> list[str]:
    return [e.key for e in run_battle(path).trace if e.key]


def test_an_overlay_replaces_one_step_by_its_id(tmp_path):
    folder = _copy(tmp_path)
    assert "skirmish.winner" in _keys(folder / "battle.yaml") or \
        "skirmish.no_winner" in _keys(folder / "battle.yaml")
    (folder / "house.yaml").write_text("""kind: setting
extends: ruleset.yaml
procedures:
  fight:
    - $replace: {id: crown, emit: skirmish.no_winner, level: summary}
""", encoding="utf-8")
    battle = (folder / "battle.yaml").read_text(encoding="utf-8")
    (folder / "house-battle.yaml").write_text(battle.replace("ruleset: ruleset.yaml",
                                                             "ruleset: house.yaml"),
                                              encoding="utf-8")
    keys = _keys(folder / "house-battle.yaml")
    assert "skirmish.winner" not in keys
    assert keys[-1] == "skirmish.no_winner"


def test_an_overlay_removes_one_step_by_its_id(tmp_path):
    folder = _copy(tmp_path)
    (folder / "house.yaml").write_text("""kind: setting
extends: ruleset.yaml
procedures:
  fight:
    - {id: crown, $remove: true}
""", encoding="utf-8")
    battle = (folder / "battle.yaml").read_text(encoding="utf-8")
    (folder / "house-battle.yaml").write_text(battle.replace("ruleset: ruleset.yaml",
                                                             "ruleset: house.yaml"),
                                              encoding="utf-8")
    keys = _keys(folder / "house-battle.yaml")
    assert "skirmish.winner" not in keys and "skirmish.no_winner" not in keys
