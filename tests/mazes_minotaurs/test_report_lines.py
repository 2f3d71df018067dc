"""What `rate` and the battle report tell a GM about fleets and armies (issue 18)."""

from __future__ import annotations

from stratagem.api import run_battle
from stratagem.cli import main


def _fleet(write, load: int = 20, general: str = "") -> str:
    return str(write(f"""kind: army
ruleset: mazes-minotaurs
name: Athens
leadership: 5
{general}
ships:
  - {{name: Eumoiros, ship_type: merchant_ship}}
units:
  - {{name: Hoplites, creature: human, count: {load}, ship: Eumoiros}}
""", "fleet.yaml"))


def test_rate_refuses_an_overloaded_ship_as_the_battle_does(capsys, write):
    # «Боевой Фактор и Сила Флота»: a merchant ship carries 20
    assert main(["rate", _fleet(write, load=30), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "fleet.yaml:7:5:" in err
    assert "Eumoiros carries 30 places' worth of troops; it has room for 20." in err


def test_validate_refuses_an_overloaded_ship_too(capsys, write):
    assert main(["validate", _fleet(write, load=30)]) == 1
    assert "it has room for 20" in capsys.readouterr().out


def test_a_fleet_is_rated_at_sea(capsys, write):
    # Charge does not count at sea («Морские сражения»): humans have BF 5 aboard a ship,
    # as the battle counts them; a merchant ship's ×1 keeps the strength 20 × 5
    assert main(["rate", _fleet(write), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Hoplites: 20 × BF 5 = strength 100." in out


def test_rate_shows_the_regiments_total_beside_the_fleets(capsys):
    from .conftest import EXAMPLES

    assert main(["rate", str(EXAMPLES / "seed-fleet.yaml"), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    # «флот из десяти торговых кораблей и пяти галер ... 3000»; the regiments themselves
    # 10 × 20 × 6 + 5 × 40 × 6 = 2400
    assert ("The fleet of the worked example: 15 regiments, 400 in all, strength 3,000 (the "
            "regiments' own 2,400, multiplied by their ships).") in out


def test_strength_is_shown_in_whole_points(capsys):
    from .conftest import EXAMPLES

    assert main(["battle", str(EXAMPLES / "field-battle-horde.yaml"), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    lines = [x for x in out.splitlines() if ": strength " in x and " against " in x]
    assert lines
    for line in lines:
        strength = line.split(": strength ", 1)[1].split(" against ")
        assert strength[0].replace(",", "").isdigit(), line  # whole points, thousands grouped
        assert strength[1].split(";")[0].replace(",", "").isdigit(), line


def test_an_unnamed_general_is_not_named_after_the_army(write):
    path = write("""kind: scenario
ruleset: mazes-minotaurs
battle: {mode: naval}
sides:
  - name: Athens
    leadership: 5
    ships: [{name: Paralos, ship_type: war_galley}]
    units: [{name: Marines, creature: human, count: 40, ship: Paralos}]
  - name: Atlantis
    general: Euaimon
    leadership: 5
    ships: [{name: Thalassa, ship_type: war_galley}]
    units: [{name: Marines of Thalassa, creature: human, count: 40, ship: Thalassa}]
seed: 1
""")
    from stratagem.report import render_report

    text = render_report(run_battle(path), "en")
    assert "Athens: the general, Leadership 5" in text
    assert "general Athens" not in text
    assert "Atlantis: general Euaimon, Leadership 5" in text
