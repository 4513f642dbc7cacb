"""After a deviation, the state the engine under test went on from: its move applied by force.

Refereeing stops at a record's first deviation unless the checker knows the state the
engine's move led to. A record states the deal, every move and, for a version-2 record,
the chance each move met (the cards drawn, the new piles); :func:`force` takes them as
the record has them, even where the rules refuse the move, and says each place where it
had to take the record's word over the rules' (``notes``):

- a turn move by a player the rules do not give the turn to: the turn is given to them
  (the record shows whose turn it was in the engine under test);
- a move the rules refuse: its command run without its guard;
- a card stated drawn that is not on top of the pile: taken from where it is in the pile;
- a reshuffle stated that the rules do not cause, or not of the cards they say: the stated
  new pile taken, of the cards found below the top discard and in the old pile.

Where the record does not say enough (a stated card found nowhere it could be drawn from,
a move made while another player's answer to a draw card is pending, a forced command that
leaves no state of these rules), :class:`Unknowable` says why, and refereeing stops.
"""

from __future__ import annotations

from collections import Counter

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.chance import StatedChance, without
from unoformal.engine.game import Chance, Game
from unoformal.engine.record import Stated
from unoformal.errors import IllegalActionError, InvalidInputError, UnoError
from unoformal.rules.state import COLOR, DRAWN, PLAY, RESPOND, START

# Moves anyone makes out of turn: never a sign of whose turn it was.
ASIDES = (ActionType.UNO, ActionType.CATCH, ActionType.ADVISE)
# Moves that answer a pending draw card (a play may too, where the rules stack).
ANSWERS = (ActionType.ACCEPT, ActionType.CHALLENGE)


class Unknowable(UnoError):
    """The state after a deviating move cannot be known from the record: why."""


class Follow(StatedChance):
    """Stated chance taken as the record states it, wherever the cards are: the chance
    player of a forced move. Unstated chance is the seed's, as in every game."""

    def __init__(self) -> None:
        super().__init__()
        self.notes: list[str] = []
        self.unordered = False  # part of the pile is in an order the record does not state

    def draw(self, game: Game, seat: int, rule: str) -> int:
        draws = self.draws
        if draws is None:
            return super().draw(game, seat, rule)
        want = draws.get(seat)
        name = game.names[seat]
        if not want:
            raise Unknowable(f"the rules make {name} draw {self.count} card(s) here; the "
                             f"record states {self.taken}", rule)
        card = want.pop(0)
        self.taken += 1
        return self._take(game, name, card)

    def _take(self, game: Game, name: str, card: int) -> int:
        """``card`` out of the pile: its top, else from inside it (refilled first by a
        stated reshuffle the rules have not made yet, if the card is not in it)."""
        if self.piles and game.pile[-1:] != [card]:
            self._refill(game)  # the engine under test reshuffled before this draw
        pile, code = game.pile, game.deck.code
        if pile and pile[-1] == card:
            return pile.pop()
        if card not in pile:
            raise Unknowable(f"{name} is stated to draw {code(card)}, which is not in the "
                             "draw pile", "DRAW-1")
        top = code(pile[-1])
        _pull(game, card)
        self.notes.append(f"{name} drew {code(card)} from inside the pile (its top card "
                          f"was {top})")
        return card

    def reshuffle(self, game: Game, cards: list[int], rule: str) -> None:
        """The stated new pile, if stated, of the cards the rules shuffle; discards it
        leaves out stay below the top discard."""
        if not cards or not self.piles:
            # the seed's order: a followed draw takes its card by name, wherever it is
            Chance.reshuffle(self, game, cards, rule)
            self.unordered = self.unordered or (bool(cards) and self.draws is not None)
            return
        stated = self.piles.pop(0)
        left = Counter(cards)
        left.subtract(stated)
        if min(left.values(), default=0) < 0:
            raise Unknowable(_not_among(game, stated, Counter(cards)), rule)
        if left.total():
            game.discard[:0] = list(left.elements())
            self.notes.append(f"a reshuffle took the stated new pile: {left.total()} "
                              "discard(s) below the top one left out of it")
        cards[:] = stated[::-1]

    def _refill(self, game: Game) -> None:
        """A stated reshuffle while the pile still holds cards (the rules reshuffle only
        an empty one): its cards come from below the top discard, then from the old pile,
        and what is left of the old pile stays under it."""
        stated = self.piles.pop(0) if self.piles else []
        kept = game.discard[-1:]
        below = Counter(game.discard[:-1])
        need = Counter(stated)
        if need - (below + Counter(game.pile)):
            raise Unknowable(_not_among(game, stated, below + Counter(game.pile)),
                             "RESHUFFLE-1")
        from_below = need & below
        self.notes.append(f"a reshuffle stated while {len(game.pile)} card(s) were left to "
                          "draw: the stated new pile taken, the rest of the old pile under it")
        game.discard = [*(below - from_below).elements(), *kept]
        under = without(game.pile, need - from_below)
        game.pile, game.pile_lower = [*under, *stated[::-1]], 0
        if under:
            self.unordered = True
            self.notes.append(f"the order of the {len(under)} card(s) under the stated new pile "
                              "is not stated: until the next reshuffle of an empty pile, a "
                              "draw is judged by the card it takes, not by where it was")

    def settle(self, game: Game, rule_id: str) -> None:
        """What the record states this move drew or reshuffled beyond the rules: taken."""
        draws = self.draws or {}
        while self.piles:
            self._refill(game)
        for seat, cards in draws.items():
            name = game.names[seat]
            for card in cards:
                game.hands[seat].append(self._take(game, name, card))
            if cards:
                self.notes.append(f"{name} took {len(cards)} card(s) more than the rules "
                                  "draw, as the record states")
        self.expect(None, None)


