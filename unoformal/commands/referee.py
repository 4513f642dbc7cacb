"""``unoformal referee``: the live referee protocol on stdin and stdout (JSON lines; see
``docs/referee.md`` and :mod:`unoformal.referee`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import IO, Any

from unoformal.commands import SUMMARY
from unoformal.errors import InvalidInputError
from unoformal.inputs import MAX_FILE_BYTES


def register(sub: Any) -> None:
    p = sub.add_parser(
        "referee", help=SUMMARY["referee"],
        description="Referee a game move by move over JSON lines, as UCI and GTP do: one "
                    'JSON object a line on stdin, each with a "cmd" (new, apply, legal, '
                    "state, view, record, next_round, quit), each answered by one line on "
                    "stdout carrying the rule IDs involved. Bad input gets an error answer "
                    "and the game goes on. The end of input or quit ends with exit status "
                    "0. See docs/referee.md.")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from unoformal.referee import Referee

    referee = Referee()
    for number, line in enumerate(_lines(sys.stdin.buffer), start=1):
        where = f"line {number}"
        if isinstance(line, InvalidInputError):
            answer = referee.refuse(line.at(source=where))
        elif not line.strip():
            continue
        else:
            answer = referee.handle_line(line, where)
        print(json.dumps(answer), flush=True)
        if referee.done:
            break
    return 0


def _lines(stream: IO[bytes]) -> Iterator[str | InvalidInputError]:
    """Each line as text; a line too long or not UTF-8 as the error saying so (a line
    longer than the limit is skipped to its end, never held in memory whole)."""
    while True:
        raw = stream.readline(MAX_FILE_BYTES + 1)
        if not raw:
            return
        if len(raw) > MAX_FILE_BYTES:
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(MAX_FILE_BYTES + 1)
            yield InvalidInputError(f"a line longer than {MAX_FILE_BYTES:,} bytes")
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as err:
            yield InvalidInputError(f"not UTF-8 text (byte {err.start})")
