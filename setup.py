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


#: Where mypyc reads the sources it compiles (a copy of engine/ named `stratagem`).
SRC = HERE / "build" / "mypyc-src"


def extensions() -> list:
    if native.pure_wanted() or sys.implementation.name != "cpython":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("stratagem: mypyc is not installed; building plain Python", file=sys.stderr)
        return []
    # mypyc names a module after its folders, and the package lives in engine/: give it a
    # copy of engine/ named `stratagem` (also what the record of the build is taken from).
    shutil.rmtree(SRC, ignore_errors=True)
    shutil.copytree(HERE / "engine", SRC / "stratagem",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", native.MANIFEST))
    shutil.copy(HERE / "pyproject.toml", SRC / "pyproject.toml")  # the [tool.mypy] settings
    cwd = os.getcwd()
    os.chdir(SRC)
    try:
        # The libraries Stratagem uses are not installed where pip builds it: their types
        # are unknown there (mypy checks them in the tests, tests/test_types.py); and a
        # `type: ignore` that a newer mypy no longer needs is no reason not to compile.
        flags = ["--ignore-missing-imports", "--allow-untyped-decorators",
                 "--no-warn-unused-ignores"]
        exts = mypycify([*flags, *(f"stratagem/{path}" for path in COMPILED)], opt_level="2",
                        group_name="stratagem.native", multi_file=True)
    finally:
        os.chdir(cwd)
    for ext in exts:
        ext.sources = [str(SRC / s) if not os.path.isabs(s) else s for s in ext.sources]
        ext.include_dirs = [str(SRC / d) if not os.path.isabs(d) else d
                            for d in ext.include_dirs]
        # the group's headers are written under its package's folder
        ext.include_dirs.append(str(SRC / "build" / "stratagem"))
    return exts


def clear_compiled(folder: Path) -> None:
    """Remove compiled modules and their record from a package folder: those of an earlier
    build, which this one may not make again (a module no longer compiled, a build that
    ends as plain Python), would shadow their sources."""
    for old in [*folder.rglob("*.so"), *folder.rglob("*.pyd"), *folder.rglob(native.MANIFEST)]:
        old.unlink()


class BuildExt(build_ext):
    """Compile in parallel; when compiling fails, build plain Python instead of failing;
    record the sources compiled, so that an edited source is never shadowed by its old
    compiled twin (stratagem/_native.py)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        # an editable install puts the compiled modules in engine/, a wheel in build/lib
        clear_compiled(HERE / "engine" if self.inplace else Path(self.build_lib) / "stratagem")
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as err:  # noqa: BLE001 - no C compiler: plain Python still works
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            plain(err)
            return
        # beside the compiled modules; the checksums of the copy mypyc compiled (an edit
        # saved while it compiled is then seen as one)
        target = Path(self.get_ext_fullpath("stratagem.native__mypyc")).parent
        record = {module_name(p): native.checksum(SRC / "stratagem" / p) for p in COMPILED}
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
          "which is slower (`stratagem --version` says which engine runs)", file=sys.stderr)


def ext_modules() -> list:
    """mypyc's extensions when this run of setup.py builds; a stand-in when pip only asks for
    the package's metadata (it runs setup.py three times, and builds in the last)."""
    commands = set(sys.argv[1:])
    if not {"build", "build_ext", "bdist_wheel", "editable_wheel"} & commands:
        return [Extension("stratagem.native__mypyc", sources=[])]
    try:
        exts = extensions()
    except SystemExit:  # mypyc printed the type errors it found
        plain("mypyc found the errors above")
        exts = []
    except Exception as err:  # noqa: BLE001 - plain Python still works
        plain(err)
        exts = []
    if not exts:
        # No build_ext will run: clear what an earlier compiled build left where this one
        # puts the package, engine/ (an editable install) or build/ (a wheel).
        if "editable_wheel" in commands or {"--inplace", "-i"} & commands:
            clear_compiled(HERE / "engine")
        for lib in (HERE / "build").glob("lib*"):
            clear_compiled(lib / "stratagem")
    return exts


setup(ext_modules=ext_modules(), cmdclass={"build_ext": BuildExt, "build_py": BuildPy})
