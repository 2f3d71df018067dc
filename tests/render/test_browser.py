"""The HTML reports in a real headless Chromium: every shipped example loads with no console
error and no request beyond the file itself, its key elements are there, and screenshots at
a phone's and a desktop's width show a page (not a blank one); rosters print on one A4 page.

Chromium is the Debian package `chromium` (.ci/run installs it). Without it these tests
skip, except under CI, where they fail."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from stratagem.cli import main

from .browser import Browser, chromium, keep_screenshot
from .helpers import ARMIES, RULESETS, SCENARIOS, example_id

if chromium() is None and not os.environ.get("CI"):
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

WIDTHS = {"phone": (390, True), "desktop": (1280, False)}


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


def page(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "report.html"
    assert main([*args, "--format", "html", "-o", str(out)]) == 0
    return out


def check(browser: Browser, path: Path, name: str, selectors: dict[str, int]) -> None:
    url = path.as_uri()
    for width_name, (width, mobile) in WIDTHS.items():
        browser.load(url, width, mobile)
        assert browser.problems() == [], f"console at {width_name} width"
        assert set(browser.requests()) <= {url}, "a request beyond the file itself"
        for selector, least in selectors.items():
            count = browser.evaluate(f"document.querySelectorAll({selector!r}).length")
            assert count >= least, f"{selector}: {count} < {least}"
        overflow = browser.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page is {overflow}px wider than a {width_name}'s screen"
        png = browser.screenshot()
        keep_screenshot(f"{name}-{width_name}.png", png)
        image = Image.open(io.BytesIO(png)).convert("L")
        assert image.size[0] == width
        histogram = image.histogram()
        ink = sum(histogram[:200]) / (image.size[0] * image.size[1])
        assert ink > 0.01, f"the screenshot at {width_name} width is blank"
        assert len([n for n in histogram if n]) > 8, "more than a few shades: text and lines"


@pytest.mark.parametrize("path", SCENARIOS, ids=example_id)
def test_battle_reports_in_chromium(browser: Browser, path: Path, tmp_path: Path) -> None:
    html = page(tmp_path, "battle", str(path), "--explain")
    check(browser, html, "battle-" + example_id(path).replace("/", "-"),
          {"h1": 1, "section.narrative li": 1, "section.sides table": 1,
           "section.charts svg": 1, "section.explain details": 1})


@pytest.mark.parametrize("path", ARMIES, ids=example_id)
def test_roster_sheets_in_chromium_print_on_one_a4_page(browser: Browser, path: Path,
                                                        tmp_path: Path) -> None:
    html = page(tmp_path, "rate", str(path), "--explain")
    check(browser, html, "rate-" + example_id(path).replace("/", "-"),
          {"h1": 1, "table.roster": 1, "table.roster tbody tr": 1})
    assert browser.pdf_pages() == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_odds_pages_in_chromium(browser: Browser, ruleset: str, tmp_path: Path) -> None:
    path = next(p for p in SCENARIOS if f"ruleset: {ruleset}" in p.read_text(encoding="utf-8")
                and "dice:" not in p.read_text(encoding="utf-8"))
    html = page(tmp_path, "odds", str(path), "-n", "40", "-j", "1")
    check(browser, html, f"odds-{ruleset}",
          {"section.outcomes tbody tr": 1, "section.outcomes svg path.error": 1,
           "section.distributions svg rect.bar": 2})


def test_sweep_page_in_chromium(browser: Browser, tmp_path: Path) -> None:
    path = next(p for p in SCENARIOS if p.name == "orcs.yaml")
    html = page(tmp_path, "sweep", str(path), "--vary", "sides.0.forces.Orcs.count=300,1000",
                "--vary", "terrain=open,forest,hills", "-n", "4", "-j", "1")
    check(browser, html, "sweep-orcs", {"section.sweep tbody tr": 6,
                                        "table.heat-map tbody td[style]": 6})


def test_dice_page_in_chromium(browser: Browser, tmp_path: Path) -> None:
    html = page(tmp_path, "roll", "3d6", "--dist")
    check(browser, html, "roll-3d6", {"svg rect.bar": 16, "tbody tr": 16})


def test_the_checks_see_console_errors_and_requests(browser: Browser, tmp_path: Path) -> None:
    """The checks above can fail: a page that logs an error and loads an image from
    elsewhere is caught by both."""
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html lang="en"><title>x</title><img src="http://127.0.0.1:9/'
                   'x.png"><script>console.error("broken")</script></html>', encoding="utf-8")
    browser.load(bad.as_uri(), 390, True)
    assert any("broken" in p for p in browser.problems())
    assert "http://127.0.0.1:9/x.png" in browser.requests()
