"""The source texts' own dice: every expression of the GURPS Mass Combat Casualty Table
(«Таблица Потерь») and of its Damage table (missing from the Russian text; the fuller copy's,
see docs/rulesets/gurps.md) parses, and its min/max match the table. The tests read the texts
themselves and skip when they are absent (tests/source_texts.py)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
import source_texts

from stratagem.dice import parse_dice


def _section(name: str, heading: str) -> str:
    """What follows ``heading`` in source text ``name`` ("" when the text is absent: the
    tests that read it are skipped)."""
    text = source_texts.read(name)
    return "" if text is None else text.split(heading, 1)[1]


def casualty_rows() -> list[tuple[str, str]]:
    """``(margin, cell)`` for every row of the Casualty Table that rolls dice."""
    table = _section(source_texts.GURPS_CASUALTIES, "Таблица Потерь")
    rows = []
    for line in table.splitlines()[1:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if "d" in cells[1]:
            rows.append((cells[0], cells[1]))
    return rows


def as_expression(cell: str) -> str:
    """The table cell in the dice language: "(1d-2)% (1 % мин.)" → "max(1d-2, 1)%"."""
    minimum = re.fullmatch(r"\((.*)\)% \((\d+) % мин\.\)", cell)
    if minimum:
        return f"max({minimum.group(1)}, {minimum.group(2)})%"
    return cell


#: Margin → (min, max) percentage lost, read off the printed formulas.
CASUALTY_BOUNDS = {
    "— 19 или меньше": (72, 132),
    "— 17, — 18": (66, 121),
    "— 15, — 16": (60, 110),
    "— 13, — 14": (54, 99),
    "— 11, — 12": (48, 88),
    "— 9, — 10": (42, 77),
    "— 7, — 8": (36, 66),
    "— 6, — 5": (30, 55),
    "— 3, — 4": (24, 44),
    "— 1, — 2": (19, 39),
    "0": (14, 34),
    "1, 2": (9, 29),
    "3, 4": (4, 24),
    "5, 6": (3, 18),
    "7, 8": (4, 14),
    "9, 10": (2, 12),
    "11, 12": (3, 8),
    "13, 14": (1, 6),
    "15, 16": (1, 4),
    "17, 18": (1, 2),
}


def test_the_casualty_table_is_read_whole() -> None:
    source_texts.need(source_texts.GURPS_CASUALTIES)
    assert [margin for margin, _ in casualty_rows()] == list(CASUALTY_BOUNDS)


@pytest.mark.parametrize(
    ("margin", "cell"), source_texts.params(source_texts.GURPS_CASUALTIES, casualty_rows())
)
def test_casualty_table_cell(margin: str, cell: str) -> None:
    expr = parse_dice(as_expression(cell))
    dist = expr.distribution()
    assert expr.is_percent
    assert (dist.min, dist.max) == CASUALTY_BOUNDS[margin]
    assert expr.bounds() == CASUALTY_BOUNDS[margin]
    assert sum(dist.pmf.values()) == 1


def test_minimum_one_percent_rows_as_printed_without_the_minimum() -> None:
    # "(1d-2)%" alone could lose -1 %; the table's "1 % min." is what max(..., 1) adds.
    assert parse_dice("(1d-2)%").bounds() == (-1, 4)
    assert parse_dice("max(1d-2, 1)%").distribution().pmf[1] == Fraction(1, 2)


def damage_cells() -> list[tuple[str, list[str]]]:
    """``(TL band, [A, B, C, D])`` from the Damage table of the notes on the texts."""
    text = _section(source_texts.NOTES, "Damage by the battle's TL")
    rows = []
    for line in text.splitlines():
        if line.startswith("| ") and "d" in line:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.append((cells[0], cells[1:]))
        elif rows and not line.startswith("|"):
            break
    return rows


#: TL band → (TL, DR, [(min, max) of A, B, C, D]) worked out by hand from the printed formulas.
DAMAGE_BOUNDS = {
    "≤3": (3, 1, [(2, 7), (4, 14), (6, 26), (9, 39)]),
    "4–7": (6, 2, [(1, 16), (2, 32), (8, 68), (12, 102)]),
    "8–9": (8, 4, [(1, 26), (2, 52), (14, 124), (21, 186)]),
    "10–13": (10, 6, [(7, 57), (14, 114), (34, 234), (51, 351)]),
    "14": (14, 10, [(12, 82), (24, 164), (52, 332), (78, 498)]),
    "15–16": (16, 25, [(14, 94), (28, 188), (60, 380), (90, 570)]),
}


def test_the_damage_table_is_read_whole() -> None:
    source_texts.need(source_texts.NOTES)
    assert [band for band, _ in damage_cells()] == list(DAMAGE_BOUNDS)


@pytest.mark.parametrize(("band", "cells"), source_texts.params(source_texts.NOTES, damage_cells()))
def test_damage_table_row(band: str, cells: list[str]) -> None:
    tl, dr, expected = DAMAGE_BOUNDS[band]
    names = {"TL": tl, "DR": dr}
    for column, cell, bounds in zip("ABCD", cells, expected):
        # The one transcription: the table's implicit product "2TL" is written 2*TL.
        expr = parse_dice(cell.replace("2TL", "2*TL"))
        dist = expr.distribution(names)
        assert (dist.min, dist.max) == bounds, f"{band} column {column}: {cell}"
        assert expr.bounds(names) == bounds
        hits = dist.repetitions
        assert hits == (int(cell[0]) if "×" in cell else 1)


def test_worked_example_takes_column_a_at_tl3() -> None:
    # The Damage table's check: the worked example fails Survival by 2 at TL3 and takes 1d+2 − DR.
    expr = parse_dice("1d+2 − DR")
    assert expr.bounds({"DR": 0}) == (3, 8)


def test_3d_gives_p10_of_27_over_216() -> None:
    assert parse_dice("3d").distribution().pmf[10] == Fraction(27, 216)


def test_4d_plus_20_spans_24_to_44() -> None:
    dist = parse_dice("4d+20").distribution()
    assert list(dist.pmf) == list(range(24, 45))


def test_2d20kh1_mean() -> None:
    dist = parse_dice("2d20kh1").distribution()
    assert dist.mean == Fraction(553, 40)
    assert float(dist.mean) == 13.825
