"""An `update` step's generated code changes an entity of a kind known to have its fields by
itself, what each change reaches written in (interp/codegen.py, ``_Writer.change``): the
entity's own readers dropped, the slots of values read through other entities moved on,
the battle's list of changes. These battles reach every way through it (two kinds that reach
differently in one step, one field and several, a field changed to the value it has, a
filtered collection that follows its items, the call of ``Entity.set`` or ``Entity.update``
for the kinds past ``MAX_REACHES``, and a template's entity, which never changes) and must
give the interpreter's state, byte for byte, every derived value read back after each
change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stratagem.api import load_scenario, run_battle
from stratagem.errors import StratagemError
from stratagem.interp import codegen
from stratagem.interp.codegen import sources
from stratagem.model import entities
from stratagem.model.scenario import Scenario

RULESET = """\
kind: ruleset
id: reach
entities:
  battle:
    fields:
      n: {type: int, default: 0}
      seen: {type: list, of: int, default: []}
    children: {sides: side}
    derived:
      total: 'sum(s.hp for s in sides) + sum(c.hp for s in sides for c in s.camps)'
      hurt: '[s for s in sides if s.hp < 3]'
  side:
    fields:
      hp: {type: int, default: 3}
      mark: {type: int, default: 0}
      got: {type: int, default: 0}
    children: {camps: camp}
    derived:
      worth: 'hp * 2 + mark'
      label: "'side' if worth > 4 else 'weak'"
  camp:
    fields:
      hp: {type: int, default: 5}
      mark: {type: int, default: 0}
      got: {type: int, default: 0}
    derived:
      worth: 'hp * 3'
procedures:
  fight:
    - repeat:
        as: round
        max: 4
        do:
          # two kinds, reaching differently: one field (``Entity.set``'s way) ...
          - update: 'battle.sides + camps(battle)'
            add: {hp: -1}
          - update: battle
            set: {n: 'battle.total', seen: 'battle.seen + [battle.total, len(battle.hurt)]'}
          # ... and several (``Entity.update``'s), one of them set to the value it has
          - update: 'battle.sides'
            set: {hp: 'hp'}
            add: {got: 'worth'}
          - update: 'battle.sides + camps(battle)'
            set: {got: 'worth', mark: 'round % 2'}
            add: {hp: 'round % 2 * 2'}
          - update: battle
            set:
              seen: >-
                battle.seen + [1 if s.label == 'side' else 0 for s in battle.sides]
                + [c.worth for c in camps(battle)] + [battle.total, len(battle.hurt)]
formulas:
  camps: {params: [b], expr: '[c for s in b.sides for c in s.camps]'}
entry: {battle: fight}
"""

SCENARIO = """\
kind: scenario
ruleset: rules.yaml
sides:
  - {name: A, hp: 4, camps: [{name: D}]}
  - {name: B}
  - {name: C, hp: 2, camps: [{name: E, hp: 1}]}
"""


def _written(tmp_path: Path) -> Path:
    (tmp_path / "rules.yaml").write_text(RULESET, encoding="utf-8")
    scenario = tmp_path / "battle.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    return scenario


def _state(path: Path, backend: str) -> str:
    try:
        result = run_battle(load_scenario(path), seed=0, tracing=False, backend=backend)
    except StratagemError as err:
        return f"{type(err).__name__}: {err.render()}"
    return json.dumps(result.root.to_plain())


@pytest.mark.parametrize("reaches", [codegen.MAX_REACHES, 1, 0])
def test_changes_written_out_give_the_interpreters_battle(reaches, tmp_path, monkeypatch):
    monkeypatch.setattr(codegen, "MAX_REACHES", reaches)
    # `hurt` kept item by item, from the battle's list of changes, however few its items
    monkeypatch.setattr(entities, "VIEW_MIN_ITEMS", 1)
    path = _written(tmp_path)
    generated = _state(path, "generated")
    assert generated == _state(path, "interpreter")
    assert json.loads(generated)["seen"][:2] == [10, 2]
    written = "".join(sources(load_scenario(path).ruleset, False).values())
    # the code changes entities itself for the kinds it knows (at most ``reaches`` ways)
    assert (".frozen" in written) == (reaches > 0)
    assert (".update((" in written and ".set(" in written)


def test_a_template_never_changes_through_either_backend(tmp_path, monkeypatch):
    path = _written(tmp_path)
    # the battle fought on the scenario's template itself, not on a copy of it
    monkeypatch.setattr(Scenario, "instantiate", lambda self: self.template)
    errors = []
    for backend in ("generated", "interpreter"):
        with pytest.raises(RuntimeError) as caught:
            run_battle(load_scenario(path), seed=0, tracing=False, backend=backend)
        errors.append(str(caught.value))
    assert errors[0] == errors[1]
    assert "belongs to a template, which never changes" in errors[0]


def test_an_entity_of_a_kind_without_the_field_reads_the_same(tmp_path):
    rules = RULESET.replace("            add: {hp: -1}\n",
                            "            add: {hp: -1}\n"
                            "          - update: 'camps(battle) + [battle]'\n"
                            "            set: {mark: 1}\n")
    (tmp_path / "rules.yaml").write_text(rules, encoding="utf-8")
    path = tmp_path / "battle.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    generated = _state(path, "generated")
    assert generated == _state(path, "interpreter")
    assert "has no field 'mark' to update" in generated
