"""Stated chance: a chance player that takes its outcomes from a record where it states them.

A version-2 record may state, for any action, the cards each draw took (by player) and
the new draw pile (top first) of each reshuffle the action caused; it may state the
reshuffles of the start card (START-WD4), the dealer draw (DEAL-1) and a start color
drawn at random (``color_at_random``, START-WILD in RLCard's rules) too. :class:`StatedChance`
answers the engine's chance nodes (:class:`~unoformal.engine.game.Chance`) from those
statements, checking each against the state before taking it: a drawn card must be the
pile's top card (DRAW-1), a new pile must be exactly the cards the rule shuffles
(RESHUFFLE-1). What a record leaves unstated is decided by the seed, as in every game.
The engine's rules are not restated here: the engine says which cards a reshuffle takes
and when a draw finds nothing left; this module only checks what was stated of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from unoformal.engine.game import Chance, Game
from unoformal.errors import IllegalActionError
from unoformal.rulebook.table import CLASSIC, Refill, RuleTable


class ChanceError(IllegalActionError):
    """A stated chance outcome that the state contradicts (a card that is not on top of
    the pile, a new pile that is not the discards below the top card ...).

    Raised part-way through an action, it carries no state: the caller, who applied the
    action to a copy, holds the state before it (which is what a refusal shows)."""


class StatedChance(Chance):
    """The chance player of a record: its stated outcomes where it states them, the seed
    elsewhere.

    ``start_piles`` are the new piles (top first, as card indices) of the start card's
    reshuffles; ``dealer_draws`` the rounds of the dealer draw (name to card index);
    ``start_color`` a start color drawn at random. Per action, :meth:`expect` sets what
    the next action draws and reshuffles, and :meth:`settle` checks that all of it
    happened."""

    def __init__(self, start_piles: list[list[int]] | None = None,
                 dealer_draws: list[dict[str, int]] | None = None,
                 start_color: int | None = None) -> None:
        self.draws: dict[int, list[int]] | None = None
        self.piles: list[list[int]] | None = None
        self.start_piles = start_piles
        self.dealer_draws = dealer_draws
        self.dealer_round = 0
        self.start_color = start_color
        self.seat, self.count, self.taken = 0, 0, 0  # the draw under way
        self.drew_under: dict[int, str] = {}  # this action's draws: seat to their rule
        # The first set-up statement the rules contradict; the set-up goes on from the
        # seed, so the game is whole: :class:`StatedGame` raises it, or keeps it as the
        # record's deviation at its set-up.
        self.deviation: ChanceError | None = None
        # A later round's deal as a game record states it (version 3), taken at END-2's
        # next deal once the seed has shuffled: the seed's count of shuffles stays the
        # same, so whatever the record leaves unstated is decided as without it.
        self.next_deal: dict[str, Any] | None = None

    def state_round(self, deal: dict[str, Any] | None, start_piles: list[list[int]] | None,
                    start_color: int | None) -> None:
        """What a game record states of the next round's set-up (END-2's next deal): its
        deal (``{"hands", "draw_pile"}`` in card codes), the start card's reshuffles and a
        start color drawn at random. Its deviation, if any, is then the new round's."""
        self.next_deal = deal
        self.start_piles, self.start_color = start_piles, start_color
        self.deviation = None

    def dealt(self, game: Game) -> None:
        """A stated next deal replaces the seed's (hands and pile together exactly the
        deck, DECK-1: else :class:`InvalidInputError`). Hands not of the rules' size are
        the round's deviation (DEAL-2), the deal taken as stated."""
        deal, self.next_deal = self.next_deal, None
        if deal is None:
            return
        game._deal_given(deal)
        rule = game.rules.deal
        gone = [f"{game.names[p]} {len(game.hands[p])}" for p in game.out if game.hands[p]]
        if gone:  # END-2's elimination: a player who has left the game is dealt nothing
            self._deviate(ChanceError(f"the stated deal gives {', '.join(gone)} card(s), "
                                      "who left the game: a player out is dealt no card",
                                      game.rules.next_round.id, key="deal"))
            return
        wrong = [f"{game.names[p]} {len(game.hands[p])}" for p in game.seated_from(-1)
                 if len(game.hands[p]) != rule.hand_size]
        if wrong:
            self._deviate(ChanceError(f"the stated deal gives {', '.join(wrong)} card(s): "
                                      f"{rule.id} deals {rule.hand_size} to each player",
                                      rule.id, key="deal"))

    # ------------------------------------------------------------------ set-up

    def dealer_cards(self, game: Game, contenders: list[int],
                     cards: list[int]) -> dict[int, int]:
        """DEAL-1 from the stated draws: the round's contenders, each with a card. A
        statement the draw contradicts is the set-up's deviation, and the seed draws on."""
        stated = self.dealer_draws
        if stated is None:
            return super().dealer_cards(game, contenders, cards)
        number = self.dealer_round
        self.dealer_round += 1
        draw = stated[number] if number < len(stated) else None
        names = sorted(game.names[p] for p in contenders)
        if draw is None or sorted(draw) != names:
            self._deviate(ChanceError(
                "the stated dealer draw ends in a tie: ties draw again" if draw is None else
                f"dealer_draws[{number}]: {', '.join(names)} draw here, the record names "
                f"{', '.join(sorted(draw))}", "DEAL-1", key="dealer_draws"))
            self.dealer_draws = None
            return super().dealer_cards(game, contenders, cards)
        seats = {name: p for p, name in enumerate(game.names)}
        return {seats[name]: card for name, card in draw.items()}

    def color(self, game: Game, rule: str) -> int:
        """START-* ``color_at_random``: the stated color, if the record states it."""
        color, self.start_color = self.start_color, None
        return super().color(game, rule) if color is None else color

    def turn_again(self, game: Game, pile: list[int], rule: str) -> None:
        """START-WD4: the stated new pile must hold exactly the cards being shuffled. A
        statement that is missing or does not is the set-up's deviation, and the seed
        shuffles on."""
        if self.start_piles is None:
            super().turn_again(game, pile, rule)
            return
        try:
            if not self.start_piles:
                raise ChanceError("the start card needs a reshuffle the record does not "
                                  "state", "START-WD4")
            stated = self.start_piles.pop(0)
            _check_same(game, stated, pile, "START-WD4", "the pile with the start card back")
        except ChanceError as err:
            err.key = "start_reshuffles"
            self._deviate(err)
            self.start_piles = None
            super().turn_again(game, pile, rule)
            return
        pile[:] = stated[::-1]

    def close(self, game: Game, rule: str) -> None:
        """Stated outcomes of the dealer draw or of the start card that it did not use."""
        if rule == game.rules.dealer_draw.id:
            if self.dealer_draws is not None and self.dealer_round < len(self.dealer_draws):
                self._deviate(ChanceError(f"dealer_draws[{self.dealer_round}]: the dealer "
                                          "was already decided", "DEAL-1",
                                          key="dealer_draws"))
            return
        if self.start_piles or self.start_color is not None:
            self._deviate(_unused_start(game, len(self.start_piles or ()), self.start_color))
        self.start_piles = None  # later rounds are dealt from the seed (END-2)
        self.start_color = None

    def _deviate(self, err: ChanceError) -> None:
        """Keep the first contradicted set-up statement (later ones follow from it)."""
        if self.deviation is None:
            self.deviation = err

    # ------------------------------------------------------------- per action

    def expect(self, draws: dict[int, list[int]] | None,
               piles: list[list[int]] | None) -> None:
        """What the next action is stated to draw (per seat) and reshuffle; None: unstated."""
        self.draws = draws
        self.piles = piles
        self.drew_under = {}

    def settle(self, game: Game, rule_id: str) -> None:
        """After the action: every stated draw and reshuffle must have happened. A seat
        stated to draw more than it drew breaks the rule it drew under; one that drew
        nothing, the end of the round if the action ended it (END-1: a last Draw Two not
        drawn), else ``rule_id``."""
        draws, piles, drew = self.draws, self.piles, self.drew_under
        self.draws = self.piles = None
        self.drew_under = {}
        if piles and game.rules.reshuffle.refill is Refill.SPLIT:
            while piles:  # a half refilled, none of its cards drawn by this action
                self._refill_half(game, piles.pop(0))
        if piles:
            raise ChanceError(f"{len(piles)} reshuffle(s) stated that this action does not "
                              "cause: the draw pile was not empty", "RESHUFFLE-1")
        for p, left in (draws or {}).items():
            if left:
                broken = drew.get(p) or (game.rules.end_of_round.id if game.round_over
                                         else rule_id)
                raise ChanceError(f"{game.names[p]} is stated to draw {len(left)} more "
                                  "card(s) than the rules make them draw", broken)

    def begin_draw(self, game: Game, seat: int, count: int, rule: str) -> None:
        self.seat, self.count, self.taken = seat, count, 0
        if count:
            self.drew_under[seat] = rule

    def draw(self, game: Game, seat: int, rule: str) -> int:
        draws = self.draws
        if draws is None:
            return super().draw(game, seat, rule)
        stated = self._wanted(game)[0]
        top = game.pile[-1]
        if game.rules.reshuffle.refill is Refill.SPLIT:
            card = self._from_split(game, stated)
            if card is not None:
                draws[seat].pop(0)
                self.taken += 1
                return card
        if top != stated:
            code = game.deck.code
            if self.piles:
                raise ChanceError(f"{game.names[seat]} draws {code(stated)} from a reshuffled "
                                  f"pile while {len(game.pile)} card(s) are left to draw "
                                  f"(top: {code(top)}): reshuffle only an empty pile",
                                  "RESHUFFLE-1")
            raise ChanceError(f"{game.names[seat]} is stated to draw {code(stated)}, but the "
                              f"pile's top card is {code(top)}", "DRAW-1")
        draws[seat].pop(0)
        self.taken += 1
        return game.pile.pop()

    def _wanted(self, game: Game) -> list[int]:
        """The stated cards the seat drawing now has still to take (never empty). Too few
        stated breaks the rule whose draw this is: END-1 while a player who went out waits
        for the last draw card's draw to be resolved (an engine that ends the round at once
        skips END-1's draw, not DRAW-1's), else DRAW-1."""
        assert self.draws is not None
        want = self.draws.get(self.seat, [])
        if not want:
            name = game.names[self.seat]
            out = _out_waiting(game, self.seat)
            if out is None:
                raise ChanceError(f"{name} must draw {self.count} card(s) here; the record "
                                  f"states {self.taken}", "DRAW-1")
            rule = game.rules.end_of_round.id
            last = game.deck.code(game.discard[-1]) if game.discard else "a draw card"
            raise ChanceError(f"{name} must draw {self.count} card(s) here; the record states "
                              f"{self.taken}: {game.names[out]} went out with {last}, whose "
                              f"draw is resolved before the round ends ({rule})", rule)
        return want

    def reshuffle(self, game: Game, cards: list[int], rule: str) -> None:
        """RESHUFFLE-1 from the stated pile: exactly the cards the rule shuffles (the
        discards below the top card; all of them without ``keep_top``). A reshuffle of
        nothing (EXT-SHORT: nothing is left to draw) has one outcome, so a record need not
        state it, and may: a stated empty pile here is taken, none is asked for."""
        if not cards and (self.draws is not None or self.piles is not None):
            if self.piles and not self.piles[0]:
                self.piles.pop(0)
            return
        if self.draws is not None:
            self._wanted(game)
        if self.piles is None:
            super().reshuffle(game, cards, rule)
            return
        if not self.piles:
            raise ChanceError("the draw pile is empty and the record states no reshuffle",
                              "RESHUFFLE-1")
        stated = self.piles.pop(0)
        kept = game.discard  # what the rule left face up: the top card, or nothing
        if kept and Counter(stated)[kept[-1]] > Counter(cards)[kept[-1]]:
            raise ChanceError(f"the new draw pile holds the top discard "
                              f"{game.deck.code(kept[-1])}: it stays face up", "RESHUFFLE-1")
        what = "the discards below the top card" if kept else "the whole discard pile"
        if game.rules.reshuffle.refill is Refill.SPLIT:
            # a half refilled from part of the discards: the rest stay below the top one
            left = _part_of(game, stated, cards, what)
            game.discard[:0] = left
        else:
            _check_same(game, stated, cards, "RESHUFFLE-1", what)
        cards[:] = stated[::-1]

    # -------------------------------------------------- RESHUFFLE-1 read split

    def _from_split(self, game: Game, stated: int) -> int | None:
        """The card ``stated`` drawn from a split pile: the top of the other half, or of a
        half refilled now (a stated reshuffle while cards are left); None where neither
        holds it on top (the caller says why)."""
        card = self._top_of_either(game, stated)
        if card is None and self.piles:  # neither half has it on top: one was refilled
            self._refill_half(game, self.piles.pop(0))
            card = self._top_of_either(game, stated)
        return card

    def _top_of_either(self, game: Game, stated: int) -> int | None:
        pile, lower = game.pile, min(game.pile_lower, len(game.pile))
        if pile and lower > 1 and pile[-1] == stated == pile[lower - 1] and \
                len(pile) - lower > 1 and self._next_from_lower(game, pile, lower):
            game.pile_lower = lower - 1  # both halves show it: the next card says which
            return pile.pop(lower - 1)
        if pile and pile[-1] == stated:
            game.pile_lower = lower
            return pile.pop()
        if lower and pile[lower - 1] == stated:
            game.pile_lower = lower - 1
            return pile.pop(lower - 1)
        return None

    def _next_from_lower(self, game: Game, pile: list[int], lower: int) -> bool:
        """Whether the card this draw is stated to take after the current one is the
        other half's next and not the pile's (two copies of one card on top of both
        halves: a draw of several cards says which half it took from)."""
        want = (self.draws or {}).get(self.seat, [])
        if len(want) < 2:
            return False
        return want[1] == pile[lower - 2] and want[1] != pile[-2]

    def _refill_half(self, game: Game, stated: list[int]) -> None:
        """A half refilled from part of the discards below the top card while the other
        still holds cards, which go under it (their order kept); both halves holding
        cards, neither is empty to refill."""
        pile, lower = game.pile, min(game.pile_lower, len(game.pile))
        if 0 < lower < len(pile):
            raise ChanceError(f"a half of the draw pile is refilled while both hold cards "
                              f"({lower} and {len(pile) - lower})", "RESHUFFLE-1")
        kept = game.discard[-1:]
        left = _part_of(game, stated, game.discard[:-1], "the discards below the top card")
        game.discard = [*left, *kept]
        game.pile_lower = len(pile)
        pile.extend(stated[::-1])


