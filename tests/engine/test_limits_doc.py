"""docs/security.md states every limit of a battle with its default and its hard cap: the
table must say what the engine enforces (stratagem.model.ruleset)."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from stratagem.model.ruleset import RUN_CAPS, RunLimits

DOC = Path(__file__).parents[2] / "docs" / "security.md"


def test_the_security_page_states_each_limit_its_default_and_its_cap() -> None:
    found = re.findall(r"^\| `(max_\w+)` \| ([\d,]+) \| ([\d,]+) \|",
                       DOC.read_text(encoding="utf-8"), flags=re.M)
    rows = {name: (int(d.replace(",", "")), int(c.replace(",", ""))) for name, d, c in found}
    defaults = RunLimits()
    assert set(rows) == {f.name for f in fields(RunLimits)} == set(RUN_CAPS)
    for name, (default, cap) in rows.items():
        assert (default, cap) == (getattr(defaults, name), RUN_CAPS[name]), name
        assert default <= cap, name


def test_the_security_page_states_the_caps_of_reports_and_traces() -> None:
    from stratagem.report import MAX_JSON_BYTES, MAX_REPORT_CHARS, SHOWN_ITEMS

    text = DOC.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (items of one value|characters of one text|bytes of `--json`)"
                           r"[^|]* \| ([\d,]+(?: MB)?)", text, flags=re.M))
    assert rows == {"items of one value": f"{SHOWN_ITEMS:,}",
                    "characters of one text": f"{MAX_REPORT_CHARS:,}",
                    "bytes of `--json`": f"{MAX_JSON_BYTES // 2**20} MB"}
