"""Views: a battle, a rating, odds or a dice distribution as plain data for the templates.

They read what the text report reads (the trace, the state before and after, the
ruleset's ``report`` lists) and format every value in the report's language; numbers
in tables are grouped by thousands as CLDR says for the language.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from stratagem.i18n.catalog import Translator, engine_catalog, translator
from stratagem.i18n.language import is_number
from stratagem.interp.steps import number_of
from stratagem.interp.trace import Event
from stratagem.model.entities import Entity
from stratagem.render import svg
from stratagem.report import Budget, Failures, _pairs, _read, _value, message

if TYPE_CHECKING:
    from stratagem.api import BattleResult, RatedArmy, RatedScenario
    from stratagem.dice import Distribution
    from stratagem.i18n.names import NameBook
    from stratagem.model.ruleset import Ruleset

View = dict[str, Any]


def document_translator(ruleset: Ruleset, lang: str, names: NameBook | None = None
                        ) -> Translator:
    """The report's translator, with the battle's ``names`` in other languages (numbers are
    grouped by thousands as CLDR says for the language: "," in English, a no-break space in
    Russian)."""
    return translator(ruleset, lang, names)


#: The headings and column titles the templates show (`report.<name>` in the locales).
TEXTS = ("summary", "sides", "explain_header", "charts", "totals", "breakdown", "outcomes",
         "distributions", "not_computed", "before_battle", "after_battle", "share", "interval",
         "battles_col", "mean", "median", "p10", "p90", "min", "max", "outcome_col", "exactly",
         "at_least", "at_most", "chart_start", "side_col", "value_col", "more")


def _head(t: Translator, ruleset: str) -> View:
    """What every view has: the language, the ruleset's title, the headings."""
    return {"lang": t.language, "ruleset": ruleset,
            "text": {k: t.t(f"report.{k}") for k in TEXTS}}


def _meta(t: Translator, ruleset: str, *lines: str | None) -> list[str]:
    """The line under the title: the rules, then the seed or the dice, ..."""
    return [t.t("report.ruleset", ruleset=ruleset), *[line for line in lines if line]]


def _shown(t: Translator, before: Entity | None, after: Entity, name: str,
           failed: Failures, budget: Budget) -> dict[str, Any]:
    end = _read(after, name, failed)
    cell = {"end": _value(t, after, name, end), "start": None, "changed": False,
            "numeric": is_number(end) or end is None}
    if before is not None:
        start = _read(before, name, failed)
        if start != end:
            cell.update(start=_value(t, before, name, start), changed=True)
    cell["text"] = (t.t("report.start_end", start=cell["start"], end=cell["end"])
                    if cell["changed"] else cell["end"])
    budget.take(str(cell["text"]))
    return cell


def _sides(t: Translator, rs: Ruleset, before: Entity | None, after: Entity,
           lists: dict[str, list[str]], failed: Failures, budget: Budget,
           breakdown: bool = False) -> tuple[list[dict[str, Any]], list[View]]:
    """The battle's own values, and per side its values and one table per kind of its
    descendants (units, heroes ...), each row an entity, each column a reported value."""
    battle: list[dict[str, Any]] = []
    sides: list[View] = []
    offset = 0 if after.kind_name == "battle" else 1  # a rating starts at the side
    for old, new, indent in _pairs(before, after):
        depth = len(indent) // 2 + offset
        kind = new.kind_name
        names = lists.get(kind, [])
        cells = [{"label": t.field(kind, n), "name": n, **_shown(t, old, new, n, failed, budget)}
                 for n in names]
        if kind == "battle" and depth == 0:
            battle = cells
            continue
        if depth <= 1 or not sides:
            sides.append({"label": t.catalog.name(new.label()), "kind": kind, "fields": cells, "tables": []})
            continue
        tables = sides[-1]["tables"]
        table = next((tb for tb in tables if tb["kind"] == kind), None)
        if table is None:
            table = {"kind": kind, "title": _kind_title(t, rs, kind),
                     "columns": [t.field(kind, n) for n in names], "names": names, "rows": [],
                     "totals": None}
            tables.append(table)
        row: View = {"label": t.catalog.name(new.label()), "cells": cells, "depth": depth - 2, "breakdown": []}
        if breakdown:
            row["breakdown"] = [
                {"label": t.field(kind, d), **_shown(t, None, new, d, failed, budget)}
                for d in new.declaration.derived
                if d not in names and t.catalog.message(f"field.{kind}.{d}") is not None]
        table["rows"].append(row)
    for side in sides:  # a column of numbers only is aligned right
        for table in side["tables"]:
            table["numeric"] = [all(row["cells"][i]["numeric"] for row in table["rows"])
                                for i in range(len(table["names"]))]
    return battle, sides


