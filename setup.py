"""Build step: compile the engine's hot modules to C with mypyc (docs/performance.md).

Everything else about the package is in pyproject.toml. The modules below are the
interpreter's inner loop; mypyc compiles them from the same typed Python, so there is no
second implementation to keep in step. Without a C compiler (or with STRATAGEM_PURE=1)
the build skips them and Stratagem runs as plain Python, only slower.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

#: The compiled modules, as paths inside engine/ (the `stratagem` package).
COMPILED = [
    "model/entities.py",
    "model/ruleset.py",
    "model/tables.py",
    "model/compiler.py",
    "model/values.py",
    "interp/steps.py",
    "interp/context.py",
    "interp/trace.py",
    "interp/dicesource.py",
    "expr/core.py",
    "expr/compiled.py",
    "dice/roller.py",
]
HERE = Path(__file__).resolve().parent


def _native():  # engine/_native.py: how the sources are recorded, and checked at import
    spec = importlib.util.spec_from_file_location("_native", HERE / "engine" / "_native.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


native = _native()


def module_name(path: str) -> str:
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["stratagem", *parts])


def extensions() -> list:
    if os.environ.get("STRATAGEM_PURE") or sys.implementation.name != "cpython":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("stratagem: mypyc is not installed; building plain Python", file=sys.stderr)
        return []
    # mypyc names a module after its folders, and the package lives in engine/: give it a
    # copy of engine/ named `stratagem`.
    src = HERE / "build" / "mypyc-src"
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(HERE / "engine", src / "stratagem",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", native.MANIFEST))
    shutil.copy(HERE / "pyproject.toml", src / "pyproject.toml")  # the [tool.mypy] settings
    cwd = os.getcwd()
    os.chdir(src)
    try:
        # The libraries Stratagem uses are not installed where pip builds it: their types
        # are unknown there (mypy checks them in the tests, tests/test_types.py).
        flags = ["--ignore-missing-imports", "--allow-untyped-decorators"]
        exts = mypycify([*flags, *(f"stratagem/{path}" for path in COMPILED)], opt_level="2",
                        group_name="stratagem.native", multi_file=True)
    finally:
        os.chdir(cwd)
    for ext in exts:
        ext.sources = [str(src / s) if not os.path.isabs(s) else s for s in ext.sources]
        ext.include_dirs = [str(src / d) if not os.path.isabs(d) else d
                            for d in ext.include_dirs]
        # the group's headers are written under its package's folder
        ext.include_dirs.append(str(src / "build" / "stratagem"))
    return exts


class BuildExt(build_ext):
    """Compile in parallel; when compiling fails, build plain Python instead of failing;
    record the sources compiled, so that an edited source is never shadowed by its old
    compiled twin (stratagem/_native.py)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        if self.inplace:  # an editable install: the compiled modules go into engine/
            # Those left by an earlier one, that this build may not make again (a module no
            # longer compiled), would shadow their sources.
            for old in [*(HERE / "engine").rglob("*.so"), *(HERE / "engine").rglob("*.pyd")]:
                old.unlink()
            (HERE / "engine" / native.MANIFEST).unlink(missing_ok=True)
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as err:  # noqa: BLE001 - no C compiler: plain Python still works
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            plain(err)
            return
        # beside the compiled modules (in engine/ for an editable install)
        target = Path(self.get_ext_fullpath("stratagem.native__mypyc")).parent
        record = {module_name(p): native.checksum(HERE / "engine" / p) for p in COMPILED}
        (target / native.MANIFEST).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


class BuildPy(build_py):
    """``stratagem._data`` is the project's folder (its rulesets, schemas and grammar): it
    has data files only, not this script."""

    def find_package_modules(self, package: str, package_dir: str) -> list:
        if package == "stratagem._data":
            return []
        return super().find_package_modules(package, package_dir)


def plain(err: object) -> None:
    reason = str(err).splitlines()[0] if str(err) else type(err).__name__
    if len(reason) > 160:
        reason = reason[:160] + "..."
    print(f"stratagem: could not compile the engine ({reason}); it will run as plain Python, "
          "which is slower", file=sys.stderr)


def ext_modules() -> list:
    """mypyc's extensions when this run of setup.py builds; a stand-in when pip only asks for
    the package's metadata (it runs setup.py three times, and builds in the last)."""
    if not {"build", "build_ext", "bdist_wheel", "editable_wheel"} & set(sys.argv[1:]):
        return [Extension("stratagem.native__mypyc", sources=[])]
    try:
        return extensions()
    except SystemExit:  # mypyc printed the type errors it found
        plain("mypyc found the errors above")
        return []
    except Exception as err:  # noqa: BLE001 - plain Python still works
        plain(err)
        return []


setup(ext_modules=ext_modules(), cmdclass={"build_ext": BuildExt, "build_py": BuildPy})
