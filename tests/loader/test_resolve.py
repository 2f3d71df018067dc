"""Finding rulesets, and loading a document with its include: files and extends: chain."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from stratagem.errors import LimitError, StratagemError, ValidationFailed
from stratagem.loader import resolve
from stratagem.loader.limits import LoadLimits
from stratagem.loader.resolve import RulesetInfo, find_ruleset, list_rulesets, load_document

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def shipped(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Pretend the fixtures folder is the shipped rulesets folder (it holds 'skirmish')."""
    monkeypatch.setattr(resolve, "_shipped_root", lambda: FIXTURES)
    return FIXTURES


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_rulesets_and_settings_are_found_by_id(shipped: Path) -> None:
    assert find_ruleset("skirmish") == shipped / "skirmish" / "ruleset.yaml"
    assert find_ruleset("skirmish/border") == shipped / "skirmish" / "settings" / "border.yaml"


def test_paths_are_relative_to_the_referring_folder(shipped: Path) -> None:
    assert find_ruleset("skirmish/ruleset.yaml", FIXTURES) == FIXTURES / "skirmish/ruleset.yaml"
    assert find_ruleset("./skirmish", FIXTURES) == FIXTURES / "skirmish" / "ruleset.yaml"
    with pytest.raises(StratagemError) as caught:
        find_ruleset("./nowhere.yaml", FIXTURES)
    assert caught.value.message == "file not found: ./nowhere.yaml"


def test_an_unknown_id_suggests_the_closest(shipped: Path) -> None:
    with pytest.raises(StratagemError) as caught:
        find_ruleset("skirmsh")
    assert caught.value.message == "unknown ruleset 'skirmsh'"
    assert caught.value.hint.startswith("did you mean 'skirmish'")


def test_an_id_cannot_climb_out_of_the_rulesets_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a ruleset where the id would lead if it could climb: beside the shipped folder
    root = tmp_path / "rulesets"
    shutil.copytree(FIXTURES / "skirmish", root / "skirmish")
    outside = write(tmp_path, "outside/ruleset.yaml", "kind: ruleset\nid: outside\n")
    monkeypatch.setattr(resolve, "_shipped_root", lambda: root)
    monkeypatch.chdir(write(tmp_path, "elsewhere/x", "").parent)  # not through the current folder
    assert find_ruleset(str(tmp_path / "outside")) == outside  # there, named as a path
    assert find_ruleset("skirmish") == root / "skirmish" / "ruleset.yaml"
    with pytest.raises(StratagemError) as caught:
        find_ruleset("skirmish/../../outside")
    assert caught.value.message == "unknown ruleset 'skirmish/../../outside'"


def test_list_rulesets_gives_ids_titles_and_settings(shipped: Path) -> None:
    assert list_rulesets() == [
        RulesetInfo("skirmish", "Skirmish (a test ruleset)", shipped / "skirmish" / "ruleset.yaml",
                    ("skirmish/border",)),
    ]


def test_includes_merge_in_order_after_the_file_itself(tmp_path: Path) -> None:
    main = write(tmp_path, "main.yaml",
                 "kind: ruleset\nid: x\ninclude: [one.yaml, sub/two.yaml]\nconstants: {a: 1, b: 1}\n")
    write(tmp_path, "one.yaml", "constants: {b: 2, c: 2}\n")
    write(tmp_path, "sub/two.yaml", "kind: ruleset\ninclude: three.yaml\nconstants: {c: 3}\n")
    write(tmp_path, "sub/three.yaml", "constants: {d: 4}\n")
    doc = load_document(main)
    assert doc == {"kind": "ruleset", "id": "x", "constants": {"a": 1, "b": 2, "c": 3, "d": 4}}
    assert doc["constants"].where("c").file == str(tmp_path / "sub" / "two.yaml")


def test_extends_merges_over_the_base_and_keeps_the_top_kind(shipped: Path,
                                                             tmp_path: Path) -> None:
    top = write(tmp_path, "house.yaml",
                "kind: setting\nextends: skirmish/border\nconstants: {base_morale: 12}\n")
    doc = load_document(top)
    assert doc["kind"] == "setting"
    assert doc["constants"] == {"base_morale": 12}
    assert doc["enums"]["terrain"] == ["open", "hills", "forest", "marsh"]  # from border
    assert "odds" in doc["tables"]  # from the ruleset's include
    assert doc["constants"].where("base_morale").file == str(top)
    assert doc["tables"]["odds"].file.endswith("tables.yaml")


def test_an_extends_loop_is_an_error(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "kind: setting\nextends: ./b.yaml\n")
    write(tmp_path, "b.yaml", "kind: setting\nextends: ./a.yaml\n")
    with pytest.raises(StratagemError) as caught:
        load_document(a)
    assert caught.value.message.startswith("extends/include loop: ")
    assert "a.yaml → " in caught.value.message and "b.yaml → " in caught.value.message
    assert (caught.value.location.line, caught.value.location.column) == (2, 10)


def test_an_include_loop_is_an_error(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "kind: ruleset\nid: a\ninclude: [b.yaml]\n")
    write(tmp_path, "b.yaml", "include: [a.yaml]\n")
    with pytest.raises(StratagemError) as caught:
        load_document(a)
    assert caught.value.message.startswith("extends/include loop: ")


@pytest.mark.parametrize("included, message", [
    ("kind: army\n", "an included file must be of the same kind"),
    ("extends: skirmish\n", "an included file cannot 'extends' another"),
    ("- a list\n", "expected a map of keys"),
])
def test_bad_included_files(tmp_path: Path, included: str, message: str) -> None:
    main = write(tmp_path, "main.yaml", "kind: ruleset\nid: m\ninclude: [part.yaml]\n")
    write(tmp_path, "part.yaml", included)
    with pytest.raises(StratagemError) as caught:
        load_document(main)
    assert message in caught.value.message


def test_errors_of_several_included_files_are_all_reported(tmp_path: Path) -> None:
    main = write(tmp_path, "main.yaml",
                 "kind: ruleset\nid: m\ninclude: [a.yaml, missing.yaml, b.yaml]\n")
    write(tmp_path, "a.yaml", "x: [1\n")
    write(tmp_path, "b.yaml", "y: 1\ny: 2\n")
    with pytest.raises(ValidationFailed) as caught:
        load_document(main)
    found = [(Path(e.location.file).name, e.location.line) for e in caught.value.errors]
    assert found == [("a.yaml", 1), ("main.yaml", 3), ("b.yaml", 2)]


def test_the_number_of_files_is_bounded(tmp_path: Path) -> None:
    for i in range(5):
        write(tmp_path, f"f{i}.yaml", f"kind: setting\nextends: ./f{i + 1}.yaml\n")
    write(tmp_path, "f5.yaml", "kind: ruleset\nid: f\n")
    assert load_document(tmp_path / "f0.yaml", LoadLimits(max_files=6))["kind"] == "setting"
    with pytest.raises(LimitError):
        load_document(tmp_path / "f0.yaml", LoadLimits(max_files=5))
