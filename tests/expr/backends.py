"""Running one expression through one evaluator, for the differential test.

Plain Python (no pytest): tests/expr/test_backends_differential.py imports it, and so does
the process it starts with a compiled build's Python (STRATAGEM_COMPILED_PYTHON).
"""

from __future__ import annotations

import json
import os
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

#: tests/loader/fixtures/scenario.yaml: the red company (Pikes, 120 veteran infantry;
#: Riders, 30 cavalry) against the blue company (80 archers), in the hills, for 2 days.
SCENARIO = Path(__file__).parents[1] / "loader" / "fixtures" / "scenario.yaml"
WHERE = ("house-rules.yaml", 12, 7)


def load(mode: str) -> Any:
    """The fixture scenario, loaded with a ruleset whose evaluator is ``mode``."""
    import stratagem.compile.pipeline
    from stratagem.api import load_scenario

    saved = os.environ.get("STRATAGEM_EVALUATOR")
    os.environ["STRATAGEM_EVALUATOR"] = mode
    cache = dict(stratagem.compile.pipeline._CACHE)
    stratagem.compile.pipeline._CACHE.clear()
    try:
        scenario = load_scenario(SCENARIO)
    finally:
        stratagem.compile.pipeline._CACHE.clear()
        stratagem.compile.pipeline._CACHE.update(cache)
        if saved is None:
            del os.environ["STRATAGEM_EVALUATOR"]
        else:
            os.environ["STRATAGEM_EVALUATOR"] = saved
    assert scenario.ruleset.evaluator.mode == mode
    return scenario


def scope(scenario: Any, root: Any) -> dict[str, Any]:
    """The names every case may read, in the battle ``root`` (expressions change nothing:
    one battle serves every case)."""
    side = root.sides[0]
    return {
        "n": 7, "k": 2, "z": 0, "neg": -3, "f": 2.5, "fr": Fraction(1, 3), "big": 10**30,
        "s": "battle", "e": "", "xs": [3, 1, 2], "ys": (10, 20), "no": [], "m": [[1, 2], [3, 4]],
        "d": {"a": 1, "b": 2}, "ps": [("a", 1), ("b", 2)], "t": True, "nothing": None,
        "battle": root, "side": side, "foe": root.sides[1], "unit": side.units[0],
        "units": list(side.units), "row": scenario.ruleset.lookup("troop_types", "cavalry"),
    }


def plain(value: Any) -> Any:
    """A value with the type of everything in it (3, 3.0, True and Fraction(3) differ),
    entities and rows by what they are (each evaluator has a battle of its own)."""
    kind = type(value).__name__
    if kind == "Entity":
        return ("entity", value.kind, value.member("name"))
    if kind == "Row":
        return ("row", value.table, value.key)
    if kind == "Label":
        return ("label", value.key, value.fallback)
    if isinstance(value, (list, tuple)):
        return (kind, [plain(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(plain(k), plain(v)) for k, v in value.items()])
    if isinstance(value, Fraction):
        return ("Fraction", str(value))
    if isinstance(value, (bool, int, float, str, type(None))):
        return (kind, value)
    return ("other", kind)


def outcome(scenario: Any, text: str) -> tuple[Any, ...]:
    """What evaluating ``text`` in a fresh scope of the scenario's battle gives:
    ("value", ...) or ("error", class, message, hint, location, context), or ("crash", ...)
    for anything but a Stratagem error."""
    from stratagem.errors import Location, StratagemError
    from stratagem.expr import compile_expr

    try:
        value = scenario.ruleset.evaluator.eval(compile_expr(text, Location(*WHERE)),
                                                scope(scenario, _battle(scenario)))
    except StratagemError as err:
        return ("error", type(err).__name__, err.message, err.hint, str(err.location),
                err.context)
    except Exception as err:  # noqa: BLE001 - what the test must never see
        return ("crash", type(err).__name__, str(err))
    return ("value", plain(value))


_BATTLES: dict[int, Any] = {}


def _battle(scenario: Any) -> Any:
    key = id(scenario)
    if key not in _BATTLES:
        _BATTLES[key] = (scenario, scenario.instantiate())
    return _BATTLES[key][1]


def _json(item: Any) -> Any:
    return [_json(v) for v in item] if isinstance(item, (list, tuple)) else item


if __name__ == "__main__":
    # texts on stdin (a JSON list), outcomes of the compiled evaluator on stdout
    texts = json.load(sys.stdin)
    compiled = load("compiled")
    json.dump([_json(outcome(compiled, text)) for text in texts], sys.stdout)
