"""Presets that reach further than the explorer's own (issue 42): every kind of card, three
players with penalties on, a house rule. Defined here (the explorer's presets file is not
this package's); each is a :class:`~unoformal.verification.explore.graph.Config` as the
explorer's presets are, so either search runs it.
"""

from __future__ import annotations

from dataclasses import dataclass

from unoformal.verification.explore.graph import Config, preset_config
from unoformal.verification.explore.presets import PRESETS, Size, small_rules


@dataclass(frozen=True)
class Far:
    name: str
    description: str
    size: Size
    base: str | None = None  # a variant name: the house rule under the small deck


# One copy of each kind per color, rank 0 only: every kind of card in the smallest deck.
_EVERY = dict(colors=2, numbers=(1,), skips=1, reverses=1, draw_twos=1, wilds=1,
              wild_draw_fours=1)

FAR: dict[str, Far] = {f.name: f for f in (
    Far("every2", "Every kind of card (two colors: 0, Skip, Reverse, Draw Two; Wild, "
        "Wild Draw Four); 2 players, 1 card, penalties on (advise, misplay).",
        Size(**_EVERY, players=2)),  # type: ignore[arg-type]
    Far("every3", "The same deck at 3 players, 1 card, penalties on.",
        Size(**_EVERY, players=3)),  # type: ignore[arg-type]
    Far("every2-quiet", "Every kind of card at 2 players, penalties off: the step from "
        "`big` (which has no Wild) to every kind.",
        Size(**_EVERY, players=2, penalties=False)),  # type: ignore[arg-type]
    Far("seven-o", "SEVEN-O: two colors of 0 and 7, a Skip, a Draw Two, a Wild Draw Four; "
        "3 players, 1 card, penalties off (a 7 swaps hands, a 0 passes them on).",
        Size(colors=2, numbers=(1, 0, 0, 0, 0, 0, 0, 1), skips=1, draw_twos=1, wilds=0,
             wild_draw_fours=1, players=3, penalties=False), base="seven-o"),
)}


def config(name: str, max_states: int | None = None) -> Config:
    """The configuration of an explorer preset or of one of :data:`FAR`."""
    if name in PRESETS:
        return preset_config(name, max_states=max_states)
    far = FAR[name]
    rules = small_rules(far.size, base=far.base, name=name)
    return Config(rules, tuple(far.size.players_list()), name, False, far.size.penalties,
                  max_states=max_states)


def names() -> list[str]:
    return [*PRESETS, *FAR]
