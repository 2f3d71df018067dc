"""Fixtures for the War Machine tests (rulesets/war-machine, War Machine and docs/rulesets/war-machine.md, «Readings chosen»)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stratagem.api import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "war-machine"


@pytest.fixture(scope="session")
def rs() -> Any:
    """The shipped War Machine ruleset."""
    return load_ruleset("war-machine")


def forces(result: Any) -> dict[str, Any]:
    """Every force of a battle's final state, by name."""
    return {f.name: f for side in result.root.sides for f in side.forces}


def events(trace: list[Any], key: str) -> list[dict[str, Any]]:
    """The parameters of every event with message ``key``, in order."""
    return [e.params for e in trace if e.key == key]


def name(value: Any) -> str:
    """An entity's name (event parameters hold entities)."""
    return value if isinstance(value, str) else value.label()


def duel(red: str, blue: str, *, battle: str = "{terrain: open}", red_role: str = "attacker",
         blue_role: str = "attacker", extra: str = "") -> str:
    """A scenario text with one force on each side; ``red``/``blue`` are YAML flow maps."""
    return f"""
kind: scenario
ruleset: war-machine
name: A duel
battle: {battle}
sides:
  - name: Red side
    role: {red_role}
    forces: [{red}]
  - name: Blue side
    role: {blue_role}
    forces: [{blue}]
{extra}
"""
