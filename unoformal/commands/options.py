"""Option types shared by the sub-commands: every number in a stated range, every output
path writable, checked by argparse before a command starts (exit 2, one line)."""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable

from unoformal.errors import InvalidInputError
from unoformal.inputs import (
    MAX_OPTION_TEXT,
    MAX_SEED,
    ascii_int,
    check_output,
    check_path,
    show,
)
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules_arg


def whole(lo: int, hi: int, rule_id: str | None = None) -> Callable[[str], int]:
    """A whole number from ``lo`` to ``hi``, in ASCII digits; ``rule_id`` names the rule
    that sets the range, if one does."""
    breaks = f" (breaks {rule_id})" if rule_id else ""

    def parse(text: str) -> int:
        try:
            return ascii_int(text, "value", lo, hi)
        except InvalidInputError:
            raise argparse.ArgumentTypeError(
                f"{show(text)}: expected a whole number from {lo:,} to {hi:,}{breaks}"
            ) from None
    parse.__name__ = "whole number"
    return parse


def short_text(text: str) -> str:
    """Free text (a list of names): at most ``MAX_OPTION_TEXT`` characters."""
    if len(text) > MAX_OPTION_TEXT:
        raise argparse.ArgumentTypeError(f"{len(text):,} characters: at most "
                                         f"{MAX_OPTION_TEXT} are allowed")
    return text


def seed(text: str) -> int:
    """A seed: 0 <= seed < 2**63, like the engine's."""
    return whole(0, MAX_SEED - 1)(text)


def real(lo: float, hi: float) -> Callable[[str], float]:
    """A finite number in (``lo``, ``hi``]."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and lo < value <= hi):
            raise argparse.ArgumentTypeError(
                f"{show(text)}: expected a number above {lo:g} and at most {hi:g}")
        return value
    parse.__name__ = "number"
    return parse


def _usable(text: str) -> None:
    try:
        check_path(text, "path")
    except InvalidInputError as err:
        raise argparse.ArgumentTypeError(err.message) from None


def output_file(text: str) -> str:
    """A file to write: see :func:`unoformal.inputs.check_output`."""
    try:
        return check_output(text, "output file")
    except InvalidInputError as err:
        raise argparse.ArgumentTypeError(err.line()) from None


def output_dir(text: str) -> str:
    """A folder to write into: an existing folder, or a new one in an existing folder."""
    _usable(text)
    if os.path.exists(text):
        if not os.path.isdir(text):
            raise argparse.ArgumentTypeError(f"{show(text)} exists and is not a directory")
        return text
    parent = os.path.dirname(os.path.normpath(text)) or "."
    if not os.path.isdir(parent):
        raise argparse.ArgumentTypeError(f"{show(text)}: no directory {show(parent)}")
    return text


def rules_and_counts(rules_arg: str | None, players: list[int] | None,
                     default: Callable[[int, int], list[int]]) -> tuple[RuleTable, list[int]]:
    """``--rules`` and ``--players`` read together: the table, and the player counts asked
    (``default(minimum, maximum)`` when none), each within what DECK-2 allows."""
    rules: RuleTable = load_rules_arg(rules_arg, "--rules")
    lo, hi = rules.players.minimum, rules.players.maximum
    wanted = players if players is not None else default(lo, hi)
    if not wanted:
        raise InvalidInputError(f"--rules: the rules {rules.name!r} allow no player count "
                                f"({lo} to {hi})", "DECK-2")
    bad = [c for c in wanted if not lo <= c <= hi]
    if bad:
        raise InvalidInputError(f"{bad[0]} players: the rules allow {lo} to {hi}", "DECK-2")
    return rules, wanted
