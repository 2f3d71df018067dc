"""The overlay merge rules, one test per rule, and where merged values say they came from."""

from __future__ import annotations

import pytest

from stratagem.errors import StratagemError, ValidationFailed
from stratagem.loader.merge import identity, merge, resolve_markers
from stratagem.loader.yamlio import PosDict, load_yaml


def y(text: str, file: str = "t.yaml") -> PosDict:
    return load_yaml(file, text=text)  # type: ignore[no-any-return]


def test_maps_merge_key_by_key_recursively() -> None:
    base = y("a: 1\nm: {x: 1, n: {p: 1, q: 2}}\n")
    over = y("b: 2\nm: {y: 2, n: {q: 3}}\n")
    assert merge(base, over) == {"a": 1, "m": {"x": 1, "n": {"p": 1, "q": 3}, "y": 2}, "b": 2}
    assert list(merge(base, over)) == ["a", "m", "b"]


def test_identified_lists_merge_item_by_item_keeping_the_base_order() -> None:
    base = y("rows: [{key: a, v: 1, w: 1}, {key: b, v: 2}]\n")
    over = y("rows: [{key: c, v: 3}, {key: a, v: 9}]\n")
    assert merge(base, over)["rows"] == [{"key": "a", "v": 9, "w": 1}, {"key": "b", "v": 2},
                                         {"key": "c", "v": 3}]


@pytest.mark.parametrize("ident, base_id, new_id", [
    ("id", "a", "z"),
    ("key", 3, 4),
    ("keys", "[a, b]", "[b, a]"),
    ("range", "[null, 2]", "[3, null]"),
])
def test_each_identity_key_identifies(ident: str, base_id: str, new_id: str) -> None:
    base = y(f"rows:\n  - {{{ident}: {base_id}, v: 1}}\n")
    over = y(f"rows:\n  - {{{ident}: {base_id}, v: 2}}\n  - {{{ident}: {new_id}, v: 3}}\n")
    rows = merge(base, over)["rows"]
    assert [r["v"] for r in rows] == [2, 3]


def test_id_is_preferred_over_key() -> None:
    assert identity({"id": "x", "key": "k"}) == ("id", "x")
    assert identity({"keys": ["a", "b"], "range": [1, 2]}) == ("keys", ("a", "b"))
    assert identity({"v": 1}) is None and identity(3) is None


def test_other_lists_and_scalars_are_replaced() -> None:
    base = y("enum: [a, b, c]\nsteps: [{set: {x: 1}}, {set: {y: 2}}]\nn: 1\nm: {k: 1}\n")
    over = y("enum: [d]\nsteps: [{set: {z: 3}}]\nn: two\nm: 5\n")
    assert merge(base, over) == {"enum": ["d"], "steps": [{"set": {"z": 3}}], "n": "two", "m": 5}


def test_a_list_with_some_unidentified_items_is_replaced() -> None:
    base = y("rows: [{key: a, v: 1}]\n")
    over = y("rows: [{key: b, v: 2}, {v: 3}]\n")
    assert merge(base, over)["rows"] == [{"key": "b", "v": 2}, {"v": 3}]


def test_replace_puts_a_value_in_place_of_merging() -> None:
    base = y("m: {a: 1, b: 2}\nrows: [{key: a, v: 1}]\n")
    over = y("m: {$replace: {c: 3}}\nrows: {$replace: [{key: z, v: 0}]}\n")
    assert merge(base, over) == {"m": {"c": 3}, "rows": [{"key": "z", "v": 0}]}


def test_replace_as_an_item_replaces_the_item_with_that_identity() -> None:
    base = y("rows: [{key: a, v: 1, w: 1}, {key: b, v: 2}]\n")
    over = y("rows: [{$replace: {key: a, v: 5}}, {$replace: {key: c, v: 6}}]\n")
    assert merge(base, over)["rows"] == [{"key": "a", "v": 5}, {"key": "b", "v": 2},
                                         {"key": "c", "v": 6}]


