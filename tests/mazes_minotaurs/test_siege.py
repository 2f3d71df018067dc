"""Sieges (Epic Battles, «Осады»): a round is a day, losses ÷ 5, walls and engines, starvation,
no withdrawal for the defender, and its "flight" is a surrender."""

from __future__ import annotations

from stratagem.api import run_battle

from .conftest import events, losses, name, sides, units

SIEGE = """
kind: scenario
ruleset: mazes-minotaurs
name: A test siege
battle: {mode: siege, max_rounds: ROUNDS}
sides:
  - name: Mycenae
    role: attacker
    leadership: 5
    engines: ENGINES
    units:
      - {name: Spearmen, creature: human, count: 100}
  - name: Tiryns
    role: defender
    leadership: 5
    walls: WALLS
    SUPPLIES
    units:
      - {name: Garrison, creature: human, count: DEFENDERS}
decisions:
  omens: {"*": false}
  oratory: {"*": false}
  risk: {Mycenae: RISK, Tiryns: RISK}
  withdraw: {"*": WITHDRAW}
"""


def _siege(write, *, rounds=3, engines=2, walls=3, supplies="supplies: 0", defenders=50,
           risk=1, withdraw=False):
    text = (SIEGE.replace("ROUNDS", str(rounds)).replace("ENGINES", str(engines))
            .replace("WALLS", str(walls)).replace("SUPPLIES", supplies)
            .replace("DEFENDERS", str(defenders)).replace("RISK", str(risk))
            .replace("WITHDRAW", str(withdraw).lower()))
    return write(text)


def test_days_walls_engines_and_starvation(write):
    # "каждый раунд сражения, представляет один день (вместо одного часа), а все потери
    # делятся на 5"; "Защитники получают премию +2 ... до +3 или даже до +4"; "Нападавшие
    # могут получить подобные премии от +2 до +4, если они используют осадную технику";
    # the besieged without food are "Серьезно утомленной, теряя совокупные 5 % ... в течение
    # каждого дня без продовольствия и воды после первого (5 %, затем 10 %, 15 % и т.д.)".
    # Day 1: 10 + 4 against 12 − 1; day 2: 5 + 4 against 15 − 1; day 3: 20 + 4 against 1 − 1
    # (a 10+ win: enemy losses × 1.5; the defender's general evades on an 18).
    result = run_battle(_siege(write), dice=[10, 12, 5, 15, 20, 1, 18])
    days = [e["round"] for e in events(result.trace, "round.start")]
    assert days == [1, 2, 3]
    assert "Day 1" in result.report(lang="en") and "День 1" in result.report(lang="ru")
    mods = {name(e["side"]): e for e in events(result.trace, "round.modifiers")[:2]}
    assert (mods["Mycenae"]["siege"], mods["Mycenae"]["superiority"]) == (2, 2)
    assert (mods["Tiryns"]["siege"], mods["Tiryns"]["fatigue"]) == (3, -4)
    assert (mods["Mycenae"]["total"], mods["Tiryns"]["total"]) == (2 + 2, 3 - 4)
    side_losses = [(name(e["side"]), e["percent"]) for e in events(result.trace, "losses.side")]
    # intensity 2: loser 20 % / 5 = 4 %, winner 10 % / 5 = 2 %; day 3 loser 30 % / 5 = 6 %
    assert side_losses == [("Tiryns", 4), ("Mycenae", 2), ("Mycenae", 4), ("Tiryns", 2),
                           ("Tiryns", 6), ("Mycenae", 2)]
    starvation = [(e["percent"], e["n"]) for e in events(result.trace, "siege.starvation")]
    garrison_day2 = 50 - losses(50, 4) - losses(50 - losses(50, 4), 2)
    assert starvation[0] == (5, losses(garrison_day2, 5))
    assert starvation[1][0] == 10
    assert len(starvation) == 2  # day 1 is the first day without food: no loss yet


def test_the_defender_cannot_withdraw(write):
    # "защитники в осаде не могут отступить": only the attacker is asked (and its check, 3
    # against morale 5, lets it go).
    result = run_battle(_siege(write, rounds=1, supplies="", withdraw=True), dice=[10, 10, 3])
    asked = [e.values.get("for") for e in result.trace
             if e.step == "decide" and e.values.get("decision") == "withdraw"]
    assert asked == ["Mycenae"]
    assert [name(e["side"]) for e in events(result.trace, "withdraw.attempt")] == ["Mycenae"]


def test_a_broken_defender_surrenders(write):
    # "в случае «бегства», этот результат интерпретируется как сдача города врагу".
    # Every day Mycenae rolls 20 and Tiryns 1: a 10+ win at intensity 6, enemy losses
    # 6 × 15 % / 5 = 18 %. Day 1 the general is taken (Danger Evasion 1); leaderless, Tiryns
    # has morale 1 and, below half its number on day 4, fails its check with a 5.
    result = run_battle(_siege(write, rounds=6, engines=4, walls=2, supplies="",
                               defenders=100, risk=3),
                        dice=[20, 1, 1, 20, 1, 20, 1, 20, 1, 5])
    checks = [(name(e["side"]), e["roll"], e["target"], e["held"])
              for e in events(result.trace, "morale.check")]
    assert checks == [("Tiryns", 5, 1, False)]
    assert [name(e["side"]) for e in events(result.trace, "side.surrenders")] == ["Tiryns"]
    assert not events(result.trace, "side.flees")
    garrison = units(result)["Garrison"]
    assert garrison.status == "surrendered"
    left = 100
    for _ in range(4):
        left -= losses(left, 18)
    assert garrison.count == left  # no 20 % flight losses for a surrender
    assert result.root.winner == "Mycenae"
    assert not sides(result)["Tiryns"].has_general
