"""The shipped examples, and parsers that check what the report commands write."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import html5lib
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").rglob("*.yaml"))


def _kind(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("kind:"):
            return line.split(":", 1)[1].strip()
    return ""


SCENARIOS = [p for p in EXAMPLES if _kind(p) == "scenario"]
ARMIES = [p for p in EXAMPLES if _kind(p) == "army"]
RULESETS = ("gurps-mass-combat", "war-machine", "mazes-minotaurs")


def example_id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def parse_html(text: str) -> ET.Element:
    """The page as a tree; a parse error of any kind (html5lib's strict mode) fails."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(text)


def md_tables(text: str) -> list[list[list[str]]]:
    """Every table of a Markdown text, parsed by markdown-it (GFM tables): rows of cells."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    tables: list[list[list[str]]] = []
    row: list[str] | None = None
    for token in tokens:
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append(token.content)
        elif token.type == "tr_close" and row is not None:
            tables[-1].append(row)
            row = None
    return tables


def md_headings(text: str) -> list[tuple[int, str]]:
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    out = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            out.append((int(token.tag[1]), tokens[i + 1].content))
    return out


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


def load_json(text: str) -> Any:
    return json.loads(text)
