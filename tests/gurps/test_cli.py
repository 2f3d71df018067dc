"""The command line on the shipped GURPS files: every example battle and army runs in Russian
and English, the translations are complete, and a user's mistakes are clear errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stratagem.cli import main
from stratagem.loader.yamlio import load_yaml

from .conftest import EXAMPLES


def _kind(path: Path) -> str:
    return str(load_yaml(path).get("kind"))


SCENARIOS = sorted(p for p in EXAMPLES.glob("*.yaml") if _kind(p) == "scenario")
ARMIES = sorted(p for p in EXAMPLES.glob("*.yaml") if _kind(p) == "army")
UNTRANSLATED = re.compile(r"\[[a-z_]+\.[a-z_.]+\]")    # a message key shown instead of a text


def test_the_examples_are_there():
    names = {p.stem for p in SCENARIOS}
    assert {"caliburn", "siege-of-redwater", "ww1-somme", "quick-and-dirty",
            "three-armies"} <= names
    assert len(ARMIES) >= 5


@pytest.mark.parametrize("lang, title", [("ru", "GURPS: Массовый бой"),
                                         ("en", "GURPS Mass Combat")])
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_example_battle_runs_in_both_languages(path, lang, title, capsys):
    assert main(["battle", str(path), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert title in out
    assert not UNTRANSLATED.search(out), UNTRANSLATED.search(out)


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("path", ARMIES, ids=lambda p: p.stem)
def test_every_example_army_rates_in_both_languages(path, lang, capsys):
    assert main(["rate", str(path), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert not UNTRANSLATED.search(out), UNTRANSLATED.search(out)


def test_caliburn_in_russian(capsys):
    """The worked example, in the book's own terms."""
    assert main(["battle", str(EXAMPLES / "caliburn.yaml"), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "Caliburn: Боевой навык 10, Риск -2: Выживание 8, Слава 12." in out
    assert "Таблица А (битва «в чистом поле»), разность 3: не выявлено явного победителя." in out
    assert "Caliburn's thugs: Мораль 9, запас 1 — удерживает позицию." in out
    assert "Horse archers: Мораль 11, запас -4 — отступает в хорошем порядке." in out
    assert "строка 3 Таблицы Потерь ((4d)%)" in out and "строка -3 Таблицы Потерь (4d+20%)" in out
    assert "Таблица А (битва «в чистом поле»), разность 9: значительная победа." in out


def test_titus_rates_in_russian(capsys):
    assert main(["rate", str(EXAMPLES / "titus-company.yaml"), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "в среднем 8 — Бывалые" in out
    assert "пропущена оплата № 2" in out


def test_i18n_check_reports_nothing_missing(capsys):
    assert main(["i18n", "check", "--ruleset", "gurps-mass-combat"]) == 0
    out = capsys.readouterr().out
    section = out[out.index("[gurps-mass-combat]"):]
    assert section.count("500 of 500 used keys (100%)") == 2  # en and ru, nothing missing
    assert "unused:" not in section


def test_validate_the_ruleset_and_settings(capsys):
    root = EXAMPLES.parents[1] / "rulesets" / "gurps-mass-combat"
    files = [root / "ruleset.yaml", *sorted((root / "settings").glob("*.yaml")),
             *sorted((root / "locales").glob("*.yaml"))]
    assert main(["validate", *map(str, files)]) == 0


def test_a_misspelt_troop_type_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "army.yaml"
    path.write_text("kind: army\nruleset: gurps-mass-combat/yrth\nname: A\nstrategy: 12\n"
                    "units:\n  - {name: Knights, troop: heavy_cavalary, count: 10}\n",
                    encoding="utf-8")
    assert main(["rate", str(path)]) == 1
    err = capsys.readouterr().err
    assert "army.yaml:6" in err and "heavy_cavalary" in err and "heavy_cavalry" in err
    assert "Traceback" not in err


def test_an_irregular_elf_is_refused_where_the_army_says_so(tmp_path, capsys):
    """GURPS Mass Combat, Yrth: «Из–за их расовых Боевых Рефлексов эльфы не могут быть Иррегулярами»."""
    path = tmp_path / "army.yaml"
    path.write_text("kind: army\nruleset: gurps-mass-combat/yrth\nname: A\nstrategy: 12\n"
                    "units:\n  - {name: Wild elves, troop: irregular_infantry, race: elf,"
                    " count: 10}\n", encoding="utf-8")
    assert main(["rate", str(path), "--lang", "ru"]) == 1
    err = capsys.readouterr().err
    assert "army.yaml:6" in err
    assert "не может быть иррегулярами" in err


def test_validate_the_examples(capsys):
    assert main(["validate", *map(str, SCENARIOS + ARMIES)]) == 0
