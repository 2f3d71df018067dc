"""Simple sieges — docs/rulesets/war-machine.md, «Readings chosen», "Part 2 — found (Rules Cyclopedia, chapter 9)":

"defender's troops count ×4 for the troop ratio; the defender ignores Retreat and Rout;
defender casualties are halved; a besieger gains +5 BR per week. A defender without clerics
whose food is gone loses 10 % of its troops per week."
"""

from __future__ import annotations

import pytest

from stratagem.api import run_battle

from .conftest import EXAMPLES, events, forces, name


def _siege(weeks: int = 3, garrison: str = "", decisions: str = "") -> str:
    return f"""
kind: scenario
ruleset: war-machine
name: A scripted siege
battle: {{terrain: fortress, siege: true, siege_weeks: {weeks}}}
sides:
  - name: Besiegers
    role: attacker
    forces: [{{name: Host, count: 1000, br: 100}}]
  - name: Garrison
    role: defender
    forces: [{{name: Keep, count: 100, br: 100{garrison}}}]
{decisions}
"""


def _modifiers(result, force):
    return {str(m["reason"]): m["value"] for m in events(result.trace, "battle.modifier")
            if name(m["force"]) == force}


def test_scripted_siege_x4_weekly_bonus_and_halved_casualties(write):
    # Week 3 assault. Troop ratio: 1,000 against 100 x 4 = 400, 2.5:1 -> +30 (not 10:1, +100).
    # The host: 100 + 30 + 3 weeks x 5 = 145. The keep: 100 + 50 in a fortress = 150.
    # d100: 63 and 1 -> 208 against 151, difference 57 (row 51-63: L 50 %, R+3).
    # The keep loses 50 % of 100 = 50, halved to 25, and stays (no retreat).
    result = run_battle(write(_siege(3)), dice=[63, 1], dice_fallback=True)
    ratio = events(result.trace, "battle.troop_ratio")
    assert [(name(r["force"]), r["mine"], r["theirs"], r["value"]) for r in ratio] == [
        ("Host", 1000, 400, 30)]
    assert _modifiers(result, "Host") == {"siege_weeks": 15}
    assert _modifiers(result, "Keep") == {"stronghold": 50}
    fight = events(result.trace, "battle.fight")[0]
    assert (fight["a_total"], fight["b_total"], fight["difference"]) == (208, 151, 57)
    halved = events(result.trace, "battle.siege_halved")
    assert [(h["before"], h["lost"]) for h in halved] == [(50, 25)]
    keep = forces(result)["Keep"]
    assert (keep.count, keep.location, keep.move) == (75, "field", 0)
    # it holds, so its casualties are half dead, half wounded (13 + 12, rounded up)
    assert (keep.dead, keep.wounded) == (13, 12)


@pytest.mark.parametrize("weeks", [1, 2, 4, 6])
def test_besieger_gains_5_a_week(write, weeks):
    result = run_battle(write(_siege(weeks)), dice=[50, 50], dice_fallback=True)
    assert [w["bonus"] for w in events(result.trace, "siege.week")] == [
        5 * w for w in range(1, weeks + 1)]
    assert _modifiers(result, "Host")["siege_weeks"] == 5 * weeks


def test_defender_ignores_retreat_and_rout(write):
    # Host at BR 110: 110 + 30 + 5 + 100 = 245 against the keep's 150 + 1: difference 94
    # (row 91-100: L 30 %, "Бегство"). The keep loses 30, halved to 15, and holds.
    text = _siege(1).replace("{name: Host, count: 1000, br: 100}",
                             "{name: Host, count: 1000, br: 110}")
    result = run_battle(write(text), dice=[100, 1], dice_fallback=True)
    assert events(result.trace, "battle.fight")[0]["difference"] == 94
    keep = forces(result)["Keep"]
    assert (keep.count, keep.location, keep.move) == (85, "field", 0)
    assert events(result.trace, "battle.rout") == []
    # 81-90 (R+2) is ignored the same way
    result = run_battle(write(_siege(1)), dice=[100, 1], dice_fallback=True)
    assert events(result.trace, "battle.fight")[0]["difference"] == 84
    keep = forces(result)["Keep"]
    assert (keep.count, keep.location) == (75, "field")


def test_defender_never_routs_even_at_150_plus(write):
    # Host stated at BR 300: 300 + 30 + 5 + 100 = 435 against 150 + 1: difference 284 ("150+":
    # L 100 %, "-"). Halved: 50 lost, and the keep still holds.
    text = _siege(1).replace("{name: Host, count: 1000, br: 100}",
                             "{name: Host, count: 1000, br: 300}")
    result = run_battle(write(text), dice=[100, 1], dice_fallback=True)
    keep = forces(result)["Keep"]
    assert events(result.trace, "battle.fight")[0]["difference"] == 284
    assert (keep.count, keep.location) == (50, "field")
    assert events(result.trace, "battle.siege_holds")


def test_the_besieger_is_not_halved(write):
    # The keep wins by 57 (host 1 + 145 = 146, keep 53 + 150 = 203): the host loses 50 %.
    result = run_battle(write(_siege(3)), dice=[1, 53], dice_fallback=True)
    host = forces(result)["Host"]
    assert (host.count, host.location) == (500, "retreat")
    assert events(result.trace, "siege.over")[-1]["outcome"] == "lifted"


def test_starvation_without_clerics(write):
    # Food for 1 week: weeks 2 and 3 each cost 10 % (100 -> 90 -> 81) before the assault.
    result = run_battle(write(_siege(3, ", food_weeks: 1")), dice=[50, 50],
                        dice_fallback=True)
    starving = events(result.trace, "siege.starvation")
    assert [(s["lost"], s["remaining"]) for s in starving] == [(10, 90), (9, 81)]


def test_clerics_prevent_starvation(write):
    result = run_battle(write(_siege(3, ", food_weeks: 1, clerics: true")), dice=[50, 50],
                        dice_fallback=True)
    assert events(result.trace, "siege.starvation") == []


def test_assault_decisions(write):
    # The besiegers may assault any week; here in weeks 1 and 3 (+5 and +15). Both assaults
    # win by 5 (row 1-8), so the host stays and the keep holds.
    text = _siege(3, decisions="decisions:\n  assault: {Besiegers: [true, false, true]}")
    result = run_battle(write(text), dice=[60, 40, 50, 40], dice_fallback=True)
    assaults = [a["week"] for a in events(result.trace, "siege.assault")]
    assert assaults == [1, 3]
    bonuses = [m["value"] for m in events(result.trace, "battle.modifier")
               if str(m["reason"]) == "siege_weeks"]
    assert bonuses == [5, 15]


def test_siege_example_runs():
    result = run_battle(EXAMPLES / "siege.yaml")
    assert [w["week"] for w in events(result.trace, "siege.week")] == [1, 2, 3, 4]
    assert [a["week"] for a in events(result.trace, "siege.assault")] == [4]
    assert events(result.trace, "siege.starvation")  # food for 2 weeks of 4
