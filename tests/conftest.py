"""Fixtures shared by every test folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def write(tmp_path: Path):
    """Write a YAML file (an army or a scenario) into a temporary folder; return its path."""

    def _write(text: str, name: str = "battle.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write
