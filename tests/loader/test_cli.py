"""The validate, schema and rulesets commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from stratagem.cli import main
from stratagem.loader import resolve

FIXTURES = Path(__file__).parent / "fixtures"
BROKEN = Path(__file__).parents[1] / "broken"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_valid_files_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(FIXTURES / "army.yaml"), str(FIXTURES / "skirmish" / "ruleset.yaml")]
    code, out, _ = run(capsys, "validate", *files)
    assert (code, out) == (0, "2 files checked, all valid\n")


def test_text_output_lists_every_error_with_place_path_and_hint(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(BROKEN / "army_misspelt_field.yaml")
    code, out, _ = run(capsys, "validate", path, str(FIXTURES / "army.yaml"))
    assert code == 1
    assert out == (
        f"{path}:6:33: unknown field 'qualty' in unit ($.units[0].qualty)\n"
        "  hint: did you mean 'quality'?\n"
        "2 files checked, 1 with errors (1 error)\n"
    )


def test_json_output_mirrors_the_text(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(BROKEN / "army_bad_enum.yaml"), str(BROKEN / "yaml_unclosed_list.yaml"),
             str(FIXTURES / "army.yaml")]
    code, text, _ = run(capsys, "validate", *files)
    json_code, out, _ = run(capsys, "validate", "--format", "json", *files)
    assert code == json_code == 1
    report = json.loads(out)
    assert [(r["file"], r["valid"], len(r["errors"])) for r in report] == [
        (files[0], False, 1), (files[1], False, 1), (files[2], True, 0)]
    for result in report:
        for error in result["errors"]:
            assert set(error) == {"file", "line", "column", "path", "message", "hint", "context",
                                  "key"}
            assert f"{error['file']}:{error['line']}:{error['column']}: {error['message']}" in text
            assert f"  hint: {error['hint']}" in text


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["validate"], ["validate", "--format", "xml", "a.yaml"], ["schema", "armies"]):
        with pytest.raises(SystemExit) as caught:
            main(argv)
        assert caught.value.code == 2
    with pytest.raises(SystemExit) as caught:
        main(["schema", "locale", "--ruleset", "war-machine"])
    assert caught.value.code == 2
    assert "--ruleset applies to army and scenario" in capsys.readouterr().err


def test_schema_prints_the_static_schemas(capsys: pytest.CaptureFixture[str]) -> None:
    for kind in ("ruleset", "setting", "army", "scenario", "locale"):
        code, out, _ = run(capsys, "schema", kind)
        assert code == 0
        assert json.loads(out)["$id"] == f"urn:stratagem:schema:{kind}"


def test_schema_generates_army_and_scenario_schemas_from_a_ruleset(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resolve, "_shipped_root", lambda: FIXTURES)
    code, out, _ = run(capsys, "schema", "army", "--ruleset", "skirmish/border")
    assert code == 0
    schema = json.loads(out)
    assert schema["$defs"]["unit"]["properties"]["troop"]["enum"] == [
        "infantry", "cavalry", "knights"]
    code, out, _ = run(capsys, "schema", "scenario", "--ruleset", "skirmish")
    assert "risk" in json.loads(out)["properties"]["decisions"]["properties"]
    code, _, err = run(capsys, "schema", "army", "--ruleset", "skirmsh")
    assert code == 1 and "unknown ruleset 'skirmsh'" in err


def test_rulesets_lists_ids_titles_and_settings(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resolve, "_shipped_root", lambda: FIXTURES)
    code, out, _ = run(capsys, "rulesets")
    assert code == 0
    assert out.splitlines()[:2] == ["skirmish  Skirmish (a test ruleset)",
                                    "          setting: skirmish/border"]
    code, out, _ = run(capsys, "rulesets", "--format", "json")
    [info] = json.loads(out)
    assert (info["id"], info["settings"]) == ("skirmish", ["skirmish/border"])


def test_the_commands_import_no_heavy_library_until_they_run() -> None:
    code = ("import sys, stratagem.cli.validate, stratagem.cli.schema, stratagem.cli.rulesets; "
            "print(sorted(m for m in ('ruamel.yaml', 'jsonschema', 'stratagem.loader') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