def _kind_title(t: Translator, rs: Ruleset, kind: str) -> str:
    """The heading of a table of entities of one kind: the label of the collection that
    holds them (`field.side.units`: "Units")."""
    for parent, declared in rs.kinds.items():
        for collection, child in declared.children.items():
            if child == kind and parent != "battle":
                return t.field(parent, collection)
    return kind


def _explained(t: Translator, trace: list[Event], budget: Budget) -> list[View]:
    """The trace as a tree: each event holds the deeper events that follow it."""
    root: list[View] = []
    stack: list[tuple[int, list[View]]] = [(-1, root)]
    for event in trace:
        if event.level == "quiet":
            continue
        text = message(t, event)
        if not text:
            continue
        while stack[-1][0] >= event.depth:
            stack.pop()
        node: View = {"text": budget.take(text, event), "children": [],
                      "summary": event.level == "summary"}
        stack[-1][1].append(node)
        stack.append((event.depth, node["children"]))
    return root


def _rounds(t: Translator, trace: list[Event], budget: Budget
            ) -> tuple[list[str], list[View], list[str], dict[int, Event]]:
    """The summary messages before the first round, in each round, and after the last;
    and the event that ends each round (with its `report.rounds` values)."""
    before: list[str] = []
    rounds: list[View] = []
    after: list[str] = []
    ends: dict[int, Event] = {}
    current: list[str] = before
    for event in trace:
        if event.step == "repeat" and "round" in event.values:
            rounds.append({"n": event.values["round"], "events": [], "title": None,
                           "heading": event.values.get("heading")})
            current = rounds[-1]["events"]
        elif event.step == "repeat" and "round_end" in event.values:
            ends[int(event.values["round_end"])] = event
            current = after
        elif rounds and current is rounds[-1]["events"] and rounds[-1]["title"] is None \
                and event.key is not None and event.key == rounds[-1]["heading"]:
            rounds[-1]["title"] = budget.take(message(t, event), event)  # "Day 1.", "Hour 2"
        elif event.level == "summary":
            text = message(t, event)
            if text:
                current.append(budget.take(text, event))
    for rnd in rounds:
        rnd["title"] = rnd["title"] or t.t("report.round", n=rnd["n"])
    return before, rounds, after, ends


def _charts(t: Translator, rs: Ruleset, start: Entity, ends: dict[int, Event]) -> list[View]:
    """One chart per `report.rounds` value: a line per entity, from the start of the battle
    to the end of each round."""
    if not ends:
        return []
    numbers = sorted(ends)
    xs = [t.t("report.chart_start")] + [t.number(n) for n in numbers]
    charts = []
    for kind, names in rs.rounds_report.items():
        starts = {e.label(): e for e in start.walk() if e.kind_name == kind}
        labels = list(ends[numbers[-1]].values["values"].get(kind, {}))
        for name in names:
            series = []
            for label in labels:
                first = number_of(starts[label], name) if label in starts else None
                points = [first] + [ends[n].values["values"].get(kind, {}).get(label, {})
                                    .get(name) for n in numbers]
                series.append((t.catalog.name(label), [None if p is None else float(p) for p in points]))
            if all(p is None for _, points in series for p in points):
                continue
            title = t.field(kind, name)
            charts.append({
                "title": title,
                "svg": svg.line_chart(title, xs, series, t.number),
                "legend": [{"label": label, "colour": svg.PALETTE[i % len(svg.PALETTE)]}
                           for i, (label, _) in enumerate(series)],
                "columns": xs,
                "rows": [{"label": label, "cells": ["—" if p is None else t.number(_round(p))
                                                    for p in points]}
                         for label, points in series],
            })
    return charts


