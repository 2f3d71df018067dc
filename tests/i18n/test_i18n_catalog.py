"""Catalogs: locale files merged in order, English behind every language, load errors placed."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from stratagem.errors import StratagemError, ValidationFailed
from stratagem.i18n.catalog import (
    ENGINE_LOCALES,
    Translator,
    build_catalog,
    check_language_code,
    engine_catalog,
    load_catalog,
    parse_locale,
    read_locale,
)
from stratagem.i18n.engine_keys import engine_keys

from .helpers import FIXTURES

GOOD = FIXTURES / "good"
BAD = FIXTURES / "bad"


def _doc(language: str, messages: dict[str, str], **extra: object) -> dict[str, object]:
    return {"kind": "locale", "language": language, "messages": messages, **extra}


def test_fallback_order_with_plain_dicts() -> None:
    files = [
        parse_locale(_doc("en", {"a": "A {x}", "b": "B"}), "en.yaml", "en"),
        parse_locale(_doc("ru", {"a": "А {x}"}), "ru.yaml", "ru"),
        parse_locale(_doc("de", {"b": "never read"}), "de.yaml", "de"),
    ]
    ru = build_catalog("ru", files)
    assert ru.text("a", x=1) == "А 1"  # the requested language
    assert ru.text("b") == "B"  # English behind it
    assert ru.text("c") == "[c]"  # the key itself, never a crash
    assert ru.text("a") == "А {x}"  # a missing parameter stays visible
    assert ru.has("a") and not ru.has("b")
    assert ru.keys() == {"a"}
    assert ru.language == "ru"


def test_later_files_win_key_by_key_with_plain_dicts() -> None:
    first = parse_locale(_doc("ru", {"a": "один", "b": "два"}), "x/ru.yaml", "ru")
    second = parse_locale(_doc("ru", {"a": "раз"}), "y/ru.yaml", "ru")
    catalog = build_catalog("ru", [first, second])
    assert (catalog.text("a"), catalog.text("b")) == ("раз", "два")
    assert catalog.number(2.5) == "2,5"  # CLDR's Russian, not written in any file
    assert catalog.files == ("x/ru.yaml", "y/ru.yaml")


def test_load_catalog_from_a_folder() -> None:
    ru = load_catalog("ru", [GOOD])
    assert ru.text("battle.winner", side="Эльфы") == "Победила сторона Эльфы."
    assert [ru.text("unit.lost", unit="Орки", n=n) for n in (0, 1, 3, 5, 21, 2.5)] == [
        "Орки теряет никого.", "Орки теряет 1 бойца.", "Орки теряет 3 бойцов.",
        "Орки теряет 5 бойцов.", "Орки теряет 21 бойца.", "Орки теряет 2,5 бойца."]
    assert ru.text("only.english") == "Only in English"
    assert ru.lang.name == "Русский"


def test_an_english_fallback_text_keeps_english_number_style() -> None:
    ru = load_catalog("ru", [GOOD])
    en_only = load_catalog("en", [GOOD])
    assert en_only.fallback is None
    assert en_only.text("unit.lost", unit="Orcs", n=2.5) == "Orcs loses 2.5 soldiers."
    assert ru.message("only.english")[1].code == "en"  # type: ignore[index]


def test_a_language_without_files_shows_english() -> None:
    de = load_catalog("de", [GOOD])
    assert de.keys() == set()
    assert de.text("battle.winner", side="Elves") == "Elves wins."
    assert de.text("unit.lost", unit="Orcs", n=1) == "Orcs loses 1 soldier."


def test_an_overlay_overrides_texts_and_inherits_the_rule() -> None:
    ru = load_catalog("ru", [GOOD, FIXTURES / "overlay"])
    assert ru.text("battle.winner", side="Эльфы") == "Сторона Эльфы одержала победу."
    assert ru.text("unit.morale", unit="Орки", morale=7.5) == "Орки: боевой дух 7,5"
    assert ru.text("unit.lost", unit="Орки", n=5) == "Орки теряет 5 бойцов."


def test_files_may_be_named_one_by_one() -> None:
    ru = load_catalog("ru", [GOOD / "ru.yaml"])
    assert ru.text("only.english") == "[only.english]"  # en.yaml was not named


def test_a_label_like_parameter_is_localised() -> None:
    ru = load_catalog("ru", [GOOD])
    table = SimpleNamespace(key="table.casualties", fallback="casualties")
    unknown = SimpleNamespace(key="table.morale", fallback="morale")
    assert ru.text("battle.winner", side=table) == "Победила сторона Таблица потерь."
    assert ru.text("battle.winner", side=unknown) == "Победила сторона morale."


def test_malformed_messages_are_load_errors_at_file_line_column() -> None:
    with pytest.raises(ValidationFailed) as caught:
        load_catalog("ru", [BAD / "ru.yaml"])
    errors = caught.value.errors
    where = [(e.location.line, e.location.column) for e in errors]  # type: ignore[union-attr]
    assert all(e.location.file == str(BAD / "ru.yaml") for e in errors)  # type: ignore[union-attr]
    # plain value: "Отряд {unit теряет" starts at column 10, the fault is 12 characters in
    assert where[0] == (5, 22) and "malformed message 'plain'" in errors[0].message
    # quoted value: the text starts after the quote at column 12; 'fw' is 26 characters in
    assert where[1] == (6, 38) and "unknown plural form 'fw'" in errors[1].message
    # block value: the value's own place, and the caret in the context
    assert where[2] == (7, 10) and "never closed" in errors[2].message
    assert "{side, select" in (errors[2].context or "")
    assert where[3] == (10, 11) and "must be text" in errors[3].message
    assert len(errors) == 4


def test_a_file_whose_name_and_language_differ_and_unknown_keys() -> None:
    with pytest.raises(ValidationFailed) as caught:
        read_locale(BAD / "de.yaml")
    messages = [e.message for e in caught.value.errors]
    assert "unknown key 'mesages' in a locale file" in messages
    assert "the file is named for language 'de' but says language: fr" in messages
    assert all(e.hint for e in caught.value.errors)


def test_a_hand_written_plural_rule_is_an_error_at_its_line() -> None:
    """Plural rules come from CLDR: an older file that still writes one is told to drop it."""
    with pytest.raises(ValidationFailed) as caught:
        read_locale(BAD / "pl.yaml")
    (error,) = caught.value.errors
    assert "'plural' is no longer written in a locale file" in error.message
    assert error.location.line == 3  # type: ignore[union-attr]
    assert "CLDR" in (error.hint or "")


@pytest.mark.parametrize(
    ("doc", "fragment"),
    [
        ({"language": "ru", "messages": {}}, "kind: locale"),
        ({"kind": "locale", "messages": {}}, "does not say its language"),
        ({"kind": "locale", "language": "Russian"}, "not a language code"),
        ({"kind": "locale", "language": "ru", "messages": ["a"]}, "map of key: text"),
        ({"kind": "locale", "language": "ru", "messages": {"a b": "x"}}, "not a message key"),
        ({"kind": "locale", "language": "ru", "decimal": ","}, "'decimal' is no longer written"),
        ({"kind": "locale", "language": "ru", "fraction_digits": 2}, "'fraction_digits' is no"),
        ({"kind": "locale", "language": "ru", "sources": {"a": "xyz"}}, "8 hex digits"),
        ({"kind": "locale", "language": "ru", "names": {"Orcs": ["x"]}}, "names must be a map"),
        ({"kind": "locale", "language": "ru", "name": ["x"]}, "name must be text"),
        ({"kind": "locale", "language": "ru", "ruleset": 3}, "ruleset must be text"),
    ],
)
def test_structural_faults(doc: dict[str, object], fragment: str) -> None:
    with pytest.raises(ValidationFailed) as caught:
        parse_locale(doc, "ru.yaml", "ru")
    assert any(fragment in e.message for e in caught.value.errors)


def test_not_a_map() -> None:
    with pytest.raises(StratagemError, match="must be a map"):
        parse_locale(["a"], "ru.yaml", "ru")  # type: ignore[arg-type]


@pytest.mark.parametrize("code", ["ru", "en", "pl", "pt-BR", "zh_Hant"])
def test_language_codes(code: str) -> None:
    assert check_language_code(code) == code


@pytest.mark.parametrize("code", ["../etc", "RU", "", "russian", "r"])
def test_bad_language_codes_are_user_errors(code: str) -> None:
    with pytest.raises(StratagemError, match="not a language code"):
        load_catalog(code, [GOOD])


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "en.yaml"
    path.write_text('kind: locale\nlanguage: en\nmessages: {a: "one"}\n', encoding="utf-8")
    assert load_catalog("en", [tmp_path]).text("a") == "one"
    path.write_text('kind: locale\nlanguage: en\nmessages: {a: "second"}\n', encoding="utf-8")
    assert load_catalog("en", [tmp_path]).text("a") == "second"


def test_a_missing_file_named_directly_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(ValidationFailed, match="cannot read the locale file"):
        load_catalog("en", [tmp_path / "en.yaml"])


def test_the_engine_texts_cover_every_key_the_code_uses_in_every_shipped_language() -> None:
    needed = engine_keys().needed()
    assert {"yaml.duplicate_key", "schema.unknown_field", "run.dice_exhausted", "prompt.decision",
            "validate.with_errors"} <= needed  # errors, prompts and notes, not only the report
    for lang in ("en", "ru", "de"):
        assert needed <= engine_catalog(lang).keys(), lang
    assert sorted(p.stem for p in ENGINE_LOCALES.glob("*.yaml")) == ["de", "en", "ru"]


def test_engine_texts_in_russian() -> None:
    ru = engine_catalog("ru")
    assert [ru.text("report.battles", n=n) for n in (1, 2, 5, 21, 11)] == [
        "Проведена 1 битва", "Проведено 2 битвы", "Проведено 5 битв", "Проведена 21 битва",
        "Проведено 11 битв"]
    assert ru.text("report.start_end", start=100, end=72.5) == "100 → 72,5"
    assert ru.text("run.decision_missing.hint", decision="risk", who="Caliburn") == (
        "добавьте в сценарий: decisions: {risk: {Caliburn: ЗНАЧЕНИЕ}}")
    assert ru.text("run.decision_missing.hint", decision="risk", who=None) == (
        "добавьте в сценарий: decisions: {risk: ЗНАЧЕНИЕ}")
    assert ru.text("run.dice_exhausted", n=2, label="атака", expr="3d6") == (
        "заданные кубики кончились на броске №2 (атака: 3d6)")


def test_translator_labels_fall_back_to_the_name() -> None:
    translator = Translator(load_catalog("ru", [GOOD, FIXTURES / "ruleset" / "locales"]))
    assert translator.language == "ru"
    assert translator.t("battle.winner", side="Орки") == "Победила сторона Орки."
    assert translator.table("casualties") == "Таблица потерь"
    assert translator.label("table", "casualties") == "Таблица потерь"
    assert translator.enum("race", "elf") == "elf"  # the English text, as Russian lacks it
    assert translator.label("enum", "troop_types", "heavy_infantry") == "heavy infantry"
    assert translator.field("unit", "count") == "count"
    assert translator.decision("battle_plan") == "battle plan"
    assert translator.title("Fallback") == "Правила для проверки"
    assert translator.label("ruleset") == "Правила для проверки"
    assert translator.number(0.5) == "0,5"
    with pytest.raises(ValueError):
        translator.label("colour", "red")