class StatedGame(Game):
    """A :class:`Game` whose chance player is a :class:`StatedChance` policy (``POLICY``, which
    observers such as the referee's subclass). It overrides nothing of the engine: it
    builds the game with that policy, which it shows as ``stated``, and hands
    :meth:`expect` and :meth:`settle` to it."""

    POLICY: type[StatedChance] = StatedChance

    def __init__(self, players: Sequence[str], seed: int = 0, rules: RuleTable = CLASSIC,
                 dealer: str | None = None, deal: dict[str, Any] | None = None,
                 start_piles: list[list[int]] | None = None,
                 dealer_draws: list[dict[str, int]] | None = None,
                 start_color: int | None = None, lenient: bool = False) -> None:
        """``lenient``: a set-up statement the rules contradict (a start reshuffle the
        start card does not cause ...) is kept in ``stated.deviation``, the game set up as
        the rules have it, where by default it is raised (a :class:`ChanceError`)."""
        super().__init__(players, seed, rules, dealer, deal,
                         chance=self.POLICY(start_piles, dealer_draws, start_color))
        deviation = self.stated.deviation
        if deviation is not None and not lenient:
            raise deviation

    @property
    def stated(self) -> StatedChance:
        chance = self.chance
        assert isinstance(chance, StatedChance)  # set by __init__, kept by every copy
        return chance

    def expect(self, draws: dict[int, list[int]] | None,
               piles: list[list[int]] | None) -> None:
        """What the next action is stated to draw (per seat) and reshuffle; None: unstated."""
        self.stated.expect(draws, piles)

    def settle(self, rule_id: str) -> None:
        """After the action: every stated draw and reshuffle must have happened."""
        self.stated.settle(self, rule_id)


