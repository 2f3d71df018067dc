"""`stratagem rate SCENARIO`: every side rated where it fights, through the pipeline `battle`
reads scenarios with, giving the values that battle starts with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stratagem.api import load_scenario, rate_army, rate_scenario
from stratagem.cli import main
from stratagem.compile.pipeline import kind_of
from stratagem.interp.context import Run
from stratagem.interp.decisions import Decisions
from stratagem.interp.dicesource import FirstRoll, StopAtFirstRoll
from stratagem.interp.steps import call
from stratagem.interp.trace import Event, plainify
from stratagem.loader.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(p for p in (ROOT / "examples").glob("*/*.yaml")
                   if kind_of(load_yaml(p), str(p))[0] == "scenario")


def opening(path: Path) -> list[Event]:
    """The first entries of the battle's trace: everything it does before its first roll."""
    scenario = load_scenario(path)
    rs = scenario.ruleset
    run = Run(rs, scenario.instantiate(), StopAtFirstRoll(), Decisions(scenario.decisions),
              tracing=True)
    try:
        call(run, rs.entry["battle"], {})
    except FirstRoll:
        pass
    return run.trace


def messages(events: list[Event], procedures: set[str]) -> list[tuple[str, object]]:
    return [(e.key, plainify(e.params)) for e in events if e.key and e.procedure in procedures]


def test_there_are_scenarios_of_every_shipped_ruleset() -> None:
    assert {p.parent.name for p in SCENARIOS} == {"gurps", "war-machine", "mazes-minotaurs"}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rate_gives_what_the_battle_starts_with(path: Path) -> None:
    rated = rate_scenario(path)
    rs = rated.ruleset
    sides = dict(rated.root.children_of())[next(iter(rs.kinds["battle"].children))]
    assert [r.side for r in rated.sides] == sides  # every side, on the scenario's battle
    assert all(r.side.parent is rated.root for r in rated.sides)
    # what the rate procedure calls that the battle calls too, before anything is random,
    # says the same: the same messages with the same values, side after side
    first = opening(path)
    shared = ({e.procedure for r in rated.sides for e in r.trace} - {rs.entry["rate"]}) \
        & {e.procedure for e in first}
    assert shared, "the battle opens with what `rate` runs"
    assert messages([e for r in rated.sides for e in r.trace], shared) == messages(first, shared)


def test_terrain_and_role_values_are_those_of_the_battle(tmp_path: Path) -> None:
    # War Machine, Step 4: the goblins defend a forest, their native terrain
    path = ROOT / "examples" / "war-machine" / "border-ambush.yaml"
    rated = rate_scenario(path)
    goblins = rated.sides[1].side.forces[0]
    ground = [tuple(p) for p in goblins.ground_parts]
    defence = [tuple(p) for p in goblins.defence_parts]
    assert ("native_terrain", 15) in ground          # battle: {terrain: forest}
    assert ("holding", 10) in defence and goblins.parent.role == "defender"
    # the battle's first round shows the same modifiers for the goblins
    from stratagem.api import run_battle

    battle = run_battle(path)
    shown = {(e.params["reason"].key.split(".")[-1], e.params["value"]) for e in battle.trace
             if e.key == "battle.modifier" and e.params["force"] is not None
             and plainify(e.params["force"]) == "Goblins"}
    assert {("native_terrain", 15), ("holding", 10)} <= shown
    # rated as an army file, away from the forest and with no role, they have neither
    alone = rate_army(_army_of(path, 1, tmp_path))
    bare = alone.side.forces[0]
    assert ("native_terrain", 15) not in [tuple(p) for p in bare.ground_parts]


def _army_of(path: Path, index: int, folder: Path) -> Path:
    """One side of a scenario written as an army file (JSON is YAML)."""
    side = dict(load_yaml(path)["sides"][index])
    army = folder / "side.yaml"
    army.write_text(json.dumps({"kind": "army", "ruleset": "war-machine", **side}),
                    encoding="utf-8")
    return army


def test_the_command_rates_a_scenario_with_the_army_json_shape(capsys) -> None:
    path = ROOT / "examples" / "war-machine" / "border-ambush.yaml"
    assert main(["rate", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ruleset"] == "war-machine" and data["scenario"] == "Ambush at the Old Ford"
    army = ROOT / "examples" / "war-machine" / "elves.yaml"
    assert main(["rate", str(army), "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert [set(side) for side in data["sides"]] == [set(one)] * 2
    assert [s["side"]["name"] for s in data["sides"]] == ["The baron's riders",
                                                          "The goblin raiders"]
    assert main(["rate", str(path), "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert "Goblins: quick BR 40" in text and "Riders: BFR 88" in text


def test_rate_refuses_other_kinds_in_good_english(capsys, tmp_path: Path) -> None:
    assert main(["rate", str(ROOT / "rulesets" / "war-machine" / "ruleset.yaml")]) == 1
    err = capsys.readouterr().err
    assert "expected an army or a scenario file, but this one says kind: ruleset" in err
    assert main(["battle", str(ROOT / "examples" / "war-machine" / "elves.yaml")]) == 1
    assert "expected a scenario file, but this one says kind: army" in capsys.readouterr().err
