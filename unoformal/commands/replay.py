"""``unoformal replay RECORD``: play a game record and print the final state."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from unoformal.engine.record import Replay, load_record, replay
from unoformal.errors import InvalidInputError
from unoformal.inputs import load_rules_arg


def register(sub: Any) -> None:
    p = sub.add_parser("replay", help="play a game record (JSON) and print the final state")
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
    # Plain print: rich's highlighter costs time quadratic in a line's length.
    for i, action in enumerate(result.actions):
        print(f"{i:4d}  {action}")
    state = result.game.state_json()
    for key in ("to_play", "phase", "direction", "color", "top", "draw_pile", "round_over",
                "winner", "round_points", "scores", "game_over"):
        print(f"{key:>12}: {state[key]}")
    for name, hand in state["hands"].items():
        print(f"{name:>12}: {' '.join(hand)}")
