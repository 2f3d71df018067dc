"""Helpers for the GURPS Mass Combat tests: armies written on the fly, events of a battle."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from stratagem.api import load_ruleset, rate_army

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "gurps"


@pytest.fixture(scope="session")
def core():
    """The ruleset without a setting (the general rules of GURPS Mass Combat)."""
    return load_ruleset("gurps-mass-combat")


@pytest.fixture(scope="session")
def yrth():
    return load_ruleset("gurps-mass-combat/yrth")


@pytest.fixture(scope="session")
def ww1():
    return load_ruleset("gurps-mass-combat/ww1")


@pytest.fixture
def army_file(tmp_path: Path) -> Callable[..., Path]:
    """Write an army file: ``army_file(units, ruleset=..., **side_fields)`` → its path.

    ``units`` is a list of YAML flow maps (one per unit); the side's own fields are given
    as keyword arguments (written as YAML scalars).
    """
    counter = {"n": 0}

    def write(units: list[str], ruleset: str = "gurps-mass-combat", **side: Any) -> Path:
        counter["n"] += 1
        lines = ["kind: army", f"ruleset: {ruleset}", "name: Test army"]
        side.setdefault("strategy", 12)
        for key, value in side.items():
            lines.append(f"{key}: {value}")
        lines.append("units:")
        lines += [f"  - {u}" for u in units]
        path = tmp_path / f"army{counter['n']}.yaml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    return write


@pytest.fixture
def army(army_file: Callable[..., Path]) -> Callable[..., Any]:
    """Write an army file and rate it (`stratagem rate`): the side after the muster."""

    def rate(units: list[str], ruleset: str = "gurps-mass-combat", **side: Any) -> Any:
        return rate_army(army_file(units, ruleset, **side)).side

    return rate


def events(result: Any, key: str, **match: Any) -> list[dict[str, Any]]:
    """The params of every event with message ``key`` whose params equal ``match``
    (an entity param matches its name)."""
    found = []
    for event in result.trace:
        if event.key != key:
            continue
        params = event.params
        if all(_name(params.get(k)) == v for k, v in match.items()):
            found.append(params)
    return found


def one(result: Any, key: str, **match: Any) -> dict[str, Any]:
    """The single event ``key`` matching ``match``."""
    found = events(result, key, **match)
    assert len(found) == 1, f"{key} {match}: {len(found)} events"
    return found[0]


def _name(value: Any) -> Any:
    label = getattr(value, "label", None)
    if callable(label):
        return label()
    key = getattr(value, "key", None)
    if isinstance(key, str) and key.startswith("enum."):
        return key.rsplit(".", 1)[1]
    return value


def unit(side: Any, name: str) -> Any:
    """The unit called ``name`` of a side."""
    for u in side.units:
        if u.name == name:
            return u
    raise AssertionError(f"no unit {name!r}")


@pytest.fixture
def fight(tmp_path: Path) -> Callable[..., Any]:
    """Write a scenario (YAML text) and fight it: ``fight(text, dice=[...], **run_battle_kw)``."""
    from stratagem.api import run_battle

    counter = {"n": 0}

    def run(text: str, **kwargs: Any):
        counter["n"] += 1
        path = tmp_path / f"scenario{counter['n']}.yaml"
        path.write_text(text, encoding="utf-8")
        return run_battle(path, **kwargs)

    return run
