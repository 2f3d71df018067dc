"""The broken-file corpus: every file here is wrong in one way, and `stratagem validate` says so.

Each ``<name>.yaml`` starts with two comment lines:

    # expect: <a substring of the error message>
    # at: LINE:COL        (or "# at: limit" when a bound is hit)

and `stratagem validate FILE` must exit 1, print ``FILE:LINE:COL`` and the
substring, and never a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stratagem.cli import main

HERE = Path(__file__).parent
CORPUS = sorted(HERE.glob("*.yaml"))


def header(path: Path) -> tuple[str, str]:
    lines = path.read_bytes().decode("utf-8", "replace").splitlines()
    expect = re.fullmatch(r"# expect: (.+)", lines[0])
    at = re.fullmatch(r"# at: (\d+:\d+|limit)", lines[1])
    assert expect and at, f"{path.name}: the first two lines must be '# expect:' and '# at:'"
    return expect.group(1), at.group(1)


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 40


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_broken_file_is_reported(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expect, at = header(path)
    # the files name the test ruleset in tests/loader/fixtures
    code = main(["validate", str(path), "--allow-path", str(HERE.parent)])
    out, err = capsys.readouterr()
    text = out + err
    assert code == 1, text
    assert "Traceback" not in text
    assert expect in text, text
    if at == "limit":
        assert f"{path}:" in text, text
    else:
        assert f"{path}:{at}:" in text, text
    assert "1 file checked, 1 with errors" in out


def test_a_50_mb_file_hits_the_size_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "huge.yaml"
    line = b"# " + b"x" * 125 + b"\n"
    block = line * 8192  # 1 MB (1024 * 1024 bytes)
    with big.open("wb") as handle:
        handle.write(b"kind: army\nruleset: war-machine\n")
        for _ in range(50):
            handle.write(block)
    code = main(["validate", str(big)])
    out, err = capsys.readouterr()
    assert code == 1
    assert f"{big}: file is too large (50 MB; the limit is 5 MB)" in out
    assert "Traceback" not in out + err


def test_errors_of_one_file_do_not_stop_the_others(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(HERE / "yaml_unclosed_list.yaml"), str(HERE / "army_wrong_type.yaml")]
    code = main(["validate", *files])
    out, _ = capsys.readouterr()
    assert code == 1
    assert f"{files[0]}:5:8:" in out and f"{files[1]}:6:30:" in out
    assert out.rstrip().endswith("2 files checked, 2 with errors (2 errors)")
