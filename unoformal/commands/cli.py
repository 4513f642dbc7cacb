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
import textwrap
from collections.abc import Sequence
from typing import Any, NoReturn

from unoformal.commands import SUMMARY
from unoformal.errors import InvalidInputError, UnoError, one_line
from unoformal.runtime import interrupts

COMMANDS = tuple(SUMMARY)
EXIT_INTERRUPTED = 128 + signal.SIGINT


class Formatter(argparse.HelpFormatter):
    """argparse's help, wrapped at spaces only: a rule ID (``RESHUFFLE-1``), a variant's
    name or a file name is never split at its hyphen."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent,
                             subsequent_indent=indent, break_on_hyphens=False)


class Parser(argparse.ArgumentParser):
    """argparse, with a bad option reported on one line (not usage, then the error), and
    help wrapped by :class:`Formatter` (every command's parser is one of these)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {self.prog}: {one_line(message)} (see {self.prog} --help)\n")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser, with the options of the command ``argv`` names (every command's,
    without ``argv``); the others are listed by name and summary only, so their modules,
    and what they import (Z3, networkx), are not loaded."""
    parser = Parser(
        prog="unoformal",
        description="The rules of UNO as one rule table: play, prove and explore them.")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    named = _command(argv)
    for name in COMMANDS:
        if argv is None or name == named:
            module = importlib.import_module(f"unoformal.commands.{name.replace('-', '_')}")
            module.register(sub)
            _name_the_variants(sub.choices[name])
        else:
            sub.add_parser(name, help=SUMMARY[name])
    return parser


def _name_the_variants(command: argparse.ArgumentParser) -> None:
    """A command's ``--rules`` help ends with the shipped variants' names and where a
    variant file is described: said here once, so that no command's help leaves a reader
    guessing the names (every command that takes ``--rules`` has loaded the variants)."""
    from unoformal.rulebook.variants import VARIANTS

    for action in command._actions:
        if "--rules" in action.option_strings and action.help:
            action.help += (f"; shipped variants: {', '.join(VARIANTS)}; a house rule "
                            "of the catalogue by name, several joined by '+' (unoformal "
                            "house-rules --list); a variant file is described in "
                            "docs/rule-table.md")


def _command(argv: Sequence[str] | None) -> str | None:
    """The command the arguments name: the first that is not an option (``unoformal``'s
    own options, --help and --version, take no value)."""
    return next((a for a in argv or () if not a.startswith("-")), None)


def version() -> str:
    # Imported here: importlib.metadata costs about 15 ms, paid only by --version.
    from importlib import metadata

    try:
        return metadata.version("unoformal")
    except metadata.PackageNotFoundError:  # run from a source tree, not installed
        return "unknown"


class _Version(argparse.Action):
    """``--version``, looked up only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from unoformal.runtime.compiled import build

        print(f"unoformal {version()} (engine: {build()})")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    try:
        interrupts.end_guard()
        interrupts.watch()
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
    except Exception as err:
        # Ctrl-C surfaced as a library's error (Z3: "canceled"), or wrapped by Python (a
        # KeyboardInterrupt in a dataclass's __set_name__ while a module loads becomes the
        # cause of a RuntimeError) before the watcher thread has noted the signal
        if interrupts.received() or _caused_by_interrupt(err):
            return _interrupted()
        raise
    return code


def _caused_by_interrupt(err: BaseException) -> bool:
    """Whether a ``KeyboardInterrupt`` is in ``err``'s chain of causes."""
    seen: set[int] = set()
    cause: BaseException | None = err
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def _parse(argv: Sequence[str] | None) -> argparse.Namespace | int:
    """The arguments, or the exit code argparse chose (0 for --help, 2 for a bad option):
    ``main`` returns rather than exits, for callers that run it in-process."""
    try:
        args = sys.argv[1:] if argv is None else list(argv)
        return build_parser(args).parse_args(args)
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else 2


def _interrupted() -> int:
    # A second Ctrl-C while we say so must not print a traceback either.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Nor may an object the interrupt cut short in its constructor, when it is collected
    # (a Z3 term without its context: "Exception ignored in AstRef.__del__", a traceback
    # printed at exit after "interrupted").
    sys.unraisablehook = _ignore_unraisable
    with contextlib.suppress(OSError, ValueError):  # a closed or broken stdout
        sys.stdout.flush()
    print("interrupted", file=sys.stderr)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    return EXIT_INTERRUPTED


def _ignore_unraisable(unraisable: object) -> None:
    return None


if __name__ == "__main__":
    sys.exit(main())
