"""Which language Stratagem speaks: --lang, then LANGUAGE, LC_ALL, LC_MESSAGES, LANG, with
region and script fallback, any case; a Polish locale from outside the package."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.i18n.catalog import LOCALES_VARIABLE, available_languages, engine_catalog
from stratagem.i18n.negotiate import choose, fallbacks, negotiate, normalize_tag, requested_tags

from .helpers import FIXTURES, run_i18n

AVAILABLE = ["de", "en", "pt", "pt-BR", "ru", "zh-Hant"]
_LOCALE_VARIABLES = ("STRATAGEM_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG",
                     LOCALES_VARIABLE)


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    ("tag", "normal"),
    [("pt_BR.UTF-8", "pt-BR"), ("DE", "de"), ("de-at", "de-AT"), ("zh_hant_tw", "zh-Hant-TW"),
     ("sr@latin", "sr"), ("en_GB.ISO8859-1@euro", "en-GB")],
)
def test_tags_are_read_in_any_case_with_underscores_encodings_and_modifiers(
        tag: str, normal: str) -> None:
    assert normalize_tag(tag) == normal


def test_fallback_goes_from_the_most_to_the_least_specific() -> None:
    assert fallbacks("de-AT") == ["de-AT", "de"]
    assert fallbacks("zh_Hant_TW") == ["zh-Hant-TW", "zh-TW", "zh-Hant", "zh"]


@pytest.mark.parametrize(
    ("requested", "env", "chosen"),
    [
        ("de", {"LANG": "ru_RU.UTF-8"}, "de"),  # --lang wins over the environment
        ("DE", {}, "de"),  # any case
        ("de-AT", {}, "de"),  # region falls back to the language
        ("de_AT", {}, "de"),
        ("pt_BR", {}, "pt-BR"),  # a regional catalogue is used when there is one
        ("pt-PT", {}, "pt"),
        ("zh-Hant-TW", {}, "zh-Hant"),  # script kept, region dropped
        ("fr", {}, "en"),  # nothing that serves it: English
        (None, {"LANG": "de_DE.UTF-8"}, "de"),  # LANG, as --lang de would
        (None, {"LC_MESSAGES": "ru_RU.UTF-8", "LANG": "de_DE.UTF-8"}, "ru"),
        (None, {"LC_ALL": "ru_RU.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"}, "ru"),
        (None, {"LANGUAGE": "fr:de_AT:ru", "LANG": "ru_RU.UTF-8"}, "de"),  # a list, in order
        (None, {"LANGUAGE": "de", "LC_ALL": "C"}, "en"),  # C ignores LANGUAGE (gettext)
        (None, {"LANGUAGE": "de", "LANG": "POSIX"}, "en"),
        (None, {"LANGUAGE": "de"}, "de"),
        (None, {"STRATAGEM_LANG": "ru", "LANGUAGE": "de"}, "ru"),
        (None, {"LANG": "C.UTF-8"}, "en"),
        (None, {}, "en"),
    ],
)
def test_negotiation(requested: str | None, env: dict[str, str], chosen: str) -> None:
    assert choose(requested, AVAILABLE, env) == chosen


def test_nothing_available_is_none_so_the_caller_can_warn() -> None:
    assert negotiate("fr", AVAILABLE, {}) is None
    assert requested_tags({"LANGUAGE": "a::b", "LANG": "ru"}) == ["a", "b", "ru"]


def test_the_commands_negotiate_from_the_environment(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", "de_AT.UTF-8")
    assert run_i18n(["show", "report.summary"]) == 0
    assert capsys.readouterr().out == "Zusammenfassung\n"
    assert run_i18n(["show", "report.summary", "--lang", "RU"]) == 0
    assert capsys.readouterr().out == "Итог\n"


def test_a_polish_locale_from_outside_the_package(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """--locales DIR or $STRATAGEM_LOCALES adds a language the package does not ship; Polish
    needs three whole-number forms: 1 bitwę, 2–4 and 22 bitwy, 5, 12 and 21 bitew."""
    folder = FIXTURES / "pl"
    assert "pl" not in available_languages()
    shown = []
    for n in (1, 2, 5, 12, 21, 22, 1.5):
        assert run_i18n(["show", "report.battles", "--lang", "pl_PL.UTF-8", "--locales",
                         str(folder), "--param", f"n={n}"]) == 0
        shown.append(capsys.readouterr().out.strip())
    assert shown == ["Stoczono 1 bitwę", "Stoczono 2 bitwy", "Stoczono 5 bitew",
                     "Stoczono 12 bitew", "Stoczono 21 bitew", "Stoczono 22 bitwy",
                     "Stoczono 1,5 bitwy"]
    monkeypatch.setenv(LOCALES_VARIABLE, str(folder))
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert "pl" in available_languages()
    assert run_i18n(["show", "report.dice_scripted", "--param", "n=4"]) == 0
    assert capsys.readouterr().out == "Zadane kości: 4 rzuty\n"
    assert engine_catalog("pl").text("report.summary") == "Summary"  # English behind Polish


def test_validate_speaks_polish_from_a_folder_outside_the_package(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from stratagem.cli import main

    good = tmp_path / "pl.yaml"
    good.write_text("kind: locale\nlanguage: pl\nmessages: {}\n", encoding="utf-8")
    assert main(["validate", str(good), "--lang", "pl", "--locales", str(FIXTURES / "pl")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "Sprawdzono 1 plik, wszystkie poprawne"
