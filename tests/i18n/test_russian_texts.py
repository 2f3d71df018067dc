"""Russian texts a GM reads naturally (issue 18): «ё» where it belongs, everywhere, and the
random seed called by a name a Russian reader knows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*ROOT.glob("rulesets/*/locales/ru.yaml"), ROOT / "engine/stratagem/locales/ru.yaml"])

#: Words the texts use, written without the «ё» they have (a stem matches its forms).
WITHOUT_YO = ["легк", "тяжел", "расчет", "еще", "зелен", "серьезн", "отчет", "сдается",
              "остается", "идет", "вернется", "подъем", "пошел", "мертв", "темн"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_yo_is_written_wherever_it_belongs(path: Path) -> None:
    text = path.read_text(encoding="utf-8").lower()
    found = sorted({m.group(0) for stem in WITHOUT_YO
                    for m in re.finditer(rf"(?<![\w]){stem}\w*", text)})
    assert not found, f"write ё: {found}"


def test_the_random_seed_is_called_zerno_sluchaynosti(capsys) -> None:
    from stratagem.cli import main

    assert main(["battle", str(ROOT / "examples/war-machine/orcs.yaml"), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "Зерно случайности: 7" in out.splitlines()
    assert "Зерно:" not in out
