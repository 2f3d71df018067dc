"""Rendering a battle (or a rating) for people, in their language.

The report is a view of the trace and of the state before and after: the
summary messages in order, then each side's and unit's reported fields as
start → end. ``explain`` adds every event of the trace.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from stratagem.errors import LimitError, Location, StratagemError
from stratagem.i18n.catalog import translator
from stratagem.interp.trace import Event, Label
from stratagem.model.entities import Entity
from stratagem.model.tables import Row

if TYPE_CHECKING:
    from stratagem.api import BattleResult, RatedArmy, RatedScenario
    from stratagem.i18n.catalog import Translator
    from stratagem.i18n.names import NameBook
    from stratagem.model.ruleset import Ruleset


#: The most characters one text, Markdown or HTML report shows, `--explain` included (a
#: shipped battle's shows some 50,000): a value a battle keeps may hold 1,000,000 items, and
#: a trace 500,000 events (docs/security.md, "Limits and caps").
MAX_REPORT_CHARS = 10_000_000
#: The most bytes `--json` writes of a battle or a rating: what `--replay` reads.
MAX_JSON_BYTES = 64 * 1024 * 1024


def _too_large(key: str, message: str, hint: str, most: int, event: Event | None
               ) -> LimitError:
    """The error of a report or trace over its cap, at the step whose line passed it."""
    location = None
    if event is not None and event.at and ":" in event.at:
        file, _, line = event.at.rpartition(":")
        location = Location(file, int(line) if line.isdigit() else None)
    return LimitError(message, hint=hint, location=location, key=key, params={"most": most})


class Budget:
    """What one report may still show: each line it takes is counted, and the line that
    passes :data:`MAX_REPORT_CHARS` is an error at the step it shows (``event``)."""

    def __init__(self, most: int = MAX_REPORT_CHARS) -> None:
        self.most = most
        self.left = most

    def take(self, text: str, event: Event | None = None) -> str:
        self.left -= len(text) + 1
        if self.left < 0:
            raise _too_large("report.too_large", f"the report would show more than "
                             f"{self.most:,} characters, the most one report shows: a value "
                             "in it is very large", "show fewer or smaller values (`report:` "
                             "in the ruleset), or leave out --explain", self.most, event)
        return text


def dumps(value: Any) -> str:
    """``value`` as every JSON document Stratagem writes is written."""
    return json.dumps(value, ensure_ascii=False, indent=1)


def bounded_json(head: dict[str, Any], key: str, items: Iterable[tuple[str, Event | None]],
                 most: int = MAX_JSON_BYTES) -> str:
    """``dumps({**head, key: [...]})``, the list given as the JSON text of each item (and
    the event it shows, if any), put together one item at a time and refused once it passes
    ``most`` bytes: a trace that large is kept by reference, never made whole."""
    text = dumps({**head, key: []})
    size = len(text.encode("utf-8"))
    parts: list[str] = []
    for item, event in items:
        part = "  " + item.replace("\n", "\n  ")  # one level deeper
        size += len(part.encode("utf-8")) + 2
        if size > most:
            raise _too_large("report.json_too_large", f"the JSON would be larger than "
                             f"{most // 2**20} MB, the most --json writes (and --replay "
                             "reads): a value in it is very large", "keep smaller values in "
                             "the battle (the trace holds every value a step shows), or write "
                             "a text report", most // 2**20, event)
        parts.append(part)
    if not parts:
        return text
    before, found, after = text.rpartition(f'"{key}": []')
    assert found, "the list is the head's last key"
    return before + f'"{key}": [\n' + ",\n".join(parts) + "\n ]" + after


def trace_json(head: dict[str, Any], trace: list[Event]) -> str:
    """``head`` and its ``"trace"``, within :data:`MAX_JSON_BYTES`."""
    return bounded_json(head, "trace", ((dumps(e.to_plain()), e) for e in trace))


#: The most items of one value (lists within lists counted in full) a report shows; the
#: others are counted in a note ("… and 99,000 more").
SHOWN_ITEMS = 1_000


def _listed(t: Translator, items: Any, show: Callable[[Any, list[int]], str],
            room: list[int]) -> list[str]:
    """Each item shown by ``show`` while ``room[0]`` (the items of the value still shown)
    lasts, then how many are left out."""
    parts = []
    for i, item in enumerate(items):
        if room[0] <= 0:
            parts.append(t.t("report.more_items", n=len(items) - i))
            break
        room[0] -= 1
        parts.append(show(item, room))
    return parts


def _value(t: Translator, entity: Entity, name: str, value: Any,
           room: list[int] | None = None) -> str:
    room = [SHOWN_ITEMS] if room is None else room
    spec = entity.declaration.fields.get(name)
    if spec is not None and spec.enum_key and isinstance(value, str):
        return t.enum(spec.enum_key[len("enum."):], value)
    if spec is not None and spec.enum_key and isinstance(value, list):
        enum = spec.enum_key[len("enum."):]
        return ", ".join(_listed(t, value, lambda v, _: t.enum(enum, v), room)) or "—"
    if isinstance(value, Entity):
        return t.catalog.name(value.label())
    if isinstance(value, Label):
        return t.catalog.display(value, t.catalog.lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(_listed(t, value, lambda v, r: _value(t, entity, name, v, r),
                                 room)) or "—"
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "✓" if value else "✗"
    return t.number(value) if isinstance(value, (int, float)) or hasattr(
        value, "denominator") else str(value)


#: (entity label, entity kind, value name) -> why it could not be computed
Failures = dict[tuple[str, str, str], StratagemError]


def _read(entity: Entity, name: str, failed: Failures) -> Any:
    try:
        return entity.member(name)
    except StratagemError as err:  # shown as "—", and explained after the report
        failed.setdefault((entity.label(), entity.kind_name, name), err)
        return None


def _not_computed(t: Translator, failed: Failures) -> list[str]:
    """A homebrewer's broken derived value is shown, not hidden behind "—"."""
    if not failed:
        return []
    lines = ["", t.t("report.not_computed")]
    for (label, kind, name), err in failed.items():
        text = f"  {label}: {t.field(kind, name)} — {err.render()}"
        lines.append(text.replace("\n", "\n    "))
    return lines


