"""Errors in the reader's language: every check's message and hint has a key; the English
catalog gives exactly the text written at the raise site; Russian and German at the same
places; the keys the code uses are found in the code."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from stratagem.cli import main
from stratagem.errors import StratagemError, ValidationFailed
from stratagem.i18n.catalog import engine_catalog
from stratagem.i18n.engine_keys import EngineKeys, scan_source
from stratagem.api import validate

BROKEN = sorted((Path(__file__).parent.parent / "broken").glob("*.yaml"))

def _errors(path: Path) -> list[StratagemError]:
    return validate(path)


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.name)
def test_the_english_texts_are_the_ones_written_at_the_raise_site(path: Path) -> None:
    english = engine_catalog("en")
    for error in _errors(path):
        assert error.render(english) == error.render(), error.key


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.name)
@pytest.mark.parametrize("lang", ["ru", "de"])
def test_validate_in_another_language_gives_its_errors_at_the_same_places(
        path: Path, lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(path), "--format", "json"]) == 1
    english = json.loads(capsys.readouterr().out)[0]["errors"]
    assert main(["validate", str(path), "--format", "json", "--lang", lang]) == 1
    other = json.loads(capsys.readouterr().out)[0]["errors"]
    place = ("file", "line", "column", "path", "key")
    assert [[e[k] for k in place] for e in other] == [[e[k] for k in place] for e in english]
    for mine, theirs in zip(other, english, strict=True):
        assert mine["key"], theirs["message"]
        assert mine["message"] != theirs["message"], mine["message"]
        if theirs["hint"] and not theirs["hint"].startswith(("steps:", "kinds:")):
            assert mine["hint"] != theirs["hint"], mine["hint"]


def test_validate_lang_ru_text(capsys: pytest.CaptureFixture[str]) -> None:
    broken = Path(__file__).parent.parent / "broken"
    assert main(["validate", "--lang", "ru", str(broken / "army_misspelt_field.yaml"),
                 str(broken / "duplicate_key.yaml")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("army_misspelt_field.yaml:6:33: неизвестное поле «qualty» в unit "
                           "($.units[0].qualty)")
    assert out[1] == "  подсказка: может быть, имелось в виду 'quality'?"
    assert out[2].endswith("duplicate_key.yaml:7:1: повторяется ключ «name» (впервые записан "
                           "в строке 5) ($.name)")
    assert out[-1] == "Проверено 2 файла, с ошибками: 2 (2 ошибки)"


def test_a_run_time_error_in_german(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"the scripted dice ran out at roll #2", in the language of the battle."""
    example = Path(__file__).parent.parent.parent / "examples" / "war-machine" / "orcs.yaml"
    assert main(["battle", str(example), "--lang", "de", "--dice", "42"]) == 1
    err = capsys.readouterr().err
    # at the step that rolled (as every run-time error is)
    assert re.match(r"stratagem: \S+/procedures\.yaml:\d+:\d+: die vorgegebenen Würfel "
                    r"gingen bei Wurf Nr\. 2 aus", err), err
    assert "Tipp: ergänzen Sie Ergebnisse unter `dice:`" in err


def test_keys_are_found_in_the_code_with_their_parameters() -> None:
    found = EngineKeys()
    scan_source(
        'raise StratagemError(f"x {a}", key="demo.one", params={"a": a, "b": 1})\n'
        'self.add(path, "other", text, where, key="demo.two", field=key, name=name)\n'
        't.t("demo.three", side=s)\n'
        'outcome = "demo.prefix_" + kind\n'
        'WORDS = Term("demo.word", "a word")\n'
        'Keyed("English", "demo.prompt", who=who)\n', "demo.py", found)
    assert found.needed() == {"demo.one", "demo.two", "demo.three", "demo.prompt"}
    assert found.params()["demo.one"] == ("a", "b")
    assert found.params()["demo.two"] == ("field", "name")
    assert found.params()["demo.three"] == ("side",)
    assert found.is_used("demo.one.hint")  # a key's hint goes with it
    assert found.is_used("demo.prefix_critical")  # a key built from a prefix
    assert found.is_used("demo.word") and not found.is_used("demo.other")
    (where,) = found.uses["demo.three"].locations
    assert (where.file, where.line, where.column) == ("demo.py", 3, 1)