def _round(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 2)


def battle_view(result: BattleResult, lang: str, explain: bool) -> View:
    rs = result.ruleset
    t = document_translator(rs, lang, result.names)
    failed: Failures = {}
    budget = Budget()
    battle, sides = _sides(t, rs, result.start, result.root, rs.report, failed, budget)
    before, rounds, after, ends = _rounds(t, result.trace, budget)
    meta = _meta(t, t.title(rs.id), t.t("report.dice_scripted", n=result.scripted)
                 if result.scripted is not None else t.t("report.seed", seed=result.seed)
                 if result.seed is not None else None)
    return {
        **_head(t, t.title(rs.id)),
        "title": t.t("report.title", battle=result.name or t.title(rs.id)),
        "meta": meta,
        "battle": battle, "sides": sides,
        "before": before, "rounds": rounds, "after": after,
        "charts": _charts(t, rs, result.start, ends),
        "explain": _explained(t, result.trace, budget) if explain else [],
        "not_computed": _failures(t, failed),
    }


def _failures(t: Translator, failed: Failures) -> list[str]:
    return [f"{label}: {t.field(kind, name)} — {err.render()}"
            for (label, kind, name), err in failed.items()]


def rating_view(rated: RatedArmy | RatedScenario, lang: str, explain: bool) -> View:
    """A rated army, or every side of a rated scenario (``sides``; the first one's parts are
    also ``side``, ``summary`` and ``explain``, as an army's are)."""
    rs = rated.ruleset
    t = document_translator(rs, lang, rated.names)
    failed: Failures = {}
    lists = {kind: list(rs.rate_report.get(kind) or rs.report.get(kind, []))
             for kind in rs.kinds}
    parts: list[View] = []
    budget = Budget()
    for part in getattr(rated, "sides", [rated]):
        _, sides = _sides(t, rs, None, part.side, lists, failed, budget, breakdown=True)
        side: View = sides[0] if sides else {"label": t.catalog.name(part.side.label()),
                                             "fields": [], "tables": []}
        for table in side["tables"]:  # the side's own value of a column is its total
            by_name = {cell["name"]: cell["text"] for cell in side["fields"]}
            totals = [by_name.get(name) for name in table["names"]]
            table["totals"] = totals if any(v is not None for v in totals) else None
        summary = [budget.take(message(t, e), e) for e in part.trace if e.level == "summary"]
        parts.append({"title": t.catalog.name(part.side.label()), "side": side,
                      "summary": [s for s in summary if s],
                      "explain": _explained(t, part.trace, budget) if explain else []})
    scenario = str(getattr(rated, "name", "") or "")
    return {
        **_head(t, t.title(rs.id)),
        **(parts[0] if parts else {"side": {"fields": [], "tables": []}, "summary": [],
                                   "explain": []}),
        "title": t.catalog.name(scenario) if scenario else (parts[0]["title"] if parts else ""),
        "sides": parts,
        "meta": _meta(t, t.title(rs.id)),
        "not_computed": _failures(t, failed),
    }


def _percent(t: Translator, share: float, digits: int = 1) -> str:
    """A share as a percentage with a fixed number of decimals, in the language's style."""
    return t.catalog.lang.numbers.fixed(100 * share, digits) + "\u00a0%"


def side_kind(rs: Ruleset) -> str:
    """The kind of the battle's sides."""
    return next(iter(rs.kinds["battle"].children.values()))


