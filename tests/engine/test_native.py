"""Which build of the engine runs (stratagem/_native.py): the modules setup.py compiled, or
their sources, never a compiled module older than its source."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import stratagem
from stratagem import _native

ROOT = Path(__file__).parents[2]


@pytest.fixture
def tree(tmp_path):
    """A package folder with a module and a subpackage, and the record a build left."""
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "a.py").write_text("X = 1\n")
    (tmp_path / "expr").mkdir()
    (tmp_path / "expr" / "__init__.py").write_text("Y = 2\n")
    record = {name: _native.checksum(_native.source_of(name, tmp_path))
              for name in ("stratagem.model.a", "stratagem.expr")}
    (tmp_path / _native.MANIFEST).write_text(json.dumps(record))
    return tmp_path


@pytest.fixture
def meta_path():
    saved = list(sys.meta_path)
    yield
    sys.meta_path[:] = saved


def test_a_module_and_a_package_have_their_sources(tree):
    assert _native.source_of("stratagem.model.a", tree) == tree / "model" / "a.py"
    assert _native.source_of("stratagem.expr", tree) == tree / "expr" / "__init__.py"


def test_an_edited_or_missing_source_is_stale(tree):
    record = json.loads((tree / _native.MANIFEST).read_text())
    assert _native.stale_modules(record, tree) == []
    (tree / "model" / "a.py").write_text("X = 2\n")  # same length, other text
    assert _native.stale_modules(record, tree) == ["stratagem.model.a"]
    (tree / "expr" / "__init__.py").unlink()
    assert _native.stale_modules(record, tree) == ["stratagem.expr", "stratagem.model.a"]


def test_fresh_compiled_modules_run(tree, meta_path, monkeypatch, capsys):
    monkeypatch.delenv("STRATAGEM_PURE", raising=False)
    assert _native.choose(tree) == "compiled"
    assert capsys.readouterr().err == ""


def test_after_an_edit_every_module_runs_from_its_source_and_says_so(tree, meta_path,
                                                                    monkeypatch, capsys):
    monkeypatch.delenv("STRATAGEM_PURE", raising=False)
    (tree / "model" / "a.py").write_text("X = 3  # edited\n")
    assert _native.choose(tree) == "sources"
    assert "model.a changed since the engine was compiled" in capsys.readouterr().err
    finder = sys.meta_path[0]
    assert finder.find_spec("stratagem.model.a").origin == str(tree / "model" / "a.py")
    spec = finder.find_spec("stratagem.expr")  # not edited, but compiled with the other
    assert spec.origin == str(tree / "expr" / "__init__.py")
    assert spec.submodule_search_locations == [str(tree / "expr")]
    assert finder.find_spec("stratagem.cli") is None  # never compiled: left to Python


def test_stratagem_pure_runs_the_sources_quietly(tree, meta_path, monkeypatch, capsys):
    monkeypatch.setenv("STRATAGEM_PURE", "1")
    assert _native.choose(tree) == "sources"
    assert capsys.readouterr().err == ""


def test_an_unreadable_record_means_the_sources(tree, meta_path, monkeypatch, capsys):
    monkeypatch.delenv("STRATAGEM_PURE", raising=False)
    (tree / _native.MANIFEST).write_text("{not json")
    assert _native.choose(tree) == "sources"
    assert "compiled.json" in capsys.readouterr().err


def test_a_plain_build_has_nothing_to_choose(tmp_path, meta_path):
    assert _native.choose(tmp_path) == "plain"


def test_compiled_modules_with_no_record_run_from_their_sources(tree, meta_path, capsys):
    # e.g. an older checkout, whose sources the compiled modules left in engine/ are not
    (tree / _native.MANIFEST).unlink()
    (tree / "model" / "a.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (tree / "expr" / "__init__.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (tree / "native__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    assert _native.unrecorded(tree) == {"stratagem.model.a", "stratagem.expr"}
    assert _native.choose(tree) == "sources"
    assert "without a record of their build" in capsys.readouterr().err
    assert sys.meta_path[0].find_spec("stratagem.model.a").origin == str(tree / "model" / "a.py")


@pytest.mark.parametrize(("value", "pure"), [("", False), ("0", False), ("1", True),
                                             ("yes", True)])
def test_stratagem_pure_means_the_same_at_install_and_at_run_time(value, pure, monkeypatch):
    monkeypatch.setenv("STRATAGEM_PURE", value)
    assert _native.pure_wanted() is pure


def _stratagem(args: list[str], pure: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "STRATAGEM_PURE"}
    if pure:
        env["STRATAGEM_PURE"] = "1"
    return subprocess.run([sys.executable, "-m", "stratagem", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)


def test_stratagem_pure_loads_the_engine_from_its_sources():
    code = ("import stratagem, stratagem.model.entities as e, stratagem.expr.core as c; "
            "print(stratagem.BUILD, e.__file__, c.__file__)")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "STRATAGEM_PURE": "1"},
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[0] in ("sources", "plain")
    assert out[1].endswith("entities.py") and out[2].endswith("core.py")


def _build_in_a_new_process(pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "STRATAGEM_PURE"}
    if pure:
        env["STRATAGEM_PURE"] = "1"
    return subprocess.run([sys.executable, "-c", "import stratagem; print(stratagem.BUILD)"],
                          env=env, capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize("scenario", ["war-machine-12v12.yaml", "gurps-12v12.yaml"])
def test_the_compiled_modules_and_their_sources_fight_the_same_battle(scenario):
    if _build_in_a_new_process(pure=False) != "compiled":
        pytest.skip("the engine is not compiled in this install: nothing to compare "
                    "(the README's install compiles it)")
    path = f"benchmarks/scenarios/{scenario}"
    for args in (["battle", path, "--seed", "5", "--json"],
                 ["battle", path, "--seed", "6", "--explain", "--lang", "ru"]):
        assert _stratagem(args, pure=False).stdout == _stratagem(args, pure=True).stdout


def test_the_version_says_whether_the_engine_is_compiled():
    out = _stratagem(["--version"], pure=False).stdout
    assert out.startswith(f"stratagem {stratagem.__version__} (")
    assert ("compiled engine" in out) == (_build_in_a_new_process(pure=False) == "compiled")
    assert "engine not compiled" in _stratagem(["--version"], pure=True).stdout


def test_the_wheel_lists_every_package_of_the_engine():
    # setup.py's packages come from pyproject.toml, written out (the package lives in
    # engine/, so setuptools cannot find them itself): a folder left out would be missing
    # from the installed wheel while the editable install still worked.
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    folders = {"stratagem" + "".join("." + part for part in path.parent.relative_to(
        ROOT / "engine").parts) for path in (ROOT / "engine").rglob("*.py")
        if "__pycache__" not in path.parts}
    assert folders <= listed
