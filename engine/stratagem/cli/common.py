"""Options and helpers shared by the battle commands."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable
from typing import Any

from stratagem.errors import Keyed, StratagemError, Texts

#: The texts of the language this command line speaks (set as it is parsed), for its help
#: and the messages of argparse's type checks.
SPOKEN: Texts | None = None


def spoken(key: str, /, **params: object) -> str:
    """The text of ``key`` in the language this command line speaks (English until one is
    chosen): the descriptions and examples of the commands, their help (see :func:`helps`).
    argparse fills in ``%(prog)s`` where a description holds one: then a ``%`` is doubled."""
    text = (SPOKEN if SPOKEN is not None else _english()).keyed(key, params)
    text = text if text is not None else f"[{key}]"
    return text.replace("%", "%%") if "%(prog)" in text else text


def _english() -> Texts:
    """The English texts, the engine's own where a locale folder added from outside is
    broken (the command that reads it says so, at its line)."""
    from stratagem.i18n.catalog import ENGINE_LOCALES, engine_catalog, load_catalog

    try:
        return engine_catalog("en")
    except StratagemError:
        return load_catalog("en", [ENGINE_LOCALES])


def helps(key: str, /, **params: object) -> str:
    """:func:`spoken` for an argument's ``help=``, which argparse always %-formats (so a
    ``%`` in any language's text is doubled)."""
    return spoken(key, **params).replace("%", "%%")



#: What a terminal obeys rather than shows: C0 and C1 controls (but line feed and tab), DEL,
#: and the bidirectional controls that reorder what follows them.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                       "\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with control characters escaped (``\x1b``), to print on a terminal."""
    return _CONTROLS.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high``, its digits counted first."""
    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if not digits.isdigit() or len(digits) > len(str(max(abs(low), abs(high)))):
            raise argparse.ArgumentTypeError(Keyed(
                f"{printable(text[:40])!r} is not a whole number from {low} to {high}",
                "cli.arg_whole", value=repr(printable(text[:40])), low=low, high=high
            ).localized(SPOKEN))
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(Keyed(
                f"{value} is not from {low} to {high}", "cli.arg_range", value=str(value),
                low=low, high=high).localized(SPOKEN))
        return value
    return parse


def seconds(high: float) -> Callable[[str], float]:
    """An argument type: a number of seconds from 0 to ``high`` (no NaN, no infinity)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not 0 <= value <= high:  # false for NaN too
            raise argparse.ArgumentTypeError(Keyed(
                f"{printable(text[:40])!r} is not a number of seconds from 0 to {high:g}",
                "cli.arg_seconds_range", value=repr(printable(text[:40])), high=high
            ).localized(SPOKEN))
        return value
    return parse


#: ``--seed``: the seeds a scenario's `seed:` may hold too.
seed_arg = whole_number(0, 2**64 - 1)


def default_lang() -> str:
    """The user's language from the environment (LANG=ru_RU.UTF-8 → ru), else English."""
    return chosen_lang(None)


def chosen_lang(requested: str | None, *, warn: bool = True) -> str:
    """The language to speak: --lang, else the environment's, matched to the languages with
    locale files (de-AT → de → English, any case). Says so on stderr when --lang names a
    language without texts (they then fall back to English)."""
    from stratagem.i18n.catalog import available_languages, check_language_code
    from stratagem.i18n.negotiate import choose, negotiate, normalize_tag

    if requested:
        check_language_code(normalize_tag(requested) or requested)
    available = available_languages()
    if requested and negotiate(requested, available) is None:
        if warn:
            print(_warning(requested, available), file=sys.stderr)
        return "en"
    return choose(requested, available)


def _warning(requested: str, available: list[str]) -> str:
    from stratagem.i18n.catalog import engine_catalog

    english = "stratagem: no texts in '{lang}' yet ({known} exist); showing English"
    try:
        text = engine_catalog(chosen_lang(None, warn=False)).keyed(
            "cli.language_missing", {"lang": requested, "known": ", ".join(available)})
    except StratagemError:
        text = None
    return "stratagem: " + text if text else english.format(lang=requested,
                                                           known=", ".join(available))


def add_allow_path(parser: argparse.ArgumentParser) -> None:
    """``--allow-path DIR``: a folder the files read may name files in (docs/security.md)."""
    parser.add_argument("--allow-path", action="append", default=[], metavar="DIR",
                        help=helps("cli.help.allow_path"))


def add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", default=None, metavar="LANG", help=helps("cli.help.lang"))
    parser.add_argument("--locales", action="append", default=[], metavar="DIR",
                        help=helps("cli.help.locales"))


def add_max_seconds(parser: argparse.ArgumentParser) -> None:
    """--max-seconds: the time one battle may take."""
    parser.add_argument("--max-seconds", type=_seconds, default=None, metavar="SECONDS",
                        help=helps("cli.help.max_seconds"))


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(Keyed(
            f"expected a number of seconds, got {printable(text[:40])!r}", "cli.arg_seconds",
            value=repr(printable(text[:40]))).localized(SPOKEN)) from None
    if not 0 < value <= 86_400:
        raise argparse.ArgumentTypeError(Keyed(
            "expected seconds between 0 and 86400 (a day)", "cli.arg_seconds_day"
        ).localized(SPOKEN))
    return value


