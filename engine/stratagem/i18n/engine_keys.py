"""The message keys the engine itself uses, and how derived keys are spelled.

:data:`ENGINE_MESSAGES` maps each key the engine (report, trace, prompts,
run-time errors) formats to the parameters it passes. Their texts live in
``engine/stratagem/locales/<lang>.yaml``; ``stratagem i18n check`` checks those files
against this table: a key here that a language lacks is *missing*, a key in
the files that is not here is *unused*, a placeholder naming a parameter the
engine does not pass is reported too. To add an engine message: add it here,
then to every ``engine/stratagem/locales/*.yaml``.

A ruleset's own keys are the ``event:``/``emit``/``message:`` keys it writes
plus the derived keys spelled by the functions below.
"""

from __future__ import annotations

#: key → the parameters the engine passes when it formats that key.
ENGINE_MESSAGES: dict[str, tuple[str, ...]] = {
    # the battle report
    "report.title": ("battle",),
    "report.ruleset": ("ruleset",),
    "report.overlays": ("overlays", "n"),
    "report.winner": ("side",),
    "report.draw": (),
    "report.sides": (),
    "report.battle": (),
    "report.side": ("side",),
    "report.units": (),
    "report.heroes": (),
    "report.losses": (),
    "report.morale": (),
    "report.lost": ("n",),
    "report.start_end": ("start", "end"),
    "report.unchanged": ("value",),
    "report.rounds": ("n",),
    "report.days": ("n",),
    "report.seed": ("seed",),
    "report.dice_scripted": ("n",),
    "report.summary": (),
    "report.explain_header": (),
    "report.no_events": (),
    "report.not_computed": (),
    "report.odds": ("outcome", "percent", "n"),
    "report.battles": ("n",),
    # documents (docs/reports.md)
    "report.group": (),
    "report.charts": (),
    "report.totals": (),
    "report.breakdown": (),
    "report.outcomes": (),
    "report.distributions": (),
    "report.before_battle": (),
    "report.after_battle": (),
    "report.share": (),
    "report.interval": (),
    "report.battles_col": (),
    "report.mean": (),
    "report.median": (),
    "report.p10": (),
    "report.p90": (),
    "report.min": (),
    "report.max": (),
    "report.outcome_col": (),
    "report.exactly": (),
    "report.at_least": (),
    "report.at_most": (),
    "report.chart_start": (),
    "report.side_col": (),
    "report.value_col": (),
    "report.more": (),
    "report.battle_values": (),
    "report.first_seed": ("seed",),
    "report.interval_range": ("low", "high"),
    "report.odds_title": (),
    "report.sweep_title": (),
    "report.sweep_grid": ("n", "fields"),
    "report.sweep_each": ("n",),
    "report.sweep_table": (),
    "report.sweep_maps": (),
    "report.round": ("n",),
    "report.dice_sum": ("n",),
    "progress.unit": (),
    # the trace, as --explain shows it
    "roll.trace": ("expr", "rolls", "total"),
    "roll.trace_for": ("who", "expr", "rolls", "total"),
    "check.success": ("roll", "target", "margin"),
    "check.failure": ("roll", "target", "margin"),
    "check.critical_success": ("roll", "target", "margin"),
    "check.critical_failure": ("roll", "target", "margin"),
    "contest.winner": ("winner", "difference", "plural"),
    "contest.tie": (),
    "lookup.trace": ("table", "key", "row"),
    "update.trace": ("entity", "field", "old", "new"),
    # decisions
    "decision.prompt": ("decision", "subject", "options", "default"),
    "decision.prompt_range": ("decision", "subject", "lo", "hi", "default"),
    "decision.default_used": ("decision", "subject", "value"),
    "decision.invalid_answer": ("value",),
    # why a scenario's answer cannot apply (a fallback's reason)
    "decision.reason.not_option": ("value",),
    "decision.reason.out_of_range": ("value", "lo", "hi"),
    "decision.reason.not_bool": ("value",),
    "decision.reason.none_applies": ("values",),
    "decision.reason.policy_none": (),
    "decision.when_seed": ("seed",),
    "decision.when_scripted": (),
    # odds: fallbacks, and figures of a run that stopped
    "odds.fallbacks": (),
    "odds.fallback": ("decision", "n", "total", "reasons"),
    "sweep.partial": ("values", "seed", "n", "total"),
    "odds.partial": ("n", "total", "seed"),
    # run-time errors (load errors are written in English by the loader)
    "error.table_no_row": ("table", "key"),
    "error.table_no_row.hint": ("table",),
    "error.max_rounds": ("loop", "max"),
    "error.max_rounds.hint": (),
    "error.max_steps": ("max",),
    "error.call_depth": ("max",),
    "error.decision_missing": ("decision", "subject"),
    "error.decision_missing.hint": ("decision", "subject"),
    "error.decision_invalid": ("decision", "subject", "value", "allowed"),
    "error.decision_cannot_apply": ("decision", "when", "reason", "options"),
    "error.decision_cannot_apply.hint": ("example",),
    "error.dice_exhausted": ("n",),
    "error.dice_exhausted.hint": (),
    "error.division_by_zero": ("expr",),
    "error.language_missing": ("lang",),
    # campaigns
    "campaign.title": ("name", "day", "date"),
    "campaign.armies": (),
    "campaign.edited": (),
    "campaign.changes": (),
    "campaign.no_changes": (),
    "campaign.scheduled": (),
    "campaign.none_due": (),
    "campaign.event": ("day", "date", "what"),
    "campaign.dry_run": (),
    "campaign.written": ("n", "files"),
    "campaign.advanced": ("start", "day", "date"),
    "campaign.nothing_due": (),
    "campaign.journal": ("n",),
    "campaign.entry_start": ("n", "day", "scenario", "outcome", "changes", "start"),
    "campaign.entry_edit": ("n", "day", "scenario", "outcome", "changes", "start"),
    "campaign.entry_fight": ("n", "day", "scenario", "outcome", "changes", "start"),
    "campaign.entry_advance": ("n", "day", "scenario", "outcome", "changes", "start"),
    "campaign.recovered_finished": (),
    "campaign.recovered_undone": (),
    "campaign.replay_ok": ("n",),
    "campaign.replay_differs": ("n",),
    # the usual calendar units (a ruleset's other units are shown as "N unit")
    "calendar.hour": ("n",),
    "calendar.day": ("n",),
    "calendar.week": ("n",),
    "calendar.month": ("n",),
    "calendar.year": ("n",),
}

#: Every key the engine formats.
ENGINE_KEYS: frozenset[str] = frozenset(ENGINE_MESSAGES)

#: The key of a ruleset's own title.
RULESET_TITLE = "ruleset.title"


def field_key(kind: str, field: str) -> str:
    """``field.<kind>.<field>``: the label of an entity field (``field.unit.count``)."""
    return f"field.{kind}.{field}"


def enum_key(enum: str, value: object) -> str:
    """``enum.<enum>.<value>``: an enum value (for a table-backed enum, the table's name)."""
    return f"enum.{enum}.{value}"


def table_key(table: str) -> str:
    """``table.<table>``: the title of a table."""
    return f"table.{table}"


def decision_key(decision: str) -> str:
    """``decision.<id>``: what a ``decide`` step asks."""
    return f"decision.{decision}"
