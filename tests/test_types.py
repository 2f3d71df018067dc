"""The engine type-checks: mypy over the whole package, with the settings in pyproject.toml."""

from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parent.parent


# setup.py compiles the engine with mypyc, which checks it as the Python that installs it:
# every version the package supports must pass.
@pytest.mark.parametrize("version", ["3.11", "3.12", "3.13"])
def test_the_engine_type_checks(version, tmp_path, monkeypatch):
    # A src layout: pyproject.toml's mypy_path finds `stratagem` in engine/.
    monkeypatch.chdir(ROOT)
    report, errors, status = api.run([
        "-p", "stratagem",
        "--config-file", str(ROOT / "pyproject.toml"),
        "--cache-dir", str(tmp_path / "mypy_cache"),
        "--python-version", version,
    ])
    assert status == 0, f"mypy found type errors (Python {version}):\n{report}{errors}"
