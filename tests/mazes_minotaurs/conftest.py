"""Fixtures for the Mazes & Minotaurs Epic Battles tests (rulesets/mazes-minotaurs, Epic Battles)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stratagem.api import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "mazes-minotaurs"
SCENARIOS = Path(__file__).resolve().parent / "scenarios"
SEED = "Mazes & Minotaurs, Epic Battles"


@pytest.fixture(scope="session")
def rs() -> Any:
    """The shipped Mazes & Minotaurs ruleset."""
    return load_ruleset("mazes-minotaurs")


def events(trace: list[Any], key: str) -> list[dict[str, Any]]:
    """The parameters of every event with message ``key``, in order."""
    return [e.params for e in trace if e.key == key]


def name(value: Any) -> str:
    """An entity's name (event parameters hold entities)."""
    return value if isinstance(value, str) else value.label()


def by_name(items: Any) -> dict[str, Any]:
    """Entities of a collection by name."""
    return {item.name: item for item in items}


def units(result: Any) -> dict[str, Any]:
    """Every regiment of a battle's final state, by name."""
    return {u.name: u for side in result.root.sides for u in side.units}


def sides(result: Any) -> dict[str, Any]:
    return by_name(result.root.sides)


def losses(count: int, percent: Any) -> int:
    """The book's percentage losses, rounded down (a regiment loses whole soldiers)."""
    return int(count * percent // 100)


def army(units_yaml: str, heroes_yaml: str = "", extra: str = "") -> str:
    """An army file text for one side with the given `units:` (and `heroes:`) entries."""
    text = f"""
kind: army
ruleset: mazes-minotaurs
name: Test army
leadership: 5
{extra}
units:
{units_yaml}
"""
    if heroes_yaml:
        text += f"heroes:\n{heroes_yaml}\n"
    return text


def duel(a_units: str, b_units: str, *, battle: str = "{mode: land, max_rounds: 1}",
         a_extra: str = "", b_extra: str = "", decisions: str = "",
         a_heroes: str = "", b_heroes: str = "") -> str:
    """A scenario text with two sides, Red and Blue; omens and speeches are skipped."""
    text = f"""
kind: scenario
ruleset: mazes-minotaurs
name: A test battle
battle: {battle}
sides:
  - name: Red
{a_extra or '    leadership: 5'}
    units:
{a_units}
"""
    if a_heroes:
        text += f"    heroes:\n{a_heroes}\n"
    text += f"""  - name: Blue
{b_extra or '    leadership: 5'}
    units:
{b_units}
"""
    if b_heroes:
        text += f"    heroes:\n{b_heroes}\n"
    text += f"""decisions:
  omens: {{"*": false}}
  oratory: {{"*": false}}
{decisions}
"""
    return text
