"""Every shipped example in every format: HTML that parses without an error, Markdown whose
tables parse, JSON, text; the same content in Markdown and HTML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from stratagem.api import rate_army, run_battle
from stratagem.cli import main
from stratagem.render import render
from stratagem.render.views import battle_view, rating_view

from .helpers import (
    ARMIES,
    ROOT,
    RULESETS,
    SCENARIOS,
    example_id,
    md_headings,
    md_tables,
    parse_html,
    text_of,
)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_there_are_examples_of_every_ruleset() -> None:
    assert {p.parent.name for p in SCENARIOS} == {"gurps", "war-machine", "mazes-minotaurs"}
    assert {p.parent.name for p in ARMIES} == {"gurps", "war-machine", "mazes-minotaurs"}


@pytest.mark.parametrize("path", SCENARIOS, ids=example_id)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_battle_in_every_format(path: Path, lang: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    result = run_battle(path, lang=lang)
    view = battle_view(result, lang, explain=True)
    tables = sum(len(side["tables"]) for side in view["sides"]) + len(view["charts"])

    page = parse_html(render("battle", "html", view, result.ruleset))
    assert page.get("lang") == lang
    assert text_of(page.find(".//h1")) == view["title"]
    rounds = page.findall(".//section[@class='narrative']/h3[@class='round']")
    assert [text_of(h) for h in rounds] == [r["title"] for r in view["rounds"]]
    assert len(page.findall(".//section[@class='sides']//table")) == tables - len(view["charts"])
    charts = page.findall(".//section[@class='charts']//{http://www.w3.org/2000/svg}svg")
    assert len(charts) == len(view["charts"])
    assert page.findall(".//section[@class='explain']//details"), "the breakdown folds"
    assert not page.findall(".//script") and not page.findall(".//link")

    md = render("battle", "md", view, result.ruleset)
    parsed = md_tables(md)
    assert len(parsed) == tables
    for table, side_table in zip(parsed, [t for s in view["sides"] for t in s["tables"]]):
        assert table[0] == [side_table["title"], *side_table["columns"]]
        assert len(table) == 1 + len(side_table["rows"])
    headings = md_headings(md)
    assert headings[0] == (1, view["title"])
    assert [h for level, h in headings if level == 3][:len(view["sides"]) + len(view["rounds"])]

    text = cli(capsys, "battle", str(path), "--lang", lang, "--format", "text")
    assert text == result.report(lang=lang)
    data = json.loads(cli(capsys, "battle", str(path), "--format", "json"))
    assert data["end"] == json.loads(result.to_json())["end"]


@pytest.mark.parametrize("path", ARMIES, ids=example_id)
def test_every_army_as_a_roster_sheet(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rated = rate_army(path, lang="en")
    view = rating_view(rated, "en", explain=True)
    side = view["side"]
    page = parse_html(render("rate", "html", view, rated.ruleset))
    rosters = page.findall(".//table[@class='roster']")
    assert len(rosters) == len(side["tables"])
    for element, table in zip(rosters, side["tables"]):
        heads = [text_of(th) for th in element.findall("./thead/tr/th")]
        assert heads == [table["title"], *table["columns"]]
        body = element.findall("./tbody/tr")
        assert len(body) == len(table["rows"]) + (1 if table["totals"] else 0)
    md_sheet = md_tables(render("rate", "md", view, rated.ruleset))
    assert [t[0] for t in md_sheet] == [[t["title"], *t["columns"]] for t in side["tables"]]
    for table in md_sheet:
        assert all(len(row) == len(table[0]) for row in table)
    json.loads(cli(capsys, "rate", str(path), "--format", "json"))
    assert cli(capsys, "rate", str(path), "--format", "text", "--lang", "en") == rated.report(
        lang="en")


def test_roster_sheet_groups_thousands_in_the_users_language() -> None:
    path = ROOT / "examples" / "gurps" / "megalos-bannock.yaml"
    en = rating_view(rate_army(path), "en", False)
    ru = rating_view(rate_army(path), "ru", False)
    cost = next(c for c in en["side"]["fields"] if c["name"] == "raising_cost")
    cost_ru = next(c for c in ru["side"]["fields"] if c["name"] == "raising_cost")
    digits = "".join(ch for ch in cost["text"] if ch.isdigit())
    assert len(digits) > 4
    assert "," in cost["text"] and "\u00a0" in cost_ru["text"]
    assert "".join(ch for ch in cost_ru["text"] if ch.isdigit()) == digits


def test_a_rosters_totals_are_the_sides_own_values() -> None:
    path = ROOT / "examples" / "gurps" / "megalos-bannock.yaml"
    rated = rate_army(path)
    table = rating_view(rated, "en", False)["side"]["tables"][0]
    ts = table["names"].index("ts")
    side_ts = rated.side.member("ts")
    assert table["totals"][ts].replace(",", "") == str(side_ts)
    assert side_ts == sum(u.member("ts") for u in rated.side.member("units"))


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("fmt", ["text", "md", "html", "json"])
def test_odds_in_every_format(ruleset: str, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in SCENARIOS if p.read_text(encoding="utf-8").count(
        f"ruleset: {ruleset}") and "dice:" not in p.read_text(encoding="utf-8"))
    out = cli(capsys, "odds", str(path), "-n", "30", "-j", "1", "--format", fmt)
    if fmt == "json":
        schema = json.loads((ROOT / "schemas" / "odds.schema.json").read_text(encoding="utf-8"))
        data = json.loads(out)
        Draft202012Validator(schema).validate(data)
        assert data["values"]["battle"] and data["values"]["sides"], "the ruleset declares them"
    elif fmt == "html":
        page = parse_html(out)
        rows = page.findall(".//section[@class='outcomes']//tbody/tr")
        assert rows and all(len(r.findall("td")) == 4 for r in rows)
        svgs = page.findall(".//section[@class='distributions']//{http://www.w3.org/2000/svg}svg")
        assert svgs, "a histogram per side and value"
    elif fmt == "md":
        tables = md_tables(out)
        assert tables[0][0] == ["Outcome", "Battles", "Share", "95 % interval"]
        assert sum(int(row[1]) for row in tables[0][1:]) == 30
    else:
        assert "95 % interval" in out and "Median" in out


@pytest.mark.parametrize("fmt", ["text", "md", "html", "json"])
def test_roll_dist_in_every_format(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, "roll", "3d6", "--dist", "--format", fmt, "--lang", "en")
    if fmt == "html":
        page = parse_html(out)
        assert len(page.findall(".//tbody/tr")) == 16
        bars = page.findall(".//{http://www.w3.org/2000/svg}rect")
        assert len(bars) == 16
        heights = [float(b.get("height") or 0) for b in bars]
        assert heights.index(max(heights)) in (7, 8)  # 10 and 11 are the likeliest
    elif fmt == "md":
        (table,) = md_tables(out)
        assert table[0][:4] == ["Outcome", "Exactly", "At least", "At most"]
        assert [row[0] for row in table[1:]] == [str(k) for k in range(3, 19)]
    elif fmt == "json":
        assert json.loads(out)["at_least"]["3"] == "1/1"
    else:
        assert out.splitlines()[0] == "3d6"


def test_documents_need_a_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "3d6", "--format", "html"]) == 1
    assert "add --dist" in capsys.readouterr().err
