"""The user's cache of read locale files: a hit reads the same file as the parsers do, a
changed file is read anew, and a damaged, forged or unusable cache is ignored, never an
error (stratagem/loader/usercache.py, docs/performance.md "Start-up")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from stratagem.errors import StratagemError, ValidationFailed
from stratagem.i18n import catalog
from stratagem.i18n.catalog import ENGINE_LOCALES, LocaleFile, read_locale
from stratagem.i18n.messages import MAX_DEPTH, BadData, from_data, parse_message, to_data
from stratagem.loader import usercache

ROOT = Path(__file__).resolve().parents[2]
#: Every locale file of the repository that reads without an error.
LOCALE_FILES = sorted({*ROOT.glob("engine/stratagem/locales/*.yaml"),
                       *ROOT.glob("rulesets/*/locales/*.yaml"),
                       *ROOT.glob("examples/**/locales/*.yaml"),
                       *ROOT.glob("tests/i18n/fixtures/good/**/*.yaml")})

LOCALE = """\
kind: locale
language: ru
name: Русский
sources:
  battle.won: 0123abcd
names:
  Orcs: Орки
messages:
  battle.won: "{side} побеждает"
  battle.units: "{n, plural, =0 {нет} one {# отряд} few {# отряда} other {# отрядов}}"
  battle.share: "{x, number, percent} — '{'буквально'}'"