def odds_view(ruleset: Ruleset, figures: dict[str, Any], lang: str,
              names: NameBook | None = None) -> View:
    t = document_translator(ruleset, lang, names)
    outcomes = []
    for key, data in figures["outcomes"].items():
        label = (t.t(key) if key.startswith("enum.") and t.catalog.message(key)
                 else t.catalog.name(key))
        lo, hi = data["interval"]
        outcomes.append({"label": label, "count": t.number(data["count"]),
                         "share": _percent(t, data["count"] / figures["battles"]),
                         "interval": t.t("report.interval_range", low=_percent(t, lo),
                                         high=_percent(t, hi)),
                         "value": data["count"] / figures["battles"], "low": lo, "high": hi})
    chart = svg.bar_chart(t.t("report.outcomes"),
                          [(o["label"], 100 * o["value"]) for o in outcomes],
                          lambda v: t.number(_round(v)) + " %",
                          errors=[(100 * o["low"], 100 * o["high"]) for o in outcomes])
    groups = []
    values = figures.get("values", {})
    if values.get("battle"):
        groups.append(_summaries(t, "battle", t.t("report.battle_values"), values["battle"]))
    kind = side_kind(ruleset)
    for n, (label, vals) in enumerate(values.get("sides", {}).items()):
        groups.append(_summaries(t, kind, t.catalog.name(label), vals, svg.PALETTE[n % len(svg.PALETTE)]))
    return {**_head(t, t.title(ruleset.id)), "title": t.t("report.odds_title"),
            "meta": _meta(t, t.title(ruleset.id), t.t("report.battles", n=figures["battles"]),
                          t.t("report.first_seed", seed=figures["first_seed"])),
            "outcomes": outcomes, "chart_svg": chart, "groups": groups}


def _summaries(t: Translator, kind: str, title: str, values: dict[str, Any],
               colour: str = svg.PALETTE[0]) -> View:
    rows = []
    for name, stats in values.items():
        label = t.field(kind, name)
        if not stats.get("battles"):
            continue
        ranges = [(t.number(b["from"]) if b["from"] == b["to"]
                   else f"{t.number(b['from'])}–{t.number(b['to'])}", b["count"])
                  for b in stats["histogram"]]
        bars = [(t.number(b["from"]), b["count"]) for b in stats["histogram"]]
        rows.append({"label": label,
                     **{k: t.number(stats[k]) for k in ("mean", "median", "p10", "p90", "min",
                                                        "max")},
                     "histogram": [{"label": b, "count": t.number(c)} for b, c in ranges],
                     "svg": svg.bar_chart(f"{title}: {label}", bars, lambda v: t.number(
                         _round(v)), colour=colour)})
    return {"title": title, "rows": rows}


def _fraction(p: Any) -> str:
    """An exact probability as text; one whose parts run past 30 digits as a decimal (the
    weights of 10,000 dice have thousands of digits)."""
    if not hasattr(p, "numerator"):
        return str(p)
    if max(p.numerator.bit_length(), p.denominator.bit_length()) > 100:
        return f"≈{float(p):.6g}"
    return f"{p.numerator}/{p.denominator}"


def dist_view(text: str, dist: Distribution, lang: str = "en") -> View:
    """The exact odds of a dice expression: each outcome exactly, at least and at most."""
    t = Translator(engine_catalog(lang))
    pct = "%" if dist.is_percent else ""
    rows: list[View] = []
    below: Fraction | int = 0
    total = sum(dist.pmf.values())
    for outcome, p in dist.pmf.items():
        at_most = below + p
        rows.append({"outcome": f"{outcome}{pct}", "fraction": _fraction(p),
                     "exactly": float(p), "at_least": float(total - below),
                     "at_most": float(at_most)})
        below = at_most
    peak = max((r["exactly"] for r in rows), default=1.0) or 1.0
    for row in rows:
        blocks = round(40 * row["exactly"] / peak)
        row["bar"] = "█" * blocks if blocks else ("▏" if row["exactly"] else "")  # thin: > 0
        for k in ("exactly", "at_least", "at_most"):
            row[k + "_text"] = _percent(t, row[k], 2)
    return {**_head(t, ""), "title": text,
            "meta": [t.t("report.dice_sum", n=dist.repetitions)] if dist.repetitions > 1 else [],
            "rows": rows, "min": f"{dist.min}{pct}", "max": f"{dist.max}{pct}",
            "mean": t.catalog.lang.numbers.fixed(float(dist.mean), 4) + pct,
            "chart_svg": svg.bar_chart(text, [(r["outcome"], 100 * r["exactly"]) for r in rows],
                                   lambda v: f"{_round(v)} %")}