def test_an_engine_text_nothing_uses_is_reported_unused(tmp_path: Path) -> None:
    from stratagem.i18n.check import check_engine

    assert all(not lang.unused for lang in check_engine().languages.values())
    found = EngineKeys()
    scan_source('t.t("report.summary")\n', "x.py", found)
    assert not found.is_used("report.seed")


def test_run_time_and_command_line_errors_read_the_same_in_english_and_differ_in_russian(
        ) -> None:
    from stratagem.api import load_scenario, run_battle
    from stratagem.cli.common import parse_decisions, parse_dice_list

    example = Path(__file__).parent.parent.parent / "examples" / "war-machine"
    scenario = load_scenario(example / "orcs.yaml")
    english, russian = engine_catalog("en"), engine_catalog("ru")
    attempts = [
        lambda: run_battle(scenario, decisions={"mercy": 5}),
        lambda: run_battle(scenario, decisions={"split_size": {"Orcs": [100000]}}),
        lambda: run_battle(scenario, dice=[42]),
        lambda: parse_dice_list("1,[2"), lambda: parse_dice_list("x"),
        lambda: parse_decisions(["oops"]),
        lambda: load_scenario(example / "no-such.yaml"),
        lambda: load_scenario(example / "orc-horde.yaml"),
    ]
    for attempt in attempts:
        with pytest.raises(StratagemError) as caught:
            attempt()
        error = caught.value
        found = error.errors if isinstance(error, ValidationFailed) else [error]
        assert all(e.key for e in found), error.render()
        assert error.render(english) == error.render()
        assert error.render(russian) != error.render()


