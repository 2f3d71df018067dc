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
from stratagem.errors import StratagemError

#: Subcommand modules, in the order ``--help`` lists them.
COMMANDS = ["battle", "odds", "rate", "roll", "validate", "schema", "rulesets", "i18n",
            "campaign"]

EXIT_OK, EXIT_USER_ERROR, EXIT_USAGE = 0, 1, 2


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


def main(argv: list[str] | None = None) -> int:
    """Run one command; every failure ends in a message and an exit code, never a traceback
    (the limits a file cannot raise, and what is a bug to report: docs/security.md)."""
    try:
        code = _run(argv)
        sys.stdout.flush()  # a full disk or a closed pipe is met here, not at exit
        return code
    except StratagemError as err:
        _say(err.render())
    except KeyboardInterrupt:
        _say("interrupted")
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


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        (getattr(args, "parser", None) or parser).error(
            f"unrecognized arguments: {' '.join(unknown)}")
    if not getattr(args, "run", None):
        parser.print_help()
        return EXIT_USAGE
    from stratagem.compile import pipeline
    from stratagem.loader.access import Access

    allowed = [p for p in os.environ.get("STRATAGEM_ALLOW_PATH", "").split(os.pathsep) if p]
    pipeline.DEFAULT.access = Access.allowing(allowed + (getattr(args, "allow_path", None) or []))
    return int(args.run(args) or 0)


def _plain(err: BaseException) -> str:
    return str(err).splitlines()[0][:200] if str(err) else type(err).__name__


def _say(text: str) -> None:
    """A message on stderr (which may itself be closed: then nothing is said)."""
    try:
        print(f"stratagem: {text}", file=sys.stderr)
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
