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
    from stratagem.i18n.catalog import engine_catalog

    requested = None
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv):
            requested = argv[index + 1]
        elif arg.startswith("--lang="):
            requested = arg.split("=", 1)[1]
    try:
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stratagem",
        description="Resolve tabletop mass battles from rules written as data.",
        epilog="Run 'stratagem COMMAND --help' for the options of one command.",
    )
    engine = ("compiled engine" if _native.build() == "compiled"
              else "engine not compiled: running the sources")
    parser.add_argument("--version", action="version",
                        version=f"stratagem {__version__} ({engine})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"stratagem.cli.{name}").register(sub)
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

    _argparse_speaks(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
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
        _say("the output was closed before everything was written (e.g. piped into 'head')")
    except RecursionError:
        _say("this is nested too deeply to follow" + BUG)
    except MemoryError:
        _say("out of memory" + BUG)
    except OverflowError as err:
        _say(f"a number is too large ({_plain(err)})" + BUG)
    except OSError as err:
        _quiet_stdout()
        what = f" {err.filename}" if err.filename else ""
        _say(f"cannot read or write{what}: {err.strerror or _plain(err)}")
    return EXIT_USER_ERROR


#: What a failure that a file should not be able to cause adds to its message.
BUG = ("; the file's limits should have stopped it first, so this is a bug to report "
       "with the files that caused it (docs/security.md)")


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
