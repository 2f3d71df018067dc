"""A command killed at any of its write points leaves, once the next command has run, the
old set of files or the new set: never a mix, never a file lost (STRATAGEM_FAULT_AT ends
the process at the named point, in a subprocess)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import snapshot, subprocess_stratagem

FIGHT = ("campaign", "fight", "war.yaml", "battle.yaml", "--seed", "1")
ADVANCE = ("campaign", "advance", "war.yaml", "--days", "7")


def points(n: int) -> list[str]:
    return ([f"temp-{i}" for i in range(1, n + 1)] + ["record"]
            + [f"replace-{i}" for i in range(1, n + 1)] + ["done"])


def outcome(war: Path, tmp_path: Path, name: str, prepare: tuple[str, ...] | None,
            command: tuple[str, ...]) -> tuple[Path, dict[str, str], dict[str, str]]:
    """A copy of the war (after ``prepare``), its files before and after ``command``."""
    folder = tmp_path / name
    shutil.copytree(war, folder)
    if prepare:
        assert subprocess_stratagem(folder, *prepare).returncode == 0
    old = snapshot(folder)
    clean = tmp_path / f"{name}-clean"
    shutil.copytree(folder, clean)
    done = subprocess_stratagem(clean, *command)
    assert done.returncode == 0, done.stderr
    return folder, old, snapshot(clean)


@pytest.mark.parametrize("prepare, command, files", [(None, FIGHT, 5), (FIGHT, ADVANCE, 3)],
                         ids=["fight", "advance"])
def test_a_crash_at_every_write_point_leaves_the_old_or_the_new_files(war, tmp_path, prepare,
                                                                      command, files):
    folder, old, new = outcome(war, tmp_path, "base", prepare, command)
    assert len([k for k in new if old.get(k) != new[k]]) == files
    for point in points(files):
        trial = tmp_path / point
        shutil.copytree(folder, trial)
        crashed = subprocess_stratagem(trial, *command, STRATAGEM_FAULT_AT=point)
        assert crashed.returncode == 86, (point, crashed.stderr)
        after = subprocess_stratagem(trial, "campaign", "status", "war.yaml")
        assert after.returncode == 0, (point, after.stderr)
        found = snapshot(trial)
        expected = old if point.startswith("temp-") else new
        assert found == expected, point
        if point != "done":
            assert "interrupted" in after.stdout, point
        # the war goes on from there as if nothing had happened
        if expected is old:
            again = subprocess_stratagem(trial, *command)
            assert again.returncode == 0 and snapshot(trial) == new, point
        assert subprocess_stratagem(trial, "campaign", "replay", "war.yaml").returncode == 0


def test_a_record_naming_a_file_that_is_neither_old_nor_new_stops_with_advice(war, tmp_path):
    folder, old, new = outcome(war, tmp_path, "base", None, FIGHT)
    crashed = subprocess_stratagem(folder, *FIGHT, STRATAGEM_FAULT_AT="replace-3")
    assert crashed.returncode == 86
    (folder / "red.yaml").write_text("kind: army\n", encoding="utf-8")
    (folder / ".red.yaml.stratagem-new").unlink(missing_ok=True)
    after = subprocess_stratagem(folder, "campaign", "status", "war.yaml")
    assert after.returncode == 1
    assert "neither the old nor the new file" in after.stderr and "Traceback" not in after.stderr
