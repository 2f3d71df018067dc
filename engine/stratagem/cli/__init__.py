"""The ``stratagem`` command line.

Each subcommand lives in its own module of this package and exposes
``register(subparsers)``; heavy libraries are imported inside the command, so
``stratagem --help`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

from stratagem import __version__, _native
from stratagem.errors import Keyed, StratagemError, Texts

#: Subcommand modules, in the order ``--help`` lists them.
COMMANDS = ["battle", "odds", "sweep", "rate", "roll", "validate", "schema", "rulesets", "i18n",
            "campaign"]

EXIT_OK, EXIT_USER_ERROR, EXIT_USAGE = 0, 1, 2


#: argparse's own texts (it asks gettext for them) and the keys of their translations.
ARGPARSE_TEXTS = {
    "usage: ": "argparse.usage",
    "positional arguments": "argparse.positional",
    "options": "argparse.options",
    "show this help message and exit": "argparse.help",
    "show program's version number and exit": "argparse.version",
    "%(prog)s: error: %(message)s\n": "argparse.error",
    "the following arguments are required: %s": "argparse.required",
    "unrecognized arguments: %s": "argparse.unrecognized",
    "invalid choice: %(value)r (choose from %(choices)s)": "argparse.invalid_choice",
    "expected one argument": "argparse.one_argument",
    "argument %(argument_name)s: %(message)s": "argparse.argument",
    "invalid %(type)s value: %(value)r": "argparse.invalid_value",
    "ambiguous option: %(option)s could match %(matches)s": "argparse.ambiguous",
}


def _argparse_speaks(argv: list[str]) -> None:
    """argparse asks gettext for its own texts (usage:, options, error:): answer from the
    catalog of the language --lang (or the environment) names, English where it has none."""
    from stratagem.cli import common
    from stratagem.cli.common import chosen_lang
    from stratagem.i18n.catalog import engine_catalog, set_locale_places

    langs = _given(argv, "--lang")
    requested = langs[-1] if langs else None
    common.SPOKEN = None  # English, unless the language's texts load
    try:  # a translator's own texts (--locales) speak in --help too
        set_locale_places(Path(place) for place in _given(argv, "--locales"))
        texts = engine_catalog(chosen_lang(requested, warn=False))
    except StratagemError:  # a bad --lang is reported once parsing is done
        return
    common.SPOKEN = texts

    def gettext(text: str) -> str:
        key = ARGPARSE_TEXTS.get(text)
        return (texts.keyed(key, {}) if key else None) or text

    def ngettext(single: str, plural: str, n: int) -> str:
        return gettext(single if n == 1 else plural)

    argparse._ = gettext  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def _given(argv: list[str], option: str) -> list[str]:
    """The values ``option`` is given in ``argv`` (``--lang ru`` or ``--lang=ru``), before
    argparse reads them."""
    values = [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == option]
    values += [arg.split("=", 1)[1] for arg in argv if arg.startswith(option + "=")]
    return values


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser. Given the arguments ``argv``, only the commands they name
    get their full parser (the others are listed by their one-line help alone, all that
    ``stratagem --help`` shows): argparse chooses a command only by its exact name, so a
    command none of the arguments names cannot be the one that runs, and building the help
    of every option of all of them would cost ``--help`` more than the rest of its work."""
    from stratagem.cli.common import helps, spoken

    parser = argparse.ArgumentParser(prog="stratagem", description=spoken("cli.help.description"),
                                     epilog=spoken("cli.help.epilog"))
    compiled = _native.build() == "compiled"
    parser.add_argument("--version", action="version", help=helps("argparse.version"),
                        version=spoken("cli.help.version", version=__version__,
                                       compiled=compiled))
    parser.add_argument("--lang", dest="top_lang", default=None, metavar="LANG",
                        help=helps("cli.help.top_lang"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    named = None if argv is None else set(argv)
    for name in COMMANDS:
        if named is None or name in named:
            importlib.import_module(f"stratagem.cli.{name}").register(sub)
        else:
            sub.add_parser(name, help=helps(f"cli.help.{name}.about"))
    _know_own_parsers(sub)
    return parser


def _know_own_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Each (sub)command remembers its parser, so that a mistake in its arguments is
    reported with its own usage, not the top level's."""
    for command in sub.choices.values():
        if command.get_default("parser") is None:
            command.set_defaults(parser=command)
        for action in command._subparsers._group_actions if command._subparsers else []:
            if isinstance(action, argparse._SubParsersAction):
                _know_own_parsers(action)


def error_texts(args: argparse.Namespace) -> Texts | None:
    """The catalog errors are shown from: the engine's texts in the user's language."""
    from stratagem.cli.common import chosen_lang
    from stratagem.i18n.catalog import engine_catalog

    try:
        return engine_catalog(chosen_lang(getattr(args, "lang", None), warn=False))
    except StratagemError:  # a broken locale file must not hide the error being shown
        return None


def main(argv: list[str] | None = None) -> int:
    """Run one command; every failure ends in a message and an exit code, never a traceback
    (what a file cannot cause is a bug to report: docs/security.md)."""
    from stratagem.i18n.catalog import set_locale_places

    given = sys.argv[1:] if argv is None else argv
    _argparse_speaks(given)
    parser = build_parser(given)
    args, unknown = parser.parse_known_args(argv)
    if getattr(args, "lang", None) is None:  # `stratagem --lang ru COMMAND ...`
        args.lang = args.top_lang
    if unknown:
        unrecognized = argparse._("unrecognized arguments: %s")  # type: ignore[attr-defined]
        (getattr(args, "parser", None) or parser).error(unrecognized % " ".join(unknown))
    if not getattr(args, "run", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        from stratagem.compile import pipeline
        from stratagem.loader.access import Access

        set_locale_places(getattr(args, "locales", None) or [])
        allowed = [p for p in os.environ.get("STRATAGEM_ALLOW_PATH", "").split(os.pathsep) if p]
        pipeline.DEFAULT.access = Access.allowing(allowed + (getattr(args, "allow_path", None)
                                                             or []))
        code = int(args.run(args) or 0)
        sys.stdout.flush()  # a full disk or a closed pipe is met here, not at exit
        return code
    except StratagemError as err:
        _say(err.render(error_texts(args)))
    except KeyboardInterrupt:
        note = Keyed("interrupted", "cli.interrupted")
        _say(note.localized(error_texts(args)))
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        _say(Keyed("the output was closed before everything was written (e.g. piped into "
                   "'head')", "cli.output_closed").localized(error_texts(args)))
    except RecursionError:
        _bug(args, Keyed("this is nested too deeply to follow", "cli.too_deep"))
    except MemoryError:
        _bug(args, Keyed("out of memory", "cli.out_of_memory"))
    except OverflowError as err:
        _bug(args, Keyed(f"a number is too large ({_plain(err)})", "cli.too_large",
                         reason=_plain(err)))
    except OSError as err:
        _quiet_stdout()
        reason = err.strerror or _plain(err)
        said = (Keyed(f"cannot read or write {err.filename}: {reason}", "cli.cannot_use_file",
                      file=str(err.filename), reason=reason) if err.filename else
                Keyed(f"cannot read or write: {reason}", "cli.cannot_use", reason=reason))
        _say(said.localized(error_texts(args)))
    return EXIT_USER_ERROR


def _bug(args: argparse.Namespace, what: Keyed) -> None:
    """A failure that a file should not be able to cause, and what to do about it."""
    texts = error_texts(args)
    bug = Keyed("the file's limits should have stopped it first, so this is a bug to report "
                "with the files that caused it (docs/security.md)", "cli.bug")
    _say(f"{what.localized(texts)}; {bug.localized(texts)}")


def _plain(err: BaseException) -> str:
    return str(err).splitlines()[0][:200] if str(err) else type(err).__name__


def _say(text: str) -> None:
    """A message on stderr (which may itself be closed: then nothing is said)."""
    from stratagem.cli.common import printable

    try:
        print(f"stratagem: {printable(text)}", file=sys.stderr)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _quiet_stdout() -> None:
    """Standard output that cannot be written any more points at /dev/null, so that the
    interpreter's flush at exit does not fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
