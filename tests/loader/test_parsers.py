"""ruamel's C parser (ruamel.yaml.clib, used when installed) and its pure-Python parser
read every file alike: the same values, the same positions, the same errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from ruamel.yaml.parser import Parser

from stratagem.errors import StratagemError, ValidationFailed
from stratagem.loader import yamlio
from stratagem.loader.yamlio import PosDict, PosList

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    p for folder in ("rulesets", "examples", "docs/tutorial", "tests/broken", "benchmarks")
    for p in (ROOT / folder).rglob("*.yaml")
)


def _shape(value: Any) -> Any:
    """A value with every position it carries, comparable with ==. (An empty value, as in
    `return:`, is placed right after its key by libyaml and at the next token by the pure
    parser: either place serves an error message, so it is left out.)"""
    if isinstance(value, PosDict):
        return ("map", value.pos, value.path,
                [(k, value.key_pos.get(k), value.value_pos.get(k) if v is not None else None,
                  _shape(v)) for k, v in value.items()])
    if isinstance(value, PosList):
        return ("list", value.pos, value.path, list(value.item_pos),
                [_shape(v) for v in value])
    return (type(value).__name__, value)


def _read(path: Path, pure: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(yamlio, "PURE_PYTHON_PARSER", pure)
    try:
        return _shape(yamlio.load_yaml(path))
    except ValidationFailed as err:
        return ("errors", [e.render() for e in err.errors])
    except StratagemError as err:
        return ("error", err.render())


def test_the_c_parser_is_installed() -> None:
    # Otherwise the comparison below would compare the pure parser with itself.
    assert YAML(typ="safe", pure=False).Parser is not Parser


def test_the_corpus_covers_good_and_broken_files() -> None:
    assert len(FILES) > 100
    assert any("broken" in p.parts for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_both_parsers_read_a_file_alike(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _read(path, False, monkeypatch) == _read(path, True, monkeypatch)
