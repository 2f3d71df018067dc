"""Editing a GM's file in place: only the values that change are rewritten."""

from __future__ import annotations

import pytest

from stratagem.campaign.yamledit import Editor, block, scalar
from stratagem.loader.yamlio import load_yaml

ODD = """\
# A GM's army, written by hand.
kind: army      # the kind
name:   "The Host"

forces:
    # the first force, indented by four
    -   name: 'Orcs'   # single quotes
        count: 1000    # a comment in column 20
        tags: [a, b]

    - {name: Wolves,count: 80 , fatigue: none}   # no space after a comma
    - name: "Riders"
      count: 0x10
      notes: |
        a block scalar
        that must stay

trailing: true
"""


def edit(text: str, *changes: tuple) -> str:
    editor = Editor(text)
    for path, key, value in changes:
        editor.set(path, key, value)
    return editor.text()


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    old, new = before.splitlines(), after.splitlines()
    assert len(old) == len(new)
    return [(a, b) for a, b in zip(old, new) if a != b]


def test_a_changed_value_is_the_only_change_and_its_comment_keeps_its_column():
    after = edit(ODD, (("forces", 0), "count", 756))
    assert changed_lines(ODD, after) == [("        count: 1000    # a comment in column 20",
                                          "        count: 756     # a comment in column 20")]


def test_quoting_is_kept():
    after = edit(ODD, (("forces", 0), "name", "Orcs of the Hill"), ((), "name", "The Horde"))
    assert "    -   name: 'Orcs of the Hill' # single quotes" in after
    assert 'name:   "The Horde"' in after
    assert load_yaml("x.yaml", text=after)["forces"][0]["name"] == "Orcs of the Hill"


def test_a_key_added_to_a_flow_map_goes_inside_its_braces():
    after = edit(ODD, (("forces", 1), "retreats", 1), (("forces", 1), "count", 40))
    assert changed_lines(ODD, after) == [(
        "    - {name: Wolves,count: 80 , fatigue: none}   # no space after a comma",
        "    - {name: Wolves,count: 40 , fatigue: none, retreats: 1}   # no space after a comma")]


def test_a_key_added_to_a_block_map_is_a_new_line_beside_its_siblings():
    after = edit(ODD, (("forces", 2), "victories", 3))
    doc = load_yaml("x.yaml", text=after)
    assert doc["forces"][2]["victories"] == 3
    assert doc["forces"][2]["notes"] == "a block scalar\nthat must stay\n"
    assert "      victories: 3\n" in after
    # everything else, the block scalar and the blank line after it included, is untouched
    assert after.replace("      victories: 3\n", "", 1) == ODD


def test_a_key_added_after_a_nested_list_stays_in_its_map():
    after = edit(ODD, (("forces", 0), "fatigue", "serious"))
    doc = load_yaml("x.yaml", text=after)
    assert doc["forces"][0]["fatigue"] == "serious"
    assert doc["forces"][0]["tags"] == ["a", "b"]
    assert "        fatigue: serious\n" in after


def test_an_item_is_appended_to_a_list_in_its_style():
    editor = Editor(ODD)
    editor.append(("forces",), {"name": "Captured ballista", "count": 2})
    after = editor.text()
    doc = load_yaml("x.yaml", text=after)
    assert doc["forces"][-1] == {"name": "Captured ballista", "count": 2}
    assert doc["trailing"] is True
    flow = Editor("units: [{name: A, count: 1}]\n")
    flow.append(("units",), {"name": "B", "count": 2})
    assert flow.text() == "units: [{name: A, count: 1}, {name: B, count: 2}]\n"


def test_values_read_back_as_they_were_written():
    for value in ["none", "true", "12", "a: b", " padded", "Orcs (2)", "Калибурн", "it's", 3,
                  2.5, True, None, ["x", "y"], {"a": 1}]:
        text = f"key: {scalar(value)}\n"
        assert load_yaml("x.yaml", text=text)["key"] == value, text


def test_a_whole_value_is_replaced_by_block_lines():
    editor = Editor("kind: campaign\nscheduled: []   # written by stratagem\nday: 3\n")
    editor.replace((), "scheduled", block([{"day": 4, "call": "f", "with": {"x": 1}}], 2))
    after = editor.text()
    assert load_yaml("x.yaml", text=after)["scheduled"] == [{"day": 4, "call": "f",
                                                             "with": {"x": 1}}]
    assert after.endswith("day: 3\n")
    editor = Editor("kind: campaign\n")
    editor.replace((), "journal", block([{"n": 1}], 2))
    assert load_yaml("x.yaml", text=editor.text())["journal"] == [{"n": 1}]


@pytest.mark.parametrize("path", [("forces", 9), ("missing",), ("kind",)])
def test_a_place_that_is_not_a_map_is_refused(path):
    from stratagem.errors import StratagemError

    with pytest.raises(StratagemError):
        Editor(ODD).set(path, "count", 1)
