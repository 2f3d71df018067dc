"""Every command's --help says what a newcomer needs (issue 18)."""

from __future__ import annotations

import pytest

from stratagem.cli import main


def _help(capsys, *args: str) -> str:
    with pytest.raises(SystemExit):
        main([*args, "--help"])
    return capsys.readouterr().out


def test_roll_help_writes_a_percentage_as_the_dice_language_does(capsys):
    out = _help(capsys, "roll")
    assert "4d+20%," in out and "%%" not in out


@pytest.mark.parametrize("command", [["i18n", "check"], ["i18n", "show"], ["battle"], ["odds"],
                                     ["sweep"], ["rate"], ["roll"], ["validate"], ["schema"]])
def test_every_command_has_examples(capsys, command):
    out = _help(capsys, *command)
    assert "examples:" in out
    assert f"stratagem {' '.join(command)} " in out.split("examples:", 1)[1]
