"""``unoformal replay RECORD``: play a game record and print the final state."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from unoformal.commands import SUMMARY
from unoformal.engine.record import Replay, load_record, replay
from unoformal.errors import InvalidInputError
from unoformal.rulebook.variants import load_rules_arg


def register(sub: Any) -> None:
    p = sub.add_parser("replay", help=SUMMARY["replay"])
    p.add_argument("record", help="path of the record")
    p.add_argument("--json", action="store_true", help="print the state as JSON")
    p.add_argument("--rules", default=None, help="override the record's rules")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.record)
        rules = load_rules_arg(args.rules, "--rules") if args.rules is not None else None
        result = replay(record, rules)
    except InvalidInputError as err:
        err.at(source=args.record)
        if args.json:
            print(json.dumps({"error": err.to_json(), "state": None}, indent=2))
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    if result.error is not None:
        result.error.at(source=args.record)
    if args.json:
        _print_json(result)
    else:
        _print_text(result)
    if result.error is not None:
        print(f"error: {result.error.line()}", file=sys.stderr)
    return 2 if result.error is not None else 0


def _print_json(result: Replay) -> None:
    out: dict[str, Any] = result.game.state_json()
    if result.error is not None:
        out = {"error": result.error.to_json(), "state": out}
    print(json.dumps(out, indent=2))


def _print_text(result: Replay) -> None:
    # Plain print for the actions: rich's highlighter costs time quadratic in a line's
    # length, and a record may hold 100,000 actions.
    for i, action in enumerate(result.actions):
        print(f"{i:4d}  {action}")
    state = result.game.state_json()
    console = Console(highlight=False)
    console.print(_state_table(state, result.game.rules.mercy.enabled))
    console.print(_players_table(state))


def _state_table(state: dict[str, Any], knocked: bool = False) -> Table:
    table = Table(title="state", show_header=False)
    table.add_column("what", style="bold")
    table.add_column("value", overflow="fold")
    for key in ("to_play", "phase", "direction", "color", "top", "draw_pile", "round_over",
                "winner", "round_points", "game_over", "game_winner", "out"):
        if key not in state or (key == "game_winner" and state[key] is None):
            continue  # "out" only under END-2's elimination; a winner once the game is over
        label = "draw pile (cards)" if key == "draw_pile" else key.replace("_", " ")
        value = state[key]
        if key == "out":  # in the order they left (the game, or under MERCY the round)
            label = "knocked out of the round" if knocked else "left the game"
            value = ", ".join(value) or None
        table.add_row(label, escape(_show(value)))
    return table


def _players_table(state: dict[str, Any]) -> Table:
    """One row per player: score, hand size and hand (cards fold onto more lines)."""
    table = Table(title="players")
    table.add_column("player", style="bold")
    table.add_column("score", justify="right")
    table.add_column("cards", justify="right")
    table.add_column("hand", overflow="fold")
    for name, hand in state["hands"].items():
        table.add_row(escape(name), str(state["scores"][name]), str(len(hand)),
                      escape(" ".join(hand)))
    return table


def _show(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
