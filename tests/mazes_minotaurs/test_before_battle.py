"""Morale, omens, oratory, Tactics and leaderless troops (Epic Battles, «Мораль и Командование»,
«Перед битвой», «Фаза решения», «Потеря генерала», «Фаза морали»)."""

from __future__ import annotations

import pytest

from stratagem.api import run_battle

from .conftest import events, name

ONE_HOUR = """
kind: scenario
ruleset: mazes-minotaurs
name: Before the battle
battle: {mode: land, max_rounds: ROUNDS}
sides:
  - name: Red
    general: Hektor
    RED
    units:
      - {name: Guard, creature: human, count: 100}
  - name: Blue
    leadership: 5
    units:
      - {name: Raiders, creature: human, count: 100}
decisions:
DECISIONS
"""
QUIET_BLUE = '  omens: {Blue: false}\n  oratory: {Blue: false}\n  risk: {"*": 0}\n'


def _battle(write, red: str, decisions: str = QUIET_BLUE, rounds: int = 1) -> str:
    return write(ONE_HOUR.replace("RED", red).replace("DECISIONS", decisions)
                 .replace("ROUNDS", str(rounds)))


@pytest.mark.parametrize("total, result, effect", [
    (1, "very_bad", -2), (2, "very_bad", -2), (3, "bad", -1), (5, "bad", -1),
    (6, "unclear", 0), (8, "unclear", 0), (9, "good", 1), (11, "good", 1),
    (12, "very_good", 2), (15, "very_good", 2)])
def test_omens_table(rs, total, result, effect):
    # «Предзнаменования»: "2 или меньше = Очень плохие предзнаменования (-2 Морали) 3-5 =
    # плохие (-1 Мораль) 6-8 = нет ответа ... 9-11 = хорошие (+1 Мораль) 12 или больше =
    # Очень хорошие (+2 к Морали)".
    row = rs.lookup("omens", total)
    assert (row.result, row.morale) == (result, effect)


def test_morale_is_the_generals_leadership_and_omens_add_luck_and_priest_level(write):
    # «Мораль и Командование»: "Мораль армии обычно равна Лидерству ... генерала";
    # «Предзнаменования»: "Бросьте 2D6, добавьте модификатор Удачи генерала ... (если
    # священник, то добавьте к результату и его уровень)". 2d6 = 5, Luck +1, priest 3: 9, good.
    path = _battle(write, "leadership: 4\n    luck: 1\n    priest_level: 3",
                   QUIET_BLUE.replace("{Blue: false}\n  risk", "{\"*\": false}\n  risk"))
    result = run_battle(path, dice=[5, 10, 9])
    omen = events(result.trace, "omens.result")[0]
    assert (omen["total"], omen["effect"], omen["morale"]) == (9, 1, 5)
    assert next(s for s in result.root.sides if s.name == "Red").morale == 5


def test_bad_omens_never_bring_morale_below_one(write):
    # «Предзнаменования»: "Мораль не может быть уменьшена плохими предзнаменованиями, на
    # величину ниже 1". Leadership 1, 2d6 = 2: very bad omens (−2), morale stays 1; a
    # friendly speech (2d10 = 18) then adds +2 to that 1.
    result = run_battle(_battle(write, "leadership: 1"), dice=[2, 18, 10, 9])
    omen = events(result.trace, "omens.result")[0]
    assert (omen["effect"], omen["morale"]) == (-2, 1)
    speech = events(result.trace, "oratory.result")[0]
    assert (speech["effect"], speech["morale"]) == (2, 3)


@pytest.mark.parametrize("roll, charisma, effect", [(13, 0, 0), (14, 0, 1), (15, 2, 1),
                                                     (17, 1, 2), (20, 0, 2)])
def test_oratory_is_a_reaction_roll(write, roll, charisma, effect):
    # «Красноречие»: "речь рассчитывается как бросок на Реакцию, используя обычный 2D10 с
    # добавлением Личного Обаяния говорящего"; "Симпатия (+1) или Дружественная (+2 к
    # Морали)"; "харизматический лидер вполне способен компенсировать своей речью эффекты
    # плохих ... предзнаменований". Bad omens (2d6 = 4) first, then the speech.
    path = _battle(write, f"leadership: 5\n    charisma: {charisma}")
    result = run_battle(path, dice=[4, roll, 10, 9])
    speech = events(result.trace, "oratory.result")[0]
    assert (speech["total"], speech["effect"]) == (roll + charisma, effect)
    assert speech["morale"] == 5 - 1 + effect


def test_no_speech_is_needed_after_good_omens(write):
    # «Красноречие»: "Если предзнаменования итак достаточно хорошие, делать это не
    # обязательно" — by default the general speaks only when the omens were not good.
    result = run_battle(_battle(write, "leadership: 5"), dice=[10, 10, 9])
    assert events(result.trace, "omens.result")[0]["effect"] == 1
    assert not events(result.trace, "oratory.result")


def test_a_general_with_tactics_rolls_twice_and_keeps_the_better(write):
    # «Фаза решения»: "Если генерал армии имеет вторичный навык Тактика, бросьте D20 два раза
    # и используйте лучший из бросков." Red rolls 3 and 17, Blue 9.
    path = _battle(write, "leadership: 5\n    tactics: true",
                   '  omens: {"*": false}\n  oratory: {"*": false}\n  risk: {"*": 0}\n')
    result = run_battle(path, dice=[3, 17, 9])
    rolls = {name(e["side"]): (e["die"], e["total"]) for e in events(result.trace,
                                                                      "resolution.roll")}
    assert rolls == {"Red": (17, 17), "Blue": (9, 9)}


def test_leaderless_troops_fight_at_maximum_risk_with_morale_one(write):
    # «Тактический Риск»: "Войска, оставшиеся без командования ... автоматически начинают
    # сражаться с максимальным риском"; «Фаза морали»: "Войска, потерявшие генерала, имеют
    # Мораль 1". Hour 1: Blue (risk 1) wins 20 to 1; Hektor fails Danger Evasion (4) and
    # nobody takes command. Hour 2: Red's risk is 3 whatever its decision; below half its
    # number it tests morale against 1.
    path = _battle(write, "leadership: 6",
                   '  omens: {"*": false}\n  oratory: {"*": false}\n  risk: {Red: 0, Blue: 3}\n'
                   "  crushing_victory: {Blue: more_enemy_losses}\n", rounds=2)
    result = run_battle(path, dice=[1, 20, 4, 10, 12, 10])
    risks = [(name(e["side"]), e["risk"]) for e in events(result.trace, "tactics.risk")]
    assert risks == [("Red", 0), ("Blue", 3), ("Red", 3), ("Blue", 3)]
    assert events(result.trace, "general.leaderless")
    checks = [(e["roll"], e["target"], e["held"]) for e in events(result.trace, "morale.check")]
    assert checks == [(10, 1, False)]
