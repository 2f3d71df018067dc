"""Compiled code is a build product (setup.py, stratagem/_native.py): a wheel may carry the
engine compiled with mypyc; a work tree and an editable install always run the sources."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import stratagem
from stratagem import _native

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "engine" / "stratagem"


def test_a_folder_with_the_compiled_group_is_the_compiled_engine(tmp_path):
    assert _native.build(tmp_path) == "plain"
    (tmp_path / f"{_native.GROUP}{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    assert _native.build(tmp_path) == "compiled"


def test_the_work_tree_holds_no_compiled_code():
    compiled = [p for suffix in (".so", ".pyd", ".c") for p in PACKAGE.rglob(f"*{suffix}")]
    assert compiled == []


def test_a_checkout_runs_its_sources():
    if Path(stratagem.__file__).resolve().parent != PACKAGE:
        pytest.skip("this test run imports an installed stratagem, not this checkout")
    from stratagem.expr import core
    from stratagem.interp import steps

    for module in (steps, core):
        assert module.__file__.endswith(".py")
    assert _native.build() == "plain"


@pytest.mark.parametrize(("value", "pure"), [("", False), ("0", False), ("1", True),
                                             ("yes", True)])
def test_stratagem_pure_is_read_one_way(value, pure, monkeypatch):
    monkeypatch.setenv("STRATAGEM_PURE", value)
    assert _native.pure_wanted() is pure


def _stratagem(python: str, args: list[str]) -> str:
    return subprocess.run([python, "-m", "stratagem", *args], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout


def test_the_version_says_which_engine_runs():
    out = _stratagem(sys.executable, ["--version"])
    assert out.startswith(f"stratagem {stratagem.__version__} (")
    assert ("compiled engine" in out) == (_native.build() == "compiled")


#: .ci/run builds a compiled wheel into a venv of its own and names its Python here.
COMPILED = os.environ.get("STRATAGEM_COMPILED_PYTHON")


@pytest.mark.skipif(not COMPILED, reason="STRATAGEM_COMPILED_PYTHON names no Python with the "
                    "compiled wheel installed (.ci/run sets it)")
@pytest.mark.parametrize("scenario", ["war-machine-12v12.yaml", "gurps-12v12.yaml",
                                      "mazes-minotaurs-12v12.yaml"])
def test_the_compiled_wheel_and_the_sources_fight_the_same_battle(scenario):
    assert "compiled engine" in _stratagem(COMPILED, ["--version"])
    path = f"benchmarks/scenarios/{scenario}"
    for args in (["battle", path, "--seed", "5", "--json"],
                 ["battle", path, "--seed", "6", "--explain", "--lang", "ru"]):
        assert _stratagem(COMPILED, args) == _stratagem(sys.executable, args)


def test_the_wheel_lists_every_package_of_the_engine():
    # pyproject.toml lists the packages (the data package maps the project's root, so
    # setuptools cannot find them itself): a folder left out would be missing from the
    # installed wheel while the editable install still worked.
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    folders = {".".join(path.parent.relative_to(ROOT / "engine").parts)
               for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts}
    assert folders <= listed
