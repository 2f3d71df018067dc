"""PO and XLIFF: export a language, import it back, the same texts; plurals as PO plurals;
stale translations marked fuzzy and kept stale."""

from __future__ import annotations

import shutil
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from stratagem.i18n.catalog import ENGINE_LOCALES, fingerprint, read_locale
from stratagem.i18n.check import check_locales
from stratagem.i18n.exchange import export_po, export_xliff, import_po, import_xliff

from .helpers import run_i18n


def _files(folder: Path, lang: str) -> list:  # type: ignore[type-arg]
    return [read_locale(folder / f"{lang}.yaml")]


def _war_machine() -> Path:
    from stratagem.resources import data_dir

    return data_dir("rulesets") / "war-machine" / "locales"


@pytest.mark.parametrize(("lang", "group"), [("ru", "engine"), ("de", "engine"),
                                             ("de", "war-machine"), ("ru", "war-machine")])
@pytest.mark.parametrize("kind", ["po", "xliff"])
def test_export_then_import_gives_back_the_same_texts(lang: str, group: str, kind: str) -> None:
    folder = ENGINE_LOCALES if group == "engine" else _war_machine()
    english, own = _files(folder, "en"), _files(folder, lang)
    if kind == "po":
        back = import_po(export_po(lang, english, own), english, own, "x.po")
    else:
        back = import_xliff(export_xliff(lang, english, own), english, own, "x.xlf")
    assert back.language == lang
    original = own[0].messages
    assert list(back.messages) == [k for k in english[0].messages if k in original]
    from stratagem.i18n.messages import parse_message

    for key, text in back.messages.items():
        assert parse_message(text).parts == original[key].parts, key
    assert back.sources == {k: fingerprint(english[0].messages[k].source) for k in original}


def test_a_whole_plural_is_a_po_plural_with_the_languages_forms() -> None:
    english, russian = _files(ENGINE_LOCALES, "en"), _files(ENGINE_LOCALES, "ru")
    catalog = read_po(BytesIO(export_po("ru", english, russian)))
    assert catalog.num_plurals == 3  # gettext's Russian: one, few, many
    entry = next(m for m in catalog if m.context == "report.battles")
    assert entry.id == ("# battle fought", "# battles fought")
    assert entry.string == ("Проведена # битва", "Проведено # битвы", "Проведено # битв")
    assert "icu-message-format" in entry.flags and "python-brace-format" not in entry.flags
    text = next(m for m in catalog if m.context == "yaml.duplicate_key")
    assert text.id == "duplicate key ''{key}'' (first written at line {line})"


def test_a_new_language_from_a_translated_po_file(tmp_path: Path) -> None:
    """Polish: gettext's three forms become CLDR's one, few, many; 'other' (fractions) takes
    the form gettext uses for 2, as Polish does (1,5 bitwy)."""
    english = _files(ENGINE_LOCALES, "en")
    catalog = read_po(BytesIO(export_po("pl", english, [])))
    entry = next(m for m in catalog if m.context == "report.battles")
    entry.string = ("Stoczono # bitwę", "Stoczono # bitwy", "Stoczono # bitew")
    from babel.messages.pofile import write_po

    out = BytesIO()
    write_po(out, catalog)
    back = import_po(out.getvalue(), english, [], "pl.po")
    assert back.messages == {"report.battles": "{n, plural, one {Stoczono # bitwę} few {Stoczono "
                             "# bitwy} many {Stoczono # bitew} other {Stoczono # bitwy}}"}


def test_a_changed_english_text_is_fuzzy_in_po_and_stays_stale_after_import(
        tmp_path: Path) -> None:
    folder = tmp_path / "locales"
    shutil.copytree(ENGINE_LOCALES, folder)
    en = (folder / "en.yaml").read_text(encoding="utf-8")
    (folder / "en.yaml").write_text(en.replace('"Summary"', '"Summary of the battle"'),
                                    encoding="utf-8")
    english, russian = _files(folder, "en"), _files(folder, "ru")
    catalog = read_po(BytesIO(export_po("ru", english, russian)))
    summary = next(m for m in catalog if m.context == "report.summary")
    assert summary.fuzzy and summary.string == "Итог"
    assert not next(m for m in catalog if m.context == "report.seed").fuzzy
    back = import_po(export_po("ru", english, russian), english, russian, "ru.po")
    assert back.sources["report.summary"] == russian[0].sources["report.summary"]  # still old


def test_the_commands_round_trip_a_ruleset_through_po(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    po = tmp_path / "de.po"
    assert run_i18n(["export", "--lang", "de", "--ruleset", "war-machine", "-o", str(po)]) == 0
    assert 'msgctxt "battle.round"' in po.read_text(encoding="utf-8")
    out = tmp_path / "de.yaml"
    assert run_i18n(["import", str(po), "--ruleset", "war-machine", "-o", str(out)]) == 0
    assert "275 texts" in capsys.readouterr().out
    before, after = read_locale(_war_machine() / "de.yaml"), read_locale(out)
    assert {k: m.parts for k, m in after.messages.items()} == {
        k: m.parts for k, m in before.messages.items()}
    report = check_locales(set(before.messages), {"en": [_war_machine() / "en.yaml"],
                                                  "de": [out]})
    assert report.ok


def test_a_broken_po_file_is_a_user_error(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "ru.po"
    bad.write_text('msgid ""\nmsgstr ""\n"Language: ru\\n"\n\nmsgctxt "report.summary"\n'
                   'msgid "Summary"\nmsgstr "{oops"\n', encoding="utf-8")
    assert run_i18n(["import", str(bad), "-o", str(tmp_path / "ru.yaml")]) == 1
    assert f"{bad}:6: malformed message 'report.summary'" in capsys.readouterr().err
    bad.write_text('garbage "', encoding="utf-8")
    assert run_i18n(["import", str(bad), "-o", str(tmp_path / "ru.yaml")]) == 1
    assert "not a PO file" in capsys.readouterr().err
    assert not (tmp_path / "ru.yaml").exists()