class Unordered(StatedChance):
    """Stated chance judged as usual, except where in the pile a drawn card was: the
    chance player after a forced move left part of the pile in an order the record does
    not state. A stated reshuffle of an empty pile orders it all again."""

    def __init__(self) -> None:
        super().__init__()
        self.unordered = True

    def draw(self, game: Game, seat: int, rule: str) -> int:
        want = (self.draws or {}).get(seat)
        if self.unordered and want and not self.piles and want[0] in game.pile:
            card = want.pop(0)
            self.taken += 1
            _pull(game, card)
            return card
        return super().draw(game, seat, rule)

    def reshuffle(self, game: Game, cards: list[int], rule: str) -> None:
        super().reshuffle(game, cards, rule)
        if cards and self.piles is not None:
            self.unordered = False


def _pull(game: Game, card: int) -> None:
    """Take ``card`` out of the pile (top last): the copy nearest the top, as a draw
    takes from the top. Taken from a split pile's other half, that half is one smaller."""
    pile = game.pile
    at = len(pile) - 1 - pile[::-1].index(card)
    del pile[at]
    if at < game.pile_lower:
        game.pile_lower -= 1


def _not_among(game: Game, stated: list[int], found: Counter[int]) -> str:
    missing = sorted(game.deck.code(c) for c in (Counter(stated) - found).elements())
    return (f"the stated new pile holds {' '.join(missing[:8])}, which the discards and "
            "the draw pile do not")


def force(game: Game, action: Action, stated: Stated | None,
          unordered_policy: type[Unordered] | None = None,
          last: Stated | None = None) -> tuple[Game, list[str]]:
    """The state after ``action`` (refused in ``game``, the state before it) as the record
    has it, and where the record's word was taken over the rules'; :class:`Unknowable`
    when it cannot be known. ``game`` is left unchanged. ``unordered_policy``: the chance
    player's class once part of the pile is in an unstated order (:class:`Unordered`, or
    a subclass that also observes, as the live referee's); ``last``: the chance the move
    before it stated."""
    forced = game.copy()
    policy = game.chance
    follow = Follow()
    follow.unordered = isinstance(policy, Unordered) and policy.unordered
    forced.chance = follow
    notes: list[str] = []
    try:
        if forced.round_over and not forced.game_over:
            forced.next_round()
        _give_turn(forced, action, notes, last)
        _apply(forced, action, stated, follow, notes)
    except Unknowable:
        raise
    except UnoError as err:  # a next round refused, a player the game does not have
        raise Unknowable(f"the move cannot be made: {err.message}", err.rule_id) from None
    try:
        Game.from_text(forced.to_text(), forced.rules)  # a state of these rules, whole
    except InvalidInputError as err:
        raise Unknowable(f"forced, it leaves no state of these rules: {err.message}",
                         err.rule_id) from None
    # later moves are refereed as stated, not followed; where the pile's order is not
    # known, a draw is judged by the card it takes alone
    unordered = follow.unordered or (isinstance(policy, Unordered) and policy.unordered)
    if unordered and isinstance(policy, StatedChance):
        forced.chance = (unordered_policy or Unordered)()
    else:
        forced.chance = policy
    return forced, notes + follow.notes


