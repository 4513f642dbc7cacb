"""Memory: estimate a run's size before it starts, and watch it while it runs."""

from __future__ import annotations

import os
import resource
from math import comb

from unoformal.errors import InvalidInputError
from unoformal.rulebook.deck import Deck

GIB = 1 << 30
# Measured on the presets (benchmarks/bench_explore.py): key, index entry, parent,
# depth, a share of the edge arrays and of the frontier's game objects.
BYTES_PER_STATE = 2000


def rss() -> int:
    """Resident memory of this process now, in bytes."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def peak_rss() -> int:
    """Peak resident memory of this process so far, in bytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def physical() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def state_bound(deck: Deck, players: int) -> int:
    """An upper bound on a round's states: every way to split each face's copies between
    the hands, the discard below the top and the pile, times a top card, times the
    control states (phase, player to move, direction, color, UNO window, pending draw)."""
    places = players + 2
    splits = 1
    for copies in deck.copies:
        splits *= comb(copies + places - 1, places - 1)
    control = 6 * players * 2 * (len(deck.colors) + 1) * (players + 1) * 8
    return splits * len(deck.faces) * control


class MemoryRefused(InvalidInputError):
    """A configuration whose estimated size exceeds the memory budget."""


def check(estimate: int, budget: int, how: str) -> None:
    need = estimate * BYTES_PER_STATE
    if need > budget:
        raise MemoryRefused(
            f"refused before starting: about {estimate:,} states ({how}) x "
            f"{BYTES_PER_STATE} bytes = {need / GIB:.1f} GiB, over the memory budget of "
            f"{budget / GIB:.1f} GiB; choose a smaller deck or raise --memory-budget "
            "(the run still stops cleanly at the budget)")


def limit(budget: int) -> int:
    """What a run may really use: the budget, but never more than 80% of the machine."""
    return min(budget, int(physical() * 0.8))
