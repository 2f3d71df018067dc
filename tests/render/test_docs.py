"""docs/reports.md: every command on the page runs, its template example works, and its
worked interval is the one `odds` computes."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from stratagem.cli import main
from stratagem.render.stats import wilson

from .helpers import ROOT, parse_html, text_of

DOC = (ROOT / "docs" / "reports.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC, re.DOTALL)


COMMANDS = [line for block in blocks("sh") for line in block.splitlines()
            if line.startswith("stratagem ")]


def test_the_page_has_commands_of_every_report() -> None:
    assert {shlex.split(c)[1] for c in COMMANDS} == {"battle", "rate", "odds", "sweep", "roll"}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_runs(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(ROOT / a) if a.startswith("examples/") else a for a in shlex.split(command)[1:]]
    monkeypatch.chdir(tmp_path)  # files given to -o land here
    assert main(args) == 0, capsys.readouterr().err
    if "-o" in args:
        written = tmp_path / args[args.index("-o") + 1]
        assert written.stat().st_size > 0
        if written.suffix == ".html":
            parse_html(written.read_text(encoding="utf-8"))


def test_the_worked_interval() -> None:
    wins, n, share, low, high = re.search(
        r"(\d+) wins of ([\d,]+) is ([\d.]+) %, ([\d.]+) %–([\d.]+) %", DOC).groups()
    lo, hi = wilson(int(wins), int(n.replace(",", "")))
    assert float(share) == round(100 * int(wins) / int(n.replace(",", "")), 1)
    assert (float(low), float(high)) == (round(100 * lo, 1), round(100 * hi, 1))


def test_the_template_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (template,) = blocks("jinja")
    (css,) = blocks("css")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "battle.html.j2").write_text(template, encoding="utf-8")
    (tmp_path / "templates" / "report.css").write_text(css, encoding="utf-8")
    (tmp_path / "house.yaml").write_text("kind: setting\nextends: war-machine\n",
                                         encoding="utf-8")
    scenario = (ROOT / "docs" / "tutorial" / "ford.yaml").read_text(encoding="utf-8")
    scenario = re.sub(r"ruleset: .*", "ruleset: house.yaml", scenario)
    (tmp_path / "battle.yaml").write_text(scenario, encoding="utf-8")
    assert main(["battle", str(tmp_path / "battle.yaml"), "--format", "html"]) == 0
    page = parse_html(capsys.readouterr().out)
    assert text_of(page.find(".//p[@class='house']")) == "Played at the Tuesday table."
    assert css.strip() in text_of(page.find(".//style"))