def limit_seconds(args: argparse.Namespace) -> None:
    """Each battle this command fights stops after ``--max-seconds`` (if given)."""
    from stratagem.interp.context import limit_battles

    limit_battles(getattr(args, "max_seconds", None))


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """--dice, --decide and --interactive: the dice and decisions of the table."""
    parser.add_argument("--dice", metavar="LIST", default=None,
                        help=helps("cli.help.dice"))
    parser.add_argument("--decide", action="append", metavar="ID[:WHO]=VALUE",
                        help=helps("cli.help.decide"))
    parser.add_argument("--interactive", action="store_true",
                        help=helps("cli.help.interactive"))


def parse_value(text: str) -> Any:
    """A command-line value: a whole number, true/false, or text."""
    low = text.strip().lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def parse_dice_list(text: str) -> list[Any]:
    """`--dice 14,10,8` or `--dice "14 10 [3,5,1,6]"`: totals, or faces in brackets."""
    out: list[Any] = []
    buf = text.replace(";", ",")
    i = 0
    token = ""
    while i < len(buf):
        ch = buf[i]
        if ch == "[":
            end = buf.find("]", i)
            if end < 0:
                raise StratagemError("--dice: a '[' without its ']'",
                                     hint="write faces as [3,5,1,6]", key="cli.dice_bracket")
            out.append([_int(x) for x in buf[i + 1:end].replace(",", " ").split()])
            i = end + 1
            continue
        if ch in ", \t":
            if token:
                out.append(_int(token))
                token = ""
        else:
            token += ch
        i += 1
    if token:
        out.append(_int(token))
    return out


def _int(text: str) -> int:
    try:
        if len(text.strip().lstrip("+-")) > 18:
            raise ValueError(text)
        return int(text)
    except ValueError:
        raise StratagemError(f"--dice: '{text}' is not a whole number",
                             hint="e.g. --dice 14,10,8 or --dice '[3,5,1,6] 12'",
                             key="cli.dice_number", params={"text": text}) from None


def parse_decisions(items: list[str] | None) -> dict[str, Any]:
    """`--decide risk:Aldric=-2 --decide tactic=attack` → decisions. A value in braces is a
    plan, written as in a scenario: `--decide 'risk:Aldric={policy: "-2 if ... else 0"}'`."""
    out: dict[str, Any] = {}
    for item in items or []:
        if "=" not in item:
            raise StratagemError(f"--decide {item}: expected ID=VALUE or ID:WHO=VALUE",
                                 hint="e.g. --decide risk:Aldric=-2, or "
                                      "--decide 'risk:Aldric={prefer: [-2, -1], else: 0}'",
                                 key="cli.decide", params={"item": item})
        left, text = item.split("=", 1)
        value = _plan(left, text) if text.lstrip().startswith("{") else parse_value(text)
        if ":" in left:
            key, who = left.split(":", 1)
            entry = out.setdefault(key, {})
            if not isinstance(entry, dict):
                entry = out[key] = {"*": entry}
            entry.setdefault(who, []).append(value)
        else:
            out[left] = value
    return out


def _plan(left: str, text: str) -> Any:
    """A plan given on the command line, read as YAML (its errors name `--decide ID`)."""
    from stratagem.loader.yamlio import load_yaml

    return load_yaml(f"--decide {left}", text=text)


def ask(prompt: str, texts: Texts | None = None) -> str:
    """Ask at the terminal, in the language of ``texts``; the question goes to stderr so stdout
    stays the report."""
    sys.stderr.write(prompt.localized(texts) if isinstance(prompt, Keyed) else prompt)
    sys.stderr.flush()
    try:
        return input()
    except EOFError:
        return ""


def write_out(text: str, path: str | None = None) -> None:
    """Print ``text``, or with ``path`` (``-o FILE``) write it there atomically."""
    if not text.endswith("\n"):
        text += "\n"
    if path and path != "-":
        from stratagem.render import write_file

        write_file(path, text)
        return
    sys.stdout.write(text)


def add_format(parser: argparse.ArgumentParser) -> None:
    """``--format text|md|html|json``, ``--json`` (the same as ``--format json``), ``-o``."""
    from stratagem.render import FORMATS

    parser.add_argument("--format", choices=FORMATS, default=None,
                        help=helps("cli.help.format"))
    parser.add_argument("--json", action="store_true", help=helps("cli.help.json"))
    parser.add_argument("-o", "--output", metavar="FILE", default=None,
                        help=helps("cli.help.output"))


def chosen_format(args: argparse.Namespace) -> str:
    """The output format: ``--format``, else json with ``--json``, else what the name given
    to ``-o`` ends with (.md, .html, .json), else text."""
    if args.format and args.json and args.format != "json":
        raise StratagemError(f"--json and --format {args.format} disagree",
                             hint="give one of them", key="cli.json_and_format",
                             params={"format": args.format})
    if args.format:
        return str(args.format)
    if args.json:
        return "json"
    suffix = os.path.splitext(args.output or "")[1].lower()
    return {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html",
            ".json": "json"}.get(suffix, "text")


def write_result(args: argparse.Namespace, result: Any, template: str,
                 view: Callable[[Any, str, bool], Any], lang: str) -> None:
    """A battle's or a rating's result in the chosen format (``--format``, or ``-o``'s
    ending), to standard output or the ``-o`` file."""
    fmt = chosen_format(args)
    if fmt == "json":
        write_out(result.to_json(), args.output)
    elif fmt == "text":  # names from files may hold escape sequences: shown escaped
        write_out(printable(result.report(lang=lang, explain=args.explain)), args.output)
    else:
        from stratagem.render import render

        page = render(template, fmt, view(result, lang, args.explain), result.ruleset)
        write_out(printable(page) if fmt == "md" else page, args.output)
