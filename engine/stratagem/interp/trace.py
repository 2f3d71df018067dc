"""The trace: every step appends a structured event.

The report, the explanation, the JSON output and the replay log are all
views of the trace. Events hold plain values only (entities by name, labels
as keys), so the same battle always serialises to the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stratagem.model.entities import Entity
from stratagem.model.values import Label, plain


@dataclass
class Event:
    """One thing that happened in a battle."""

    index: int
    step: str
    procedure: str
    at: str | None
    values: dict[str, Any] = field(default_factory=dict)
    key: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    level: str = "detail"
    depth: int = 0

    def to_plain(self) -> dict[str, Any]:
        out: dict[str, Any] = {"i": self.index, "step": self.step, "procedure": self.procedure}
        if self.at:
            out["at"] = self.at
        if self.values:
            out["values"] = {k: plainify(v) for k, v in self.values.items()}
        if self.key:
            out["message"] = {"key": self.key,
                              "params": {k: plainify(v) for k, v in self.params.items()}}
        out["level"] = self.level
        return out


def plainify(value: Any) -> Any:
    """Entities become their names; everything else its plain JSON form."""
    if isinstance(value, Entity):
        return value.label()
    if isinstance(value, (list, tuple)):
        return [plainify(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plainify(v) for k, v in value.items()}
    value = plain(value)
    if value is None or isinstance(value, (bool, int, float, str, list, dict)):
        return value
    text = getattr(value, "text", None)  # an expression or dice cell of a table
    return text if isinstance(text, str) else str(value)

__all__ = ["Event", "Label", "plainify"]
