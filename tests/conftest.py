"""Fixtures shared by every test folder."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest


#: The test rulesets (tests/engine/skirmish, tests/loader/fixtures) are named by absolute
#: and ``../`` paths from temporary folders and tests/broken: the suite lets every command
#: read them, as a GM would with ``--allow-path`` (docs/security.md). The hostile corpus
#: (tests/hostile) runs without it.
TESTS = Path(__file__).resolve().parent
#: the shipped examples, which tests name by absolute paths from temporary scenarios
EXAMPLES = TESTS.parent / "examples"


def pytest_configure(config: pytest.Config) -> None:
    """The user's cache (stratagem.loader.usercache) goes to a folder of this run, never the
    home folder: for the tests, what they import while collected, and the processes they
    start (``STRATAGEM_CACHE=off`` as it is given keeps it off)."""
    if os.environ.get("STRATAGEM_CACHE", "").strip().lower() != "off":
        folder = tempfile.mkdtemp(prefix="stratagem-cache-")
        config.stash[_CACHE] = folder
        os.environ["STRATAGEM_CACHE"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_CACHE, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


_CACHE = pytest.StashKey[str]()

#: What pytest gives a test parametrized over an empty list: a skip with this reason.
_EMPTY = "got empty parameter set"
_EMPTY_LIST = pytest.StashKey[str]()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test parametrized over an empty list (a glob that found no file, a corpus moved)
    fails instead of being skipped: a skip would leave the run green having run nothing."""
    for item in items:
        marks = [m for m in item.own_markers if m.name == "skip"
                 and str(m.kwargs.get("reason", "")).startswith(_EMPTY)]
        if marks:
            item.own_markers = [m for m in item.own_markers if m not in marks]
            item.stash[_EMPTY_LIST] = marks[0].kwargs["reason"]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if _EMPTY_LIST in item.stash:
        pytest.fail(f"{item.stash[_EMPTY_LIST]}: the list it runs over is empty", pytrace=False)


@pytest.fixture(autouse=True)
def _test_rulesets_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    from stratagem.compile import pipeline
    from stratagem.loader.access import Access

    monkeypatch.setenv("STRATAGEM_ALLOW_PATH", os.pathsep.join([str(TESTS), str(EXAMPLES)]))
    monkeypatch.setattr(pipeline.DEFAULT, "access", Access.allowing([TESTS, EXAMPLES]))


@pytest.fixture
def write(tmp_path: Path):
    """Write a YAML file (an army or a scenario) into a temporary folder; return its path."""

    def _write(text: str, name: str = "battle.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write
