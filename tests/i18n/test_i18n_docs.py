"""Every example in docs/translating.md runs: files load, commands print what the page says."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from stratagem.i18n.catalog import ENGINE_LOCALES, read_locale
from stratagem.i18n.plural import PluralRule

from .helpers import run_i18n

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "translating.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(\w+)\n(.*?)^```$", DOC, flags=re.MULTILINE | re.DOTALL)


def _files() -> dict[str, str]:
    found = {}
    for lang, body in BLOCKS:
        first = body.splitlines()[0]
        if lang == "yaml" and first.startswith("# file: "):
            found[first[len("# file: "):]] = body
    return found


def _write_examples(folder: Path) -> None:
    for name, body in _files().items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")


def _commands() -> list[tuple[list[str], list[str]]]:
    """Each ``$ stratagem ...`` line of the console blocks, with the lines it must print."""
    found: list[tuple[list[str], list[str]]] = []
    for lang, body in BLOCKS:
        if lang != "console":
            continue
        for line in body.splitlines():
            if line.startswith("$ "):
                found.append((shlex.split(line[2:]), []))
            else:
                found[-1][1].append(line)
    return found


def test_every_block_is_an_example_this_test_runs() -> None:
    for lang, body in BLOCKS:
        first = body.splitlines()[0]
        assert (lang == "yaml" and first.startswith(("# file: ", "# from: "))) or (
            lang == "console" and first.startswith("$ stratagem ")), body


def test_file_examples_load(tmp_path: Path) -> None:
    _write_examples(tmp_path)
    locale_files = [name for name in _files() if name.endswith(".yaml")]
    assert locale_files
    for name in locale_files:
        locale = read_locale(tmp_path / name)
        assert locale.language == Path(name).stem


def test_quoted_rules_are_the_shipped_ones() -> None:
    for lang, body in BLOCKS:
        first, _, rest = body.partition("\n")
        if lang == "yaml" and first.startswith("# from: "):
            shipped = (ROOT / first[len("# from: "):]).read_text(encoding="utf-8")
            assert rest in shipped, first


def _matches(expected: list[str], actual: list[str]) -> bool:
    """``expected`` with ``...`` lines standing for any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(_matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and _matches(expected[1:], actual[1:])


def _doc_ruleset_keys() -> set[str]:
    """The keys the page says its example ruleset uses."""
    sentence = re.search(r"uses the keys (.*?), and these", DOC, flags=re.DOTALL)
    assert sentence is not None
    return set(re.findall(r"`([\w.]+)`", sentence.group(1)))


@pytest.mark.parametrize(("argv", "expected"), _commands(),
                         ids=[" ".join(argv[1:4]) for argv, _ in _commands()])
def test_console_examples(
    argv: list[str], expected: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from stratagem.cli import i18n

    _write_examples(tmp_path)
    # The example ruleset folder: its rules are not the subject of the page, its keys are.
    (tmp_path / "my-rules" / "ruleset.yaml").write_text("kind: ruleset\n", encoding="utf-8")
    monkeypatch.setattr(i18n, "_keys_of", lambda ref: _doc_ruleset_keys())
    monkeypatch.chdir(tmp_path)
    assert argv[:2] == ["stratagem", "i18n"]
    run_i18n(argv[2:])
    actual = capsys.readouterr().out.splitlines()
    assert _matches(expected, actual), "\n".join(actual)


def _rule_of(lang: str, folder: Path) -> PluralRule:
    for name in _files():
        if Path(name).name == f"{lang}.yaml":
            rule = read_locale(folder / name).plural
            if rule is not None:
                return rule
    rule = read_locale(ENGINE_LOCALES / f"{lang}.yaml").plural
    assert rule is not None
    return rule


def test_the_plural_table(tmp_path: Path) -> None:
    _write_examples(tmp_path)
    table = DOC.split("<!-- plural-table -->", 1)[1].strip().split("\n\n", 1)[0].splitlines()
    header = [cell.strip() for cell in table[0].strip("|").split("|")]
    assert header[0] == "n" and len(header) == 5
    rules = {lang: _rule_of(lang, tmp_path) for lang in header[1:]}
    rows = table[2:]
    assert len(rows) >= 10
    for row in rows:
        shown, *categories = [cell.strip() for cell in row.strip("|").split("|")]
        got = [rules[lang].category(shown) for lang in header[1:]]
        assert got == categories, f"n = {shown}"
