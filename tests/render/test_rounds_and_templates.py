"""A battle's rounds in reports (`repeat: {report: true}` and `report.rounds`), templates a
ruleset overrides or extends, and files written with -o."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from stratagem.api import run_battle
from stratagem.cli import main
from stratagem.render import render
from stratagem.render.views import battle_view

from .helpers import ROOT, md_tables, parse_html, text_of

SKIRMISH = ROOT / "tests" / "engine" / "skirmish"


@pytest.fixture
def marked(tmp_path: Path) -> Path:
    """The engine's test ruleset with its round loop marked and its troops charted."""
    tmp_path = tmp_path / "skirmish"  # a ruleset is named by its folder
    shutil.copytree(SKIRMISH / "locales", tmp_path / "locales")
    text = (SKIRMISH / "ruleset.yaml").read_text(encoding="utf-8")
    text = text.replace("        max: battle.rounds\n",
                        "        max: battle.rounds\n        report: true\n", 1)
    text = text.replace("report:\n  battle: [winner]\n",
                        "report:\n  battle: [winner]\n  rounds: {side: [troops, morale]}\n", 1)
    (tmp_path / "ruleset.yaml").write_text(text, encoding="utf-8")
    battle = (SKIRMISH / "battle.yaml").read_text(encoding="utf-8")
    (tmp_path / "battle.yaml").write_text(battle, encoding="utf-8")
    return tmp_path / "battle.yaml"


def with_rounds(path: Path, n: int) -> Path:
    text = path.read_text(encoding="utf-8").replace("battle: {rounds: 4}", f"battle: {{rounds: {n}}}")
    out = path.with_name(f"battle-{n}.yaml")
    out.write_text(text, encoding="utf-8")
    return out


def test_each_round_records_the_state_at_its_end(marked: Path) -> None:
    full = run_battle(marked)
    ends = [e.values for e in full.trace if e.step == "repeat" and "round_end" in e.values]
    starts = [e.values["round"] for e in full.trace if e.step == "repeat" and "round" in e.values]
    assert starts == [e["round_end"] for e in ends] == list(range(1, len(ends) + 1))
    assert len(ends) >= 2
    for end in ends:
        # the same seed over only n rounds: its final state is the full battle's after round n
        short = run_battle(with_rounds(marked, end["round_end"]))
        for side in short.root.member("sides"):
            assert end["values"]["side"][side.label()] == {
                "troops": side.member("troops"), "morale": side.member("morale")}


