"""A German report written as a German reader expects: the engine's texts and the War
Machine's, the names of the example battle, numbers the German way, and no English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stratagem.api import load_scenario, run_battle
from stratagem.i18n import catalog as catalogs

ORCS = Path(__file__).parent.parent.parent / "examples" / "war-machine" / "orcs.yaml"

#: The product's name stays as it is in every language.
_BRAND = {"War", "Machine"}


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\W\d_]{3,}", text))


@pytest.fixture
def no_english_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """German with nothing behind it: a text German lacks shows as [key], not in English."""
    build = catalogs.build_catalog

    def german_only(language: str, files: object) -> catalogs.Catalog:
        found = build(language, files)  # type: ignore[arg-type]
        if language == "de":
            found.fallback = None
        return found

    monkeypatch.setattr(catalogs, "build_catalog", german_only)


def test_a_german_report_with_explain_has_no_english(no_english_behind: None) -> None:
    result = run_battle(load_scenario(ORCS), lang="de")
    german = result.report(lang="de", explain=True)
    english = result.report(lang="en", explain=True)
    assert "[" not in re.sub(r"\[[\d, ]*\]", "", german.replace("[aus dem Szenario]", "")
                             .replace("[Vorgabe]", ""))  # dice faces are [4], keys [a.b]
    assert _words(german) & _words(english) <= _BRAND
    lines = german.splitlines()
    assert lines[0] == "Schlachtbericht: Die Orks gegen drei Streitmächte"
    assert "  Orks: 160 Verluste (20 %): 80 Tote, 80 Verwundete; 640 verbleiben." in lines
    assert "  Die Orkhorde: Rolle: keiner (ein Begegnungsgefecht); Truppen: 1.000 → 820; Tote: 0 → 90" in lines
    assert any("Erschöpfung: nicht erschöpft → leicht erschöpft" in line for line in lines)
    assert any(line.endswith("= ✗ [Vorgabe]") for line in lines)  # not "= False [default]"


def test_the_same_battle_in_russian_names_the_armies_in_russian() -> None:
    result = run_battle(load_scenario(ORCS), lang="ru")
    russian = result.report(lang="ru")
    assert russian.splitlines()[0] == "Отчёт о битве: Орки против трёх армий"
    assert "Орки (2)" in russian and "Orcs" not in russian
    assert "1\u00a0000 → 820" in russian  # CLDR's Russian grouping: a no-break space


def test_odds_with_a_fallback_in_german_have_no_english(no_english_behind: None) -> None:
    """The lines a plan's fallback adds to the odds (issue 22) are German too."""
    from stratagem.odds import render_odds, simulate

    scenario = load_scenario(ORCS)
    plan = {"split_size": {"Orcs": {"prefer": [100000], "else": 100}}}
    figures = simulate(scenario, 3, 7, plan)
    german = render_odds(scenario.ruleset, figures, "de", "text", scenario.names)
    english = render_odds(scenario.ruleset, figures, "en", "text", scenario.names)
    assert "[" not in german
    # the decision's id (split_size) as --decide names it; "Median" is German too
    assert _words(german) & _words(english) <= _BRAND | {"split", "size", "Median"}
    assert "Ausweichantworten (wo die Antwort des Szenarios nicht passte):" in german
    assert any(line.startswith("  split_size (Orks): Ausweichantwort in 3 von 3 Schlachten: "
                               "100.000 liegt nicht zwischen") for line in german.splitlines())
