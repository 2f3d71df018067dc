"""What a GM reads in a War Machine report and rating, checked against the book's words
(issue 18: reports a GM can check)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.cli import main

from .conftest import EXAMPLES


def _run(capsys, *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_roles_left_out_are_a_meeting_engagement_not_two_attackers(capsys):
    # orcs.yaml gives no roles: War Machine, "Разделение отрядов" has forces meet, nobody defends
    out = _run(capsys, "battle", str(EXAMPLES / "orcs.yaml"), "--lang", "en")
    assert "Role: attacker" not in out
    assert out.count("Role: neither (a meeting engagement)") == 2


def test_a_force_is_on_the_field_before_it_fights(capsys):
    out = _run(capsys, "battle", str(EXAMPLES / "orcs.yaml"), "--lang", "en")
    assert "holds the field →" not in out
    assert "Position: on the field → retreated" in out


def test_plural_names_take_plural_verbs(capsys):
    out = _run(capsys, "battle", str(EXAMPLES / "orcs.yaml"), "--lang", "en", "--explain")
    for wrong in ("Orcs wins", "Men loses", "Orcs is", "Elves retreats", "Orcs (2) splits"):
        assert wrong not in out
    assert "Orcs: 42 + 102 = 144; Men: 20 + 70 = 90. Orcs win by 54." in out
    assert "Men lose 200 (50%)" in out
    assert "Orcs win the contest by 54" in out
    # a singular name keeps the singular verb
    assert "The orc horde holds the field; the battle is over for the day." in out


def test_the_wounded_line_reads_as_a_sentence(capsys):
    out = _run(capsys, "battle", str(EXAMPLES / "orcs.yaml"), "--lang", "en")
    assert "(3) (5)" not in out
    assert "5 wounded of Orcs (3) return in 4 months." in out
    ru = _run(capsys, "battle", str(EXAMPLES / "orcs.yaml"), "--lang", "ru")
    assert "80 раненых из «Орки» вернутся в строй через 1 месяц." in ru  # the example names it in Russian


def _army(write, force: str) -> Path:
    return write(f"kind: army\nruleset: war-machine\nname: Host\nforces:\n  - {force}\n",
                 "army.yaml")


def test_a_quick_rating_lists_no_bfr_factors(capsys, write):
    # War Machine, "Быстрый боевой рейтинг": leader's level + force level + extras + damage,
    # no leadership, experience, training, equipment or special monsters
    path = _army(write, "{name: Hobgoblins, count: 2000, rating: quick, leader_level: 9, "
                        "troop_level: 1, missile: 400, max_damage: 8}")
    out = _run(capsys, "rate", str(path), "--lang", "en")
    assert "  Hobgoblins: Troops: 2,000; BR: 47" in out.splitlines()
    assert ("quick BR 47: leader's level 9 + force level 20 + archers, spellcasters, magical "
            "and flyers 10 + damage 8.") in out


def test_special_monsters_and_the_quick_extras_have_different_names(capsys, write):
    path = _army(write, "{name: Trolls, count: 100, leader_level: 5, special_troops: 10}")
    out = _run(capsys, "rate", str(path), "--lang", "en", "--explain")
    assert "Special monsters: +20." in out  # "2 очка за каждый 1% таких существ": 10 % → 20
    assert "special troops" not in out.lower()


def test_forced_retreats_not_routs(capsys, write):
    # "вычтите 1 за каждое вынужденное отступление"
    path = _army(write, "{name: Guards, count: 100, leader_level: 5, retreats: 3}")
    out = _run(capsys, "rate", str(path), "--lang", "en", "--explain")
    assert "forced retreats −3" in out
    assert "routs" not in out


@pytest.mark.parametrize(("abilities", "leadership"), [
    ("leader_int: 13, leader_wis: 14, leader_cha: 8", 5 + 1 + 2 - 1),      # scores
    ("leader_int_bonus: 1, leader_wis_bonus: 2, leader_cha_bonus: -1", 5 + 1 + 2 - 1),  # adjustments
    ("leader_int: 13, leader_wis_bonus: 2, leader_cha: 8", 5 + 1 + 2 - 1),  # both kinds
])
def test_leader_abilities_as_scores_or_as_the_books_adjustments(capsys, write, abilities,
                                                                leadership):
    # "Модифицируйте его бонусами/штрафами Интеллекта, Мудрости и Харизмы лидера"
    path = _army(write, f"{{name: Guards, count: 100, leader_level: 5, {abilities}}}")
    out = _run(capsys, "rate", str(path), "--lang", "en")
    assert f"Leadership: {leadership};" in out
