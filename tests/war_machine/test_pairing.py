"""Choosing opponents (War Machine, Part 2, «Разделение отрядов» and the choice of opponents
that follows it; rulesets/war-machine/procedures.yaml, `pair_forces`): "Каждый отряд выбирает
себе противника; игрок с отрядом с наивысшим БР выбирает первым, затем следующий по БР и т.д."

The shipped procedure reads lists the sides keep item by item (`unpaired_names`,
`unpaired_by_troops`: docs/ruleset-reference.md, «Entities»), so that a choice costs the same
however many forces there are (docs/performance.md). It must fight the battle of the rule read
plainly, written here as an overlay of the ruleset: for each choice, every enemy force on the
field without an opponent, in the order of the sides and their forces, offered by name; by
default the one with the fewest troops (the first of them); the force chosen found among
them. Same seed, same battle: the same final state, the same events (all but the quiet ones,
which record the procedure's own variables; without the places of the steps and their numbers
in the trace), the same report (but for the line naming the overlay), and the same decisions
put to the GM — the same options in the same order, the same default — whether the GM takes the
default or another option.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stratagem.api import load_ruleset, load_scenario, run_battle

ROOT = Path(__file__).resolve().parents[2]

#: `pair_forces` read plainly (a list of the free enemy forces made for each choice)
PLAIN_PAIRING = """\
kind: setting
extends: war-machine
procedures:
  pair_forces:
    steps:
      - {update: "battle.forces", set: {opponent: none}, level: quiet}
      - for_each:
          in: "sorted(battle.active, key='br', reverse=true)"
          as: chooser
          do:
            - if: "chooser.opponent == none"
              then:
                - set:
                    free: >-
                      [e for s in battle.sides if s is not chooser.parent
                      for e in s.forces if e.on_field and e.opponent == none]
                  level: quiet
                - if: "len(free) > 0"
                  then:
                    - decide: opponent
                      for: chooser
                      options: "[e.name for e in free]"
                      default: "sorted(free, key='count')[0].name"
                      as: choice
                    - {set: {foe: "first(e for e in free if e.name == choice)"}, level: quiet}
                    - {update: chooser, set: {opponent: "foe.name"}, level: quiet}
                    - {update: foe, set: {opponent: "chooser.name"}, level: quiet}
                    - emit: battle.pairing
                      with: {chooser: chooser, chooser_br: "chooser.br", foe: foe,
                             foe_br: "foe.br",
                             contact: "max(chooser.contact_range, foe.contact_range)"}
                      level: summary
                  else:
                    - {emit: battle.unmatched, with: {force: chooser}, level: summary}
"""

SCENARIOS = [ROOT / "examples" / "war-machine" / name
             for name in ("border-ambush.yaml", "orcs.yaml", "siege.yaml")]
BENCHMARK = ROOT / "benchmarks" / "scenarios" / "war-machine-12v12.yaml"


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("plain-pairing")
    (folder / "ruleset.yaml").write_text(PLAIN_PAIRING, encoding="utf-8")
    return load_ruleset(folder / "ruleset.yaml")


def _bigger(folder: Path, per_side: int) -> Path:
    """The benchmark with ``per_side`` forces a side (benchmarks/bench_battles.py, scaled):
    enough for the sides' lists to be kept item by item."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_battles import scaled
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return scaled(BENCHMARK, per_side, folder)


def _fight(scenario: Any, seed: int, backend: str, answer: str) -> dict[str, Any]:
    """One battle, as plain data: its final state and what the GM was asked. ``answer``:
    ``plan`` (the scenario's plans and the rules' defaults), ``default`` (every decision put
    to the GM, who takes the default) or ``last`` (who takes the last option offered)."""
    asked: list[Any] = []

    def ask(decision: str, who: str, offered: dict[str, Any]) -> Any:
        asked.append([decision, who, offered])
        choices = offered["choices"]
        return choices[-1] if answer == "last" and choices else offered["default"]

    result = run_battle(scenario, seed=seed, backend=backend,
                        ask_decision=None if answer == "plan" else ask)
    head = result._head()
    del head["ruleset"]
    events = [{key: value for key, value in event.to_plain().items() if key not in ("i", "at")}
              for event in result.trace if event.level != "quiet"]
    report = [line for line in result.report().splitlines()
              if not line.startswith("Setting or house rules in force:")]
    return json.loads(json.dumps({"head": head, "events": events, "asked": asked,
                                  "report": report}, default=str))


def _compare(path: Path, plain: Any, seeds: range,
             answers: tuple[str, ...] = ("plan", "default", "last")) -> int:
    shipped, reference = load_scenario(path), load_scenario(path, plain)
    asked = 0
    for backend in ("interpreter", "generated"):
        for answer in answers:
            for seed in seeds:
                ours = _fight(shipped, seed, backend, answer)
                assert ours == _fight(reference, seed, backend, answer), (
                    path.name, backend, answer, seed)
                asked += sum(1 for a in ours["asked"] if a[0] == "opponent")
    return asked


@pytest.mark.parametrize("path", SCENARIOS + [BENCHMARK], ids=lambda p: p.stem)
def test_the_battle_is_that_of_the_rule_read_plainly(path: Path, plain: Any) -> None:
    asked = _compare(path, plain, range(3 if path == BENCHMARK else 6))
    assert asked > 0, "the GM was asked for opponents"


def test_forty_forces_a_side_whose_lists_are_kept_item_by_item(tmp_path: Path,
                                                                plain: Any) -> None:
    from stratagem.model.entities import VIEW_MIN_ITEMS

    per_side = VIEW_MIN_ITEMS + 8
    path = _bigger(tmp_path, per_side)
    assert _compare(path, plain, range(1), ("default", "last")) > 2 * per_side
