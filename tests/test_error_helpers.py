"""The error helpers every part of the engine uses (stratagem.errors): the caret under a
mistake, did-you-mean, and the order errors are reported in."""

from __future__ import annotations

from stratagem.errors import Location, StratagemError, caret, did_you_mean, in_order, place


def test_the_caret_stands_under_the_character_on_its_own_line():
    assert caret("4d+*2", 3) == "  4d+*2\n     ^"
    text = "line one\n{n, plural, xx {}}"
    assert caret(text, 21) == "  {n, plural, xx {}}\n  " + " " * 12 + "^"
    assert caret("a\tb", 2) == "  a?b\n    ^"  # a tab would move the caret


def test_a_long_line_is_cut_around_the_caret():
    text = "x" * 100 + "!" + "y" * 100
    line, under = caret(text, 100).splitlines()
    assert line.startswith("  …") and line.endswith("…") and len(line) < 70
    assert line[under.index("^")] == "!"
    assert caret("ab", 99) == "  ab\n    ^"  # past the end: after the last character


def test_did_you_mean_offers_the_close_names_letter_case_aside():
    assert did_you_mean("terain", ["terrain", "days", "name"]) == "did you mean 'terrain'?"
    assert did_you_mean("STRENGHT", ["strength", "morale"]) == "did you mean 'strength'?"
    assert did_you_mean("zzz", ["terrain", "days"]) is None
    assert did_you_mean(3, [33, "x"]) == "did you mean '33'?"
    found = did_you_mean("unit", ["units", "unit_a", "unitx", "units2"])
    assert found is not None and found.count("'") == 6  # three at most


def test_errors_are_reported_by_file_line_and_column():
    def err(name: str, *where: object) -> StratagemError:
        return StratagemError(name, location=Location(*where) if where else None)

    errors = [err("c", "b.yaml", 1, 1), err("b", "a.yaml", 2, 5), err("a", "a.yaml", 2, 1),
              err("none"), err("d", "a.yaml", 10, 1), err("e", "a.yaml", 2, 1)]
    assert [e.message for e in in_order(errors)] == ["none", "a", "e", "b", "d", "c"]
    assert place(errors[1]) == ("a.yaml", 2, 5)
