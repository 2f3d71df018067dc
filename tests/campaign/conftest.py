"""A small war in the skirmish test ruleset (tests/engine/skirmish), in a temporary folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from stratagem.cli import main

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "tests" / "engine" / "skirmish" / "ruleset.yaml"

RED = """\
# Red's host: the comments, the blank line and the odd spacing must survive.
kind: army
ruleset: RULESET
name: Red
skill: 12

units:
  - name: Spears      # the front rank
    count:   100
  - {name: "Bows", count: 50, armour: light}   # flow style, a quoted name
"""

BLUE = """\
kind: army
ruleset: RULESET
name: 'Blue'
skill: 11
units:
- name: Axes
  count: 120
  armour: heavy
"""

BATTLE = """\
kind: scenario
ruleset: RULESET
name: Border fight
sides:
  - army: red.yaml
  - army: blue.yaml
"""

CAMPAIGN = """\
# The border war
kind: campaign
name: Border war
ruleset: RULESET
armies:
  red: red.yaml       # Red's host
  blue: blue.yaml
day: 0
"""


@pytest.fixture
def war(tmp_path: Path) -> Path:
    """The folder of a campaign (war.yaml) with two armies and a scenario (battle.yaml)."""
    for name, text in (("red.yaml", RED), ("blue.yaml", BLUE), ("battle.yaml", BATTLE),
                       ("war.yaml", CAMPAIGN)):
        (tmp_path / name).write_text(text.replace("RULESET", str(SKIRMISH)), encoding="utf-8")
    return tmp_path


def example_war(folder: Path, system: str, files: tuple[str, ...], ruleset: str,
                armies: dict[str, str]) -> Path:
    """Copies of shipped example files in ``folder``, and a campaign (war.yaml) of them."""
    for name in files:
        shutil.copy(ROOT / "examples" / system / name, folder / name)
    listed = "".join(f"  {name}: {path}\n" for name, path in armies.items())
    (folder / "war.yaml").write_text(f"kind: campaign\nruleset: {ruleset}\narmies:\n{listed}",
                                     encoding="utf-8")
    return folder / "war.yaml"


def stratagem(capsys, *args: str) -> tuple[int, str]:
    """Run the command line in this process; its exit code and what it printed."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out + out.err


def subprocess_stratagem(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "stratagem", *args], cwd=cwd, text=True,
                          capture_output=True, env={**os.environ, **env}, timeout=300)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under a folder (lock files aside), by relative path."""
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.endswith(".lock")}
