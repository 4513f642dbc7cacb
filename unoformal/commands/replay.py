"""``unoformal replay RECORD``: play a game record and print the final state."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console

from unoformal.engine.record import load_record, record_actions, replay
from unoformal.errors import InvalidInputError, UnoError


def register(sub: Any) -> None:
    p = sub.add_parser("replay", help="play a game record (JSON) and print the final state")
    p.add_argument("record", help="path of the record")
    p.add_argument("--json", action="store_true", help="print the state as JSON")
    p.add_argument("--rules", default=None, help="override the record's rules")
    p.set_defaults(run=run)


def _error(err: UnoError, index: int | None) -> dict[str, Any]:
    return {"index": index, "rule": err.rule_id, "message": err.message}


def run(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.record)
        if args.rules is not None:
            record = {**record, "rules": args.rules}
        result = replay(record)
    except InvalidInputError as err:
        if args.json:
            print(json.dumps({"error": _error(err, None), "state": None}, indent=2))
        else:
            print(f"error: {err}", file=sys.stderr)
        return 2
    game = result.game
    if args.json:
        out: dict[str, Any] = game.state_json()
        if result.error is not None:
            out = {"error": _error(result.error, result.error_index), "state": out}
        print(json.dumps(out, indent=2))
    else:
        console = Console()
        actions = record_actions(record)
        for i, action in enumerate(actions[: result.played]):
            console.print(f"{i:4d}  {action}")
        state = game.state_json()
        for key in ("to_play", "phase", "direction", "color", "top", "draw_pile", "round_over",
                    "winner", "round_points", "scores", "game_over"):
            console.print(f"{key:>12}: {state[key]}")
        for name, hand in state["hands"].items():
            console.print(f"{name:>12}: {' '.join(hand)}")
        if result.error is not None:
            print(f"error at action {result.error_index}: {result.error}", file=sys.stderr)
    return 2 if result.error is not None else 0
