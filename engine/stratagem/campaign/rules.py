"""A ruleset's `campaign:` section: its calendar, what the army files keep, and the
procedures that carry a battle (and the passing of time) over to the armies."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from stratagem.errors import StratagemError, ValidationFailed, Word, a_or_an
from stratagem.model.ruleset import Ruleset
from stratagem.model.values import closest, where


@dataclass(frozen=True)
class CampaignRules:
    calendar: dict[str, int] = field(default_factory=lambda: {"day": 1})
    keep: dict[str, tuple[str, ...]] = field(default_factory=dict)
    after_battle: str | None = None
    pass_time: str | None = None

    def days(self, amount: float, unit: str) -> int:
        """``amount`` units in whole days (rounded up: a month and a half is 45 days)."""
        per = self.calendar.get(unit)
        if per is None:
            raise StratagemError(f"the calendar has no unit '{unit}'",
                                 hint=closest(unit, self.calendar)
                                 or "units: " + ", ".join(self.calendar),
                                 key="campaign.no_unit",
                                 params={"unit": unit, "units": ", ".join(self.calendar)})
        whole = amount * per
        return int(whole) if whole == int(whole) else int(whole) + 1

    def date(self, day: int) -> list[tuple[str, int]]:
        """A day as the calendar's largest units first (day 47: 1 month, 2 weeks, 3 days)."""
        out = []
        for unit, per in sorted(self.calendar.items(), key=lambda kv: -kv[1]):
            if per <= 0:
                continue
            n, day = divmod(day, per)
            if n:
                out.append((unit, n))
        return out


def campaign_rules(rs: Ruleset) -> CampaignRules:
    """The campaign section of a compiled ruleset, checked against its declarations."""
    section = rs.doc.get("campaign")
    if not isinstance(section, Mapping):
        raise StratagemError(f"the ruleset '{rs.ref}' says nothing about campaigns",
                             location=where(rs.doc),
                             hint="add a `campaign:` section (docs/campaign.md)",
                             key="campaign.no_section", params={"ruleset": rs.ref})
    errors: list[StratagemError] = []
    calendar = {str(k): int(v) for k, v in (section.get("calendar") or {}).items()}
    calendar.setdefault("day", 1)
    keep: dict[str, tuple[str, ...]] = {}
    for kind, names in (section.get("keep") or {}).items():
        declared = rs.kinds.get(str(kind))
        if declared is None:
            errors.append(StratagemError(f"`campaign.keep` names unknown entity kind '{kind}'",
                                         location=where(section["keep"], kind),
                                         hint=closest(kind, rs.kinds),
                                         key="campaign.keep_unknown_kind",
                                         params={"kind": kind}))
            continue
        for i, name in enumerate(names or []):
            if name not in declared.fields:
                errors.append(StratagemError(
                    f"`campaign.keep`: {a_or_an(kind)} has no field '{name}'",
                    location=where(names, i), hint=closest(name, declared.fields),
                    key="campaign.keep_no_field",
                    params={"kind": Word(kind), "name": name}))
            elif not declared.fields[name].stated:
                errors.append(StratagemError(
                    f"`campaign.keep`: the {kind}'s field '{name}' is battle state "
                    "(`owner: battle`), so an army file cannot keep it", location=where(names, i),
                    hint=f"make it an input field (remove `owner: battle` from {kind}.{name}), "
                    "or keep another field", key="campaign.keep_battle_state",
                    params={"kind": kind, "field": name}))
        keep[str(kind)] = tuple(str(n) for n in names or [])
    procs: dict[str, str | None] = {}
    for key, params in (("after_battle", 0), ("pass_time", 1)):
        name = section.get(key)
        procs[key] = str(name) if name else None
        if name and name not in rs.procedures:
            errors.append(StratagemError(f"`campaign.{key}` names unknown procedure '{name}'",
                                         location=where(section, key),
                                         hint=closest(name, rs.procedures),
                                         key="campaign.unknown_procedure",
                                         params={"section": key, "name": name}))
        elif name and len(rs.procedures[name].params) != params:
            errors.append(StratagemError(
                f"the procedure '{name}' of `campaign.{key}` must take "
                f"{'no parameters' if params == 0 else 'one parameter (the days)'}",
                location=where(section, key), key="campaign.procedure_params",
                params={"name": name, "section": key,
                        "takes": "nothing" if params == 0 else "days"}))
    if errors:
        raise ValidationFailed(errors)
    return CampaignRules(calendar, keep, procs["after_battle"], procs["pass_time"])
