from pathlib import Path

import pytest

HERE = Path(__file__).parent
SKIRMISH = HERE / "skirmish"
ROOT = HERE.parents[1]


def file_kind(path: Path) -> str | None:
    """A YAML file's `kind:`, or None (broken files are some other test's business)."""
    from stratagem.loader.yamlio import load_yaml

    try:
        return load_yaml(path).get("kind")
    except Exception:  # noqa: BLE001
        return None


#: every YAML file of examples/, benchmarks/scenarios/ and tests/, and its kind
ON_DISK = {path: file_kind(path) for path in sorted({
    *ROOT.glob("examples/**/*.yaml"), *ROOT.glob("benchmarks/scenarios/*.yaml"),
    *ROOT.glob("tests/**/*.yaml")})}


@pytest.fixture
def skirmish_scenario(tmp_path: Path):
    """Write a skirmish scenario next to a copy of the test ruleset and return its path."""

    def write(text: str) -> Path:
        path = tmp_path / "battle.yaml"
        path.write_text(text.replace("RULESET", str(SKIRMISH / "ruleset.yaml")), encoding="utf-8")
        return path

    return write
