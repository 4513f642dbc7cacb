"""Small decks: the classic table with a smaller DECK-1 and DEAL-2, and fewer players.

A small deck is a variant of the table (:func:`unoformal.rulebook.variants.derive`), so
the explorer plays exactly the rules the engine plays, only with fewer cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from unoformal.errors import InvalidInputError
from unoformal.rulebook.cards import Color
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import VariantError, derive, load_rules

PLAYER_NAMES = ("Ann", "Bob", "Cy", "Di")
COLOR_ORDER = ("red", "blue", "green", "yellow")


@dataclass(frozen=True)
class Size:
    """The parameters of a small deck (DECK-1), its deal (DEAL-2) and its players (DECK-2)."""

    colors: int = 2
    numbers: tuple[int, ...] = (1, 1)  # copies of rank i per color
    skips: int = 0
    reverses: int = 0
    draw_twos: int = 0
    wilds: int = 1
    wild_draw_fours: int = 1
    players: int = 2
    hand: int = 1
    penalties: bool = True  # explore ADVICE-1 and MISPLAY-1 actions

    def check(self) -> None:
        if not 1 <= self.colors <= 4:
            raise InvalidInputError(f"{self.colors} colors: choose 1 to 4", "DECK-1")
        if not 2 <= self.players <= 4:
            raise InvalidInputError(f"{self.players} players: the explorer takes 2 to 4",
                                    "DECK-2")
        if self.hand < 1:
            raise InvalidInputError(f"hand size {self.hand}: deal at least 1 card", "DEAL-2")
        counts = (*self.numbers, self.skips, self.reverses, self.draw_twos, self.wilds,
                  self.wild_draw_fours)
        if any(c < 0 for c in counts) or len(self.numbers) > 10:
            raise InvalidInputError("card counts must be >= 0 and ranks at most 0-9", "DECK-1")
        if self.cards() <= self.hand * self.players:
            raise InvalidInputError(f"{self.players} hands of {self.hand} need more than the "
                                    f"deck's {self.cards()} cards", "DEAL-2")

    def cards(self) -> int:
        per_color = sum(self.numbers) + self.skips + self.reverses + self.draw_twos
        return per_color * self.colors + self.wilds + self.wild_draw_fours

    def players_list(self) -> list[str]:
        return list(PLAYER_NAMES[: self.players])

    def overrides(self) -> dict[str, dict[str, Any]]:
        return {
            "DECK-1": {"colors": list(COLOR_ORDER[: self.colors]),
                       "number_copies": list(self.numbers), "skip_copies": self.skips,
                       "reverse_copies": self.reverses, "draw_two_copies": self.draw_twos,
                       "wild_copies": self.wilds, "wild_draw_four_copies": self.wild_draw_fours},
            "DEAL-2": {"hand_size": self.hand},
            # The small table is for exactly its players: DEAL-2's check that the hands
            # leave a start card is then about them, not about ten players.
            "DECK-2": {"minimum": self.players, "maximum": self.players},
        }

    def describe(self) -> str:
        nums = ",".join(map(str, self.numbers))
        return (f"{self.colors} colors, number copies [{nums}], skip {self.skips}, "
                f"reverse {self.reverses}, +2 {self.draw_twos}, W {self.wilds}, "
                f"W+4 {self.wild_draw_fours}; {self.players} players, hands of {self.hand}"
                f"{'' if self.penalties else '; no advise/misplay actions'}")


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    size: Size
    extra: dict[str, dict[str, Any]] = field(default_factory=dict)
    measured: tuple[int, int | None] | None = None  # states without / with symmetry


PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("micro", "One color, ranks 0-2; 2 players, 1 card: a few dozen states.",
           Size(colors=1, numbers=(1, 1, 1), wilds=0, wild_draw_fours=0), measured=(24, 24)),
    Preset("duel", "Two colors, ranks 0-1, one Wild Draw Four; 2 players, 1 card, with "
           "advise/misplay (challenges, UNO, penalties).",
           Size(wilds=0), measured=(2476, 1238)),
    Preset("tiny", "Two colors, ranks 0-1, one Wild, one Wild Draw Four; 2 players, 1 card, "
           "with advise/misplay.", Size(), measured=(20118, 10062)),
    Preset("wd4", "Wild Draw Four duel: two colors, ranks 0-1, two Wild Draw Fours; "
           "2 players, 2 cards, with advise/misplay (END-1's challenge branch).",
           Size(wilds=0, wild_draw_fours=2, hand=2), measured=(7874, 3940)),
    Preset("hand2", "Two colors, ranks 0-1, Wild, Wild Draw Four; 2 players, 2 cards "
           "(UNO-1 with the card, catches).",
           Size(hand=2, penalties=False), measured=(17458, 8730)),
    Preset("skip", "Two colors, rank 0, Skip, Wild Draw Four; 2 players, 1 card (SKIP-1, "
           "START-SKIP).", Size(numbers=(1,), skips=1, wilds=0, penalties=False),
           measured=(2108, 1054)),
    Preset("reverse", "Two colors, rank 0, Reverse, Draw Two; 2 players, 1 card (TWO-1, "
           "START-REV, START-D2, a Draw Two on a Draw Two).",
           Size(numbers=(1,), reverses=1, draw_twos=1, wilds=0, wild_draw_fours=0,
                penalties=False), measured=(10528, 5264)),
    Preset("circle", "Three players: two colors, rank 0, Reverse, Wild; 1 card (REV-1, "
           "START-REV and START-WILD with three).",
           Size(numbers=(1,), reverses=1, players=3, wild_draw_fours=0, penalties=False),
           measured=(4824, 2412)),
    Preset("three", "Three players: two colors, rank 0, Reverse, Draw Two, Wild Draw Four; "
           "1 card (REV-1, START-REV, START-D2).",
           Size(numbers=(1,), reverses=1, draw_twos=1, players=3, wilds=0, penalties=False),
           measured=(214812, None)),
    Preset("challenge", "Two colors, three copies of rank 0, Skip, Wild Draw Four; 2 players, "
           "1 card: enough cards left that a failed challenge (CHAL-3: the challenger draws "
           "6) and an upheld one (CHAL-2: the offender draws 4) lead to different states.",
           Size(numbers=(3,), skips=1, wilds=0, penalties=False), measured=(148698, None)),
    Preset("actions", "Two colors, rank 0, Skip, Reverse, Draw Two; 2 players, 1 card "
           "(TWO-1, D2-1, NOSTACK-1).",
           Size(numbers=(1,), skips=1, reverses=1, draw_twos=1, wilds=0, wild_draw_fours=0,
                penalties=False), measured=(461764, None)),
    Preset("big", "Two colors, rank 0, Skip, Reverse, Draw Two, Wild Draw Four; 2 players, "
           "1 card: a whole-round graph of over a million states (benchmark).",
           Size(numbers=(1,), skips=1, reverses=1, draw_twos=1, wilds=0, penalties=False),
           measured=(2201076, None)),
    Preset("large", "Two colors, ranks 0-1, Skip, Draw Two, Wild, Wild Draw Four; 2 players, "
           "1 card: larger still (benchmark; several GiB).",
           Size(numbers=(1, 1), skips=1, draw_twos=1, penalties=False)),
)}


def small_rules(size: Size, base: str | RuleTable | None = None,
                extra: dict[str, dict[str, Any]] | None = None,
                name: str = "small") -> RuleTable:
    """The table ``base`` (a variant name or TOML path, or the table) with this small
    deck."""
    size.check()
    overrides = size.overrides()
    for rule_id, values in (extra or {}).items():
        overrides.setdefault(rule_id, {}).update(values)
    # A refusal (a VariantError, an InvalidInputError) names its own rule ID.
    table = base if isinstance(base, RuleTable) else load_rules(base)
    full_name = f"{table.name}-{name}"
    description = f"{table.description} Small deck: {size.describe()}."
    try:
        return derive(table, full_name, description, overrides)
    except VariantError as err:
        if err.rule_id != table.dealer_draw.id or table.dealer_draw.id in (extra or {}):
            raise
    # DEAL-1 is outside the explorer's graph (it fixes the dealer): a small deck whose
    # dealer draw could tie for ever (one rank, symbols valued alike) lets the first
    # contender deal, so the table stays one a game can start from.
    overrides[table.dealer_draw.id] = {"ties_draw_again": False}
    return derive(table, full_name, description, overrides)


def color_names(n: int) -> list[Color]:
    return [Color.parse(c) for c in COLOR_ORDER[:n]]
