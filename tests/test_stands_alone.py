"""The repository stands alone: it names no folder outside itself, and the tests that read
the source texts skip, saying why, when those texts are absent."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import source_texts

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("rulesets", "examples", "docs", "schemas", "grammar", "engine/stratagem", "tests",
           "benchmarks")
#: An absolute path into this machine, the source texts' folder, or a text cited by file name.
#: (The pattern is built from parts so that this file does not itself name what it forbids.)
OUTSIDE = re.compile("|".join([r"/wo" + "rk/", r"shar" + "ed/seeds", r"GA" + r"PS\.md",
                               r"[Ss]eed" + r" 00\d", r"\d{3}_[0-9a-f]{16}\.txt"]))


def _texts() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "pyproject.toml"]
    for folder in FOLDERS:
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in
                  {".py", ".md", ".yaml", ".json", ".lark", ".toml", ".txt"}]
    return [p for p in files if p.is_file() and p != Path(source_texts.__file__)
            and p != Path(__file__)]


def test_no_file_names_a_folder_outside_the_repository() -> None:
    found = []
    for path in _texts():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "cite the book by name and section instead:\n" + "\n".join(found)


def test_the_source_text_tests_skip_with_a_reason_when_the_texts_are_absent(tmp_path) -> None:
    env = {**os.environ, "STRATAGEM_SOURCE_TEXTS": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-rs", "-p", "no:cacheprovider",
         str(ROOT / "tests" / "dice" / "test_dice_seeds.py")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\d+ passed", done.stdout + done.stderr)  # those that need no text run
    assert f"not found in {tmp_path} (set STRATAGEM_SOURCE_TEXTS" in done.stdout