def _fields_line(t: Translator, before: Entity | None, after: Entity, names: list[str],
                 failed: Failures) -> str:
    parts = []
    for name in names:
        end = _read(after, name, failed)
        start = _read(before, name, failed) if before is not None else None
        if end is None and start is None and (after.label(), after.kind_name, name) not in failed:
            continue  # none, before and after: the value plays no part here
        shown = _value(t, after, name, end)
        if before is not None and start != end:
            shown = t.t("report.start_end", start=_value(t, before, name, start), end=shown)
        parts.append(f"{t.field(after.kind_name, name)}: {shown}")
    return "; ".join(parts)


def _pairs(before: Entity | None, after: Entity) -> list[tuple[Entity | None, Entity, str]]:
    """Walk the end state beside the start state (children matched by position)."""
    out: list[tuple[Entity | None, Entity, str]] = []

    def walk(b: Entity | None, a: Entity, depth: int) -> None:
        out.append((b, a, "  " * depth))
        for coll, items in a.children_of():
            old_items = b.member(coll) if b is not None else []
            for i, child in enumerate(items):
                walk(old_items[i] if i < len(old_items) else None, child, depth + 1)

    walk(before, after, 0)
    return out


def message(t: Translator, event: Event) -> str:
    if event.key:
        return t.t(event.key, **event.params)
    return describe(t, event)


