"""A loaded scenario: its ruleset, a template battle state and the GM's inputs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stratagem.model.decisions import Entry
from stratagem.model.entities import Entity
from stratagem.model.ruleset import Ruleset


@dataclass
class Scenario:
    """A loaded scenario: its ruleset, a template battle state and the GM's inputs
    (``decisions``: their plans, see ``model.decisions``)."""

    ruleset: Ruleset
    template: Entity
    decisions: dict[str, Entry] = field(default_factory=dict)
    dice: list[Any] | None = None
    seed: int | None = None
    name: str = ""
    path: str | None = None
    #: Its names in other languages (``NameBook`` of i18n/names.py, set by the loader).
    names: Any = None

    def instantiate(self) -> Entity:
        return self.template.clone()


@dataclass
class Army:
    """One side loaded from an army file, with its ruleset."""

    ruleset: Ruleset
    side: Entity
    root: Entity
    path: str | None = None
    #: The army's names in other languages (``NameBook`` of i18n/names.py, set by the loader).
    names: Any = None
