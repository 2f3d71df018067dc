"""Unit and side lines a GM can check by hand (issue 18): the quality multiplier, irregulars,
what a unit counts (men, engines, vehicles), the artillery limit said aloud, the side's TS on the
field, and casualties as the kind of unit suffers them."""

from __future__ import annotations

from stratagem.cli import main

from .conftest import EXAMPLES


def _run(capsys, *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def _army(write, units: list[str], ruleset: str = "gurps-mass-combat/ww1") -> str:
    body = "".join(f"  - {u}\n" for u in units)
    return str(write(f"kind: army\nruleset: {ruleset}\nname: Brigade\nstrategy: 12\n"
                     f"units:\n{body}", "army.yaml"))


def test_the_unit_line_shows_the_quality_multiplier(capsys):
    # «Таблица Качества Войска»: Seasoned ×1.2, Green ×0.8; 800 × 9 × 1.2 = 8640
    out = _run(capsys, "rate", str(EXAMPLES / "ww1-british.yaml"), "--lang", "en")
    assert ("Highland Light Infantry (Light Infantry, Seasoned): 800 men × TS 9 × 1.2 (Seasoned)"
            " → TS 8,640;") in out
    assert "1,000 men × TS 9 × 0.8 (Green) → TS 7,200;" in out
    # Average is ×1: nothing to show
    assert "900 men × TS 9 → TS 8,100;" in out


def test_guns_and_vehicles_are_not_men(capsys):
    out = _run(capsys, "rate", str(EXAMPLES / "ww1-british.yaml"), "--lang", "en")
    assert "40 engines × TS 100 → TS 4,000" in out
    assert "12 vehicles × TS 15 × 0.8 (Green) → TS 144" in out
    assert "40 men" not in out and "12 men" not in out
    ru = _run(capsys, "rate", str(EXAMPLES / "ww1-british.yaml"), "--lang", "ru")
    assert "40 машин × TS 100" in ru


def test_an_irregular_unit_says_so(capsys, write):
    # «Иррегуляры‑1/3 TS (округляя вниз)»: Yrth's irregular infantry, TS 2 a man
    path = _army(write, ["{name: Levy, troop: irregular_infantry, count: 30}"],
                 "gurps-mass-combat/yrth")
    out = _run(capsys, "rate", path, "--lang", "en")
    assert "Levy (Irregular Infantry, irregular, Average): 30 men × TS 2 → TS 60;" in out


def test_the_artillery_limit_is_said_with_what_it_cuts(capsys, write):
    # «Артиллерия не может представлять более чем 10 % от TS полевой армии»: 900 TS of rifles
    # allow 100 TS of guns; of the 200, 100 do not count
    path = _army(write, ["{name: Rifles, troop: light_infantry, count: 100}",
                         "{name: Guns, troop: modern_artillery, count: 2}"])
    out = _run(capsys, "rate", path, "--lang", "en")
    assert ("Brigade: artillery may make up at most 10% of the army's TS; the 100 TS beyond that"
            " does not count (TS 1,100 → 1,000).") in out
    assert "Brigade: TS 1,000," in out


def test_no_limit_line_when_nothing_is_cut(capsys, write):
    path = _army(write, ["{name: Rifles, troop: light_infantry, count: 1000}",
                         "{name: Guns, troop: modern_artillery, count: 2}"])
    assert "may make up at most" not in _run(capsys, "rate", path, "--lang", "en")


def test_engines_are_lost_whole_and_the_side_ts_counts_the_field(capsys):
    out = _run(capsys, "battle", str(EXAMPLES / "ww1-somme.yaml"), "--lang", "en")
    out = out[out.index("\nSides\n"):]
    guns = next(x for x in out.splitlines() if x.strip().startswith("Royal Artillery:"))
    assert "Engines lost: 0 →" in guns
    assert "Dead" not in guns and "Wounded" not in guns
    rifles = next(x for x in out.splitlines() if x.strip().startswith("Royal Fusiliers:"))
    assert "Dead: 0 →" in rifles and "Engines lost" not in rifles
    assert "British brigade: TS on the field: 28,760 →" in out
