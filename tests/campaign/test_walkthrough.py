"""docs/campaign.md: both walkthroughs run as the page shows them, and say what the books say."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

from conftest import ROOT, stratagem

from stratagem.api import load_army
from stratagem.campaign.war import load_campaign
from stratagem.loader.yamlio import load_yaml

DOC = (ROOT / "docs" / "campaign.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    return DOC.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


def steps(text: str) -> list[tuple[str, list[str]]]:
    """Each command of a section, with the lines the page shows of its output."""
    out: list[tuple[str, list[str]]] = []
    for kind, body in re.findall(r"```(sh|text)\n(.*?)```", text, re.DOTALL):
        if kind == "sh":
            out.extend((line, []) for line in body.splitlines() if line.startswith("stratagem"))
        else:
            out[-1][1].extend(line for line in body.splitlines() if line.strip())
    return out


def walk(capsys, monkeypatch, folder: Path, title: str) -> list[str]:
    monkeypatch.chdir(folder)
    outputs = []
    for command, shown in steps(section(title)):
        code, out = stratagem(capsys, *shlex.split(command)[1:], "--lang", "en")
        assert code == 0, (command, out)
        lines = out.splitlines()
        for line in shown:
            assert line in lines, (command, line, out)
        outputs.append(out)
    return outputs


def test_the_red_fang_war(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "war"
    shutil.copytree(ROOT / "docs" / "campaign" / "war-machine", folder)
    before = load_army(folder / "barony.yaml").side.forces[0]
    outputs = walk(capsys, monkeypatch, folder, "Walkthrough: the Red Fang war (War Machine)")
    assert len(outputs) == 9
    campaign = load_campaign(folder / "war.yaml")
    # three battles over two months
    assert [e["did"] for e in campaign.journal].count("fight") == 3
    assert campaign.day == 60
    # wounded came back: the riders' count rose as time passed
    advances = [e for e in campaign.journal if e["did"] == "advance"]
    assert any("Riders.count" in c for e in advances for c in e["changes"])
    # victories changed the experience factor, and with it the BFR (the Rules Cyclopedia, War Machine, Шаг 1)
    riders = load_yaml(folder / "barony.yaml")["forces"][0]
    assert riders["victories"] == before.victories + 3
    from stratagem.api import rate_army

    rated = rate_army(folder / "barony.yaml").side.forces[0]
    assert rated.experience == before.experience + 3
    # the GM's comments and layout survived every write
    text = (folder / "barony.yaml").read_text(encoding="utf-8")
    assert "  # Sir Aldric's household cavalry\n" in text
    assert "count: 60             # troops, not counting the leader" in text
    assert "# farmers with spears and slings" in text


def test_caliburns_war(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "war"
    shutil.copytree(ROOT / "docs" / "campaign" / "gurps", folder)
    for name in ("caliburn.yaml", "megalos-bannock.yaml", "al-wazif-raiders.yaml"):
        shutil.copy(ROOT / "examples" / "gurps" / name, folder / name)
    walk(capsys, monkeypatch, folder, "Walkthrough: Caliburn's war (GURPS)")
    thugs = load_army(folder / "megalos-bannock.yaml").side.units[0]
    # GURPS Mass Combat, «Пример боя»: «другие стали более опытными и теперь считаются Зелеными» after
    # one battle; a second leaves them Green (our reading: Green is 1-2 battles)
    assert thugs.name == "Caliburn's thugs"
    assert (thugs.quality, thugs.battles) == ("green", 2)
    history = folder / "war.history" / "1" / "bannock.yaml"
    assert "quality: inexperienced" in history.read_text(encoding="utf-8")
