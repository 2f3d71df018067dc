"""`stratagem sweep`: the odds over a grid of values (engine/stratagem/sweep.py). A
combination's figures are those `stratagem odds` gives for the scenario with those values
written in; one process, local processes and a Dask cluster give the same figures; a
--vary that names no field of the scenario says which fields there are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator, ValidationError
from referencing import Registry, Resource

from stratagem import sweep as S
from stratagem.api import load_scenario
from stratagem.cli import main
from stratagem.errors import StratagemError
from stratagem.odds import simulate

from .helpers import md_tables, parse_html

ROOT = Path(__file__).resolve().parents[2]
GURPS = ROOT / "benchmarks" / "scenarios" / "gurps-12v12.yaml"
ORCS = ROOT / "examples" / "war-machine" / "orcs.yaml"


@pytest.fixture(scope="module")
def strategies():
    g = S.grid(GURPS, ["sides.0.strategy=12,17"])
    return g, S.sweep(g, 150, 3, {}, S.in_this_process(g))


def sweep_schema() -> Draft202012Validator:
    """schemas/sweep.schema.json, which refers to schemas/odds.schema.json by its $id."""
    schemas = [json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text(
        encoding="utf-8")) for name in ("sweep", "odds")]
    registry: Registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas)
    Draft202012Validator.check_schema(schemas[0])
    return Draft202012Validator(schemas[0], registry=registry)


def test_the_json_of_a_sweep_is_what_its_schema_says(strategies):
    g, result = strategies
    data = {"ruleset": g.scenarios[0].ruleset.ref, "scenario": g.scenarios[0].name, **result}
    sweep_schema().validate(data)
    # each cell is an odds figure: a cell without its outcomes, or with a key odds has
    # not, is refused
    for broken in ({k: v for k, v in result["cells"][0].items() if k != "outcomes"},
                   {**result["cells"][0], "averages": {}}):
        with pytest.raises(ValidationError):
            sweep_schema().validate({**data, "cells": [broken]})


def test_a_combination_is_what_odds_gives_for_the_file_with_that_value(strategies, tmp_path):
    _, result = strategies
    text = GURPS.read_text(encoding="utf-8")
    assert text.count("strategy: 14") == 1
    edited = tmp_path / "edited.yaml"
    edited.write_text(text.replace("strategy: 14", "strategy: 17"), encoding="utf-8")
    odds = simulate(load_scenario(edited), 150, 3, {})
    cell = result["cells"][1]
    assert cell["set"] == {"sides.0.strategy": 17}
    assert {k: cell[k] for k in odds} == odds
    # and the value matters: the stronger general wins more often
    wins = [c["outcomes"].get("Megalos", {}).get("count", 0) for c in result["cells"]]
    assert wins[1] > wins[0]


def test_local_processes_give_the_same_figures(strategies):
    g, result = strategies
    assert S.sweep(g, 150, 3, {}, S.in_processes(2)) == result  # 4 tasks of 100 and 50


def test_a_dask_cluster_gives_the_same_figures(strategies):
    distributed = pytest.importorskip("dask.distributed", reason="the `cluster` extra")
    from stratagem.cli.sweep import on_cluster

    g, result = strategies
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        assert S.sweep(g, 150, 3, {}, on_cluster(cluster.scheduler_address)) == result


def test_no_scheduler_at_the_address_is_a_clear_error():
    pytest.importorskip("dask.distributed", reason="the `cluster` extra")
    from stratagem.cli.sweep import on_cluster

    g = S.grid(GURPS, ["days=1"])
    with pytest.raises(StratagemError, match="no Dask scheduler answers"):
        S.sweep(g, 1, 0, {}, on_cluster("tcp://127.0.0.1:9"))


def test_a_side_from_an_army_file_is_changed_in_the_sweep_not_in_the_file():
    army = ORCS.parent / "orc-horde.yaml"
    before = army.read_text(encoding="utf-8")
    g = S.grid(ORCS, ["sides.0.forces.Orcs.count=300,1000", "terrain=open,forest"])
    assert army.read_text(encoding="utf-8") == before
    counts = [next(u for u in s.template.walk() if u.member("name") == "Orcs").member("count")
              for s in g.scenarios]
    terrains = [s.template.member("terrain") for s in g.scenarios]
    assert counts == [300, 300, 1000, 1000] and terrains == ["open", "forest"] * 2


@pytest.mark.parametrize("vary, message, hint", [
    ("sides.0.strateg=12", "sides.0 has no field 'strateg'", "did you mean 'strategy'"),
    ("sides.2.strategy=12", "sides has no item '2' (it has 2)", "Megalos, Al-Wazif"),
    ("sides.0.units=1", "sides.0.units is a list of units", "sides.0.units.0.count"),
    ("sides.0.units.0.count.x=1", "sides.0.units.0.count is a value", None),
    ("dayz=1,2", "the scenario has no field 'dayz'", None),
    ("sides.0.strategy", "expected FIELD=VALUE", None),
    ("sides.0.strategy=12,,14", "an empty value", None),
    ("sides.0.strategy=12,12", "a value is given twice", None),
])
def test_a_vary_that_names_no_value_says_what_there_is(vary, message, hint):
    with pytest.raises(StratagemError) as err:
        S.grid(GURPS, [vary])
    assert message in err.value.message
    if hint:
        assert hint in (err.value.hint or "")


def test_a_value_the_schema_refuses_names_its_combination():
    with pytest.raises(StratagemError) as err:
        S.grid(GURPS, ["sides.0.strategy=12", "sides.0.units.Megalos 2.count=5,-1"])
    assert "at least 0" in err.value.message
    assert err.value.location.path == "$.sides[0].units[1].count"
    assert err.value.context.endswith(
        "--vary sides.0.strategy=12 --vary sides.0.units.Megalos 2.count=-1")


def test_the_errors_read_in_the_users_language():
    from stratagem.i18n.catalog import engine_catalog

    english, russian = engine_catalog("en"), engine_catalog("ru")
    for vary in ("sides.0.strateg=12", "sides.9.strategy=1", "sides.0.units=1", "days=1,1",
                 "sides.0.strategy"):
        with pytest.raises(StratagemError) as caught:
            S.grid(GURPS, [vary])
        error = caught.value
        assert error.key and error.localized(english) == error.message, vary
        assert error.localized(russian) != error.message, vary


def test_the_same_field_twice_is_refused():
    with pytest.raises(StratagemError, match="the same field as --vary days"):
        S.grid(GURPS, ["days=1", "battle.days=2"])


def test_the_command_writes_a_table_and_heat_maps(tmp_path, capsys):
    args = ["sweep", str(ORCS), "--vary", "sides.0.forces.Orcs.count=300,1000", "--vary",
            "terrain=open,forest", "-n", "6", "-j", "1", "--lang", "en"]
    assert main([*args, "--format", "md"]) == 0
    (table,) = md_tables(capsys.readouterr().out)
    assert table[0][:3] == ["sides.0.forces.Orcs.count", "terrain", "Battles"]
    assert [row[:2] for row in table[1:]] == [["300", "open"], ["300", "forest"],
                                             ["1000", "open"], ["1000", "forest"]]
    for row in table[1:]:  # the shares of each combination add up to 100 %
        assert sum(float(s.replace(" %", "").replace("\u00a0%", "")) for s in row[3:]) == \
            pytest.approx(100, abs=0.2)
    page = tmp_path / "sweep.html"
    assert main([*args, "-o", str(page)]) == 0
    html = parse_html(page.read_text(encoding="utf-8"))
    maps = html.findall(".//table[@class='heat-map']")
    assert len(maps) == len(table[0]) - 3  # one per outcome
    assert all(len(m.findall(".//tbody/tr")) == 2 for m in maps)
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["set"] for c in data["cells"]][1] == {"sides.0.forces.Orcs.count": 300,
                                                    "terrain": "forest"}
    sweep_schema().validate(data)
    assert main([*args, "--lang", "ru"]) == 0
    assert "Перебор" in capsys.readouterr().out
