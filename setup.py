"""Build step: compile the engine's hot modules to C with mypyc, for wheels only.

Everything else about the package is in pyproject.toml. Compiled code is a build product,
never part of a work tree: an editable install (``pip install -e .``) runs the sources, and
``pip install .`` or ``pip wheel .`` compiles the modules below where a C compiler exists
(the default; ``STRATAGEM_PURE=1`` builds a plain wheel). mypyc compiles them from the same
typed Python, so there is no second implementation to keep in step. Without a compiler the
wheel is plain Python, only slower; ``stratagem --version`` says which engine runs.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

#: The compiled modules, as paths of the `stratagem` package under engine/: every module
#: whose functions run inside a battle (compile/ruleset.py makes the formulas and table
#: functions that expressions call). A profile of a compiled build lists only the
#: functions that still run as Python (`benchmarks/interpreted.py`).
COMPILED = [
    "model/entities.py",
    "model/ruleset.py",
    "model/tables.py",
    "model/values.py",
    "model/steps.py",
    "interp/steps.py",
    "interp/context.py",
    "interp/trace.py",
    "interp/dicesource.py",
    "interp/decisions.py",
    "compile/ruleset.py",
    "expr/core.py",
    "expr/compiled.py",
    "expr/bounds.py",
    "dice/roller.py",
]
HERE = os.path.dirname(os.path.abspath(__file__))
WHEEL_COMMANDS = {"bdist_wheel", "build", "build_ext"}


def pure_wanted() -> bool:
    return os.environ.get("STRATAGEM_PURE", "") not in ("", "0")


def plain(err: object) -> None:
    reason = str(err).splitlines()[0] if str(err) else type(err).__name__
    if len(reason) > 160:
        reason = reason[:160] + "..."
    print(f"stratagem: could not compile the engine ({reason}); the wheel is plain Python, "
          "which is slower (`stratagem --version` says which engine runs)", file=sys.stderr)


def extensions() -> list:
    """mypyc's extensions, when this run builds a wheel and may compile."""
    commands = set(sys.argv[1:])
    if "editable_wheel" in commands or not WHEEL_COMMANDS & commands:
        return []  # an editable install, or pip asking for metadata: the sources run
    if {"--inplace", "-i"} & commands:
        return []  # never compiled into the work tree
    if pure_wanted() or sys.implementation.name != "cpython":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        plain("mypyc is not installed")
        return []
    target = os.path.join(HERE, "build", "mypyc")
    cwd = os.getcwd()
    os.chdir(os.path.join(HERE, "engine"))  # mypyc names modules from their folders
    try:
        # The libraries Stratagem uses are not installed where pip builds it: their types
        # are unknown there (mypy checks them in the tests, tests/test_types.py); a
        # `type: ignore` that a newer mypy no longer needs is no reason not to compile, nor
        # is a section of pyproject.toml for a module the compiled ones never import.
        flags = ["--ignore-missing-imports", "--allow-untyped-decorators",
                 "--no-warn-unused-ignores", "--no-warn-unused-configs",
                 "--config-file", os.path.join(HERE, "pyproject.toml"),
                 "--cache-dir", os.path.join(target, "cache")]
        exts = mypycify([*flags, *(f"stratagem/{path}" for path in COMPILED)], opt_level="2",
                        group_name="stratagem.native", multi_file=True,
                        target_dir=target)
    except SystemExit:  # mypyc printed the type errors it found
        plain("mypyc found the errors above")
        return []
    except Exception as err:  # noqa: BLE001 - plain Python still works
        plain(err)
        return []
    finally:
        os.chdir(cwd)
    engine = os.path.join(HERE, "engine")
    for ext in exts:
        ext.sources = [s if os.path.isabs(s) else os.path.join(engine, s) for s in ext.sources]
        ext.include_dirs = [d if os.path.isabs(d) else os.path.join(engine, d)
                            for d in ext.include_dirs]
        ext.include_dirs.append(os.path.join(target, "stratagem"))  # the group's headers
    return exts


class BuildExt(build_ext):
    """Compile in parallel; when compiling fails, build a plain wheel instead of failing."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as err:  # noqa: BLE001 - no C compiler: plain Python still works
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.unlink(path)
            plain(err)


class BuildPy(build_py):
    """``stratagem._data`` is the project's folder (its rulesets, schemas and grammar): it
    has data files only, not this script."""

    def find_package_modules(self, package: str, package_dir: str) -> list:
        if package == "stratagem._data":
            return []
        return super().find_package_modules(package, package_dir)


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt, "build_py": BuildPy})
