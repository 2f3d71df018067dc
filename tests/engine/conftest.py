from pathlib import Path

import pytest

HERE = Path(__file__).parent
SKIRMISH = HERE / "skirmish"


@pytest.fixture
def skirmish_scenario(tmp_path: Path):
    """Write a skirmish scenario next to a copy of the test ruleset and return its path."""

    def write(text: str) -> Path:
        path = tmp_path / "battle.yaml"
        path.write_text(text.replace("RULESET", str(SKIRMISH / "ruleset.yaml")), encoding="utf-8")
        return path

    return write
