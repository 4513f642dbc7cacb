"""How many moves the live referee refuses after a record's first refusal, with and
without ``"force": true`` (the figure of docs/referee.md).

Each record of a folder (default: letsuno's, tests/data/outside/) is sent to one
:class:`~unoformal.compare.live.Referee` as ``unoformal referee`` would be sent it: a
``new`` from its set-up, each action an ``apply`` with the chance it states. A record
whose set-up the referee refuses (a start card put back, START-WILD) is left out: there
is no game to go on with.

Run: ``python benchmarks/referee_force.py [FOLDER]``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from unoformal.compare.live import SETUP, Referee
from unoformal.engine.actions import Action

CHANCE = ("draws", "reshuffles")


def refused_after_first(record: dict[str, Any], force: bool) -> tuple[int, int] | None:
    """(moves after the first refusal, how many of them were refused); None when the
    set-up is refused."""
    referee = Referee()
    if not referee.handle({"cmd": "new", **{k: record[k] for k in SETUP if k in record}})["ok"]:
        return None
    first, after, refused = False, 0, 0
    for data in record["actions"]:
        action = Action.from_json({k: v for k, v in data.items() if k not in CHANCE})
        ok = referee.handle({"cmd": "apply", "action": str(action), "force": force,
                             **{k: data[k] for k in CHANCE if k in data}})["ok"]
        if first:
            after, refused = after + 1, refused + (not ok)
        first = first or not ok
    return after, refused


def main(folder: str) -> None:
    records = [json.loads(p.read_text(encoding="utf-8"))
               for p in sorted(Path(folder).glob("*.json"))]
    for force in (False, True):
        counts = [c for r in records if (c := refused_after_first(r, force)) is not None]
        after, refused = sum(c[0] for c in counts), sum(c[1] for c in counts)
        print(f"force={str(force).lower()}: {len(counts)} records, {refused:,} of {after:,} "
              "moves after a record's first refusal refused")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/outside")