"""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh cache folder, and no reading remembered in this process."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("STRATAGEM_CACHE", str(folder))
    catalog._read_locale_cached.cache_clear()
    yield folder / "locales"
    catalog._read_locale_cached.cache_clear()


def _fresh(path: Path, monkeypatch: pytest.MonkeyPatch) -> LocaleFile:
    """``path`` read with the cache off."""
    with monkeypatch.context() as patch:
        patch.setenv("STRATAGEM_CACHE", "off")
        catalog._read_locale_cached.cache_clear()
        try:
            return read_locale(path)
        finally:
            catalog._read_locale_cached.cache_clear()


def _same(a: LocaleFile, b: LocaleFile) -> None:
    assert (a.path, a.language, a.name, a.sources, a.names, a.messages_at) == \
        (b.path, b.language, b.name, b.sources, b.names, b.messages_at)
    assert a.locations == b.locations
    assert list(a.messages) == list(b.messages)
    for key, message in a.messages.items():
        other = b.messages[key]
        assert (message.source, message.parts, message.quoted, message.arguments,
                message.plurals) == (other.source, other.parts, other.quoted, other.arguments,
                                     other.plurals), key


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.iterdir()) if folder.is_dir() else []


def _read_again(path: Path) -> LocaleFile:
    """Read ``path`` as a new process would: nothing remembered but the cache on disk."""
    catalog._read_locale_cached.cache_clear()
    return read_locale(path)


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed although the cache holds the file")

    monkeypatch.setattr(catalog, "load_yaml", refuse)
    monkeypatch.setattr(catalog, "parse_locale", refuse)


def _locale(tmp_path: Path, text: str = LOCALE, name: str = "ru.yaml") -> Path:
    path = tmp_path / "locales" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- hit and miss ------------------------------------------------------------------------


@pytest.mark.parametrize("path", LOCALE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_hit_reads_every_shipped_file_as_the_parsers_do(
        path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = read_locale(path)  # a miss: parsed, then kept
    assert len(_entries(cache)) == 1
    _no_parsing(monkeypatch)
    hit = _read_again(path)
    monkeypatch.undo()
    _same(hit, first)
    _same(hit, _fresh(path, monkeypatch))


def test_a_hit_formats_as_the_file_does(tmp_path: Path, cache: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = _locale(tmp_path)
    shown = catalog.load_catalog("ru", [path.parent])
    _no_parsing(monkeypatch)
    catalog._read_locale_cached.cache_clear()
    again = catalog.load_catalog("ru", [path.parent])
    for n in (0, 1, 3, 5, 21):
        assert again.text("battle.units", n=n) == shown.text("battle.units", n=n)
    assert again.text("battle.share", x=0.25) == shown.text("battle.share", x=0.25)
    assert "{буквально}" in again.text("battle.share", x=0.25)
    assert again.text("battle.won", side="Orcs") == "Орки побеждает"
    assert again.locations["battle.share"].line == 11


def test_a_new_process_needs_neither_yaml_parser_nor_message_parser(tmp_path: Path) -> None:
    probe = ("import sys\n"
             "from stratagem.i18n import messages\n"
             "def refuse(*args): raise SystemExit('parsed a message')\n"
             "messages._Parser = refuse\n"
             "from stratagem.i18n.catalog import engine_catalog\n"
             "print(engine_catalog('ru').text('cli.help.top_lang'))\n"
             "print('ruamel' in sys.modules)\n")

    def run(cache: str, code: str = probe) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={**os.environ, "STRATAGEM_CACHE": cache}, timeout=120)

    without = run("off")
    assert without.returncode == 1 and "parsed a message" in without.stderr
    folder = str(tmp_path / "cache")
    assert run(folder, "from stratagem.i18n.catalog import engine_catalog\n"
                       "engine_catalog('ru')").returncode == 0  # a miss fills the cache
    hit = run(folder)
    assert hit.returncode == 0, hit.stderr
    shown, ruamel = hit.stdout.splitlines()
    assert shown and not shown.startswith("[") and ruamel == "False"


def test_an_edited_file_is_read_anew(tmp_path: Path, cache: Path) -> None:
    path = _locale(tmp_path)
    assert read_locale(path).messages["battle.won"].source == "{side} побеждает"
    edited = LOCALE.replace("побеждает", "победили")
    path.write_text(edited, encoding="utf-8")
    os.utime(path, ns=(0, 0))  # the time and size tell nothing: the text does
    assert _read_again(path).messages["battle.won"].source == "{side} победили"
    assert len(_entries(cache)) == 1  # the file's one entry, replaced
    assert json.loads(_entries(cache)[0].read_text(encoding="utf-8"))["text"] == edited


def test_the_same_text_under_another_name_is_checked_as_that_file(
        tmp_path: Path, cache: Path) -> None:
    read_locale(_locale(tmp_path))
    with pytest.raises(ValidationFailed) as caught:
        _read_again(_locale(tmp_path, name="uk.yaml"))
    assert "named for language 'uk'" in str(caught.value)


def test_an_engine_change_reads_anew(tmp_path: Path, cache: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = _locale(tmp_path)
    read_locale(path)
    monkeypatch.setattr(catalog, "__version__", "0.0.0-other")
    catalog._code_stamp.cache_clear()
    calls: list[str] = []
    parse = catalog.parse_locale
    monkeypatch.setattr(catalog, "parse_locale",
                        lambda *args, **kw: calls.append("parsed") or parse(*args, **kw))
    _read_again(path)
    assert calls == ["parsed"]
    monkeypatch.undo()
    catalog._code_stamp.cache_clear()


@pytest.mark.parametrize("text, where", [
    (LOCALE.replace("# отряд}", "# отряд"), ":10:"),
    (LOCALE.replace("  battle.won: \"{side}", "  battle.won: \"{_side}"), ":9:17"),
    (LOCALE + "  bad: [1, 2\n", ":12:8"),
], ids=["unclosed-plural", "underscore", "yaml"])
def test_a_malformed_file_is_never_kept_and_says_where(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, text: str,
        where: str) -> None:
    path = _locale(tmp_path, text)
    for _ in range(2):
        with pytest.raises(StratagemError) as caught:
            _read_again(path)
        assert f"ru.yaml{where}" in str(caught.value)
        assert _entries(cache) == []
    with pytest.raises(StratagemError) as without:
        _fresh(path, monkeypatch)
    assert str(without.value) == str(caught.value)


# --- where the cache is, and when there is none ------------------------------------------


def test_the_cache_folder_follows_xdg_then_home(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STRATAGEM_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert usercache.cache_folder("locales") == tmp_path / "xdg" / "stratagem" / "locales"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # ignored, as XDG says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert usercache.cache_folder("locales") == \
        tmp_path / "home" / ".cache" / "stratagem" / "locales"
    assert not (Path.cwd() / "relative").exists()
    assert (tmp_path / "home" / ".cache" / "stratagem" / "locales").stat().st_mode & 0o777 \
        == 0o700


def test_off_means_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STRATAGEM_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    catalog._read_locale_cached.cache_clear()
    assert usercache.cache_folder("locales") is None
    assert read_locale(_locale(tmp_path)).messages["battle.won"].source == "{side} побеждает"
    assert not (tmp_path / "xdg").exists()


@pytest.mark.parametrize("make", ["file", "fifo", "long-name", "proc", "shared"])
def test_an_unusable_folder_means_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           make: str) -> None:
    folder = tmp_path / "cache"
    if make == "file":
        folder.write_text("in the way")
    elif make == "fifo":
        os.mkfifo(folder)
    elif make == "long-name":
        folder = tmp_path / ("x" * 300)
    elif make == "proc":  # a folder nobody can make anything in, root neither
        folder = Path("/proc/stratagem-cache")
    else:  # a folder others may write into: what they put there is not to be read
        (folder / "locales").mkdir(parents=True)
        (folder / "locales").chmod(0o777)
    monkeypatch.setenv("STRATAGEM_CACHE", str(folder))
    assert usercache.cache_folder("locales") is None
    catalog._read_locale_cached.cache_clear()
    path = _locale(tmp_path)
    _same(read_locale(path), _fresh(path, monkeypatch))


def test_a_folder_that_cannot_be_written_means_no_cache(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    import tempfile

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    path = _locale(tmp_path)
    _same(read_locale(path), _fresh(path, monkeypatch))
    assert _entries(cache) == []


def test_an_entry_is_written_whole_and_private(tmp_path: Path, cache: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    replaced: list[tuple[str, str]] = []
    replace = os.replace

    def watch(src: str, dst: str) -> None:
        replaced.append((os.path.dirname(src), os.path.basename(src)))
        replace(src, dst)

    monkeypatch.setattr(os, "replace", watch)
    read_locale(_locale(tmp_path))
    [entry] = _entries(cache)
    assert replaced and replaced[0][0] == str(cache) and replaced[0][1].endswith(".tmp")
    assert entry.stat().st_mode & 0o777 == 0o600
    assert json.loads(entry.read_text(encoding="utf-8"))["format"] == catalog.CACHE_FORMAT


def test_a_long_file_is_not_kept(tmp_path: Path, cache: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog, "_CACHED_TEXT", len(LOCALE) - 1)
    assert read_locale(_locale(tmp_path)).messages["battle.won"].source == "{side} побеждает"
    assert _entries(cache) == []


def test_old_entries_are_removed(tmp_path: Path, cache: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(usercache, "MAX_ENTRIES", 3)
    paths = [_locale(tmp_path / str(i)) for i in range(5)]
    for i, path in enumerate(paths):
        read_locale(path)
        os.utime(cache / catalog._entry_name(str(path)), ns=(i * 10**9, i * 10**9))
    assert {p.name for p in _entries(cache)} == \
        {catalog._entry_name(str(p)) for p in paths[-3:]}


# --- a damaged or forged entry -----------------------------------------------------------


def _good_entry(tmp_path: Path, cache: Path) -> tuple[Path, Path, dict[str, object]]:
    path = _locale(tmp_path)
    read_locale(path)
    [entry] = _entries(cache)
    return path, entry, json.loads(entry.read_text(encoding="utf-8"))


def _forged(data: dict[str, object], key: str, value: object) -> dict[str, object]:
    messages = dict(data["messages"])  # type: ignore[call-overload]
    messages[key] = value
    return {**data, "messages": messages}


HOSTILE = {
    "garbage": lambda data, size: b"\x00\xff garbage \x9c",
    "truncated": lambda data, size: json.dumps(data).encode()[: size // 2],
    "empty": lambda data, size: b"",
    "not-a-map": lambda data, size: b"[1, 2, 3]",
    "too-deep": lambda data, size: b"[" * 30000 + b"]" * 30000,
    "huge": lambda data, size: json.dumps(data).encode() + b" " * (16 * size + 70000),
    "wrong-format": lambda data, size: json.dumps({**data, "format": -1}).encode(),
    "other-text": lambda data, size: json.dumps({**data, "text": "kind: locale\n"}).encode(),
    "other-path": lambda data, size: json.dumps({**data, "path": "/elsewhere/ru.yaml"}).encode(),
    "messages-a-list": lambda data, size: json.dumps({**data, "messages": [1]}).encode(),
    "message-a-number": lambda data, size: json.dumps(
        _forged(data, "battle.won", 7)).encode(),
    "plain-text-with-braces": lambda data, size: json.dumps(
        _forged(data, "battle.won", "{side}")).encode(),
    "hidden-name": lambda data, size: json.dumps(
        _forged(data, "battle.won", ["{x}", [["a", "side.__class__"]], []])).encode(),
    "unknown-part": lambda data, size: json.dumps(
        _forged(data, "battle.won", ["{x}", [["eval", "x"]], []])).encode(),
    "unknown-plural-form": lambda data, size: json.dumps(_forged(
        data, "battle.won", ["{x}", [["p", "n", [], [["lots", []]], "f"]], []])).encode(),
    "pound-outside-plural": lambda data, size: json.dumps(
        _forged(data, "battle.won", ["#", [["#"]], []])).encode(),
    "bad-quote-offset": lambda data, size: json.dumps(
        _forged(data, "battle.won", ["'{'", ["{"], [[99, "{"]]])).encode(),
    "bad-key": lambda data, size: json.dumps(
        {**data, "messages": {"no such key!": "x"}, "places": [1, 1]}).encode(),
    "bad-place": lambda data, size: json.dumps(
        {**data, "messages": {"battle.won": "x"}, "places": [-1, "one"]}).encode(),
    "places-short": lambda data, size: json.dumps(
        {**data, "places": data["places"][:-2]}).encode(),
    "no-home": lambda data, size: json.dumps({**data, "messages_at": None}).encode(),
    "bad-stamp": lambda data, size: json.dumps({**data, "sources": {"a": "zz"}}).encode(),
    "names-a-list": lambda data, size: json.dumps({**data, "names": ["Orcs"]}).encode(),
}


@pytest.mark.parametrize("damage", sorted(HOSTILE))
def test_a_damaged_or_forged_entry_is_ignored_and_written_anew(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    path, entry, data = _good_entry(tmp_path, cache)
    entry.write_bytes(HOSTILE[damage](data, len(path.read_text(encoding="utf-8"))))
    _same(_read_again(path), _fresh(path, monkeypatch))
    assert json.loads(entry.read_text(encoding="utf-8")) == data  # rebuilt


@pytest.mark.parametrize("kind", ["folder", "fifo", "device", "dangling"])
def test_an_entry_that_is_no_file_is_ignored(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    path, entry, _ = _good_entry(tmp_path, cache)
    entry.unlink()
    if kind == "folder":
        entry.mkdir()
    elif kind == "fifo":
        os.mkfifo(entry)
    elif kind == "device":
        entry.symlink_to("/dev/zero")
    else:
        entry.symlink_to(tmp_path / "nothing")
    _same(_read_again(path), _fresh(path, monkeypatch))


# --- the stored form of one message ------------------------------------------------------


@pytest.mark.parametrize("text", [
    "", "plain", "it's", "'{'literal'}' and {x}", "{a.b} {n, number, ::currency/usd}",
    "{n, plural, =0 {none} =1.50 {one and a half} one {# one '#'} other {{k, select, "
    "a {# a} other {{x, number, percent}}}}}",
    "{s, select, true {yes} other {no}}",
])
def test_a_stored_message_is_the_parsed_one(text: str) -> None:
    parsed = parse_message(text)
    back = from_data(json.loads(json.dumps(to_data(parsed))))
    assert (back.source, back.parts, back.quoted, back._text) == \
        (parsed.source, parsed.parts, parsed.quoted, parsed._text)


def test_stored_nesting_is_bounded_as_the_parser_bounds_it() -> None:
    def nested(depth: int) -> object:
        inner: object = ["x"]
        for _ in range(depth):
            inner = [["s", "k", [["other", inner]]]]
        return ["{", inner, []]

    from_data(nested(MAX_DEPTH))
    with pytest.raises(BadData):
        from_data(nested(MAX_DEPTH + 1))
    text = "{k, select, other {" * (MAX_DEPTH + 1) + "x" + "}}" * (MAX_DEPTH + 1)
    with pytest.raises(Exception, match="nest deeper"):
        parse_message(text)


def test_the_engine_locales_are_found() -> None:
    assert ENGINE_LOCALES / "en.yaml" in LOCALE_FILES
