"""The ``unoformal`` command: one sub-command per module in :mod:`unoformal.commands`.

Exit codes: 0 success, 1 a finding (an unexpected verdict, an incomplete exploration,
a game that hit its cap), 2 bad input (one line on stderr naming the file or option,
the place in it, the rule and what is allowed), 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import signal
import sys
from collections.abc import Sequence
from typing import NoReturn

from unoformal import interrupts
from unoformal.errors import InvalidInputError, UnoError, one_line

COMMANDS = ("rules", "replay", "simulate", "verify", "validate", "explore")
EXIT_INTERRUPTED = 128 + signal.SIGINT


class Parser(argparse.ArgumentParser):
    """argparse, with a bad option reported on one line (not usage, then the error)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {self.prog}: {one_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="unoformal",
        description="The rules of UNO as one rule table: play, prove and explore them.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"unoformal.commands.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    interrupts.watch()
    try:
        args = _parse(argv)
        if isinstance(args, int):
            return args
        code: int = args.run(args)
    except KeyboardInterrupt:
        return _interrupted()
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly, as Unix tools do.
        sys.stderr.close()
        return 0
    except UnoError as err:  # a command that did not catch its own: still one line
        print(f"error: {err.line()}", file=sys.stderr)
        return 2 if isinstance(err, InvalidInputError) else 1
    return code


def _parse(argv: Sequence[str] | None) -> argparse.Namespace | int:
    """The arguments, or the exit code argparse chose (0 for --help, 2 for a bad option):
    ``main`` returns rather than exits, for callers that run it in-process."""
    try:
        return build_parser().parse_args(argv)
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else 2


def _interrupted() -> int:
    # A second Ctrl-C while we say so must not print a traceback either.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, ValueError):  # a closed or broken stdout
        sys.stdout.flush()
    print("interrupted", file=sys.stderr)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
