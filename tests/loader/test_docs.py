"""docs/overlays.md: every base/overlay/result example on the page merges as it says."""

from __future__ import annotations

import re
from pathlib import Path

from stratagem.loader.merge import merge
from stratagem.loader.yamlio import load_yaml

DOC = Path(__file__).resolve().parents[2] / "docs" / "overlays.md"


def examples() -> list[tuple[str, str, str]]:
    blocks = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    marked = [(b.split("\n", 1)[0].strip(), b) for b in blocks]
    found = []
    for i in range(len(marked) - 2):
        if [m for m, _ in marked[i:i + 3]] == ["# base", "# overlay", "# result"]:
            found.append(tuple(b for _, b in marked[i:i + 3]))
    return found  # type: ignore[return-value]


def test_every_example_merges_to_its_result() -> None:
    cases = examples()
    assert len(cases) >= 8  # one or more per rule
    for base, overlay, result in cases:
        merged = merge(load_yaml("base.yaml", text=base), load_yaml("overlay.yaml", text=overlay))
        assert merged == load_yaml("result.yaml", text=result), (base, overlay)