def describe(t: Translator, event: Event) -> str:
    """A plain line for an event that has no message of its own."""
    v = event.values
    if event.step in ("roll", "check"):
        text = v.get("text", "")
        who = v.get("for")
        line = f"{t.catalog.name(str(who))}: {text}" if who else text
        if event.step == "check":
            outcome = "check.critical_" + v["critical"] if v.get("critical") else (
                "check.success" if v.get("success") else "check.failure")
            margin = v.get("margin")
            line += " — " + t.t(outcome, roll=v.get("total"), target=v.get("target"),
                                margin=abs(margin) if margin is not None else margin)
        return line
    if event.step == "contest":
        a, b = v.get("a"), v.get("b")
        head = f"{getattr(a, 'text', '')} | {getattr(b, 'text', '')}"
        if v.get("winner"):
            winner = v.get(f"{v['winner']}_for") or v["winner"]
            plural = v.get(f"{v['winner']}_plural") is True
            return head + " — " + t.t("contest.winner", winner=winner, plural=plural,
                                      difference=v.get("difference"))
        return head + " — " + t.t("contest.tie")
    if event.step == "lookup":
        return t.t("lookup.trace", table=t.table(v.get("table", "")), key=v.get("key"),
                   row=(v.get("row", 0) + 1))
    if event.step == "update":
        entity = v.get("entity")
        parts = []
        for name, (old, new) in v.get("changes", {}).items():
            if type(old) is type(new) and old == new:
                continue
            if isinstance(entity, Entity):
                shown = f"{_value(t, entity, name, old)} → {_value(t, entity, name, new)}"
                parts.append(f"{t.field(entity.kind_name, name)}: {shown}")
            else:
                parts.append(f"{name}: {_plain_value(t, old)} → {_plain_value(t, new)}")
        return f"{_plain_value(t, entity)}: " + "; ".join(parts) if parts else ""
    if event.step == "decide":
        who = v.get("for")
        source = t.t(f"decision.source.{v.get('source')}")  # where the value came from
        why = (": " + t.t(v["reason"], **v.get("reason_params", {}))) if v.get("reason") else ""
        return (f"{t.decision(v.get('decision', ''))}"
                + (f" ({t.catalog.name(str(who))})" if who else "")
                + f" = {_choice(t, v.get('decision', ''), v.get('value'))} [{source}{why}]")
    if event.step == "set":
        return ", ".join(f"{k} = {_plain_value(t, x)}" for k, x in v.items())
    return ", ".join(f"{k} = {_plain_value(t, x)}" for k, x in v.items()) or event.step


def _choice(t: Translator, decision: str, value: Any) -> str:
    """A decision's value: the label of the enum named like the decision when it has one
    (``tactic: overrun`` as ``enum.tactic.overrun``), else the value."""
    if isinstance(value, str) and t.catalog.message(f"enum.{decision}.{value}") is not None:
        return t.enum(decision, value)
    return _plain_value(t, value)


def _plain_value(t: Translator, value: Any, room: list[int] | None = None) -> str:
    """A value in an `--explain` line, written as the report writes it (— for none, ✓/✗ for
    yes/no, a table row as its table, key and row number)."""
    if isinstance(value, (list, tuple)):
        room = [SHOWN_ITEMS] if room is None else room
        return "[" + ", ".join(_listed(t, value, lambda v, r: _plain_value(t, v, r),
                                       room)) + "]"
    if isinstance(value, Entity):
        return t.catalog.name(value.label())
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, Row):
        return t.t("lookup.trace", table=t.table(value.table), key=_plain_value(t, value.key),
                   row=value.index + 1)
    if isinstance(value, str):
        return t.catalog.name(value)
    if isinstance(value, (int, float)) or hasattr(value, "denominator"):
        return t.number(value)
    if isinstance(value, Label):
        return t.catalog.display(value, t.catalog.lang)
    if hasattr(value, "text") and hasattr(value, "margin"):
        return str(value.text)
    return str(value)


def _overlays(t: Translator, rs: Ruleset) -> list[str]:
    """The line naming the settings and house rules in force (none for a plain ruleset)."""
    if not rs.overlays:
        return []
    return [t.t("report.overlays", overlays=", ".join(rs.overlays), n=len(rs.overlays))]


