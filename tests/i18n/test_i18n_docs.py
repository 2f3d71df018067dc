"""Every example in docs/translating.md runs: files load, commands print what the page says."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from stratagem.i18n.catalog import read_locale
from stratagem.i18n.plural import plural_rule

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


def _blocks() -> list[list[tuple[list[str], list[str]]]]:
    """Each console block: its ``$ stratagem ...`` lines, with the lines each must print."""
    found: list[list[tuple[list[str], list[str]]]] = []
    for lang, body in BLOCKS:
        if lang != "console":
            continue
        commands: list[tuple[list[str], list[str]]] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                commands.append((shlex.split(line[2:]), []))
            else:
                commands[-1][1].append(line)
        found.append(commands)
    return found


def test_every_block_is_an_example_this_test_runs() -> None:
    for lang, body in BLOCKS:
        first = body.splitlines()[0]
        assert (lang == "yaml" and first.startswith(("# file: ", "# from: "))) or (
            lang == "console" and first.startswith("$ stratagem ")), body


def test_the_names_example_is_an_army_file(tmp_path: Path) -> None:
    from stratagem.i18n.names import NameBook, extract_names
    from stratagem.loader.yamlio import load_yaml

    _write_examples(tmp_path)
    doc = load_yaml(tmp_path / "battle" / "orcs.yaml")
    book = NameBook()
    extract_names(doc, book)
    assert doc["name"] == "Orcs" and book.lookup("pl", "Orcs") == "Orki"
    assert book.lookup("pl", "Orcs (2)") == "Orki (2)" and book.lookup("pl", "Elves") == "Elves"
    assert read_locale(tmp_path / "battle" / "locales" / "pl.yaml").names["Elves"] == "Elfy"


def test_file_examples_load(tmp_path: Path) -> None:
    _write_examples(tmp_path)
    locale_files = [name for name, body in _files().items() if "\nkind: locale\n" in body]
    assert len(locale_files) >= 4
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


@pytest.mark.parametrize("block", _blocks(), ids=[" ".join(b[0][0][1:4]) for b in _blocks()])
def test_console_examples(
    block: list[tuple[list[str], list[str]]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from stratagem.cli import i18n, main

    _write_examples(tmp_path)
    # The example ruleset folder: its rules are not the subject of the page, its keys are.
    (tmp_path / "my-rules" / "ruleset.yaml").write_text("kind: ruleset\n", encoding="utf-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "STRATAGEM_LANG",
                 "STRATAGEM_LOCALES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    for argv, expected in block:
        with monkeypatch.context() as patch:
            if "my-rules" in argv:
                patch.setattr(i18n, "_keys_of", lambda ref: _doc_ruleset_keys())
            assert argv[0] == "stratagem" and argv[1] in ("i18n", "validate")
            main(argv[1:])
        actual = capsys.readouterr().out.splitlines()
        assert _matches(expected, actual), f"{' '.join(argv)}:\n" + "\n".join(actual)


def test_the_plural_table() -> None:
    table = DOC.split("<!-- plural-table -->", 1)[1].strip().split("\n\n", 1)[0].splitlines()
    header = [cell.strip() for cell in table[0].strip("|").split("|")]
    assert header[0] == "n" and len(header) == 5
    rules = {lang: plural_rule(lang) for lang in header[1:]}
    rows = table[2:]
    assert len(rows) >= 10
    for row in rows:
        shown, *categories = [cell.strip() for cell in row.strip("|").split("|")]
        got = [rules[lang].category(shown) for lang in header[1:]]
        assert got == categories, f"n = {shown}"
