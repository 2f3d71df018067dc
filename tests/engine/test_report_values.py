"""How the report and `--explain` write values (issue 18): as a GM reads them, never as
Python writes them."""

from __future__ import annotations

import re
from pathlib import Path

from stratagem.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _out(capsys, *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_explain_writes_none_and_yes_no_as_the_report_does(capsys):
    out = _out(capsys, "battle", str(ROOT / "examples/war-machine/orcs.yaml"), "--lang", "en",
               "--explain")
    assert not re.search(r"\b(None|True|False)\b", out)
    assert "Show mercy (the loser's casualties are halved)? (Orcs) = ✗ [default]" in out
    rate = _out(capsys, "rate", str(ROOT / "examples/war-machine/siege.yaml").replace(
        "siege.yaml", "elves.yaml"), "--lang", "en", "--explain")
    assert "None →" not in rate and "— →" in rate


def test_explain_names_a_table_row_by_its_table(capsys, write):
    army = write("""kind: army
ruleset: gurps-mass-combat/yrth
name: Dwarves
strategy: 12
units:
  - {name: Dwarf axes, troop: heavy_infantry, race: dwarf, count: 50}
""", "army.yaml")
    out = _out(capsys, "rate", str(army), "--lang", "en", "--explain")
    assert "<row" not in out
    assert "r = Troops of the Races of Yrth: [dwarf, heavy_infantry] → " in out


def test_the_battle_line_of_the_sides_section_has_a_heading(capsys):
    for lang, head in (("en", "The battle: "), ("ru", "Битва: ")):
        out = _out(capsys, "battle", str(ROOT / "examples/mazes-minotaurs/sea-battle.yaml"),
                   "--lang", lang)
        assert any(line.startswith(head) for line in out.splitlines())
        assert not any(line.startswith("battle:") for line in out.splitlines())


def test_rounds_are_named_as_the_hours_the_report_counts(capsys):
    out = _out(capsys, "battle", str(ROOT / "examples/mazes-minotaurs/sea-battle.yaml"),
               "--lang", "ru")
    assert "Час 1" in out
    assert "Раунд: " not in out
    assert "Часов боя (в осаде — дней): 0 → " in out


def test_a_house_ruled_battle_names_the_overlays_in_force(capsys):
    tutorial = ROOT / "docs" / "tutorial"
    out = _out(capsys, "battle", str(tutorial / "ford-house.yaml"), "--lang", "en")
    assert "Setting or house rules in force: house-rules.yaml" in out.splitlines()
    plain = _out(capsys, "battle", str(tutorial / "ford.yaml"), "--lang", "en")
    assert "in force" not in plain
    yrth = _out(capsys, "battle", str(ROOT / "examples/gurps/caliburn.yaml"), "--lang", "ru")
    assert "Действуют сеттинг или домашние правила: gurps-mass-combat/yrth" in yrth
