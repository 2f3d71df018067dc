"""The engine's packages depend one way only (docs/architecture.md): a module imports only
from the layers below its own, never upward or sideways, and no modules import each other
in a cycle. Imports inside functions are kept for the command line's start-up."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "engine" / "stratagem"

#: The layers, lowest first. A module may import its own package and any lower layer.
LAYERS: list[set[str]] = [
    {"__init__", "errors", "resources", "_native"},
    {"dice", "expr"},
    {"model"},
    {"loader"},
    {"i18n"},
    {"compile", "interp"},
    {"report"},
    {"render"},  # documents built on the text report's reading of values (views)
    {"api"},
    {"odds", "campaign"},
    {"sweep"},  # the odds over a grid
    {"cli"},
    {"__main__"},
]
LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}
#: Only the command line imports inside functions (so that `stratagem --help` starts fast).
LAZY_ALLOWED = {"cli"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> list[tuple[str, int, bool]]:
    """The stratagem modules a file imports: (module, line, inside a function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, int, bool]] = []
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rsplit(".", 1)[0]

    def visit(node: ast.AST, lazy: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.If) and _type_checking(child.test):
                continue  # for the type checker only: nothing is imported when it runs
            if isinstance(child, ast.Import):
                found.extend((a.name, child.lineno, lazy) for a in child.names
                             if a.name.startswith("stratagem"))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    base = ".".join(package.split(".")[:len(package.split(".")) - child.level + 1]
                                    + ([child.module] if child.module else []))
                if base.startswith("stratagem"):
                    for a in child.names:
                        target = f"{base}.{a.name}"
                        found.append((target if _is_module(target) else base, child.lineno, lazy))
            visit(child, inner)

    visit(tree, False)
    return found


def _type_checking(test: ast.expr) -> bool:
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"


def _is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


FILES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_package_root_imports_nothing():
    # it holds the version only, so that every layer may read it
    assert imports(PACKAGE / "__init__.py") == []


def test_every_package_has_a_layer():
    assert {top(module_name(p)) for p in FILES} <= set(LAYER), (
        "a new package needs its place in LAYERS here and in docs/architecture.md")


@pytest.mark.parametrize("path", FILES, ids=lambda p: module_name(p))
def test_imports_go_down_only(path):
    source = top(module_name(path))
    wrong = []
    for target, line, lazy in imports(path):
        dest = top(target)
        if dest == source:
            continue
        if LAYER[dest] >= LAYER[source]:
            wrong.append(f"line {line}: {target} is not below {source}")
        if lazy and source not in LAZY_ALLOWED:
            wrong.append(f"line {line}: imports {target} inside a function")
    assert not wrong, "\n".join(wrong)


def test_no_modules_import_each_other_in_a_cycle():
    graph = {module_name(p): {t for t, _, _ in imports(p)} for p in FILES}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def walk(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                walk(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node, [])
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)
