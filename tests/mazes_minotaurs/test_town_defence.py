"""The book's worked example of battle modifiers: a town defended against tragos raiders
(Epic Battles, «Вычисление Модификаторов сражения»)."""

from __future__ import annotations

import pytest

from stratagem.api import run_battle

from .conftest import EXAMPLES, events, name

TOWN = EXAMPLES / "town-defence.yaml"


@pytest.mark.parametrize("seed", [3, 7, 21])
def test_first_hour_modifiers(seed):
    # "Солдаты (БФ 6) имеют общее количество Силы равное 300, в то время как 200 трагосов
    # (БФ 4) располагают Силой в количестве 800 ... премию Превосходства +2"; "солдаты
    # защищают свою землю и это дает им премию Морали +1"; "люди сражаются под защитой
    # стен, что дает им премию +2"; "это дает людям Модификатор Сражения +3 ..., в то время
    # как трагосы получают Модификатор Сражения +2". The seeds only change later hours.
    result = run_battle(TOWN, seed=seed)
    first = {name(e["side"]): e for e in events(result.trace, "round.modifiers")[:2]}
    town, horde = first["Kalydon"], first["Tragos raiders"]
    assert (town["strength"], horde["strength"]) == (300, 800)
    assert (horde["superiority"], town["superiority"]) == (2, 0)
    assert (town["morale"], town["position"], town["fatigue"]) == (1, 2, 0)
    assert town["total"] == 3
    # the horde takes no morale modifiers and ignores the defenders' high Leadership
    assert horde["morale"] == 0
    assert horde["total"] == 2


def test_the_horde_has_no_general_and_rolls_its_risk():
    # Epic Battles, «Орда»: hordes need no general and have no morale; «Тактический Риск»:
    # "Для Орд, Тактический Риск определяется случайным образом с помощью броска 1D3".
    result = run_battle(TOWN, seed=3)
    horde = next(s for s in result.root.sides if s.name == "Tragos raiders")
    assert horde.horde and not horde.has_general and horde.morale is None
    risks = [e["risk"] for e in events(result.trace, "tactics.risk")
             if name(e["side"]) == "Tragos raiders"]
    assert risks and all(1 <= r <= 3 for r in risks)
    assert not events(result.trace, "general.captured") or all(
        name(e["side"]) == "Kalydon" for e in events(result.trace, "general.captured"))
