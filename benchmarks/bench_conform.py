"""Records refereed per CPU second (``unoformal conform``), in one process.

Records are whole games between the engine's own bots, written as version-2 records with
every draw stated (so the chance checks run), cut to about ``--actions`` actions each; the
time counted is refereeing only (schema, set-up, replay), not making the records.

    python benchmarks/bench_conform.py                      # 2,000 records of ~50 actions
    python benchmarks/bench_conform.py --records 500 --no-chance
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from unoformal.compare.records import Tally
from unoformal.engine.game import Game
from unoformal.engine.record import VERSION
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC


def _record(seed: int, actions: int, chance: bool) -> dict[str, Any]:
    """A 4-player game from a seeded deal, as a record with its draws stated."""
    names = ["P0", "P1", "P2", "P3"]
    rng = random.Random(seed)
    deck = Deck.of(CLASSIC)
    cards = [f.code for f, n in zip(deck.faces, deck.copies, strict=True) for _ in range(n)]
    rng.shuffle(cards)
    deal = {"hands": {name: cards[7 * i: 7 * i + 7] for i, name in enumerate(names)},
            "draw_pile": cards[28:]}
    game = Game(names, seed=seed, dealer="P3", deal=deal)
    out: list[dict[str, Any]] = []
    for _ in range(actions):
        if game.round_over:
            break
        legal = game.legal_actions(game.to_play, penalties=False)
        action = rng.choice(legal)
        sizes = [len(h) for h in game.hands]
        game.apply(action)
        data = action.to_json()
        if chance:
            drawn = {game.names[p]: [game.deck.code(c) for c in game.hands[p][n:]]
                     for p, n in enumerate(sizes) if len(game.hands[p]) > n}
            if drawn:
                data["draws"] = drawn
        out.append(data)
    return {"version": VERSION, "rules": "classic", "players": names, "dealer": "P3", "seed": seed,
            "deal": deal, "actions": out}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=50)
    parser.add_argument("--no-chance", action="store_true")
    args = parser.parse_args()
    records = [_record(seed, args.actions, not args.no_chance) for seed in range(args.records)]
    start = time.process_time()
    tally = Tally()
    for i, record in enumerate(records):
        tally.add(record, f"record {i}")
    cpu = time.process_time() - start
    mean = sum(len(r["actions"]) for r in records) / len(records)
    print(f"{tally.games} records (mean {mean:.0f} actions): {tally.clean} clean, "
          f"{tally.malformed} malformed; {cpu:.2f} CPU s = {tally.games / cpu:,.0f} "
          "records per CPU s")


if __name__ == "__main__":
    main()
