"""Hordes and animates (Epic Battles, «Мораль и Командование», «Фаза морали»)."""

from __future__ import annotations

from stratagem.api import load_army, rate_army, run_battle

from .conftest import army, by_name, duel, events, losses, name, units

HORDE = "    horde: true"


def test_a_horde_fights_whole_rolls_its_risk_and_breaks_at_a_fifth(write):
    # «Орда»: no general, no morale; «Фаза стратегии»: hordes "всегда бросают в битву все свои
    # силы"; «Тактический Риск»: 1D3 a round; «Фаза морали»: "автоматически побегут, если в
    # живых осталось не более 20% (одна пятая) от их начального числа".
    # The horde rolls risk 3; Red (risk 3) rolls 20 (+3) against 1: a 10+ win, 6 × 15 % = 90 %.
    text = duel(
        "      - {name: Phalanx, creature: human, count: 200}",
        "      - {name: Goats, creature: tragos, count: 60}\n"
        "      - {name: Horns, creature: tragos, count: 40}",
        b_extra=HORDE,
        decisions="  risk: {Red: 3}\n  engage: {Goats: false, Horns: false}")
    result = run_battle(write(text), dice=[3, 20, 1])
    assert [e["risk"] for e in events(result.trace, "tactics.risk")] == [3, 3]
    assert not events(result.trace, "strategy.reserve")  # the horde ignores the decisions
    assert not events(result.trace, "general.captured")  # no general to lose
    assert not events(result.trace, "morale.check")      # no morale to test
    breaks = events(result.trace, "morale.horde_breaks")
    left = (60 - losses(60, 90)) + (40 - losses(40, 90))
    assert [(e["n"], e["start"]) for e in breaks] == [(left, 100)]
    found = units(result)
    assert found["Goats"].status == found["Horns"].status == "fled"
    assert found["Goats"].count == 6 - losses(6, 20)
    assert result.root.winner == "Red"


def test_a_horde_above_a_fifth_fights_on(write):
    # 40 of 100 left: more than half is lost, but a horde makes no morale check.
    text = duel("      - {name: Phalanx, creature: human, count: 200}",
                "      - {name: Goats, creature: tragos, count: 100}",
                b_extra=HORDE, decisions="  risk: {Red: 3}")
    # horde risk 3; Red 12 (+3) against 1 wins by 14 and chooses to lose nothing: the horde
    # loses the plain 6 × 10 %.
    result = run_battle(write(text), dice=[3, 12, 1],
                        decisions={"crushing_victory": {"Red": "no_own_losses"}})
    goats = units(result)["Goats"]
    assert goats.count == 100 - losses(100, 60) == 40
    assert goats.status == "field"
    assert not events(result.trace, "morale.horde_breaks")
    assert not events(result.trace, "morale.check")


def test_animates_have_no_morale_and_never_tire(write):
    # «Мораль и Командование»: "Оживляемые (и другие не мыслящие существа) вообще не имеют
    # никакой морали и всегда сражаются до «смерти»"; «Усталость»: "все Оживляемые — полностью
    # иммунны к эффектам усталости". Skeletons (BF 2, stated) fight four hours: by hour 4
    # they have fought 3 > 2 rounds, and lost more than half, yet no fatigue, no morale check.
    text = duel("      - {name: Phalanx, creature: human, count: 200}",
                "      - {name: Skeletons, bf: 2, animate: true, count: 100}",
                battle="{mode: land, max_rounds: 4}",
                b_extra="    general: Necromancer\n    leadership: 3",
                decisions="  risk: {\"*\": 1}\n  withdraw: {Blue: true}")
    result = run_battle(write(text), dice=[15, 16] * 4)
    blue = [e for e in events(result.trace, "round.modifiers") if name(e["side"]) == "Blue"]
    assert len(blue) == 4 and all(e["fatigue"] == 0 and e["morale"] == 0 for e in blue)
    skeletons = units(result)["Skeletons"]
    assert skeletons.rounds_fought == 4 and skeletons.fatigue_level == 0
    assert skeletons.count * 2 < 100
    assert not [e for e in events(result.trace, "morale.check") if name(e["side"]) == "Blue"]
    asked = [e.values.get("for") for e in result.trace
             if e.step == "decide" and e.values.get("decision") == "withdraw"]
    assert "Blue" not in asked  # they fight to destruction
    assert events(result.trace, "side.fearless")
    assert skeletons.status == "field"


def test_mindless_creatures_have_no_morale_either(write):
    # «Мораль и Командование»: "(и другие не мыслящие существа)"; «Боевой Фактор»: Не мыслящий
    # (+1).
    side = rate_army(load_army(write(army(
        "  - {name: Husks, bf: 3, abilities: [mindless], count: 10}"), "army.yaml"))).side
    husks = by_name(side.units)["Husks"]
    assert husks.fearless and side.fearless and side.morale is None