def render_report(result: BattleResult, lang: str = "en", explain: bool = False) -> str:
    rs = result.ruleset
    t = translator(rs, lang, result.names)
    lines = [t.t("report.title", battle=result.name or t.title(rs.id)),
             t.t("report.ruleset", ruleset=t.title(rs.id)), *_overlays(t, rs)]
    if result.scripted is not None:
        lines.append(t.t("report.dice_scripted", n=result.scripted))
    elif result.seed is not None:
        lines.append(t.t("report.seed", seed=result.seed))
    summary = [e for e in result.trace if e.level == "summary"]
    budget = Budget()
    lines.append("")
    lines.append(t.t("report.summary"))
    if summary:
        lines.extend(budget.take(f"  {message(t, e)}", e) for e in summary)
    else:
        lines.append("  " + t.t("report.no_events"))
    lines.append("")
    lines.append(t.t("report.sides"))
    failed: Failures = {}
    for before, after, indent in _pairs(result.start, result.root):
        names = rs.report.get(after.kind_name, [])
        if after.kind_name == "battle" and not names:
            continue
        if not names and after.kind_name != "battle":
            lines.append(f"{indent}{t.catalog.name(after.label())}")
            continue
        line = _fields_line(t, before, after, names, failed)
        head = (t.catalog.name(after.label()) if after.kind_name != "battle"
                else t.t("report.battle"))
        lines.append(budget.take(f"{indent}{head}: {line}" if line else f"{indent}{head}"))
    lines.extend(_not_computed(t, failed))
    if explain:
        lines.append("")
        lines.append(t.t("report.explain_header"))
        lines.extend(_explained(t, result.trace, budget))
    return "\n".join(lines) + "\n"


def render_rating(rated: RatedArmy | RatedScenario, lang: str = "en",
                  explain: bool = False) -> str:
    """The rate procedure's summary messages, then each entity's rated values
    (`report.rate`, else the battle report's fields; every derived value with `explain`);
    for a scenario, each side's in turn."""
    rs = rated.ruleset
    t = translator(rs, lang, rated.names)
    lines = [t.t("report.ruleset", ruleset=t.title(rs.id)), *_overlays(t, rs)]
    budget = Budget()
    for part in getattr(rated, "sides", [rated]):
        lines.extend(_rated_side(t, rs, part, explain, budget))
    return "\n".join(lines) + "\n"


def _rated_side(t: Translator, rs: Ruleset, rated: RatedArmy, explain: bool,
                budget: Budget) -> list[str]:
    lines = []
    summary = [e for e in rated.trace if e.level == "summary"]
    if summary:
        lines.append("")
        lines.extend(budget.take(f"  {message(t, e)}", e) for e in summary)
    lines.append("")
    failed: Failures = {}
    for _, entity, indent in _pairs(None, rated.side):
        kind = entity.kind_name
        names = list(rs.rate_report.get(kind) or rs.report.get(kind, []))
        if explain:  # every other derived value a translator has named for GMs
            names += [d for d in entity.declaration.derived if d not in names
                      and t.catalog.message(f"field.{kind}.{d}") is not None]
        line = _fields_line(t, None, entity, names, failed)
        shown = t.catalog.name(entity.label())
        lines.append(budget.take(f"{indent}{shown}: {line}" if line else f"{indent}{shown}"))
    lines.extend(_not_computed(t, failed))
    if explain and rated.trace:
        lines.append("")
        lines.append(t.t("report.explain_header"))
        lines.extend(_explained(t, rated.trace, budget))
    return lines


def _explained(t: Translator, trace: list[Event], budget: Budget) -> list[str]:
    lines = []
    for event in trace:
        if event.level != "quiet":
            text = message(t, event)
            if text:
                lines.append(budget.take("  " + "  " * event.depth + text, event))
    return lines