def test_remove_deletes_a_key_or_an_item() -> None:
    base = y("a: 1\nb: 2\nrows: [{key: x}, {key: y}, {key: z}]\n")
    over = y("b: {$remove: true}\nrows: [{key: y, $remove: true}]\n")
    assert merge(base, over) == {"a": 1, "rows": [{"key": "x"}, {"key": "z"}]}


def test_removing_what_is_not_there_is_an_error_at_the_overlay() -> None:
    base = y("a: 1\nrows: [{key: x}]\n", "base.yaml")
    over = y("zz: {$remove: true}\nrows: [{key: q, $remove: true}]\n", "over.yaml")
    with pytest.raises(ValidationFailed) as caught:
        merge(base, over)
    found = [(e.message, str(e.location)) for e in caught.value.errors]
    assert found == [
        ("nothing to remove: 'zz' is not in what this file extends", "over.yaml:1:5 $.zz"),
        ("nothing to remove: no item with key 'q' in what this file extends",
         "over.yaml:2:8 $.rows[0]"),
    ]


@pytest.mark.parametrize("text, message", [
    ("a: {$replace: 1, b: 2}\n", "'$replace' must be the only key of its map"),
    ("a: {$remove: yes}\n", "'$remove' must be true"),
    ("a: {$remove: true, b: 1}\n", "'$remove' must be the only key of its map"),
])
def test_misused_markers_are_errors(text: str, message: str) -> None:
    with pytest.raises(StratagemError) as caught:
        merge(y("a: {b: 1}\n"), y(text))
    assert caught.value.message.startswith(message)


def test_merged_values_keep_the_file_and_place_they_were_written() -> None:
    base = y("rows:\n  - {key: a, v: 1}\n  - {key: b, v: 2, w: 7}\nn: 1\n", "base.yaml")
    over = y("rows:\n  - {key: b, v: 3}\n  - {key: c, v: 4}\n", "over.yaml")
    merged = merge(base, over)
    rows = merged["rows"]
    assert str(rows[0].where("v")) == "base.yaml:2:17 $.rows[0].v"
    assert str(rows[1].where("v")) == "over.yaml:2:17 $.rows[1].v"
    assert str(rows[1].where("w")) == "base.yaml:3:23 $.rows[1].w"
    assert str(rows[1].where("key")) == "over.yaml:2:11 $.rows[1].key"
    assert str(rows.where(2)) == "over.yaml:3:5 $.rows[2]"
    assert rows[2].path == "$.rows[2]"
    assert str(merged.where("n")) == "base.yaml:4:4 $.n"


def test_paths_follow_the_merged_order_after_a_removal() -> None:
    base = y("rows: [{key: a, v: {x: 1}}, {key: b, v: {x: 2}}]\n")
    over = y("rows: [{key: a, $remove: true}]\n")
    rows = merge(base, over)["rows"]
    assert rows[0]["v"].path == "$.rows[0].v"


def test_merge_does_not_change_its_inputs() -> None:
    base = y("m: {a: 1}\nrows: [{key: a, v: 1}]\n")
    over = y("m: {b: 2}\nrows: [{key: a, v: 2}, {key: b, $remove: true}]\n")
    before = (repr(base), repr(over))
    with pytest.raises(StratagemError) as caught:
        merge(base, over)
    # the last item failed, after the others were merged
    assert caught.value.message == "nothing to remove: no item with key 'b' in what this file extends"
    merge(base, y("m: {b: 2}\nrows: [{key: a, v: 2}]\n"))
    assert (repr(base), repr(over)) == before


def test_plain_dicts_merge_too() -> None:
    assert merge({"a": {"b": 1}}, {"a": {"c": 2}}) == {"a": {"b": 1, "c": 2}}


def test_a_document_without_a_base_has_its_markers_resolved() -> None:
    assert resolve_markers(y("a: {$replace: [1]}\n")) == {"a": [1]}
    with pytest.raises(StratagemError) as caught:
        resolve_markers(y("a: 1\nb: {$remove: true}\n"))
    assert caught.value.message == "nothing to remove: 'b' is not in what this file extends"