def _give_turn(game: Game, action: Action, notes: list[str], last: Stated | None) -> None:
    """A turn move by a player the rules do not give the turn to: the record says whose
    turn it was. Not while another player answers a draw card: how the engine under test
    resolved that answer (drawn, or passed on) the record does not say."""
    if action.type in ASIDES:
        return
    if action.player == game.to_play:
        _no_answer_owed(game, action, notes)
        return
    if game.phase not in (PLAY, DRAWN):
        raise Unknowable(f"{action.player} moves while {game.to_play} is to {_owed(game)}: "
                         "the record does not say how that was resolved", "PLAY-1")
    seat = game.seat(action.player)
    _undo_unstated_draw(game, seat, notes, last)
    notes.append(f"the turn given to {action.player}, who moves in the record (the rules "
                 f"give it to {game.to_play})")
    game.turn = seat
    game.phase, game.drawn = PLAY, None  # a card drawn by the other player is kept


def _undo_unstated_draw(game: Game, seat: int, notes: list[str],
                        last: Stated | None) -> None:
    """The victim of the draw card played by the move just before moves, though the rules
    made them draw and lose the turn, and the record states no draw of theirs for that
    card (``last``, that move's chance): in the engine
    under test it had no effect (RLCard's drawn Wild Draw Four). The cards the rules drew
    go back on the pile, in order."""
    if game.cause is None or not game.history:
        return
    rule, actor, card, struck, _ = game.cause
    played = game.history[-1]  # the card's play, just before: ``last`` is its chance
    if card is None or struck != seat or played.type is not ActionType.PLAY or \
            played.player != game.names[actor]:
        return
    effect = game.f_effect[card]
    draws = None if last is None else last[0]
    count = effect.victim_draws
    if not count or rule != effect.id or (draws is not None and seat in draws) or \
            len(game.hands[seat]) < count:
        return
    hand = game.hands[seat]
    drawn = hand[-count:]
    del hand[-count:]
    game.pile.extend(reversed(drawn))  # the first drawn back on top
    notes.append(f"{game.names[seat]}'s {count} card(s) drawn under {rule}, which the record "
                 f"does not state, put back on the pile: in the record "
                 f"{game.names[seat]} moves next")


def _no_answer_owed(game: Game, action: Action, notes: list[str]) -> None:
    """The victim of a draw card makes a move that is no answer to it: in the engine under
    test the card asked for none (RLCard's drawn Wild Draw Four has no effect), and the
    record states no draw for it. The pending draw is dropped; the victim moves on."""
    if game.phase != RESPOND or action.type in ANSWERS:
        return
    kind = game.pending_kind
    rule = "" if kind is None else f" ({game.rules.effect(kind).id})"
    notes.append(f"the pending draw of {game.pending} card(s){rule} dropped: {action.player} "
                 "moves on without answering it, as in the record")
    game.pending, game.pending_kind, game.offender = 0, None, None
    game.phase = PLAY


def _owed(game: Game) -> str:
    """What the player the rules give the turn to owes, in words (a phase but a turn's)."""
    return {RESPOND: "answer a draw card", COLOR: "choose the start color",
            START: "settle the start card"}.get(game.phase, f"move ({game.phase})")


def _apply(game: Game, action: Action, stated: Stated | None, follow: Follow,
           notes: list[str]) -> None:
    """``action`` with its stated chance followed: checked if the rules now take it, else
    its command run without its guard. A command run so may find its premises false (a
    card not in the hand): the state it would lead to is then unknown."""
    draws, piles = stated if stated is not None else (None, None)
    follow.expect({p: list(c) for p, c in draws.items()} if draws is not None else None,
                  [list(p) for p in piles] if piles is not None else None)
    try:
        game.apply(action)
    except InvalidInputError as err:
        raise Unknowable(f"the move is malformed here: {err.message}", err.rule_id) from None
    except IllegalActionError as err:
        notes.append(f"forced: the rules refuse it ({err.rule_id})")
        try:
            game.push(action)
        except Unknowable:
            raise
        # a command run on a premise its guard rules out may fail anyhow (a card not in
        # the hand): whatever it raises, the state it leads to is not known
        except Exception as why:
            raise Unknowable(f"the rules cannot make this move even by force: "
                             f"{_words(why)}", err.rule_id) from None
    follow.settle(game, "DRAW-1")


def _words(err: Exception) -> str:
    if isinstance(err, UnoError):
        return err.message
    return str(err) or type(err).__name__
