"""A Hypothesis state machine plays random legal and illegal actions for 2 to 10 players.

At every step: the deck is intact face by face (DECK-1), a reshuffle keeps the top
discard out of the new pile (RESHUFFLE-1), a seated player is to move, a refused
action leaves the state text unchanged, ``apply`` succeeds exactly for the actions
``legal_actions()`` lists, views hide every other hand (HIDDEN-1, CHAL-1), and the
state text round-trips. A failure prints Hypothesis's step log and the game record.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Chance, Game
from unoformal.engine.record import to_record
from unoformal.errors import IllegalActionError, InvalidInputError
from unoformal.rulebook.cards import Color
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import NextDealer
from unoformal.rulebook.variants import load_rules

CODES = sorted({face.code for face in Deck.of(load_rules()).faces})
COLORS = [c.value for c in Color]
VARIANT_NAMES = ["classic", "classic", "seed004", "winner-deals", "stacking"]
VIEW_FIELDS = {"player", "hand", "hand_sizes", "top", "color", "direction", "to_play", "phase",
               "draw_pile", "scores", "uno_pending", "revealed", "shown", "out"}


class Tracking(Chance):
    """The seeded chance player, checking RESHUFFLE-1 each time the pile is rebuilt: the
    top discard stays face up and every other discard goes into the new pile."""

    def __init__(self) -> None:
        self.reshuffles = 0
        self.before: list[int] = []

    def begin_draw(self, game: Game, seat: int, count: int, rule: str) -> None:
        self.before = list(game.discard)  # a draw changes the discard only by reshuffling

    def reshuffle(self, game: Game, cards: list[int], rule: str) -> None:
        before = Counter(self.before)
        top = self.before[-1] if self.before and game.rules.reshuffle.keep_top else None
        super().reshuffle(game, cards, rule)
        self.reshuffles += 1
        assert game.discard == ([top] if top is not None else [])
        assert Counter(cards) + Counter(game.discard) == before
        if top is not None:  # that very card stayed out: one copy fewer in the new pile
            assert Counter(cards)[top] == before[top] - 1
        self.before = list(game.discard)


def _big_deal(names: list[str], rng: random.Random, hand: int) -> dict[str, Any]:
    """Hands of ``hand`` cards and a short pile, so reshuffles and empty piles come soon."""
    deck = Deck.of(load_rules())
    cards = [deck.code(c) for c in deck.cards()]
    rng.shuffle(cards)
    hands = {name: cards[i * hand:(i + 1) * hand] for i, name in enumerate(names)}
    return {"hands": hands, "draw_pile": cards[len(names) * hand:]}


class EngineMachine(RuleBasedStateMachine):
    game: Game
    tracking: Tracking

    @initialize(n=st.integers(2, 10), seed=st.integers(0, 2**16),
                variant=st.sampled_from(VARIANT_NAMES), hand=st.sampled_from([0, 0, 1, 2, 9, 12]))
    def start(self, n: int, seed: int, variant: str, hand: int) -> None:
        names = [f"P{i}" for i in range(n)]
        deal = None
        if hand and n * hand < 107:
            deal = _big_deal(names, random.Random(seed), hand)
        self.tracking = Tracking()
        self.game = Game(names, seed=seed, rules=load_rules(variant), deal=deal,
                         chance=self.tracking)
        self.deck_counts = Counter(self.game.deck.cards())

    def _where(self) -> str:
        return f"\nrecord: {to_record(self.game)}\nstate: {self.game.to_text()}"

    # ---------------------------------------------------------------------- rules

    @rule(pick=st.integers(0, 10**6), policy=st.sampled_from(["any", "calm", "play"]))
    def play_legal(self, pick: int, policy: str) -> None:
        """A listed legal action (or the next deal, END-2, once a round is over)."""
        game = self.game
        if game.round_over:
            if not game.game_over:
                self._deal_next_round()
            return
        legal = game.legal_actions()
        if not legal:
            return
        # Penalty actions are always legal and drawing always is: a policy that skips them,
        # or that plays a card whenever it can, lets rounds reach their end.
        calm = [a for a in legal if a.type not in (ActionType.ADVISE, ActionType.MISPLAY)]
        plays = [a for a in calm if a.type not in (ActionType.DRAW, ActionType.PASS,
                                                   ActionType.CATCH)]
        choices = {"any": legal, "calm": calm, "play": plays}[policy] or calm or legal
        action = choices[pick % len(choices)]
        try:
            game.apply(action)
        except (IllegalActionError, InvalidInputError) as err:
            raise AssertionError(f"listed legal action {action} refused: {err}"
                                 f"{self._where()}") from err

    def _deal_next_round(self) -> None:
        game = self.game
        dealer, winner = game.dealer, game.winner
        game.next_round()
        wanted = winner if game.rules.next_round.next_dealer is NextDealer.WINNER \
            else (dealer + 1) % game.n
        assert game.dealer == wanted and not game.round_over, self._where()

    @rule()
    def every_candidate_succeeds_exactly_when_listed(self) -> None:
        """Every well-formed action around this state, tried on a copy: ``apply`` succeeds
        exactly for the listed ones, and every listed on-turn action is among them."""
        game = self.game
        legal = game.legal_actions()
        candidates = self._candidates()
        untried = {a for a in legal if a.type not in (ActionType.ADVISE, ActionType.UNO,
                                                      ActionType.CATCH)} - set(candidates)
        assert not untried, f"untried listed actions {untried}{self._where()}"
        for action in candidates:
            trial = game.copy()
            try:
                trial.apply(action)
                applied = True
            except (IllegalActionError, InvalidInputError):
                applied = False
            assert applied == (action in legal), \
                f"{action}: applied={applied}, listed={action in legal}{self._where()}"

    def _candidates(self) -> list[Action]:
        game = self.game
        mover = game.to_play
        out = [Action(mover, t) for t in (ActionType.DRAW, ActionType.PASS, ActionType.ACCEPT,
                                          ActionType.CHALLENGE)]
        out += [Action(mover, ActionType.CHOOSE_COLOR, color=c) for c in COLORS]
        for card in sorted(set(game.hand(mover))):
            colors: list[str | None] = list(COLORS) if card in ("W", "W+4") else [None]
            out += [Action(mover, ActionType.PLAY, card, c, uno=u)
                    for c in colors for u in (False, True)]
            out.append(Action(mover, ActionType.MISPLAY, card))
        accused = game.names[game.uno_window] if game.uno_window is not None else mover
        # Out of turn: the mover, the accused and their neighbours stand for everyone.
        seats = {game.turn, game.names.index(accused)}
        seats |= {(s + d) % game.n for s in set(seats) for d in (1, -1)}
        for name in [game.names[s] for s in sorted(seats)]:
            out += [Action(name, ActionType.ADVISE), Action(name, ActionType.UNO),
                    Action(name, ActionType.CATCH, target=accused)]
        return out

    @rule(kind=st.sampled_from(list(ActionType)), seat=st.integers(0, 9),
          card=st.sampled_from(CODES), color=st.sampled_from(COLORS),
          aim=st.integers(0, 9), uno=st.booleans())
    def try_any(self, kind: ActionType, seat: int, card: str, color: str, aim: int,
                uno: bool) -> None:
        game = self.game
        names = game.names
        wild = card in ("W", "W+4")
        action = Action(
            names[seat % game.n], kind,
            card=card if kind in (ActionType.PLAY, ActionType.MISPLAY) else None,
            color=color if (kind is ActionType.PLAY and wild)
            or kind is ActionType.CHOOSE_COLOR else None,
            target=names[aim % game.n] if kind is ActionType.CATCH else None,
            uno=uno and kind is ActionType.PLAY)
        listed = action in game.legal_actions()
        before = game.to_text()
        try:
            game.apply(action)
        except (IllegalActionError, InvalidInputError) as err:
            assert not listed, f"{action} is listed legal but refused: {err}{self._where()}"
            assert err.rule_id, f"{action}: refusal without a rule ID: {err}"
            assert game.to_text() == before, f"refused {action} changed the state{self._where()}"
            return
        assert listed, f"{action} was applied but is not in legal_actions(){self._where()}"

    # ----------------------------------------------------------------- invariants

    @invariant()
    def deck_is_intact(self) -> None:
        g = self.game
        cards = Counter(g.pile) + Counter(g.discard) + sum((Counter(h) for h in g.hands),
                                                           Counter())
        assert sum(cards.values()) == 108 and cards == self.deck_counts, self._where()

    @invariant()
    def a_seated_player_moves(self) -> None:
        g = self.game
        assert 0 <= g.turn < g.n and g.to_play in g.names, self._where()
        assert g.phase in ("start", "color", "play", "drawn", "respond", "over"), self._where()
        # Shown by --hypothesis-show-statistics: which phases and events the runs reach.
        event(f"phase {g.phase}")
        if self.tracking.reshuffles:
            event("reshuffled")
        if g.reveal is not None:
            event("challenge reveal")
        if g.round > 1:
            event("second round")
        if g.round_over:
            event("round over")

    @invariant()
    def each_legal_action_is_listed_once(self) -> None:
        # The explorer makes one edge per (action, successor): it relies on this.
        for who in (None, *self.game.names):
            legal = self.game.legal_actions(who)
            assert len(set(legal)) == len(legal), self._where()

    @invariant()
    def text_round_trips(self) -> None:
        text = self.game.to_text()
        again = Game.from_text(text, self.game.rules)
        assert again.to_text() == text, self._where()

    @invariant()
    def views_hide_other_hands(self) -> None:
        g = self.game
        for p, name in enumerate(g.names):
            view = g.view(name)
            assert {f.name for f in dataclasses.fields(view)} == VIEW_FIELDS
            assert list(view.hand) == g.hand(name), self._where()
            assert view.out == tuple(g.names[q] for q in g.out)  # END-2: public
            assert view.hand_sizes == {n: len(h) for n, h in zip(g.names, g.hands, strict=True)}
            below = g.rules.hidden.open_below  # HIDDEN-1's open hands (0 in every variant)
            assert set(view.shown) == {n for q, n in enumerate(g.names)
                                       if q != p and len(g.hands[q]) < below}, self._where()
            if g.reveal is not None and g.reveal[0] == p:
                offender, shown = g.names[g.reveal[1]], g.reveal[2]
                assert view.revealed == (offender, tuple(g.deck.code(c) for c in sorted(shown)))
                assert g.history[-1].type is ActionType.CHALLENGE, self._where()
                assert g.history[-1].player == name, self._where()
            else:
                assert view.revealed is None, self._where()


EngineMachine.TestCase.settings = settings(
    max_examples=60, stateful_step_count=60, derandomize=True, database=None, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_engine_state_machine = EngineMachine.TestCase
