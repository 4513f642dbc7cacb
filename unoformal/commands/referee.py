"""``unoformal referee``: the live referee protocol on stdin and stdout (JSON lines; see
``docs/referee.md`` and :mod:`unoformal.compare.live`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from unoformal.commands import SUMMARY
from unoformal.errors import InvalidInputError
from unoformal.inputs import decode_line, is_empty, read_lines

if TYPE_CHECKING:  # loaded by run only, to keep start-up short
    from unoformal.compare.live import Referee


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
    from unoformal.compare.live import Referee

    referee = Referee()
    for number, raw in enumerate(read_lines(sys.stdin.buffer), start=1):
        print(json.dumps(_answer(referee, raw, f"line {number}")), flush=True)
        if referee.done:
            break
    return 0


def _answer(referee: Referee, raw: bytes | InvalidInputError, where: str) -> dict[str, Any]:
    """Every line gets exactly one answer, an empty one (JSON white space only) an error
    answer saying so: a client waiting for each answer never blocks."""
    try:
        if isinstance(raw, InvalidInputError):
            raise raw
        line = decode_line(raw)
        if is_empty(line):
            raise InvalidInputError('an empty line: a message is one JSON object a line, '
                                    'such as {"cmd": "state"}')
    except InvalidInputError as err:
        return referee.refuse(err.at(source=where))
    return referee.handle_line(line, where)
