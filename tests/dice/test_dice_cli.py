"""``stratagem roll``: output, JSON shape and exit codes."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from stratagem.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["roll", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_prints_the_trace(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "4d+20%", "--seed", "7")
    assert code == 0 and err == ""
    assert out == "4d+20% = [3,2,4,6]+20 = 35%\n"
    assert run(capsys, "4d+20%", "--seed", "7")[1] == out


def test_roll_with_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "2x(1d+2-DR)", "--set", "DR=1", "--seed", "3", "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"expression", "total", "values", "percent", "source", "dice", "trace"}
    assert len(data["values"]) == 2 and data["total"] == sum(data["values"])
    assert [d["repetition"] for d in data["dice"]] == [0, 1]
    assert set(data["dice"][0]) == {"sides", "faces", "value", "kept", "exploded", "repetition"}


def test_dist_json_gives_exact_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "3d", "--dist", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["min"], data["max"], data["mean"]) == (3, 18, "21/2")
    assert list(data["pmf"]) == [str(k) for k in range(3, 19)]
    assert all(isinstance(p, str) and "/" in p for p in data["pmf"].values())
    assert Fraction(data["pmf"]["10"]) == Fraction(27, 216)
    assert sum(Fraction(p) for p in data["pmf"].values()) == 1


def test_dist_json_of_keep_highest(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(run(capsys, "2d20kh1", "--dist", "--json")[1])
    assert data["mean"] == "553/40" and data["pmf"]["20"] == "39/400"


def test_dist_text_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "4d+20%", "--dist", "--lang", "en")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "4d+20%"
    assert lines[1].split() == ["Outcome", "Exactly", "At", "least", "At", "most"]
    # 24% is four ones (1/1296): certain to be reached, the lowest, too rare for a whole
    # block (a thin bar: not impossible); 44% four sixes
    assert lines[2].split() == ["24%", "1/1296", "0.08", "%", "100.00", "%", "0.08", "%", "▏"]
    assert lines[-2].split()[:8] == ["44%", "1/1296", "0.08", "%", "0.08", "%", "100.00", "%"]
    assert lines[-1] == "Least 24%  Greatest 44%  Mean 34.0000%"
    # the bar of the likeliest outcome (34%) is the longest
    bars = {line.split()[0]: line.count("█") for line in lines[2:-1]}
    assert max(bars, key=bars.__getitem__) == "34%" and bars["34%"] == 40


def test_dist_at_least_and_at_most_add_up(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(run(capsys, "2d6+1", "--dist", "--json")[1])
    pmf = {int(k): Fraction(v) for k, v in data["pmf"].items()}
    for k in pmf:
        assert Fraction(data["at_least"][str(k)]) == sum(p for j, p in pmf.items() if j >= k)
        assert Fraction(data["at_most"][str(k)]) == sum(p for j, p in pmf.items() if j <= k)


def test_default_die_option(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(run(capsys, "2d", "--sides", "10", "--dist", "--json")[1])
    assert (data["min"], data["max"]) == (2, 20)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["1d6+"], "'+' needs a value after it"),
        (["1d0"], "a die needs at least 1 side"),
        (["1d6+DR"], "--set DR=3"),
        (["1d6", "--set", "DR"], "--set expects NAME=WHOLE_NUMBER"),
        (["1d6", "--set", "DR=two"], "--set expects NAME=WHOLE_NUMBER"),
        (["1d6", "--sides", "0"], "--sides must be at least 1"),
        (["1000d1000", "--dist"], "more than the limit"),
    ],
)
def test_bad_input_exits_1_without_a_traceback(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert err.startswith("stratagem: ") and message in err
    assert "Traceback" not in err


def test_syntax_error_shows_a_caret(capsys: pytest.CaptureFixture[str]) -> None:
    err = run(capsys, "4d+*2")[2]
    assert "  4d+*2\n     ^\n" in err


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["roll", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "--dist" in out and "--set" in out


def test_expression_starting_with_minus(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--seed", "1", "--", "-d6+10")
    assert code == 0 and out.startswith("-d6+10 = -[")
