"""`stratagem i18n check`: missing, unused, placeholders, plural forms, per language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stratagem.errors import StratagemError
from stratagem.i18n.check import check_engine, check_locales, check_ruleset, ruleset_refs

from .helpers import FIXTURES, run_i18n

CHECK = FIXTURES / "check"
RULESET = FIXTURES / "ruleset"
USED = {"battle.winner", "unit.lost", "unit.routed", "unit.new"}


def _by_lang(*langs: str) -> dict[str, list[Path]]:
    return {lang: [CHECK / f"{lang}.yaml"] for lang in langs}


def test_missing_and_unused_per_language() -> None:
    report = check_locales(USED, _by_lang("en", "ru"))
    en, ru = report.languages["en"], report.languages["ru"]
    assert en.missing == ["unit.new"]
    assert en.unused == ["old.key"]
    assert ru.missing == ["unit.new", "unit.routed"]
    assert ru.unused == []
    assert (en.texts, ru.texts) == (4, 2)
    assert not report.ok


def test_a_placeholder_typo_is_found_against_english() -> None:
    ru = check_locales(USED, _by_lang("en", "ru")).languages["ru"]
    (typo,) = ru.placeholders
    assert (typo.key, typo.here, typo.reference) == ("battle.winner", ["sied"], ["side"])
    assert typo.render() == "battle.winner has {sied}; en has {side}"


def test_plural_forms_the_rule_produces_must_be_written() -> None:
    report = check_locales(USED, _by_lang("en", "ru"))
    (gap,) = report.languages["ru"].plurals
    assert (gap.key, gap.argument, gap.lacking) == ("unit.lost", "n", ["few", "many"])
    assert report.languages["en"].plurals == []


def test_a_language_without_files_misses_everything() -> None:
    report = check_locales(USED, {**_by_lang("en"), "pl": []})
    assert report.languages["pl"].missing == sorted(USED)


def test_unknown_parameters_when_the_callers_are_known() -> None:
    report = check_locales(USED, _by_lang("en", "ru"), params={"battle.winner": ["side"]})
    assert report.languages["en"].unknown_parameters == []
    (unknown,) = report.languages["ru"].unknown_parameters
    assert unknown.render() == "battle.winner uses {sied}; it is given {side}"


def test_a_file_that_fails_to_load_is_reported_and_the_rest_checked() -> None:
    report = check_locales({"fine"}, {"ru": [FIXTURES / "bad" / "ru.yaml"], **_by_lang("en")})
    assert len(report.errors) == 4
    assert report.languages["en"].missing == ["fine"]
    assert not report.ok


def test_a_complete_group_is_ok() -> None:
    used = {"battle.winner", "unit.lost", "table.casualties"}
    good = {lang: [FIXTURES / "good" / f"{lang}.yaml"] for lang in ("en", "ru")}
    report = check_locales(used, good)
    assert report.ok
    assert report.languages["en"].unused == ["only.english"]  # unused keys are only a warning


def test_the_engine_locales_are_complete() -> None:
    report = check_engine()
    assert report.ok, report.render()
    assert set(report.languages) == {"en", "ru", "de"}
    assert all(not lang.unused for lang in report.languages.values())


def _fixture_keys(ref: str) -> set[str]:
    return {"ruleset": {"ruleset.title", "enum.race.elf"}, "ruleset/yrth": {"enum.race.dwarf"}}[ref]


def test_a_ruleset_folder_serves_the_ruleset_and_its_settings() -> None:
    assert ruleset_refs(RULESET, "ruleset") == ["ruleset", "ruleset/yrth"]
    assert ruleset_refs(RULESET) == [str(RULESET / "ruleset.yaml"),
                                     str(RULESET / "settings" / "yrth.yaml")]
    report = check_ruleset(RULESET, "ruleset", _fixture_keys)
    en, ru = report.languages["en"], report.languages["ru"]
    assert en.missing == ["enum.race.dwarf"]
    assert en.unused == []  # report.title overrides an engine text: not unused
    assert ru.missing == ["enum.race.dwarf", "enum.race.elf"]
    assert ru.unused == ["stale.key"]


def test_a_ruleset_that_does_not_load_is_an_error_of_the_report() -> None:
    def broken(ref: str) -> set[str]:
        raise StratagemError(f"{ref}: broken")

    report = check_ruleset(RULESET, "ruleset", broken)
    assert [e.message for e in report.errors] == ["ruleset: broken", "ruleset/yrth: broken"]
    assert not report.ok


def test_the_render_places_every_finding_and_counts_coverage() -> None:
    text = check_locales(USED, _by_lang("en", "ru"), name="demo").render()
    en, ru = CHECK / "en.yaml", CHECK / "ru.yaml"
    assert text.splitlines() == [
        "[demo] en: 4 texts, 3 of 4 used keys (75%)",
        "  demo: [demo] en: missing: unit.new has no text",  # no English anywhere: the group
        f"  {en}:7:12: [demo] en: unused: old.key is used by nothing",
        "[demo] ru: 2 texts, 2 of 4 used keys (50%)",
        f"  {ru}:4:3: [demo] ru: missing: unit.new has no text",  # where ru's messages start
        f"  {ru}:4:3: [demo] ru: missing: unit.routed has no text",
        f"  {ru}:4:18: [demo] ru: placeholders differ: battle.winner has {{sied}}; en has {{side}}",
        f"  {ru}:5:14: [demo] ru: plural forms lacking: unit.lost {{n, plural}} lacks few many",
    ]


def test_the_findings_read_in_the_readers_language() -> None:
    from stratagem.i18n.catalog import engine_catalog

    report = check_locales(USED, _by_lang("en", "ru"), name="demo")
    english = report.render()
    assert report.render(engine_catalog("en")) == english  # the English as written
    russian = report.render(engine_catalog("ru")).splitlines()
    ru = CHECK / "ru.yaml"
    assert f"  {ru}:4:3: [demo] ru: нет перевода: у unit.new нет текста" in russian
    assert (f"  {ru}:4:18: [demo] ru: подстановки расходятся: в battle.winner подстановки "
            "{sied}, а в языке en — {side}") in russian
    assert (f"  {ru}:5:14: [demo] ru: не хватает форм множественного числа: в unit.lost "
            "форме {n, plural} не хватает: few many") in russian
    assert not any(word in line for line in russian[1:]
                   for word in ("missing", "has no text", "lacks", "differ"))


def test_a_translation_of_a_changed_english_text_is_stale(tmp_path: Path) -> None:
    (tmp_path / "en.yaml").write_text(
        'kind: locale\nlanguage: en\nmessages:\n  a: "One army"\n  b: "Two"\n', encoding="utf-8")
    from stratagem.i18n.catalog import fingerprint

    (tmp_path / "ru.yaml").write_text(
        'kind: locale\nlanguage: ru\nmessages:\n  a: "Одна армия"\n  b: "Два"\nsources:\n'
        f'  a: "{fingerprint("One army")}"\n  b: "{fingerprint("Two (old)")}"\n',
        encoding="utf-8")
    report = check_locales({"a", "b"}, {"en": [tmp_path / "en.yaml"], "ru": [tmp_path / "ru.yaml"]})
    ru = report.languages["ru"]
    assert [(s.key, s.recorded, s.now) for s in ru.stale] == [
        ("b", fingerprint("Two (old)"), fingerprint("Two"))]
    assert not report.ok  # stale is a problem, as gettext's fuzzy entries are not shown
    (finding,) = [f for f in ru.findings() if f.kind == "stale"]
    assert (finding.location.line, finding.location.column) == (5, 6)  # type: ignore[union-attr]


# The command line.

def test_cli_check_of_a_ruleset_folder_exits_1_on_missing_keys(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from stratagem.cli import i18n

    keys = {str(RULESET / "ruleset.yaml"): {"ruleset.title", "enum.race.elf"},
            str(RULESET / "settings" / "yrth.yaml"): {"enum.race.dwarf"}}
    monkeypatch.setattr(i18n, "_keys_of", keys.__getitem__)
    assert run_i18n(["check", "--ruleset", str(RULESET)]) == 1
    out = capsys.readouterr().out
    assert f"[{RULESET}] ru: 2 texts, 1 of 3 used keys (33%)\n" in out
    assert f"[{RULESET}] ru: missing: enum.race.dwarf has no text" in out
    assert f"[{RULESET}] ru: unused: stale.key is used by nothing" in out
    assert "[engine] ru" in out
    assert out.splitlines()[-1] == (
        "i18n check: 3 missing, 1 unused, 0 stale, 0 other problems, 0 load errors")


def test_cli_check_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from stratagem.cli import i18n

    monkeypatch.setattr(i18n, "_keys_of", lambda ref: {"ruleset.title"})
    assert run_i18n(["check", "--ruleset", str(RULESET), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True
    engine, ruleset = data["groups"]
    assert engine["name"] == "engine" and engine["ok"]
    assert ruleset["languages"]["ru"]["unused"] == ["stale.key"]
    assert ruleset["languages"]["en"]["unused"] == ["enum.race.elf"]


def test_cli_check_of_an_unknown_ruleset_is_a_user_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_i18n(["check", "--ruleset", "no-such-ruleset"]) == 1
    assert "unknown ruleset 'no-such-ruleset'" in capsys.readouterr().err


def test_cli_check_of_the_shipped_tree_passes(capsys: pytest.CaptureFixture[str]) -> None:
    """Every shipped ruleset and the engine are fully translated."""
    status = run_i18n(["check"])
    assert status == 0, capsys.readouterr()


def test_cli_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_i18n(["show", "report.dice_scripted", "--lang", "ru", "--param", "n=22"]) == 0
    assert capsys.readouterr().out == "Заданные кубики: 22 броска\n"
    assert run_i18n(["show", "report.start_end", "--lang", "ru", "--param", "start=2.5",
                     "--param", "end=x"]) == 0
    assert capsys.readouterr().out == "2,5 → x\n"


def test_cli_show_unknown_key_and_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_i18n(["show", "no.such.key"]) == 1
    assert capsys.readouterr().out == "[no.such.key]\n"
    assert run_i18n(["show", "report.summary", "--lang", "pl"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "Summary\n"
    assert "no texts in 'pl' yet" in captured.err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [(["show", "report.summary", "--param", "oops"], "is not NAME=VALUE"),
     (["show", "report.summary", "--locales", "nowhere/"], "no such file or folder"),
     (["show", "report.summary", "--lang", "../x"], "not a language code")],
)
def test_cli_show_user_errors(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_i18n(argv) == 1
    assert fragment in capsys.readouterr().err


def test_cli_i18n_without_subcommand_is_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_i18n([]) == 2
    assert "check" in capsys.readouterr().out


def _overlay(tmp_path: Path, languages: dict[str, str]) -> Path:
    (tmp_path / "locales").mkdir()
    overlay = tmp_path / "house.yaml"
    overlay.write_text("kind: setting\nextends: war-machine\ntitle: Our house rules\n",
                       encoding="utf-8")
    for lang, title in languages.items():
        (tmp_path / "locales" / f"{lang}.yaml").write_text(
            f'kind: locale\nlanguage: {lang}\nmessages:\n  ruleset.title: "{title}"\n',
            encoding="utf-8")
    return overlay


def test_an_english_only_overlay_is_checked_in_english_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overlay = _overlay(tmp_path, {"en": "War Machine, our way"})
    assert run_i18n(["check", "--ruleset", str(overlay)]) == 0
    out = capsys.readouterr().out
    assert f"[{overlay}] en: 1 text, 275 of 275 used keys (100%)" in out  # the rest inherited
    assert f"[{overlay}] ru" not in out  # nobody asks a homebrewer for Russian


def test_a_language_an_overlay_ships_and_the_engine_lacks_is_checked_in_the_engine_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overlay = _overlay(tmp_path, {"en": "War Machine, our way", "pl": "Machina wojenna"})
    assert run_i18n(["check", "--ruleset", str(overlay), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    engine, house = data["groups"]
    assert engine["languages"]["pl"]["translated"] == 0 and engine["languages"]["pl"]["missing"]
    polish = house["languages"]["pl"]
    assert polish["translated"] == 1 and polish["coverage"] < 1
    finding = polish["findings"][0]
    assert (finding["kind"], finding["file"], finding["line"]) == (
        "missing", str(tmp_path / "locales" / "pl.yaml"), 4)