def sweep_view(ruleset: Ruleset, result: dict[str, Any], lang: str,
               names: NameBook | None = None) -> View:
    """A sweep (`stratagem sweep`): a row per combination of the values varied, with the
    share of every outcome; and per outcome heat maps, the first field varied down, the
    second across (one map for each combination of any further fields)."""
    t = document_translator(ruleset, lang, names)
    cells = result["cells"]
    totals: dict[str, int] = {}
    for cell in cells:
        for key, data in cell["outcomes"].items():
            totals[key] = totals.get(key, 0) + data["count"]
    keys = sorted(totals, key=lambda k: (-totals[k], k))
    labels = [t.t(k) if k.startswith("enum.") and t.catalog.message(k) else t.catalog.name(k)
              for k in keys]
    fields = [axis["field"] for axis in result["vary"]]

    def share(cell: dict[str, Any], key: str) -> float:
        found = cell["outcomes"].get(key)
        return found["count"] / cell["battles"] if found and cell["battles"] else 0.0

    rows: list[View] = []
    texts: list[list[str]] = []
    for cell in cells:
        values = [_setting(cell["set"][f]) for f in fields]
        battles = t.number(cell["battles"])
        shares = [_percent(t, share(cell, k)) for k in keys]
        rows.append({"values": values, "battles": battles, "partial": "partial" in cell,
                     "shares": shares})
        texts.append([*values, battles, *shares])
    partial = [t.t("sweep.partial", values=", ".join(
                   f"{f}={_setting(c['set'][f])}" for f in fields),
                   seed=c["partial"]["stopped_at_seed"], n=c["battles"],
                   total=c["partial"]["asked"]) for c in cells if "partial" in c]
    maps = []
    for i, (key, label) in enumerate(zip(keys, labels)):
        colour = svg.PALETTE[i % len(svg.PALETTE)]
        for fixed, group in _groups(cells, fields):
            maps.append(_heat_map(t, label, colour, fields, fixed, group,
                                  [share(c, key) for c in group]))
    count = len(cells)
    header = [*fields, t.t("report.battles_col"), *labels]
    widths = [max([len(h)] + [len(line[i]) for line in texts]) for i, h in enumerate(header)]
    return {**_head(t, t.title(ruleset.id)), "title": t.t("report.sweep_title"),
            "header": header, "widths": widths,
            "meta": _meta(t, t.title(ruleset.id),
                          t.t("report.sweep_grid", n=count, fields=", ".join(fields)),
                          t.t("report.sweep_each", n=result["battles"]),
                          t.t("report.first_seed", seed=result["first_seed"])),
            "fields": fields, "outcomes": labels, "rows": rows, "partial": partial,
            "maps": maps, "sweep_text": {k: t.t(f"report.{k}") for k in (
                "sweep_table", "sweep_maps")}}


def _setting(value: Any) -> str:
    """A value varied, as written on the command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_setting(v) for v in value) + "]"
    return "null" if value is None else str(value)


def _groups(cells: list[dict[str, Any]], fields: list[str]
            ) -> list[tuple[list[tuple[str, str]], list[dict[str, Any]]]]:
    """The cells of each heat map: those with the same values of the third field on."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for cell in cells:
        fixed = tuple(_setting(cell["set"][f]) for f in fields[2:])
        groups.setdefault(fixed, []).append(cell)
    return [(list(zip(fields[2:], fixed)), group) for fixed, group in groups.items()]


def _heat_map(t: Translator, label: str, colour: str, fields: list[str],
              fixed: list[tuple[str, str]], group: list[dict[str, Any]],
              shares: list[float]) -> View:
    down = fields[0] if len(fields) > 1 else ""
    across = fields[1] if len(fields) > 1 else fields[0]
    cols: list[str] = []
    lines: dict[str, list[View]] = {}
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    for cell, value in zip(group, shares):
        col = _setting(cell["set"][across])
        row = _setting(cell["set"][down]) if down else ""
        if col not in cols:
            cols.append(col)
        alpha = round(0.08 + 0.92 * value, 3)
        lines.setdefault(row, []).append({
            "text": _percent(t, value), "value": value,
            "style": f"background-color: rgba({red}, {green}, {blue}, {alpha});"
                     + (" color: #fff;" if alpha > 0.55 else "")})
    title = label + (" — " + ", ".join(f"{f}={v}" for f, v in fixed) if fixed else "")
    return {"title": title, "down": down, "across": across, "cols": cols,
            "rows": [{"label": k, "cells": v} for k, v in lines.items()]}