def _unused_start(game: Game, piles: int, color: int | None) -> ChanceError:
    """Start reshuffles (or a start color) stated that the start card left face up does
    not cause: named by that card's start rule (START-WILD for a Wild put back), which
    says what it does instead."""
    card = game.discard[-1] if game.discard else None
    start = None if card is None else game.rules.start_rule(game.f_kind[card])
    rule_id = game.rules.deal.id if start is None else start.id
    top = "-" if card is None else game.deck.code(card)
    if piles:
        return ChanceError(f"{piles} start reshuffle(s) stated that the start card {top} "
                           "does not cause: it stays face up", rule_id, game.to_text(),
                           key="start_reshuffles")
    return ChanceError(f"a start color is stated, but these rules do not draw the color of "
                       f"the start card {top} at random", rule_id, game.to_text(),
                       key="start_color")


def _out_waiting(game: Game, seat: int) -> int | None:
    """The player who went out (END-1's winner-to-be, noted before the last card's draw
    runs) if another seat's draw is resolving their last card now; else None."""
    out = game.winner
    if out is None or out == seat or game.hands[out] or game.round_over:
        return None
    return out


def _check_same(game: Game, stated: list[int], want: list[int], rule_id: str,
                what: str) -> None:
    have, need = Counter(stated), Counter(want)
    if have == need:
        return
    code = game.deck.code
    extra = sorted(code(c) for c in (have - need).elements())
    missing = sorted(code(c) for c in (need - have).elements())
    parts = ([f"extra {_listed(extra)}"] if extra else []) + \
        ([f"missing {_listed(missing)}"] if missing else [])
    raise ChanceError(f"the stated new pile is not {what}: {'; '.join(parts)}", rule_id)


def _part_of(game: Game, stated: list[int], cards: list[int], what: str) -> list[int]:
    """``cards`` less the ``stated`` ones, in their order (RESHUFFLE-1 read split: a
    refill takes part of them); a stated card not among them is a deviation."""
    extra = Counter(stated) - Counter(cards)
    if extra:
        code = game.deck.code
        raise ChanceError(f"the stated new pile is not part of {what}: extra "
                          f"{_listed(sorted(code(c) for c in extra.elements()))}",
                          "RESHUFFLE-1")
    return without(cards, Counter(stated))


def without(cards: list[int], taken: Counter[int]) -> list[int]:
    """``cards`` in their order, less ``taken`` (a multiset of them)."""
    left = Counter(taken)
    out = []
    for card in cards:
        if left[card] > 0:
            left[card] -= 1
        else:
            out.append(card)
    return out


def _listed(codes: list[str], shown: int = 8) -> str:
    """The first ``shown`` codes, and how many more (a whole deck stated wrong is one line)."""
    more = len(codes) - shown
    return " ".join(codes[:shown]) + (f" and {more} more" if more > 0 else "")
