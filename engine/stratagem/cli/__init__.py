"""The ``stratagem`` command line.

Each subcommand lives in its own module of this package and exposes
``register(subparsers)``; heavy libraries are imported inside the command, so
``stratagem --help`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from stratagem import __version__, _native
from stratagem.errors import StratagemError

#: Subcommand modules, in the order ``--help`` lists them.
COMMANDS = ["battle", "odds", "sweep", "rate", "roll", "validate", "schema", "rulesets", "i18n",
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
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        (getattr(args, "parser", None) or parser).error(
            f"unrecognized arguments: {' '.join(unknown)}")
    if not getattr(args, "run", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.run(args) or 0)
    except StratagemError as err:
        print(f"stratagem: {err.render()}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print("stratagem: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
