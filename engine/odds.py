"""Odds: the same scenario fought many times with successive seeds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from stratagem.expr import Frame
from stratagem.interp.trace import Label
from stratagem.model.documents import Scenario
from stratagem.model.ruleset import Ruleset
from stratagem.model.values import plain


def outcome_of(ruleset: Ruleset, root: Any) -> str:
    """The outcome of a finished battle: the ruleset's `outcome:` expression, else its
    first reported battle field."""
    expr = ruleset.outcome
    if expr is not None:
        value = ruleset.evaluator.eval(expr, Frame(ruleset.constants, battle=root))
    else:
        names = ruleset.report.get("battle") or []
        value = root.member(names[0]) if names else None
    if hasattr(value, "label") and callable(value.label):
        value = value.label()
    if isinstance(value, Label):
        return value.key
    return "—" if value is None else str(plain(value))


def simulate(scenario: Scenario, n: int, seed: int, decisions: Mapping[str, Any],
             progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    from stratagem.api import run_battle

    rs = scenario.ruleset
    scenario = replace(scenario, dice=None)  # odds roll every die: a scripted battle is one case
    outcomes: Counter[str] = Counter()
    totals: dict[str, dict[str, float]] = {}
    side_kind = next(iter(rs.kinds["battle"].children.values()))
    fields = [f for f in rs.report.get(side_kind, [])]
    for i in range(n):
        result = run_battle(scenario, seed=seed + i, decisions=decisions, tracing=False)
        outcomes[outcome_of(rs, result.root)] += 1
        for side in result.root.walk():
            if side.kind_name != side_kind:
                continue
            bucket = totals.setdefault(side.label(), {})
            for name in fields:
                value = side.member(name)
                if isinstance(value, bool):
                    value = int(value)
                if isinstance(value, (int, float)) or hasattr(value, "denominator"):
                    bucket[name] = bucket.get(name, 0) + float(value)
        if progress is not None and (i + 1) % 100 == 0:
            progress(i + 1)
    return {
        "battles": n,
        "first_seed": seed,
        "outcomes": {k: {"count": v, "percent": round(100 * v / n, 2)}
                     for k, v in sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0]))},
        "averages": {side: {k: round(v / n, 3) for k, v in vals.items()}
                     for side, vals in totals.items()},
    }


def render_odds(ruleset: Ruleset, figures: dict[str, Any], lang: str) -> str:
    from stratagem.report import translator

    t = translator(ruleset, lang)
    lines = [t.t("report.ruleset", ruleset=t.title(ruleset.id)),
             t.t("report.battles", n=figures["battles"]), ""]
    for outcome, data in figures["outcomes"].items():
        if outcome.startswith("enum.") and t.catalog.message(outcome) is not None:
            outcome = t.t(outcome)
        lines.append(t.t("report.odds", outcome=outcome, percent=data["percent"],
                         n=data["count"]))
    side_kind = next(iter(ruleset.kinds["battle"].children.values()))
    if figures["averages"]:
        lines.append("")
        lines.append(t.t("report.averages"))
        for side, vals in figures["averages"].items():
            shown = "; ".join(f"{t.field(side_kind, k)}: {t.number(v)}" for k, v in vals.items())
            lines.append(f"  {side}: {shown}")
    return "\n".join(lines) + "\n"