def test_rounds_are_headings_and_charts(marked: Path) -> None:
    result = run_battle(marked)
    view = battle_view(result, "en", explain=False)
    ends = [e for e in result.trace if e.step == "repeat" and "round_end" in e.values]
    assert len(view["rounds"]) == len(ends)
    # `report: true`: each round is headed by the engine's own "Round {n}"
    assert [r["title"] for r in view["rounds"]] == [f"Round {n}" for n in range(1, len(ends) + 1)]
    (troops, morale) = view["charts"]
    assert [row["label"] for row in troops["rows"]] == ["Red", "Blue"]
    start = [str(side.member("troops")) for side in result.start.member("sides")]
    assert [row["cells"][0] for row in troops["rows"]] == start
    assert len(troops["columns"]) == 1 + len(ends)
    page = parse_html(render("battle", "html", view, result.ruleset))
    lines = page.findall(".//{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 4  # two sides, two values
    assert all(len(p.get("points", "").split()) == 1 + len(ends) for p in lines)


def test_a_round_is_headed_by_the_message_the_loop_names(marked: Path) -> None:
    ruleset = marked.with_name("ruleset.yaml")
    text = ruleset.read_text(encoding="utf-8").replace("report: true", "report: skirmish.round")
    ruleset.write_text(text, encoding="utf-8")
    locale = marked.with_name("locales") / "en.yaml"
    text = locale.read_text(encoding="utf-8").replace('"Round {n}"', '"Turn {n} begins"')
    locale.write_text(text, encoding="utf-8")
    result = run_battle(marked, lang="en")
    view = battle_view(result, "en", explain=False)
    heads = [e.params["n"] for e in result.trace if e.key == "skirmish.round"]
    assert len(heads) >= 2
    assert [r["title"] for r in view["rounds"]] == [f"Turn {n} begins" for n in heads]
    assert all(r["title"] not in r["events"] for r in view["rounds"])


def test_a_loop_not_marked_adds_nothing_to_the_trace() -> None:
    result = run_battle(SKIRMISH / "battle.yaml")
    assert not [e for e in result.trace if e.step == "repeat" and (
        "round" in e.values or "round_end" in e.values)]
    assert battle_view(result, "en", False)["charts"] == []


HOUSE = """kind: setting
extends: war-machine
"""

SCENARIO = """kind: scenario
ruleset: house.yaml
name: The ford
battle: {terrain: open}
sides:
  - name: The town watch
    role: defender
    forces:
      - {name: Watchmen, count: 300, br: 70}
  - name: The raiders
    role: attacker
    forces:
      - {name: Hobgoblins, count: 250, br: 75}
"""


@pytest.fixture
def house(tmp_path: Path) -> Path:
    (tmp_path / "house.yaml").write_text(HOUSE, encoding="utf-8")
    (tmp_path / "battle.yaml").write_text(SCENARIO, encoding="utf-8")
    (tmp_path / "templates").mkdir()
    return tmp_path


def html_of(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["battle", str(path), "--format", "html", *args]) == 0
    return capsys.readouterr().out


def test_a_ruleset_extends_the_shipped_template_and_adds_a_stylesheet(
        house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (house / "templates" / "battle.html.j2").write_text(
        '{% extends "stratagem/battle.html.j2" %}\n'
        '{% block content %}<p class="house">{{ title }}</p>{{ super() }}{% endblock %}\n',
        encoding="utf-8")
    (house / "templates" / "report.css").write_text("h1 { color: #700; }\n", encoding="utf-8")
    page = parse_html(html_of(house / "battle.yaml", capsys))
    assert text_of(page.find(".//p[@class='house']")).startswith("Battle report: The ford")
    assert page.findall(".//section[@class='sides']//table"), "the shipped content stays"
    style = text_of(page.find(".//style"))
    assert style.index("svg.chart") < style.index("h1 { color: #700; }")


def test_a_ruleset_replaces_a_template(house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (house / "templates" / "battle.md.j2").write_text(
        "| side | troops |\n| --- | ---: |\n{% for s in sides %}| {{ s.label | md }} | "
        "{{ s.fields[1].text }} |\n{% endfor %}", encoding="utf-8")
    assert main(["battle", str(house / "battle.yaml"), "--format", "md"]) == 0
    (table,) = md_tables(capsys.readouterr().out)
    assert [row[0] for row in table] == ["side", "The town watch", "The raiders"]


@pytest.mark.parametrize(("template", "message"), [
    ("{% for x in %}", "battle.html.j2:1"),
    ("{{ title.__class__.__mro__[1].__subclasses__() }}", "could not be rendered"),
    ("{{ no_such_value }}", "'no_such_value' is undefined"),
])
def test_a_broken_or_hostile_template_is_a_clear_error(
        house: Path, capsys: pytest.CaptureFixture[str], template: str, message: str) -> None:
    (house / "templates" / "battle.html.j2").write_text(template, encoding="utf-8")
    assert main(["battle", str(house / "battle.yaml"), "--format", "html"]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and "docs/reports.md" in err


def test_names_from_files_cannot_inject_markup(house: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    hostile = "<script>alert(1)</script> | *x* [l](http://e.org)"
    scenario = house / "battle.yaml"
    scenario.write_text(SCENARIO.replace("name: Watchmen", f"name: {hostile!r}"), encoding="utf-8")
    page = html_of(scenario, capsys)
    tree = parse_html(page)
    assert not tree.findall(".//script") and not tree.findall(".//a")
    assert any(text_of(td).startswith("<script>") for td in tree.findall(".//td"))
    assert main(["battle", str(scenario), "--format", "md"]) == 0
    md = capsys.readouterr().out
    row = next(r for t in md_tables(md) for r in t if "script" in r[0])
    assert len(row) == len(md_tables(md)[0][0]), "the pipe did not split the cell"
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").enable("table").render(md)
    assert "<script>" not in html and "<a " not in html and "<em>" not in html


def test_output_file_is_written_whole_and_keeps_its_mode(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = str(ROOT / "examples" / "war-machine" / "orcs.yaml")
    assert main(["battle", scenario, "--format", "md"]) == 0
    printed = capsys.readouterr().out
    out = tmp_path / "report.md"
    out.write_text("old", encoding="utf-8")
    os.chmod(out, 0o640)
    assert main(["battle", scenario, "-o", str(out)]) == 0  # the format from the name
    assert out.read_text(encoding="utf-8") == printed
    assert os.stat(out).st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"], "no temporary file left"


@pytest.mark.parametrize("where", ["missing/report.html", "."])
def test_output_to_a_bad_place_is_a_user_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    scenario = str(ROOT / "examples" / "war-machine" / "orcs.yaml")
    assert main(["battle", scenario, "--format", "html", "-o", str(tmp_path / where)]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and "Traceback" not in err


def test_json_and_another_format_disagree(capsys: pytest.CaptureFixture[str]) -> None:
    scenario = str(ROOT / "examples" / "war-machine" / "orcs.yaml")
    assert main(["battle", scenario, "--json", "--format", "md"]) == 1
    assert "disagree" in capsys.readouterr().err
