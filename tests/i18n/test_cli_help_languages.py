"""The commands' --help in the user's language, and the last texts that were English only
(issue 16): every description, example and option help of every command and subcommand reads
in Russian and German, none is left in English, and the environment's language chooses it as
--lang does."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli import _argparse_speaks, build_parser, main
from stratagem.errors import StratagemError
from stratagem.i18n.catalog import engine_catalog

LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "STRATAGEM_LANG",
                      "STRATAGEM_LOCALES")


def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
             ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """The parser of every command and subcommand, nested ones too, by its path."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def _help_texts(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Every text one command's --help shows, by where it shows it."""
    found: dict[str, Any] = {"description": parser.description, "epilog": parser.epilog}
    for action in parser._actions:
        where = "/".join(action.option_strings) or action.dest
        found[where] = action.help
        if isinstance(action, argparse._VersionAction):
            found[f"{where} text"] = action.version
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                found[f"{where} {choice.dest}"] = choice.help
    return {where: text for where, text in found.items() if isinstance(text, str)}


@pytest.fixture
def helps(monkeypatch: pytest.MonkeyPatch) -> Callable[..., dict[tuple[str, ...], dict[str, str]]]:
    """The help texts of every command, in the language the given arguments choose (as
    ``main`` chooses it); argparse and the command line's language are restored after."""
    from stratagem.cli import common

    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(argparse, "_", argparse._)  # type: ignore[attr-defined]
    monkeypatch.setattr(argparse, "ngettext", argparse.ngettext)
    monkeypatch.setattr(common, "SPOKEN", common.SPOKEN)

    def texts(*argv: str) -> dict[tuple[str, ...], dict[str, str]]:
        _argparse_speaks(list(argv))
        return {path: _help_texts(parser) for path, parser in _parsers(build_parser())}

    return texts


@pytest.mark.parametrize("lang", ["ru", "de"])
def test_no_help_text_of_any_command_is_left_in_english(helps: Any, lang: str) -> None:
    english = helps("--lang", "en")
    spoken = helps("--lang", lang)
    assert {("campaign", "advance"), ("i18n", "stamp"), ("battle",)} <= english.keys()
    assert spoken.keys() == english.keys()
    shown = 0
    for path, texts in english.items():
        assert spoken[path].keys() == texts.keys(), path
        left = {where: text for where, text in texts.items() if spoken[path][where] == text}
        assert not left, (path, left)
        shown += len(texts)
    assert shown > 150  # descriptions, examples and the help of every option


@pytest.mark.parametrize("lang", ["en", "ru", "de"])
def test_the_help_reads_as_it_did_in_english_and_keeps_argparse_placeholders(
        helps: Any, lang: str) -> None:
    texts = helps("--lang", lang)
    odds = texts[("odds",)]
    assert odds["-n"] == {"en": "number of battles, 1 to 1,000,000 (default 1000)",
                          "ru": "число боёв, от 1 до 1\u00a0000\u00a0000 (по умолчанию 1000)",
                          "de": "Zahl der Schlachten, 1 bis 1.000.000 (Vorgabe 1000)"}[lang]
    assert odds["epilog"].splitlines()[0] == {"en": "examples:", "ru": "примеры:",
                                              "de": "Beispiele:"}[lang]
    assert "stratagem odds my-battle.yaml -n 20000 -j 4" in odds["epilog"]
    # argparse %-formats every help= text: a literal % arrives doubled
    assert all("%" not in text.replace("%%", "") for path in texts
               for where, text in texts[path].items()
               if where not in ("description", "epilog", "--version text"))


