"""Messages answered per CPU second by the live referee (``unoformal referee``), in-process:
each message a JSON line parsed, answered and written back as JSON, as the command does.

Seeded games of 4 players: at each step a ``legal`` for the player to move, then an
``apply`` of one of its actions (a play when there is one), every round to its end.

    python benchmarks/bench_referee.py [--games 50] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from unoformal.compare.live import Referee


def session(seed: int) -> int:
    """One game's round through the referee; the number of messages answered."""
    referee = Referee()
    rng = random.Random(seed)
    answer = referee.handle_line(json.dumps({"cmd": "new", "players": ["A", "B", "C", "D"],
                                             "seed": seed}))
    messages = 1
    while not answer["round_over"] and messages < 4000:
        legal = referee.handle_line(json.dumps({"cmd": "legal", "player": answer["to_play"],
                                                "penalties": False}))
        plays = [a for a in legal["actions"] if " play " in a]
        action = rng.choice(plays or legal["actions"])
        answer = referee.handle_line(json.dumps({"cmd": "apply", "action": action}))
        json.dumps(legal), json.dumps(answer)
        assert answer["ok"], answer
        messages += 2
    return messages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    session(args.seed + 10**6)  # warm: the variant, the schema, the lookups
    start = time.process_time()
    messages = sum(session(args.seed + i) for i in range(args.games))
    cpu = time.process_time() - start
    print(f"{args.games} rounds, {messages:,} messages: {cpu:.2f} CPU s = "
          f"{messages / cpu:,.0f} messages per CPU s")


if __name__ == "__main__":
    main()
