"""Stated chance: a game whose draws, reshuffles and dealer draw follow a record.

A version-2 record may state, for any action, the cards each draw took (by player) and
the new draw pile (top first) of each reshuffle the action caused; it may state the
reshuffles of the start card (START-WD4), the dealer draw (DEAL-1) and a start color
drawn at random (``color_at_random``, START-WILD in RLCard's rules) too. The referee
checks every stated outcome against the state before taking it: a drawn card must be the
pile's top card (DRAW-1), a new pile must be exactly the discards below the top card
(RESHUFFLE-1). What a record leaves unstated is decided by the seeded shuffle, as in
:class:`~unoformal.engine.game.Game`; the normal engine is not slowed by any of this.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from unoformal.engine.game import Game
from unoformal.errors import IllegalActionError
from unoformal.spec.table import CLASSIC, RuleTable


class ChanceError(IllegalActionError):
    """A stated chance outcome that the state contradicts (a card that is not on top of
    the pile, a new pile that is not the discards below the top card ...).

    Raised part-way through an action, it carries no state: the caller, who applied the
    action to a copy, holds the state before it (which is what a refusal shows)."""


class StatedGame(Game):
    """A :class:`Game` that takes its chance outcomes from a record where it states them.

    ``start_piles`` are the new piles (top first, as card indices) of the start card's
    reshuffles; ``dealer_draws`` the rounds of the dealer draw (name to card index).
    Per action, :meth:`expect` sets what the next action draws and reshuffles, and
    :meth:`settle` checks that all of it happened.
    """

    def __init__(self, players: Sequence[str], seed: int = 0, rules: RuleTable = CLASSIC,
                 dealer: str | None = None, deal: dict[str, Any] | None = None,
                 start_piles: list[list[int]] | None = None,
                 dealer_draws: list[dict[str, int]] | None = None,
                 start_color: int | None = None) -> None:
        self._draws: dict[int, list[int]] | None = None
        self._piles: list[list[int]] | None = None
        self._start_piles = start_piles
        self._dealer_draws = dealer_draws
        self._stated_color = start_color
        super().__init__(players, seed, rules, dealer, deal)
        if start_piles:
            raise ChanceError(f"{len(start_piles)} start reshuffle(s) stated that the start "
                              "card does not cause", "START-WD4", self.to_text())
        if self._stated_color is not None:
            top = self.deck.code(self.discard[-1]) if self.discard else "-"
            raise ChanceError(f"a start color is stated, but these rules do not draw the "
                              f"color of the start card {top} at random", "START-WILD",
                              self.to_text())
        self._start_piles = None  # later rounds are dealt from the seed (END-2)

    # ------------------------------------------------------------------ set-up

    def _choose_dealer(self) -> int:
        """DEAL-1 from the stated draws: highest value deals, ties draw again."""
        stated = self._dealer_draws
        if stated is None:
            return super()._choose_dealer()
        rule = self.rules.dealer_draw
        contenders = list(range(self.n))
        for number, draw in enumerate(stated):
            if len(contenders) == 1:
                raise ChanceError(f"dealer_draws[{number}]: the dealer was already decided",
                                  "DEAL-1")
            names = sorted(self.names[p] for p in contenders)
            if sorted(draw) != names:
                raise ChanceError(f"dealer_draws[{number}]: {', '.join(names)} draw here, "
                                  f"the record names {', '.join(sorted(draw))}", "DEAL-1")
            self.dealer_draws.append({name: self.deck.code(c) for name, c in draw.items()})
            value = {p: self._dealer_value(draw[self.names[p]], rule.symbol_value)
                     for p in contenders}
            best = max(value.values())
            contenders = [p for p in contenders if value[p] == best]
            if not rule.ties_draw_again:
                contenders = contenders[:1]
        if len(contenders) != 1:
            raise ChanceError("the stated dealer draw ends in a tie: ties draw again",
                              "DEAL-1")
        return contenders[0]

    def _start_color(self) -> int:
        """START-* ``color_at_random``: the stated color, if the record states it."""
        color, self._stated_color = self._stated_color, None
        return super()._start_color() if color is None else color

    def _start_shuffle(self) -> None:
        """START-WD4: the stated new pile must hold exactly the cards being shuffled."""
        if self._start_piles is None:
            super()._start_shuffle()
            return
        if not self._start_piles:
            raise ChanceError("the start card needs a reshuffle the record does not state",
                              "START-WD4")
        stated = self._start_piles.pop(0)
        self._check_same(stated, self.pile, "START-WD4", "the pile with the start card back")
        self.pile = stated[::-1]

    # ------------------------------------------------------------- per action

    def expect(self, draws: dict[int, list[int]] | None,
               piles: list[list[int]] | None) -> None:
        """What the next action is stated to draw (per seat) and reshuffle; None: unstated."""
        self._draws = draws
        self._piles = piles

    def settle(self, rule_id: str) -> None:
        """After the action: every stated draw and reshuffle must have happened."""
        draws, piles = self._draws, self._piles
        self._draws = self._piles = None
        if piles:
            raise ChanceError(f"{len(piles)} reshuffle(s) stated that this action does not "
                              "cause: the draw pile was not empty", "RESHUFFLE-1")
        for p, left in (draws or {}).items():
            if left:
                raise ChanceError(f"{self.names[p]} is stated to draw {len(left)} more "
                                  "card(s) than the rules make them draw", rule_id)

    def _take(self, p: int, count: int) -> None:
        draws = self._draws
        if draws is None:
            super()._take(p, count)
            return
        want = draws.get(p, [])
        hand = self.hands[p]
        for drawn in range(count):
            if self.available() < 1:
                return  # EXT-SHORT: nothing left, nothing stated
            if not want:
                raise ChanceError(f"{self.names[p]} must draw {count} card(s) here; the "
                                  f"record states {drawn}", "DRAW-1")
            stated = want[0]
            if self.pile:
                self._check_top(p, stated, self.pile[-1])
            card = self._pop_card()  # after RESHUFFLE-1 (stated, or seeded) if empty
            if card is None:
                return
            self._check_top(p, stated, card)
            want.pop(0)
            hand.append(card)

    def _check_top(self, p: int, stated: int, top: int) -> None:
        """DRAW-1: a drawn card is the pile's top card."""
        if top == stated:
            return
        code = self.deck.code
        if self._piles:
            raise ChanceError(f"{self.names[p]} draws {code(stated)} from a reshuffled pile "
                              f"while {len(self.pile)} card(s) are left to draw (top: "
                              f"{code(top)}): reshuffle only an empty pile", "RESHUFFLE-1")
        raise ChanceError(f"{self.names[p]} is stated to draw {code(stated)}, but the "
                          f"pile's top card is {code(top)}", "DRAW-1")

    def _reshuffle(self) -> None:
        """RESHUFFLE-1 from the stated pile: exactly the cards the rule shuffles (the discards
        below the top card; all of them without ``keep_top``)."""
        if self._piles is None:
            super()._reshuffle()
            return
        if not self._piles:
            raise ChanceError("the draw pile is empty and the record states no reshuffle",
                              "RESHUFFLE-1")
        stated = self._piles.pop(0)
        keep = self.rules.reshuffle.keep_top and bool(self.discard)
        rest = self.discard[:-1] if keep else self.discard
        if keep and Counter(stated)[self.discard[-1]] > Counter(rest)[self.discard[-1]]:
            raise ChanceError(f"the new draw pile holds the top discard "
                              f"{self.deck.code(self.discard[-1])}: it stays face up",
                              "RESHUFFLE-1")
        what = "the discards below the top card" if keep else "the whole discard pile"
        self._check_same(stated, rest, "RESHUFFLE-1", what)
        self.discard = self.discard[-1:] if keep else []
        self.pile = stated[::-1]

    def _check_same(self, stated: list[int], want: list[int], rule_id: str,
                    what: str) -> None:
        have, need = Counter(stated), Counter(want)
        if have == need:
            return
        code = self.deck.code
        extra = sorted(code(c) for c in (have - need).elements())
        missing = sorted(code(c) for c in (need - have).elements())
        parts = ([f"extra {_listed(extra)}"] if extra else []) + \
            ([f"missing {_listed(missing)}"] if missing else [])
        raise ChanceError(f"the stated new pile is not {what}: {'; '.join(parts)}", rule_id)


def _listed(codes: list[str], shown: int = 8) -> str:
    """The first ``shown`` codes, and how many more (a whole deck stated wrong is one line)."""
    more = len(codes) - shown
    return " ".join(codes[:shown]) + (f" and {more} more" if more > 0 else "")
