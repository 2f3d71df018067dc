"""Messages checked where they are written: a text a step formats must exist in the
reference language, show only what the step hands it, and not quote a placeholder into
literal text. `validate`, `battle` and `i18n check` report the same errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from stratagem.cli import main
from stratagem.compile.pipeline import validate_file

SKIRMISH = Path(__file__).parent / "skirmish"


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    folder = tmp_path / "skirmish"
    shutil.copytree(SKIRMISH, folder)
    return folder


def reword(folder: Path, key: str, text: str | None) -> Path:
    path = folder / "locales" / "en.yaml"
    lines = [line for line in path.read_text(encoding="utf-8").splitlines()
             if not line.startswith(f"  {key}:")]
    if text is not None:
        lines.append(f"  {key}: {text}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_quoted_placeholder_the_step_hands_is_reported_with_the_fix(
        rules: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locale = reword(rules, "skirmish.flees", '''"{side} flees '{side}'"''')
    line = len(locale.read_text(encoding="utf-8").splitlines())
    (error,) = validate_file(rules / "ruleset.yaml")
    assert error.message == ("the message 'skirmish.flees' shows {side} as literal text: the "
                             "apostrophe before it starts ICU quoted text, so the reader sees "
                             "the braces, not the value")
    assert (error.location.file, error.location.line, error.location.column) == (
        str(locale), line, 34)
    assert error.hint == ("write ''{side}'' for apostrophes around the value, or typographic "
                          "quotes: ‘{side}’ or “{side}”")
    # the fix the hint gives is accepted, and shows apostrophes around the value
    reword(rules, "skirmish.flees", '''"{side} flees ''{side}''"''')
    assert validate_file(rules / "ruleset.yaml") == []


def test_i18n_check_reports_it_too(rules: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reword(rules, "skirmish.flees", '''"{side} flees '{side}'"''')
    assert main(["i18n", "check", "--ruleset", str(rules)]) == 1
    out = capsys.readouterr()
    assert "shows {side} as literal text" in out.out + out.err


def test_a_placeholder_the_step_never_hands_is_an_error(rules: Path) -> None:
    locale = reword(rules, "skirmish.flees", '"{side} flees, {losses} lost."')
    (error,) = validate_file(rules / "ruleset.yaml")
    assert error.message.startswith("the message 'skirmish.flees' shows {losses}, but the "
                                    "`emit` step at ")
    assert "does not hand it a value 'losses'" in error.message
    assert error.location.file == str(locale)
    assert error.hint == "add it to the step's `with:` (with: {losses: ...}); it hands: side"


def test_a_key_without_a_text_in_the_reference_language_is_an_error_at_the_step(
        rules: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reword(rules, "skirmish.flees", None)
    (error,) = validate_file(rules / "ruleset.yaml")
    assert error.message == ("the message 'skirmish.flees' has no text in the reference "
                             "language (en)")
    assert Path(error.location.file).name == "ruleset.yaml"
    assert error.location.path.endswith(".emit")
    scenario = Path(__file__).parent / "skirmish" / "battle.yaml"
    assert scenario.is_file()


def test_the_values_a_step_hands_are_the_ones_it_is_checked_against(tmp_path: Path) -> None:
    """What every step of a real battle hands its message is what compile.steps.STEPS says
    it hands (plus its `with:`, and what a `set` sets or an `update` changes)."""
    from stratagem.api import run_battle
    from stratagem.compile.messages import message_uses
    from stratagem.compile.pipeline import load_ruleset

    shipped = Path(__file__).resolve().parents[2] / "examples"
    seen = 0
    for scenario in ("war-machine/border-ambush.yaml", "gurps/caliburn.yaml",
                     "mazes-minotaurs/sea-battle.yaml"):
        battle = run_battle(shipped / scenario)
        uses = {(u.key, u.location.line if u.location else None): u.hands
                for u in message_uses(load_ruleset(battle.ruleset.ref))}
        by_key: dict[str, set[str]] = {}
        for (key, _), hands in uses.items():
            by_key.setdefault(key, set()).update(hands)
        for event in battle.trace:
            if event.key in by_key:
                assert set(event.params) <= by_key[event.key], (event.key, event.params)
                seen += 1
    assert seen > 100


def test_the_engines_own_texts_are_checked_the_same_way(tmp_path: Path, monkeypatch) -> None:
    import stratagem.compile.messages as messages

    (tmp_path / "en.yaml").write_text(
        'kind: locale\nlanguage: en\nmessages:\n  report.title: "Battle report: \'{battle}\'"\n',
        encoding="utf-8")
    monkeypatch.setattr(messages, "ENGINE_LOCALES", tmp_path)
    (error,) = messages.engine_literal_errors()
    assert error.message.startswith("the message 'report.title' shows {battle} as literal text")
    assert (error.location.line, error.location.column) == (4, 34)
    monkeypatch.undo()
    assert messages.engine_literal_errors() == []