def test_prompts_and_argparse_speak_the_language(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from stratagem.cli.battle import decision_prompt

    prompt = decision_prompt("Taktik", "Orks", {"choices": ["attack", "hold"], "default": None})
    assert str(prompt) == "Taktik (Orks) [attack, hold]: "  # the English, as written
    assert prompt.localized(engine_catalog("de")) == "Taktik (Orks) [attack, hold]: "
    ranged = decision_prompt("Risk", "", {"range": [-2, 2], "default": 0})
    assert str(ranged) == ranged.localized(engine_catalog("en")) == "Risk [-2..2] (default 0): "
    assert ranged.localized(engine_catalog("ru")) == "Risk [-2..2] (по умолчанию 0): "
    with pytest.raises(SystemExit):
        main(["validate", "--lang", "de"])
    err = capsys.readouterr().err
    assert err.startswith("Aufruf: stratagem validate")
    assert "Fehler: diese Argumente fehlen: FILE" in err


@pytest.mark.parametrize("text", ["3٣d6", "3дd6", "1.5d6", "2^3", "[3]", "3d6>4", "3d6\x01",
                                  "3d6$", "d6!!", "3!", "4%d6", "1,2", "3d6)", "()", "(3+)",
                                  "3---2", "*3", "3+", "(", "3d6k", "2x", "3 4", "2TL", "3d6d6"])
def test_dice_syntax_errors_in_every_language(text: str) -> None:
    from stratagem.dice import parse_dice

    with pytest.raises(StratagemError) as caught:
        parse_dice(text)
    error = caught.value
    assert error.key and error.key.startswith("dice.")
    assert error.render(engine_catalog("en")) == error.render()
    for lang in ("ru", "de"):
        assert error.localized(engine_catalog(lang)) != error.message, lang


@pytest.mark.parametrize("mode", ["compiled", "simpleeval"])
def test_an_error_inside_an_expression_keeps_the_expression_in_every_language(mode: str) -> None:
    from stratagem.expr.core import Evaluator, compile_expr

    def lookup() -> None:
        raise StratagemError("no row of table 't' matches 7", key="run.table_no_row",
                             params={"table": "t", "key": "7"}, hint="add a row for it, or "
                             "make the first/last range open-ended with null")

    with pytest.raises(StratagemError) as caught:
        Evaluator({"lookup": lookup}, mode=mode).eval(compile_expr("lookup() + 1"), {})
    error = caught.value
    assert error.render(engine_catalog("en")) == error.render()
    assert error.render(engine_catalog("ru")) == (
        "`lookup() + 1`: ни одна строка таблицы «t» не подходит для 7\n"
        "  подсказка: добавьте для этого значения строку или откройте крайний диапазон "
        "значением null")


def test_campaign_report_and_static_check_errors_in_every_language(tmp_path: Path) -> None:
    """The errors of a ruleset's `campaign:` section, of writing a report, of the static checks,
    of plans and of the dice language's values: each has a key, reads in English as written, and differently in Russian and
    German."""
    from stratagem.campaign.rules import CampaignRules, campaign_rules
    from stratagem.compile.decisions import compile_decisions
    from stratagem.compile.pipeline import load_ruleset
    from stratagem.dice import DiceDialect, parse_dice
    from stratagem.interp.dicesource import stated_result
    from stratagem.render import write_file

    skirmish = Path(__file__).parent.parent / "loader" / "fixtures" / "skirmish" / "ruleset.yaml"
    setting = tmp_path / "campaigning.yaml"
    setting.write_text(f"kind: setting\nextends: {skirmish}\ncampaign:\n"
                       "  keep: {unitt: [count], side: [moral]}\n"
                       "  after_battle: recover\n", encoding="utf-8")
    rs = load_ruleset(setting)
    attempts = [
        lambda: campaign_rules(rs),
        lambda: CampaignRules().days(2, "fortnight"),
        lambda: write_file(str(tmp_path / "no-such-folder" / "report.md"), "x"),
        lambda: write_file(str(tmp_path), "x"),
        lambda: compile_decisions(rs, {"risk": {"prefer": []}, "rsik": 1}),
        lambda: compile_decisions(rs, {"risk": {"policy": "side.moral", "prefer": [1]}}),
        lambda: parse_dice(""),
        lambda: DiceDialect(default_sides=0),
        lambda: parse_dice("2d6").roll(random.Random(1), {}) and stated_result(
            parse_dice("2d6"), 13, {}),
    ]
    english, russian, german = engine_catalog("en"), engine_catalog("ru"), engine_catalog("de")
    seen = 0
    for attempt in attempts:
        with pytest.raises(StratagemError) as caught:
            attempt()
        found = caught.value.errors if isinstance(caught.value, ValidationFailed) \
            else [caught.value]
        for error in found:
            seen += 1
            assert error.key, error.render()
            assert error.render(english) == error.render()
            for other in (russian, german):
                shown = error.render(other)
                assert shown != error.render()
                if error.location is not None:  # the same place
                    assert shown.split(": ", 1)[0] == error.render().split(": ", 1)[0]
    assert seen >= 10


#: Expressions that fail only at run time (their values are not known before), each
#: explained by expr/calls.py: a call's values, its kinds, Python's failures reworded.
FAILING_AT_RUN_TIME = [
    "int(name)", "clamp(name, 1, 2)", "sum(xs + [name])", "abs(xs)", "min(empty)",
    "xs[5]", "xs / 2", "d['missing']", "1 / zero", "-name", "xs[name]", "len(zero)",
    "[a for a, b in xs]",
]


@pytest.mark.parametrize("lang", ["ru", "de"])
@pytest.mark.parametrize("text", FAILING_AT_RUN_TIME)
def test_a_failed_call_at_run_time_is_explained_in_the_readers_language(lang: str,
                                                                         text: str) -> None:
    from stratagem.errors import Location
    from stratagem.expr import Evaluator, compile_expr

    names = {"name": "Red", "xs": [1, 2], "empty": [], "d": {"a": 1}, "zero": 0}
    english, texts = engine_catalog("en"), engine_catalog(lang)
    for mode in ("compiled", "simpleeval"):
        with pytest.raises(StratagemError) as caught:
            Evaluator(mode=mode).eval(compile_expr(text, Location("r.yaml", 3, 9)), names)
        err = caught.value
        shown, said = err.render(texts), err.render(english)
        assert said == err.render(), text  # English as written at the raise site
        assert shown.startswith("r.yaml:3:9: ") and f"`{text}`" in shown
        # the explanation after the expression is the reader's, not the English one
        assert shown.split("`", 2)[2] != said.split("`", 2)[2], (text, shown)