def _help(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("lang, environment, command", [
    ("ru", "ru_RU.UTF-8", ["odds"]), ("ru", "ru_RU.UTF-8", ["battle"]),
    ("de", "de_DE.UTF-8", ["campaign", "advance"]), ("de", "de_AT.UTF-8", ["i18n", "check"]),
    ("ru", "ru_RU.UTF-8", []),
])
def test_the_environment_chooses_the_help_language_as_lang_does(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str,
        environment: str, command: list[str]) -> None:
    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    english = _help(capsys, *command)
    chosen = _help(capsys, "--lang", lang, *command)  # stratagem --lang ru odds --help
    monkeypatch.setenv("LANG", environment)
    assert _help(capsys, *command) == chosen
    assert chosen != english
    key = f"cli.help.{command[0]}.about" if command else "cli.help.description"
    summary, english_summary = (engine_catalog(x).keyed(key, {}) for x in (lang, "en"))
    assert summary and english_summary and summary != english_summary
    # the command's own line in `stratagem --help`, or the program's description
    shown = _help(capsys) if command else chosen
    assert " ".join(summary.split()) in " ".join(shown.split())
    assert " ".join(english_summary.split()) not in " ".join(shown.split())
    if command and command[0] != "i18n":  # a command's own --lang speaks as the top one does
        monkeypatch.delenv("LANG")
        assert _help(capsys, *command, "--lang", lang) == chosen


def test_a_translators_percent_sign_does_not_break_the_help(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "pl.yaml").write_text(
        'kind: locale\nlanguage: pl\nmessages:\n'
        '  cli.help.json: "w 100% to samo co --format json"\n'
        '  cli.help.battle.description: "%(prog)s: 50% bitwy"\n', encoding="utf-8")
    out = _help(capsys, "battle", "--lang", "pl", "--locales", str(tmp_path))
    assert "w 100% to samo co --format json" in out
    assert "%(prog)s: 50% bitwy" in out
    assert "stratagem battle --lang pl" not in out  # argv is read, not echoed
    monkeypatch.setenv("STRATAGEM_LOCALES", str(tmp_path))
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert _help(capsys, "battle") == out


def test_a_broken_locale_folder_from_outside_costs_no_help_and_no_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    english = _help(capsys, "odds")
    (tmp_path / "en.yaml").write_text('kind: locale\nlanguage: en\nmessages:\n'
                                      '  a.b: "x"\n  a.b: "y"\n', encoding="utf-8")
    monkeypatch.setenv("STRATAGEM_LOCALES", str(tmp_path))
    assert _help(capsys, "odds") == english  # the engine's own English
    # a command that reads the catalog names the broken file at its line
    example = Path(__file__).parents[2] / "examples" / "war-machine" / "orcs.yaml"
    assert main(["battle", str(example)]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'en.yaml'}:5:3: duplicate key 'a.b'" in err
    assert "Traceback" not in err


def test_the_top_level_lang_reaches_the_command(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    missing = str(tmp_path / "no-such.yaml")
    assert main(["--lang", "de", "battle", missing]) == 1
    top = capsys.readouterr().err
    assert main(["battle", missing, "--lang", "de"]) == 1
    assert capsys.readouterr().err == top
    assert main(["battle", missing]) == 1
    assert capsys.readouterr().err != top


def _limits(limits: dict[str, Any]) -> None:
    from stratagem.compile.compiler import Compiler
    from stratagem.compile.ruleset import _limits
    from stratagem.errors import ValidationFailed

    compiler = Compiler({}, None)
    _limits(compiler, {"limits": limits})
    raise ValidationFailed(compiler.errors)


def _argument_type(check: Callable[[str], object], text: str, lang: str) -> str:
    from stratagem.cli import common

    common.SPOKEN = engine_catalog(lang)
    try:
        check(text)
    except argparse.ArgumentTypeError as err:
        return str(err)
    finally:
        common.SPOKEN = None
    raise AssertionError(f"{text!r} was taken")


def test_the_texts_that_were_english_only_read_in_every_language(tmp_path: Path) -> None:
    """The file policy, a ruleset's limits:, the bounds of expressions, the dice language as an
    expression is built: each error has a key, reads as written in English, and differently in
    Russian and German."""
    from stratagem.dice import DiceDialect, parse_dice
    from stratagem.errors import ValidationFailed
    from stratagem.expr.core import Evaluator, compile_expr
    from stratagem.loader.access import ARMY_FILE, INCLUDED_FILE, Access

    def evaluate(text: str) -> None:
        Evaluator({}).eval(compile_expr(text), {})

    attempts: list[Callable[[], object]] = [
        lambda: Access.allowing([tmp_path / "no-such-folder"]),
        lambda: Access().check(Path("/etc/hosts"), tmp_path, "/etc/hosts", None, ARMY_FILE),
        lambda: Access().check(tmp_path / ".." / "x.yaml", tmp_path, "../x.yaml", None,
                               INCLUDED_FILE),
        lambda: Access().check(tmp_path / "a\0b", tmp_path, "a\0b", None, ARMY_FILE),
        lambda: _limits({"max_roundz": 3}),
        lambda: _limits({"max_rounds": 0}),
        lambda: _limits({"max_rounds": 10**12}),
        lambda: evaluate("len(range(200000))"),
        lambda: evaluate("len(pairs(range(1000)))"),
        lambda: parse_dice("min(1)"), lambda: parse_dice("foo(3)"),
        lambda: parse_dice("(1d6)d6"), lambda: parse_dice("-3d6"),
        lambda: parse_dice("ceil(3)"), lambda: parse_dice("X+1").roll(random.Random(1), {}),
        lambda: parse_dice("TLd6").roll(random.Random(1), {}),
        lambda: parse_dice("1d", DiceDialect(default_sides=None)),
        lambda: parse_dice("3d%"),
    ]
    english, russian, german = (engine_catalog(lang) for lang in ("en", "ru", "de"))
    for attempt in attempts:
        with pytest.raises(StratagemError) as caught:
            attempt()
        error = caught.value
        found = error.errors if isinstance(error, ValidationFailed) else [error]
        for each in found:
            assert each.key, each.render()
            assert each.render(english) == each.render()
            assert each.render(russian) != each.render(), each.render(russian)
            assert each.render(german) != each.render(), each.render(german)
            if each.hint:
                assert each.localized_hint(russian) != each.hint, each.key
                assert each.localized_hint(german) != each.hint, each.key


@pytest.mark.parametrize("check, text", [("whole", "99"), ("whole", "x"), ("seconds", "-1")])
def test_argument_checks_speak_the_language(check: str, text: str) -> None:
    from stratagem.cli.common import seconds, whole_number

    checker = whole_number(0, 10) if check == "whole" else seconds(60)
    english = _argument_type(checker, text, "en")
    assert text in english and english.isascii()
    for lang in ("ru", "de"):
        said = _argument_type(checker, text, lang)
        assert said != english and text in said


def test_the_last_words_of_the_command_line_are_translated(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """What main says when a command fails in a way no file should cause."""
    from stratagem.cli import rulesets

    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)

    def deep(args: argparse.Namespace) -> int:
        raise RecursionError

    monkeypatch.setattr(rulesets, "run", deep)
    said = {}
    for lang in ("en", "ru", "de"):
        assert main(["rulesets", "--lang", lang]) == 1
        said[lang] = capsys.readouterr().err
    assert said["en"] == ("stratagem: this is nested too deeply to follow; the file's limits "
                          "should have stopped it first, so this is a bug to report with the "
                          "files that caused it (docs/security.md)\n")
    assert len(set(said.values())) == 3
    assert all("docs/security.md" in text for text in said.values())
