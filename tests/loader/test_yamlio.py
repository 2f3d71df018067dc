"""Safe YAML reading: plain values, positions, and every hostile input stopped with a clear error."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from pathlib import Path

import pytest

from stratagem.errors import LimitError, StratagemError, ValidationFailed
from stratagem.loader.limits import LoadLimits
from stratagem.loader.yamlio import PosDict, PosList, load_yaml

ARMY = """\
kind: army
name: Red
units:
  - name: Pikes
    count: 120
  - {name: Riders, count: 30, quality: veteran}
'battle.winner': x
"""


def fail(text: str, limits: LoadLimits | None = None) -> StratagemError:
    with pytest.raises(StratagemError) as caught:
        load_yaml("t.yaml", limits or LoadLimits(), text=text)
    return caught.value


def test_containers_are_plain_dicts_and_lists_that_know_their_place() -> None:
    doc = load_yaml("army.yaml", text=ARMY)
    assert doc == {
        "kind": "army", "name": "Red", "battle.winner": "x",
        "units": [{"name": "Pikes", "count": 120},
                  {"name": "Riders", "count": 30, "quality": "veteran"}],
    }
    assert isinstance(doc, PosDict) and isinstance(doc["units"], PosList)
    assert (doc.file, doc.line, doc.col, doc.path) == ("army.yaml", 1, 1, "$")
    units = doc["units"]
    assert str(doc.where("units")) == "army.yaml:4:3 $.units"
    assert str(units.where(1)) == "army.yaml:6:5 $.units[1]"
    assert str(units[1].where("count")) == "army.yaml:6:27 $.units[1].count"
    assert str(units[1].key_where("count")) == "army.yaml:6:20 $.units[1].count"
    assert str(units[0].where("count")) == "army.yaml:5:12 $.units[0].count"
    assert units[0].path == "$.units[0]"
    assert str(doc.where("battle.winner")) == "army.yaml:7:18 $['battle.winner']"
    assert str(doc.where()) == "army.yaml:1:1 $"


def test_positions_survive_copy_and_pickle() -> None:
    doc = load_yaml("army.yaml", text=ARMY)
    for clone in (copy.deepcopy(doc), pickle.loads(pickle.dumps(doc))):
        assert clone == doc
        assert clone["units"][1].where("count") == doc["units"][1].where("count")


def test_scalars_follow_yaml_1_2_and_are_plain_python_types() -> None:
    doc = load_yaml("t.yaml", text=(
        "a: yes\nb: on\nc: true\nd: 0x1F\ne: 0o17\nf: 1_000\ng: 2.5\nh: .inf\ni: ~\n"
        "j: 2001-12-14\nk: '12'\nl: !!str 3\nm: >-\n  folded\n  text\nn: -3\n"
    ))
    assert doc == {"a": "yes", "b": "on", "c": True, "d": 31, "e": 15, "f": 1000, "g": 2.5,
                   "h": float("inf"), "i": None, "j": "2001-12-14", "k": "12", "l": "3",
                   "m": "folded text", "n": -3}
    assert [type(doc[k]) for k in "acdgkn"] == [str, bool, int, float, str, int]


def test_keys_are_always_text() -> None:
    assert load_yaml("t.yaml", text="1: a\nyes: b\nnull: c\n") == {"1": "a", "yes": "b",
                                                                   "null": "c"}


def test_aliases_and_merge_keys_expand_to_equal_values() -> None:
    doc = load_yaml("t.yaml", text=(
        "base: &b {ts: 1, cost: 2}\nunit: {<<: *b, cost: 5}\ncopy: *b\n"
    ))
    assert doc["unit"] == {"ts": 1, "cost": 5}
    assert doc["copy"] == {"ts": 1, "cost": 2}
    assert doc["copy"] is not doc["base"]
    assert doc["copy"].path == "$.copy"


def test_an_empty_file_is_none() -> None:
    assert load_yaml("t.yaml", text="# only a comment\n") is None


def test_tabs_in_indentation_get_a_friendly_error_with_the_tab_position() -> None:
    err = fail("units:\n  - a: 1\n  \tb: 2\n")
    assert err.message == "YAML does not allow tabs for indentation; use spaces"
    assert (err.location.line, err.location.column) == (3, 3)


@pytest.mark.parametrize("text, tag", [
    ("x: !!python/object/apply:os.system ['touch pwned']\n", "!!python/object/apply:os.system"),
    ("x: !!python/name:os.system\n", "!!python/name:os.system"),
    ("x: !include other.yaml\n", "!include"),
    ("x: !!binary aGVsbG8=\n", "!!binary"),
    ("x: !!set {a, b}\n", "!!set"),
])
def test_tags_are_errors_never_objects(text: str, tag: str, tmp_path: Path) -> None:
    err = fail(text)
    assert err.message == f"unknown YAML tag '{tag}'"
    assert (err.location.line, err.location.column) == (1, 4)
    assert not (tmp_path / "pwned").exists() and not Path("pwned").exists()


def test_python_tags_explain_why() -> None:
    assert "could run code" in fail("x: !!python/tuple [1, 2]\n").hint


def test_duplicate_keys_are_all_reported() -> None:
    with pytest.raises(ValidationFailed) as caught:
        load_yaml("t.yaml", text="a: 1\nb: {c: 1, c: 2}\na: 3\n")
    found = [(e.message, e.location.line, e.location.column) for e in caught.value.errors]
    assert found == [("duplicate key 'c' (first written at line 2)", 2, 11),
                     ("duplicate key 'a' (first written at line 1)", 3, 1)]


def test_an_alias_bomb_stops_at_the_bound() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    with pytest.raises(LimitError) as caught:
        load_yaml("bomb.yaml", text="\n".join(lines) + "\n")
    assert "more than 10000 values" in caught.value.message
    assert caught.value.location.file == "bomb.yaml"


def test_the_alias_bound_comes_from_the_limits() -> None:
    text = "a: &a [1, 2, 3]\nb: [*a, *a]\n"
    assert load_yaml("t.yaml", LoadLimits(max_alias_nodes=8), text=text)["b"] == [[1, 2, 3]] * 2
    with pytest.raises(LimitError):
        load_yaml("t.yaml", LoadLimits(max_alias_nodes=7), text=text)


def test_an_alias_inside_itself_is_an_error() -> None:
    assert "endless loop" in fail("a: &a [1, *a]\n").message


def test_the_file_size_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * 200 + "\n")
    with pytest.raises(LimitError) as caught:
        load_yaml(path, LoadLimits(max_file_bytes=100))
    assert caught.value.message == "file is too large (204 bytes; the limit is 100 bytes)"
    with pytest.raises(LimitError):
        load_yaml("t.yaml", LoadLimits(max_file_bytes=100), text="a: " + "x" * 200)


def test_nesting_is_bounded() -> None:
    with pytest.raises(LimitError) as caught:
        load_yaml("t.yaml", LoadLimits(max_depth=10), text="a: " + "[" * 12 + "]" * 12)
    assert "nested more than 10 levels" in caught.value.message
    assert isinstance(fail("a: " + "[" * 3000 + "]" * 3000), LimitError)


def test_limits_are_a_frozen_value() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        LoadLimits().max_file_bytes = 1  # type: ignore[misc]


@pytest.mark.parametrize("text, message, at", [
    ("a: [1, 2\nb: 3\n", "this list '[' is not closed", (1, 4)),
    ("a: {b: 1\n", "this map '{' is not closed", (1, 4)),
    ("a: 'x\n", "this quoted text is not closed", (1, 4)),
    ("a: b: c\n", "unexpected ':'", (1, 5)),
    ("a: 1\n---\nb: 2\n", "a second one starts here", (2, 1)),
    ("a: *nope\n", "unknown alias", (1, 4)),
    ("? [a, b]\n: 1\n", "a key must be plain text", (1, 3)),
    ("a: !!int ten\n", "'ten' is not a valid whole number", (1, 4)),
])
def test_syntax_errors_say_what_and_where(text: str, message: str, at: tuple[int, int]) -> None:
    err = fail(text)
    assert message in err.message
    assert (err.location.line, err.location.column) == at


def test_file_problems_are_user_errors(tmp_path: Path) -> None:
    assert fail_path(tmp_path / "missing.yaml").message == "file not found"
    assert fail_path(tmp_path).message == "is a folder, not a file"
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"name: ok\ncity: Caf\xe9\n")
    err = fail_path(latin)
    assert (err.message, err.location.line, err.location.column) == (
        "the file is not UTF-8 text", 2, 10)


def fail_path(path: Path) -> StratagemError:
    with pytest.raises(StratagemError) as caught:
        load_yaml(path)
    return caught.value


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_named_as_such_at_its_start(tmp_path, encoding):
    path = tmp_path / "army.yaml"
    path.write_bytes("kind: army\nname: Red\n".encode(encoding))
    with pytest.raises(StratagemError) as caught:
        load_yaml(path)
    assert caught.value.message == "the file is UTF-16 text, not UTF-8"
    assert (caught.value.location.line, caught.value.location.column) == (1, 1)
