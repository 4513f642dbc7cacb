"""FROZEN COPY of ``unoformal/engine/game.py`` (see ``tests/reference/engine_v1/__init__.py``):
today's engine, kept only to check the new one against. Do not edit it to follow the live
engine; imports of engine modules point at the frozen copies.

The engine: a game state that plays and referees by interpreting the rule table.

The API follows python-chess and OpenSpiel: a :class:`Game` from players, a seed
and a rule table; :meth:`Game.legal_actions`; :meth:`Game.apply`; a per-player
:meth:`Game.view`; :attr:`Game.round_over` / :attr:`Game.game_over` and their
outcome; a canonical text form (:meth:`Game.to_text` / :meth:`Game.from_text`).

Every value that decides play comes from the table: which cards match, what each
kind does, how many cards a penalty costs, who deals. Code here only sequences
those values; rule IDs in comments name the entry being interpreted.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Final

from unoformal.engine.actions import Action, ActionType, check_action
from unoformal.errors import IllegalActionError, InvalidInputError
from unoformal.inputs import check_name, check_players, check_seed, show
from unoformal.language.cards import Said
from unoformal.rulebook.cards import Color, Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC, CardEffect, NextDealer, RuleTable
from unoformal.rulebook.words import KIND_NAMES
from unoformal.rules.challenge import wd4_blocks

# Phases of a round. "respond" is the victim's accept/challenge (or stacking) decision.
# Final: compiled (setup.py), each is a constant, not a lookup in the module's globals.
START: Final = "start"
COLOR: Final = "color"
PLAY: Final = "play"
DRAWN: Final = "drawn"
RESPOND: Final = "respond"
OVER: Final = "over"
PHASES = (START, COLOR, PLAY, DRAWN, RESPOND, OVER)

# The action types, as constants: compiled (setup.py), reading a member of a Python enum
# class is a lookup through the class every time; a Final name is a C static.
_PLAY: Final = ActionType.PLAY
_DRAW: Final = ActionType.DRAW
_PASS: Final = ActionType.PASS
_ACCEPT: Final = ActionType.ACCEPT
_CHALLENGE: Final = ActionType.CHALLENGE
_UNO: Final = ActionType.UNO
_CATCH: Final = ActionType.CATCH
_CHOOSE_COLOR: Final = ActionType.CHOOSE_COLOR
_MISPLAY: Final = ActionType.MISPLAY
_ADVISE: Final = ActionType.ADVISE

# An argument of the public API that the body checks and refuses in words
# (InvalidInputError, naming the rule). Typed Any rather than the type it must have: the
# compiled engine (setup.py) checks annotated types itself, with a bare TypeError.
Checked = Any


# The build compiles this module with mypyc where it can (setup.py). mypyc cannot build a
# native subclass of random.Random, so the shuffler stays a Python class.
class _Random(random.Random):
    """``random.Random`` with the standard library's own shuffle, written out: Fisher-Yates
    from the last card down, each index drawn by rejection from ``getrandbits`` as
    ``Random._randbelow`` draws it, so every shuffle puts the cards in exactly the order
    ``random.shuffle`` does (tests compare them), without a Python call per card: a third
    of a deal's time."""

    def shuffle(self, x: MutableSequence[Any]) -> None:
        getrandbits = self.getrandbits
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]


# Python subclasses (stated chance, the observers, tests) are allowed; the explorer's
# policy is compiled with the engine.
class Chance:
    """The chance player, as OpenSpiel has one: the engine asks it for every outcome the
    rules leave to chance, at a node named by the rule that calls for it, and never draws
    one itself.

    The nodes: :meth:`shuffle` (DEAL-1's and DEAL-2's deck), :meth:`turn_again` (START-WD4:
    the pile with the start card back in it), :meth:`reshuffle` (RESHUFFLE-1's new pile),
    :meth:`draw` (a card off the pile, within :meth:`begin_draw`/:meth:`end_draw` of one
    draw of several cards), :meth:`color` (a start color drawn at random) and
    :meth:`dealer_cards` (a round of DEAL-1's draw). :meth:`dealt` marks the deal done
    and :meth:`close` the end of a stage (the dealer draw, the start card), where a policy
    holding outcomes the stage did not use says so.

    This class answers them all from the seed: shuffle number ``n`` of a game is
    ``Random(f"{seed}/{n}")`` (``Game.shuffles`` counts them), and the pile is kept in
    order, its top last. Stated chance (records), the explorer's enumeration and the
    observers of validation and the referee are subclasses of it; the engine is not."""

    def shuffle(self, game: Game, cards: list[int], rule: str) -> None:
        """Put ``cards`` (a whole deck, for DEAL-1 or DEAL-2) in a random order."""
        _seeded(game, cards)

    def turn_again(self, game: Game, pile: list[int], rule: str) -> None:
        """START-WD4: the start card is back in ``pile`` (the game's own); shuffle it."""
        _seeded(game, pile)

    def reshuffle(self, game: Game, cards: list[int], rule: str) -> None:
        """RESHUFFLE-1: ``cards`` (the discards the rule returns) become the new pile."""
        _seeded(game, cards)

    def begin_draw(self, game: Game, seat: int, count: int, rule: str) -> None:
        """``seat`` is to draw ``count`` cards under ``rule``."""

    def draw(self, game: Game, seat: int, rule: str) -> int:
        """The card ``seat`` takes off the (non-empty) pile, removed from it."""
        return game.pile.pop()

    def end_draw(self, game: Game, seat: int, count: int, taken: int, rule: str) -> None:
        """The draw is over: ``taken`` cards of ``count`` (fewer: EXT-SHORT, none left)."""

    def color(self, game: Game, rule: str) -> int:
        """A start card's color drawn at random (``color_at_random``): a deck color index."""
        rng = _Random(f"{game.seed}/{game.shuffles}")
        game.shuffles += 1
        return rng.randrange(len(game.deck.colors))

    def dealer_cards(self, game: Game, contenders: list[int],
                     cards: list[int]) -> dict[int, int]:
        """DEAL-1: the card each contender draws (seat to card); ``cards`` is the draw's
        deck, refilled with a new shuffled deck whenever it runs out."""
        drawn = {}
        for p in contenders:
            if not cards:
                cards.extend(game.deck.cards())
                self.shuffle(game, cards, game.rules.dealer_draw.id)
            drawn[p] = cards.pop()
        return drawn

    def fork(self) -> Chance:
        """The policy a copy of the game takes: this one, shared (it keeps no state of
        its own; a policy that does gives the copy a fresh one)."""
        return self

    def dealt(self, game: Game) -> None:
        """DEAL-2 is done: the hands are dealt, the start card not yet turned."""

    def close(self, game: Game, rule: str) -> None:
        """The stage ``rule`` names is over (DEAL-1's draw; DEAL-2 with the start card)."""


def _seeded(game: Game, cards: list[int]) -> None:
    """Shuffle ``cards`` with the game's next shuffle number. A list of one card or none
    has nothing to order: its generator is not built (a string-seeded Random costs more
    than many steps), but its number is used up as if it were, so every later shuffle
    draws from the same ``Random(f"{seed}/{n}")`` as it always has."""
    if len(cards) > 1:
        _Random(f"{game.seed}/{game.shuffles}").shuffle(cards)
    game.shuffles += 1


SEEDED: Final = Chance()


@dataclass(frozen=True)
class PlayerView:
    """What one player may see (HIDDEN-1): own hand, everyone's hand size, the table."""

    player: str
    hand: tuple[str, ...]
    hand_sizes: dict[str, int]
    top: str | None
    color: str | None
    direction: str
    to_play: str
    phase: str
    draw_pile: int
    scores: dict[str, int]
    uno_pending: str | None
    revealed: tuple[str, tuple[str, ...]] | None  # CHAL-1: (offender, hand) for the challenger


@dataclass(frozen=True)
class Refusal:
    rule_id: str
    reason: str
    causes: tuple[str, ...] = ()


# Why the turn or phase is what it is (see Game.cause): the rule that decided it, the seat
# whose card or action applied it, that card (or None), the seat it struck, and whether the
# card was the one just drawn (DRAW-1). Kept as raw data: words are built only on refusal.
Cause = tuple[str, int, int | None, int, bool]


# The explorer, the validator, stated chance and tests subclass Game in Python.
class Game:
    """A game of UNO under one rule table, from the first deal to game over."""

    # The last effect that moved the turn or set the phase other than a plain play; refusals
    # name it as their cause. A class default, so states read from text start with none.
    cause: Cause | None = None
    _from_drawn = False  # the card being played is the one just drawn (DRAW-1)
    # The actions legal_actions() last listed for this very state (None once anything
    # changed): apply() accepts one of them without deriving its legality again.
    _legal: tuple[Action, ...] | None = None

    def __init__(self, players: Sequence[str], seed: Checked = 0, rules: Checked = CLASSIC,
                 dealer: Checked = None, deal: Checked = None, chance: Checked = None) -> None:
        """``players``: their names, in seat order (DECK-2); ``seed``: an integer from 0 to
        2**63-1; ``rules``: a :class:`RuleTable`; ``dealer``: a player's name, or None to
        draw for it (DEAL-1); ``deal``: ``{"hands": {...}, "draw_pile": [...]}``, or None
        to shuffle (DEAL-2); ``chance``: the :class:`Chance` policy that answers every
        chance node, or None for the seeded one."""
        if not isinstance(rules, RuleTable):
            raise InvalidInputError(f"rules {show(rules)}: expected a RuleTable (see "
                                    "unoformal.rulebook.load_rules)")
        if chance is not None and not isinstance(chance, Chance):
            raise InvalidInputError(f"chance {show(chance)}: expected a Chance policy (see "
                                    "unoformal.engine.chance)")
        self.chance: Chance = SEEDED if chance is None else chance
        self.rules = rules
        self.deck = Deck.of(rules)
        self.names = _check_players(players, rules)
        self.n = len(self.names)
        self.seed = check_seed(seed)
        if dealer is not None:
            check_name(dealer, "dealer", key="dealer")
        if deal is not None and not isinstance(deal, dict):
            raise InvalidInputError("deal must be {\"hands\": {...}, \"draw_pile\": [...]}",
                                    "DEAL-2", key="deal")
        self.shuffles = 0
        self._tables()
        self.scores = [0] * self.n
        self.round = 1
        self.history: list[Action] = []
        self.dealer_draws: list[dict[str, str]] = []
        self.origin: dict[str, Any] = {"dealer": dealer, "deal": deal}
        if dealer is None:
            self.dealer = self._choose_dealer()
        else:
            self.dealer = self.seat(dealer, "dealer", key="dealer")
        self._start_round(deal)

    # ----------------------------------------------------------------- set-up

    def _tables(self) -> None:
        """Per-face and per-seat lookups, built once per (table, players) and shared by
        every game and copy, so the hot path is plain indexing."""
        t = _lookups(self.rules, self.deck, tuple(self.names))
        self.t = t
        self.f_kind, self.f_color, self.f_rank = t.kind, t.color, t.rank
        self.f_effect = t.effect

    def seat(self, name: Checked, what: str = "player", key: str | None = None) -> int:
        try:
            return self.t.seats[name]
        except (KeyError, TypeError):
            raise InvalidInputError(f"unknown {what} {show(name)}; players are "
                                    f"{', '.join(self.names)}", "DECK-2", key=key) from None

    def _choose_dealer(self) -> int:
        """DEAL-1: highest number deals; symbols count symbol_value; ties draw again."""
        rule = self.rules.dealer_draw
        cards: list[int] = []  # the draw's deck: the chance player fills it
        contenders = list(range(self.n))
        while len(contenders) > 1:
            drawn = self.chance.dealer_cards(self, contenders, cards)
            self.dealer_draws.append({self.names[p]: self.deck.code(c) for p, c in drawn.items()})
            value = {p: self._dealer_value(c, rule.symbol_value) for p, c in drawn.items()}
            best = max(value.values())
            contenders = [p for p in contenders if value[p] == best]
            if not rule.ties_draw_again:
                contenders = contenders[:1]
        self.chance.close(self, rule.id)
        return contenders[0]

    def _dealer_value(self, card: int, symbol_value: int) -> int:
        rank = self.f_rank[card]
        return rank if rank is not None else symbol_value

    def _start_round(self, deal: dict[str, Any] | None) -> None:
        self._legal = None
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.discard: list[int] = []
        self.pile: list[int] = []  # top of the pile is the last element
        self.color: int | None = None
        self.direction = 1
        self.turn = 0
        self.phase = PLAY
        self.drawn: int | None = None
        self.pending = 0
        self.offender: int | None = None
        self.pending_kind: Kind | None = None
        self.wd4_legal = True
        self.prev_color: int | None = None
        self.uno_window: int | None = None
        self.reveal: tuple[int, int, tuple[int, ...]] | None = None
        self.winner: int | None = None
        self.round_points = 0
        self.cause = None
        if deal is not None:
            self._deal_given(deal)
        else:
            self._deal_shuffled()
        self._turn_start_card()

    def _deal_shuffled(self) -> None:
        """DEAL-2: shuffle, hand_size cards each, one at a time from the dealer's left."""
        size = self.rules.deal.hand_size
        cards = list(self.t.cards)
        if len(cards) <= size * self.n:
            raise InvalidInputError(f"{self.n} hands of {size} need more than the deck's "
                                    f"{len(cards)} cards", "DEAL-2")
        self.chance.shuffle(self, cards, self.rules.deal.id)
        for _ in range(size):
            for k in range(1, self.n + 1):
                self.hands[(self.dealer + k) % self.n].append(cards.pop())
        self.pile = cards

    def _deal_given(self, deal: dict[str, Any]) -> None:
        """A position like a FEN: hands and pile given, together exactly the deck."""
        if not isinstance(deal, dict) or set(deal) - {"hands", "draw_pile"}:
            raise InvalidInputError("deal must be {\"hands\": {...}, \"draw_pile\": [...]}",
                                    "DEAL-2")
        hands = deal.get("hands", {})
        if not isinstance(hands, dict):
            raise InvalidInputError("deal.hands must map player names to card lists", "DEAL-2")
        for name in hands:
            self.seat(name)
        for p, name in enumerate(self.names):
            self.hands[p] = self._codes(hands.get(name, []), f"deal.hands.{name}")
        pile = self._codes(deal.get("draw_pile", []), "deal.draw_pile")
        if not pile:
            raise InvalidInputError("deal.draw_pile is empty: no start card to turn", "DEAL-2")
        self.pile = pile[::-1]
        counts = [0] * len(self.deck.faces)
        for card in [c for h in self.hands for c in h] + pile:
            counts[card] += 1
        problems = []
        for face, (have, want) in enumerate(zip(counts, self.deck.copies, strict=True)):
            if have != want:
                word = "missing" if have < want else "extra"
                problems.append(f"{abs(want - have)} {word} {self.deck.code(face)}")
        if problems:
            raise InvalidInputError("deal is not exactly the deck: " + ", ".join(problems),
                                    "DECK-1")

    def _codes(self, codes: Any, where: str) -> list[int]:
        if not isinstance(codes, list):
            raise InvalidInputError(f"{where} must be a list of card codes", "DECK-1")
        out = []
        for i, code in enumerate(codes):
            try:
                if not isinstance(code, str):
                    raise ValueError(f"{show(code)}: a card code is a string")
                out.append(self.deck.face_id(code))
            except ValueError as err:
                raise InvalidInputError(f"{where}[{i}]: {err}", "DECK-1") from None
        return out

    def _turn_start_card(self) -> None:
        """DEAL-2/3 and START-*: turn the start card and apply its start rule."""
        self.chance.dealt(self)
        self._start_card()
        self.chance.close(self, self.rules.deal.id)

    def _start_card(self) -> None:
        rules = self.rules
        while True:
            card = self.pile.pop()
            self.discard.append(card)
            start = rules.start_rule(self.f_kind[card])
            if start is None or not start.turn_another_card:
                break
            if all(rules.start_rule(self.f_kind[c]) == start for c in self.pile):
                if not rules.start_with_only_wd4_left.enabled:
                    self.phase = START  # EXT-START off: no rule says what to do
                    return
                start = rules.start_wild  # EXT-START
                break
            self.pile.append(self.discard.pop())
            self.chance.turn_again(self, self.pile, start.id)
        first_turn = rules.first_turn
        seat_offset, direction = first_turn.first_seat, first_turn.direction
        if start is not None:
            seat_offset, direction = start.first_seat, start.direction
        self.direction = direction.step
        first = (self.dealer + seat_offset) % self.n
        self.color = self.f_color[card]
        self.turn = first
        if start is None:
            return
        self.cause = (start.id, self.dealer, card, first, False)
        if start.color_at_random:
            self.color = self.chance.color(self, start.id)
        if start.first_player_draws:
            self._take(first, start.first_player_draws, start.id)
        if start.first_player_loses_turn:
            self.turn = self._next(first)
        if start.first_player_chooses_color:
            self.phase = COLOR

    # ------------------------------------------------------------- inspection

    @property
    def to_play(self) -> str:
        return self.names[self.turn]

    @property
    def top(self) -> int | None:
        return self.discard[-1] if self.discard else None

    @property
    def round_over(self) -> bool:
        return self.phase == OVER

    @property
    def game_over(self) -> bool:
        return self.phase == OVER and max(self.scores) >= self.rules.target.score

    @property
    def game_winner(self) -> str | None:
        if not self.game_over:
            return None
        return self.names[max(range(self.n), key=lambda p: self.scores[p])]

    def hand(self, player: Checked) -> list[str]:
        return self._sorted_codes(self.hands[self.seat(player)])

    def _sorted_codes(self, cards: Iterable[int]) -> list[str]:
        return [self.deck.code(c) for c in sorted(cards)]

    def available(self) -> int:
        """Cards a player could draw now: the pile plus what RESHUFFLE-1 would return."""
        keep = 1 if self.rules.reshuffle.keep_top and self.discard else 0
        return len(self.pile) + len(self.discard) - keep

    def _next(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % self.n

    # -------------------------------------------------------------- predicates

    def _matches(self, face: int) -> bool:
        """PLAY-1: same color, same number, same symbol, or a wild."""
        m = self.rules.matching
        kind = self.f_kind[face]
        if self.t.wild[face]:
            return m.wild_any_time
        if m.by_color and self.f_color[face] == self.color:
            return True
        if not self.discard:
            return False
        top = self.discard[-1]
        if self.f_kind[top] is not kind:
            return False
        if kind is Kind.NUMBER:
            return m.by_number and self.f_rank[top] == self.f_rank[face]
        return m.by_symbol

    def _match_row(self) -> list[bool]:
        """PLAY-1 for every face at once; it depends only on (color, top), so it is cached."""
        key = (self.color, self.discard[-1] if self.discard else None)
        row = self.t.match_rows.get(key)
        if row is None:
            row = [self._matches(face) for face in range(len(self.f_kind))]
            self.t.match_rows[key] = row
        return row

    def _wd4_is_legal(self, hand: Iterable[int]) -> bool:
        """WD4-1, on the hand left after playing it."""
        return not any(self._wd4_blocks(c) for c in hand)

    def _wd4_blocks(self, face: int) -> bool:
        """WD4-1 (``unoformal.rules.challenge``): holding ``face`` makes a Wild Draw Four
        illegal."""
        return self.t.wd4_blocks.holds(self, face)

    def _wd4_refusal(self, p: int, face: int) -> Refusal | None:
        """WD4-1 in the words of the table's reading, naming the card that makes the Wild
        Draw Four illegal (the lowest such card: the same words however the hand is
        ordered); None when no card does (the play is refused for another reason)."""
        rest = list(self.hands[p])
        rest.remove(face)
        held = [c for c in rest if self._wd4_blocks(c)]
        if not held:
            return None
        top = self.deck.code(self.top) if self.top is not None else "-"
        words = self.t.wd4_blocks.words(card=self.deck.code(min(held)), top=top,
                                        color=self._color_name(self.color) or "-")
        return Refusal(self.rules.wd4_legality.id, f"Wild Draw Four while holding {words}")

    def _can_play(self, p: int, face: int) -> bool:
        """A legal play of ``face`` by the player to move, in a play phase."""
        if self.phase == DRAWN:
            if face != self.drawn or not self.rules.draw.may_play_drawn:
                return False
        elif self.phase == RESPOND:
            return self._can_answer(face)
        elif self.phase != PLAY:
            return False
        if not self._match_row()[face]:
            return False
        if self.f_kind[face] is Kind.WILD_DRAW_FOUR and not self.rules.wd4_legality.bluff_playable:
            rest = list(self.hands[p])
            rest.remove(face)
            return self._wd4_is_legal(rest)
        return self._can_effect(self.f_effect[face])

    def _can_answer(self, face: int) -> bool:
        """NOSTACK-1 (or its variant): may the victim answer the draw card with this one?"""
        st = self.rules.no_stacking
        return (st.victim_may_answer and self.pending_kind in st.answers
                and self.f_kind[face] in st.answers and not self._offender_out())

    def _offender_out(self) -> bool:
        """Amended (EXT-LAST): the draw card waiting was its player's last card."""
        offender = self.offender
        return (self.rules.last_draw_card_drawn.enabled and offender is not None
                and not self.hands[offender])

    def _may_draw(self, p: int) -> bool:
        """DRAW-1: drawing is allowed even with a playable card, unless the table says not."""
        if self.rules.draw.may_draw_when_able_to_play:
            return True
        return not any(self._can_play(p, c) for c in set(self.hands[p]))

    def _may_keep(self, p: int) -> bool:
        """DRAW-1: the drawn card may be kept, unless the table says a playable one is
        played at once (``must_play_drawn``)."""
        drawn = self.drawn
        return not self.rules.draw.must_play_drawn or drawn is None \
            or not self._can_play(p, drawn)

    def _can_draw(self, count: int) -> bool:
        """EXT-SHORT: with it off, an effect needing more cards than are left is not allowed."""
        return self.rules.draw_what_is_left.enabled or self.available() >= count

    def _can_effect(self, effect: CardEffect) -> bool:
        """EXT-SHORT off: the victim must be able to draw what the card names, counted
        once the card is played (the old top then joins what RESHUFFLE-1 returns)."""
        if effect.victim_may_challenge or self.rules.draw_what_is_left.enabled:
            return True
        keep = 1 if self.rules.reshuffle.keep_top else 0
        return len(self.pile) + len(self.discard) + 1 - keep >= effect.victim_draws

    # ---------------------------------------------------------- legal actions

    def legal_actions(self, player: Checked = None, *,
                      penalties: bool = True) -> list[Action]:
        """Every legal action of ``player`` (of all players when None), including
        out-of-turn ones (UNO, catch, advice). ``penalties=False`` leaves out the actions
        that only exist to be penalised (MISPLAY-1, ADVICE-1), as bots want."""
        if self.phase == OVER or self.phase == START:
            return []
        seat = None if player is None else self.seat(player)
        advise = penalties and self.rules.advice.enabled and \
            self._can_draw(self.rules.advice.cards)
        target = self.uno_window
        out: list[Action] = []
        if advise or target is not None:
            catch = target is not None and self._catchable(target)
            for p in range(self.n) if seat is None else (seat,):
                self._out_of_turn(p, out, advise, catch)
                if p == self.turn:
                    self._on_turn(p, out, penalties)
        elif seat is None or seat == self.turn:
            self._on_turn(self.turn, out, penalties)  # nobody else has an action
        self._legal = tuple(out)
        return out

    def _on_turn(self, p: int, out: list[Action], penalties: bool) -> None:
        t = self.t
        phase = self.phase
        if phase == COLOR:
            out += t.choose_color[p]
            return
        if phase == RESPOND:
            self._responses(p, out)
        hand = self.hands[p]
        plays, misplays = t.plays[p], t.misplay[p]
        with_uno = len(hand) == t.uno_with
        if phase == DRAWN and not penalties:
            drawn = self.drawn
            if drawn is not None and self._can_play(p, drawn):
                out += plays[drawn][with_uno]
        elif phase == PLAY and t.play_is_match:
            row = self._match_row()
            for face in sorted(set(hand)):
                if row[face]:
                    out += plays[face][with_uno]
                elif penalties:
                    out.append(misplays[face])
        else:
            for face in sorted(set(hand)):
                if self._can_play(p, face):
                    out += plays[face][with_uno]
                elif penalties and phase != RESPOND and \
                        self._can_draw(self.rules.misplay.cards):
                    out.append(misplays[face])
        if phase == PLAY:
            if self.pile or self.available() >= 1:  # a card to draw (RESHUFFLE-1)
                if self._may_draw(p):
                    out.append(t.draw[p])
            elif self.rules.pass_when_nothing_to_draw.enabled:
                out.append(t.pass_[p])
        elif phase == DRAWN and self._may_keep(p):
            out.append(t.pass_[p])

    def _out_of_turn(self, p: int, out: list[Action], advise: bool, catch: bool) -> None:
        if advise:
            out.append(self.t.advise[p])
        target = self.uno_window
        if target is not None:
            if p == target:
                if self.rules.uno.say_before_accusation and self.rules.uno.enabled:
                    out.append(self.t.uno[p])
            elif catch:
                out.append(self.t.catch[p][target])

    def _catchable(self, target: int) -> bool:
        uno = self.rules.uno
        if not uno.enabled or (uno.catch_only_with_one_card
                               and len(self.hands[target]) != uno.cards_left):
            return False
        return self._can_draw(uno.penalty)

    def _responses(self, p: int, out: list[Action]) -> None:
        if self._can_draw(self.pending):
            out.append(self.t.accept[p])
        if self._challengeable():
            out.append(self.t.challenge[p])

    def _challengeable(self) -> bool:
        if self.offender is None or self.pending_kind is None or \
                not self.rules.effect(self.pending_kind).victim_may_challenge:
            return False
        outcome = self.rules.challenge_failed if self.wd4_legal else self.rules.challenge_upheld
        return self._can_draw(max(outcome.offender_draws, outcome.challenger_draws))

    # ------------------------------------------------------------------ apply

    def apply(self, action: Checked) -> None:
        """Play one action. Raises :class:`InvalidInputError` for malformed input and
        :class:`IllegalActionError` for a rule it breaks; either way the state is unchanged."""
        try:
            resolved = self.t.resolved.get(action)
        except TypeError:  # an unhashable field: _resolve names it
            resolved = None
        if resolved is None:
            resolved = self._resolve(action)
            self.t.resolved[action] = resolved
        p, face, color, target = resolved
        listed = self._legal
        if listed is None or action not in listed:
            refusal = self.refusal(action, p, face)
            if refusal is not None:
                raise IllegalActionError(f"{action}: {refusal.reason}", refusal.rule_id,
                                         self.to_text(), causes=refusal.causes)
        self._legal = None
        self.reveal = None
        self._do(action.type, p, face, color, target, action.uno)
        self.history.append(action)

    def push(self, action: Action) -> None:
        """Apply an action taken from :meth:`legal_actions` of this very state, without
        checking it again (like python-chess's ``Board.push``). Use :meth:`apply` for
        anything else: an illegal action pushed here corrupts the game."""
        resolved = self.t.resolved.get(action)
        if resolved is None:
            resolved = self._resolve(action)
            self.t.resolved[action] = resolved
        p, face, color, target = resolved
        self._legal = None
        self.reveal = None
        self._do(action.type, p, face, color, target, action.uno)
        self.history.append(action)

    def _resolve(self, action: Checked) -> tuple[int, int | None, int | None, int | None]:
        """Check the action's shape and translate names and codes to indices."""
        try:
            check_action(action)
            return self._indices(action)
        except InvalidInputError as err:
            raise err.at(action=str(action) if isinstance(action, Action) else None,
                         state=self.to_text()) from None

    def _indices(self, action: Action) -> tuple[int, int | None, int | None, int | None]:
        p = self.seat(action.player)
        face = color = target = None
        kind = action.type
        if kind in (ActionType.PLAY, ActionType.MISPLAY):
            if action.card is None:
                raise InvalidInputError(f"{action}: {kind.value} needs a card", "PLAY-1")
            try:
                face = self.deck.face_id(action.card)
            except ValueError as err:
                raise InvalidInputError(f"{action}: {err}", "DECK-1", self.to_text()) from None
        elif action.card is not None:
            raise InvalidInputError(f"{action}: {kind.value} takes no card", "PLAY-1")
        if action.color is not None:
            if kind is ActionType.PLAY and face is not None and \
                    not self.f_effect[face].chooses_color:
                raise InvalidInputError(f"{action}: a color is named only with a wild card",
                                        "WILD-1", self.to_text())
            if kind not in (ActionType.PLAY, ActionType.CHOOSE_COLOR):
                raise InvalidInputError(f"{action}: {kind.value} takes no color", "WILD-1")
            color = self._color(action)
        elif kind is ActionType.CHOOSE_COLOR or (
                kind is ActionType.PLAY and face is not None
                and self.f_effect[face].chooses_color):
            raise InvalidInputError(f"{action}: name a color", "WILD-1", self.to_text())
        if kind is ActionType.CATCH:
            if action.target is None:
                raise InvalidInputError(f"{action}: catch needs a target", "UNO-1")
            target = self.seat(action.target, "target")
        elif action.target is not None:
            raise InvalidInputError(f"{action}: {kind.value} takes no target", "UNO-1")
        if action.uno and kind is not ActionType.PLAY:
            raise InvalidInputError(f"{action}: 'uno' goes with a play", "UNO-1")
        return p, face, color, target

    def _color(self, action: Action) -> int:
        color = Color(action.color)  # check_action: the color's name
        if color not in self.deck.color_index:
            raise InvalidInputError(f"{action}: {color.value} is not in this deck", "DECK-1")
        return self.deck.color_index[color]

    def refusal(self, action: Action, p: int, face: int | None) -> Refusal | None:
        """Why a well-formed action is illegal now (None when it is legal)."""
        if self.phase == OVER:
            if self.game_over:
                return Refusal(self.rules.target.id, f"the game is over: {self.game_winner} "
                               f"reached the target score of {self.rules.target.score}")
            return Refusal(self.rules.end_of_round.id, "the round is over")
        if self.phase == START:
            return Refusal("START-WD4", "the start card is not settled (EXT-START is off)")
        kind = action.type
        check = _CHECKS.get(kind)
        if check is not None:
            return check(self, action, p, face)
        return self._turn_check(action, p, face)

    def _turn_check(self, action: Action, p: int, face: int | None) -> Refusal | None:
        if p != self.turn:
            return self._not_to_move(action)
        kind = action.type
        want = _PHASE_OF.get(kind)
        if self.phase == COLOR and kind is not ActionType.CHOOSE_COLOR:
            return Refusal("START-WILD", "the first player must choose the color first")
        if self.phase == RESPOND and want is not RESPOND and kind is not ActionType.PLAY:
            return self._respond_refusal()
        if want is not None and self.phase != want:
            return Refusal("START-WILD" if want == COLOR else "WD4-2",
                           f"nothing to {kind.value} now")
        if kind is ActionType.PLAY:
            return self._play_check(action, p, face)
        if kind is ActionType.MISPLAY:
            assert face is not None
            if face not in self.hands[p]:
                return Refusal("MISPLAY-1", f"{action.card} is not in {action.player}'s hand")
            if self._can_play(p, face):
                return Refusal("MISPLAY-1", f"{action.card} is a legal play, not a misplay")
            if not self._can_draw(self.rules.misplay.cards):
                return Refusal("EXT-SHORT", "not enough cards are left for the penalty")
            return None
        if kind is ActionType.DRAW:
            if self.phase == DRAWN:
                return self._caused("DRAW-1", "one draw per turn")
            if self.available() < 1:
                return Refusal("EXT-PASS", "nothing is left to draw")
            if not self._may_draw(p):
                return Refusal("DRAW-1", "a player able to play may not draw in these rules")
            return None
        if kind is ActionType.PASS:
            if self.phase == DRAWN:
                if not self._may_keep(p):
                    return self._caused("DRAW-1", f"{action.player} may not keep the drawn "
                                        "card")
                return None
            if self.available() < 1 and self.rules.pass_when_nothing_to_draw.enabled:
                return None
            return Refusal("DRAW-1", "pass only after drawing (keep the drawn card)")
        if kind is ActionType.ACCEPT:
            if not self._can_draw(self.pending):
                return Refusal("EXT-SHORT", f"{self.pending} cards are not left to draw")
            return None
        if kind is ActionType.CHALLENGE:
            if not self._challengeable():
                return Refusal("WD4-2", "only a Wild Draw Four can be challenged")
            return None
        return None

    def _play_check(self, action: Action, p: int, face: int | None) -> Refusal | None:
        assert face is not None
        hand = self.hands[p]
        if face not in hand:
            return Refusal("PLAY-1", f"{action.card} is not in {action.player}'s hand")
        if action.uno and (len(hand) != self.t.uno_with or not self.rules.uno.say_with_card
                           or not self.rules.uno.enabled):
            return Refusal("UNO-1", "UNO is said with the next-to-last card"
                           if self.rules.uno.enabled else "nobody calls UNO in these rules")
        if self._can_play(p, face):
            return None
        if self.phase == DRAWN and (face != self.drawn or not self.rules.draw.may_play_drawn):
            return self._caused("DRAW-1", "after drawing only the drawn card may be played")
        if self.phase == RESPOND:
            if self.f_effect[face].victim_draws:
                st = self.rules.no_stacking
                if self._offender_out() and st.victim_may_answer \
                        and self.pending_kind in st.answers and self.f_kind[face] in st.answers:
                    # amended: EXT-LAST
                    assert self.offender is not None
                    return Refusal(self.rules.last_draw_card_drawn.id,
                                   f"{self.names[self.offender]} went out with the card that "
                                   f"waits, so it is not answered: {action.player} draws its "
                                   "cards (END-1)")
                return self._caused(self.rules.no_stacking.id,
                                    "the victim of a draw card cannot answer it")
            return self._respond_refusal()
        if self.f_kind[face] is Kind.WILD_DRAW_FOUR:
            wd4 = self._wd4_refusal(p, face)
            if wd4 is not None:
                return wd4
        if not self._matches(face):
            return Refusal("PLAY-1", f"{action.card} does not match "
                           f"{self.deck.code(self.top) if self.top is not None else '-'}"
                           f" / {self._color_name(self.color)}")
        return Refusal("EXT-SHORT", "its victim cannot draw the cards it names")

    def _respond_refusal(self) -> Refusal:
        """What the victim of a pending draw card may do, under the rule of that card
        (WD4-2 for a Wild Draw Four; D2-1 for a Draw Two under stacking)."""
        kind = self.pending_kind
        assert kind is not None  # a respond phase has one (the text reader: WD4-2)
        effect = self.rules.effect(kind)
        stack = self.rules.no_stacking
        may = ["accept"]
        if effect.victim_may_challenge:
            may.append("challenge")
        if stack.victim_may_answer and kind in stack.answers:
            may.append("answer with a " + " or a ".join(KIND_NAMES[k] for k in stack.answers))
        words = " or ".join(may) if len(may) < 3 else ", ".join(may[:-1]) + " or " + may[-1]
        return self._caused(effect.id, f"{self.to_play} must {words}")

    def _not_to_move(self, action: Action) -> Refusal:
        """PLAY-1, with what ran last if it was an out-of-turn action (it left the turn
        where it was), and the effect that gave the turn to someone else if there was one."""
        plain = f"it is {self.to_play}'s turn, not {action.player}'s"
        aside = self._aside()
        if aside is None:
            if self.cause is None:
                return Refusal("PLAY-1", plain)
            return self._caused("PLAY-1", f"{action.player} is not to move")
        rule, words = aside
        if self.cause is None:
            return Refusal("PLAY-1", f"{plain}: {words}", (rule,))
        return Refusal("PLAY-1", f"{action.player} is not to move: {words}; "
                       f"{self.cause_text()}", (rule, self.cause[0]))

    def _aside(self) -> tuple[str, str] | None:
        """The action just applied, if it was taken out of turn (a catch, a UNO, advice):
        its rule, and in words that it did not change whose turn it is."""
        if not self.history:
            return None
        last = self.history[-1]
        if last.type is _CATCH:
            rule, what = self.rules.uno.id, f"{last.player}'s catch of {last.target}"
        elif last.type is _UNO:
            rule, what = self.rules.uno.id, f"{last.player}'s UNO"
        elif last.type is _ADVISE:
            rule, what = self.rules.advice.id, f"{last.player}'s advice"
        else:
            return None
        return rule, f"{what} ({rule}) did not change whose turn it is"

    def _caused(self, rule_id: str, reason: str) -> Refusal:
        """A refusal that also names what made the state so (``self.cause``)."""
        if self.cause is None:
            return Refusal(rule_id, reason)
        return Refusal(rule_id, f"{reason}: {self.cause_text()}", (self.cause[0],))

    def cause_text(self) -> str:
        """The last turn-deciding effect in words, e.g. "P0's Reverse acted as a Skip
        (TWO-1), so P0 moves again"."""
        if self.cause is None:
            return ""
        rule_id, actor, card, struck, drawn = self.cause
        who, hit, mover = self.names[actor], self.names[struck], self.to_play
        name = "" if card is None else KIND_NAMES[self.f_kind[card]]
        then = "moves again" if mover == who else "moves"
        if self.phase == RESPOND and rule_id == self.rules.draw_two.id:
            # amended: under stacking a Draw Two waits for its answer, nobody drew yet
            return f"{who}'s {'drawn ' if drawn else ''}{name} takes effect ({rule_id})"
        what = {
            "TWO-1": f"{who}'s Reverse acted as a Skip (TWO-1), so {mover} {then}",
            "SKIP-1": f"{who}'s Skip skipped {hit} (SKIP-1), so {mover} moves",
            "D2-1": f"{who}'s Draw Two made {hit} draw and lose the turn (D2-1), so "
                    f"{mover} moves",
            "DRAW-1": f"{who} drew and may play only the drawn card or pass (DRAW-1)",
            "MISPLAY-1": f"{who} misplayed and lost the turn (MISPLAY-1), so {mover} moves",
        }.get(rule_id)
        if rule_id == self.rules.draw.id and card is not None and self.phase == DRAWN \
                and not self._may_keep(actor):
            what = (f"{who} drew {self.deck.code(card)}, which can be played, so it is "
                    f"played at once ({rule_id})")
        if what is not None:
            return what
        chal = self._challenge_words(rule_id, who, hit, name, mover)
        if chal is not None:
            return chal
        if rule_id.startswith("START-"):
            return f"the start card {name} ({rule_id}) gives the turn to {mover}"
        drawn_word = "drawn " if drawn else ""
        if self.phase == RESPOND:
            return f"{who}'s {drawn_word}{name} takes effect ({rule_id})"
        if card is not None and self.f_effect[card].victim_draws:
            return (f"{who}'s {drawn_word}{name} made {hit} draw and lose the turn "
                    f"({rule_id}), so {mover} moves")
        return f"{hit} resolved {who}'s {name} ({rule_id}), so {mover} moves"

    def _challenge_words(self, rule_id: str, who: str, hit: str, name: str,
                         mover: str) -> str | None:
        """CHAL-2/3 in words (None for another rule): who drew how many is the outcome's
        to say, not the card's (an upheld challenge makes the offender draw)."""
        rules = self.rules
        outcome = {o.id: o for o in (rules.challenge_upheld, rules.challenge_failed)}.get(rule_id)
        if outcome is None:
            return None
        drew = " and ".join(f"{seat} drew {n}" for seat, n in ((who, outcome.offender_draws),
                                                               (hit, outcome.challenger_draws))
                            if n) or "nobody drew"
        return f"{hit} challenged {who}'s {name}: {drew} ({rule_id}), so {mover} moves"

    def _check_advise(self, action: Action, p: int, face: int | None) -> Refusal | None:
        if not self.rules.advice.enabled:
            return Refusal("ADVICE-1", "advice is not a penalty in these rules")
        if not self._can_draw(self.rules.advice.cards):
            return Refusal("EXT-SHORT", "not enough cards are left for the penalty")
        return None

    def _check_uno(self, action: Action, p: int, face: int | None) -> Refusal | None:
        uno = self.rules.uno
        if self.uno_window != p or not uno.say_before_accusation or not uno.enabled:
            return Refusal("UNO-1", f"{action.player} has no UNO left to say")
        return None

    def _check_catch(self, action: Action, p: int, face: int | None) -> Refusal | None:
        target = self.seat(action.target or "", "target")
        uno = self.rules.uno
        if not uno.enabled:
            return Refusal(uno.id, "nobody calls UNO in these rules")
        if target == p:
            return Refusal(uno.id, "a player cannot catch themself")
        window = self.uno_window
        if window is None:
            return Refusal(uno.id, f"{action.target} cannot be caught now: nobody has "
                           "played their next-to-last card without saying UNO since the "
                           "turn began")
        if window != target:
            return Refusal(uno.id, f"{action.target} cannot be caught now: only "
                           f"{self.names[window]} can, who played their next-to-last card "
                           "without saying UNO")
        held = len(self.hands[target])
        if uno.catch_only_with_one_card and held != uno.cards_left:
            return Refusal(uno.id, f"{action.target} cannot be caught now: they hold {held} "
                           f"cards, not {uno.cards_left}")
        if not self._can_draw(uno.penalty):
            return Refusal(self.rules.draw_what_is_left.id,
                           "not enough cards are left for the penalty")
        return None

    # ---------------------------------------------------------------- effects

    def _take(self, p: int, count: int, rule: str) -> None:
        """``p`` draws ``count`` cards under ``rule``, reshuffling when the pile runs out:
        the one place a card leaves the pile, each one the chance player's."""
        chance = self.chance
        chance.begin_draw(self, p, count, rule)
        hand = self.hands[p]
        taken = 0
        while taken < count:
            if not self.pile:
                self._reshuffle()
                if not self.pile:
                    break  # EXT-SHORT: what is left is drawn, the rest forgiven
            hand.append(chance.draw(self, p, rule))
            taken += 1
        if taken and self.uno_window == p:
            self.uno_window = None  # UNO-1: a hand grown back holds no forgotten UNO
        chance.end_draw(self, p, count, taken, rule)

    def _reshuffle(self) -> None:
        """RESHUFFLE-1: keep the top discard, shuffle the rest into a new pile."""
        keep = self.rules.reshuffle.keep_top and bool(self.discard)
        rest = self.discard[:-1] if keep else self.discard
        self.discard = self.discard[-1:] if keep else []
        self.chance.reshuffle(self, rest, self.rules.reshuffle.id)
        self.pile = rest

    def _begin_turn(self) -> None:
        """UNO-1: a turn begins when its player draws or takes a card to play;
        that closes any open UNO window."""
        self.uno_window = None

    def _do(self, kind: ActionType, p: int, face: int | None, color: int | None,
            target: int | None, uno: bool) -> None:
        """Run the handler of the action's type. A chain of tests rather than a table of
        functions: compiled (setup.py), each handler is then a direct call, where calling a
        function taken from a dict boxed every argument, on every step."""
        if kind is _PLAY:
            self._do_play(p, face, color, uno)
        elif kind is _DRAW:
            self._do_draw(p)
        elif kind is _PASS:
            self._do_pass(p)
        elif kind is _ACCEPT:
            self._do_accept(p)
        elif kind is _CHALLENGE:
            self._do_challenge(p)
        elif kind is _UNO:
            self._do_uno()
        elif kind is _CATCH:
            self._do_catch(target)
        elif kind is _CHOOSE_COLOR:
            self._do_choose_color(color)
        elif kind is _MISPLAY:
            self._do_misplay(p)
        else:
            assert kind is _ADVISE, kind  # check_action admits only the ten types
            self._do_advise(p)

    def _do_play(self, p: int, face: int | None, color: int | None, uno: bool) -> None:
        assert face is not None
        answering = self.phase == RESPOND
        self._from_drawn = self.phase == DRAWN
        self._begin_turn()
        hand = self.hands[p]
        hand.remove(face)
        effect = self.f_effect[face]
        if effect.victim_may_challenge:
            self.wd4_legal = self._wd4_is_legal(hand)
            self.prev_color = self.color
        self.discard.append(face)
        self.color = color if effect.chooses_color else self.f_color[face]
        self.drawn = None
        if len(hand) == self.rules.uno.cards_left and not uno and self.rules.uno.enabled:
            self.uno_window = p  # UNO-1 off: no call, so no window
        if not hand and self.winner is None:
            self.winner = p  # went out first; wins when the draws are resolved (END-1)
            stack = self.rules.no_stacking
            if effect.victim_draws and (
                    not self.rules.end_of_round.resolve_final_draw
                    # amended: EXT-LAST off, a last card stacking could answer
                    or (stack.victim_may_answer and effect.kind in stack.answers
                        and not self.rules.last_draw_card_drawn.enabled)):
                self._end_round(p)  # END-1 switched off: nobody draws, the round is over
                return
        self._card_effect(p, effect, self.pending if answering else 0)

    def _card_effect(self, p: int, effect: CardEffect, carried: int) -> None:
        """SKIP-1, REV-1, D2-1, WILD-1, WD4-2, TWO-1, NOSTACK-1 and END-1, from the table."""
        skips = effect.skips
        cause: str | None = effect.id if skips else None  # SKIP-1 (D2-1 below)
        if effect.reverses:
            if self.rules.reverse_is_skip(self.n):
                skips += 1
                cause = self.rules.two_players.id
            else:
                self.direction = -self.direction
        victim = (p + self.direction) % self.n  # _next, inlined: this runs every play
        face = self.discard[-1]
        if effect.victim_draws:
            stack = self.rules.no_stacking
            if effect.victim_may_challenge or (stack.victim_may_answer
                                               and effect.kind in stack.answers):
                self.phase = RESPOND
                self.turn = victim
                self.pending = carried + effect.victim_draws
                self.pending_kind = effect.kind
                self.offender = p
                self.cause = (effect.id, p, face, victim, self._from_drawn)
                return
            self._take(victim, effect.victim_draws, effect.id)
            cause = effect.id
        self.turn = (p + (1 + skips) * self.direction) % self.n
        self.phase = PLAY
        self.cause = None if cause is None else (cause, p, face, victim, self._from_drawn)
        if self.winner is not None:
            self._round_end_check()

    def _do_draw(self, p: int) -> None:
        self._begin_turn()
        before = len(self.hands[p])
        self._take(p, self.rules.draw.cards, self.rules.draw.id)
        self.drawn = self.hands[p][-1] if len(self.hands[p]) > before else None
        self.phase = DRAWN
        self.cause = (self.rules.draw.id, p, self.drawn, p, False)

    def _do_pass(self, p: int) -> None:
        self.cause = None
        self.drawn = None
        self.phase = PLAY
        self.turn = self._next(p)

    def _do_accept(self, p: int) -> None:
        """WD4-2 / D2-1 under stacking: the victim draws what is pending and loses the turn."""
        card = self._penalty_card()
        rule = self.f_effect[card].id
        self._take(p, self.pending, rule)
        self._was_caused_by(rule, p, card)
        self._resolved(p, keeps_turn=False)

    def _do_challenge(self, p: int) -> None:
        """CHAL-1..4: the hand is shown to the challenger; the table says who draws."""
        offender = self.offender
        assert offender is not None
        if self.rules.hidden.challenge_shows_hand_to_challenger:
            self.reveal = (p, offender, tuple(sorted(self.hands[offender])))
        outcome = self.rules.challenge_failed if self.wd4_legal else self.rules.challenge_upheld
        card = self._penalty_card()
        self._take(offender, outcome.offender_draws, outcome.id)
        self._take(p, outcome.challenger_draws, outcome.id)
        if not self.rules.challenge_color.named_color_stays:
            self.color = self.prev_color
        self._was_caused_by(outcome.id, p, card)
        self._resolved(p, keeps_turn=outcome.challenger_keeps_turn)

    def _penalty_card(self) -> int:
        """The draw card an accept or a challenge resolves, for the words of its cause: a
        card of the pending kind (the words name only its kind).

        Not the discard's top: RESHUFFLE-1 without keep_top shuffles the whole discard back,
        that card too, when a draw empties the pile (this penalty's, or a catch's or an
        advice's while it waits); the pending kind stays, in the state and in its text
        (whose reader refuses a respond phase without one, WD4-2)."""
        kind = self.pending_kind
        assert kind is not None
        return self.f_kind.index(kind)

    def _was_caused_by(self, rule_id: str, victim: int, card: int) -> None:
        offender = self.offender
        assert offender is not None  # set with the respond phase (the text reader: WD4-2)
        self.cause = (rule_id, offender, card, victim, False)

    def _resolved(self, victim: int, keeps_turn: bool) -> None:
        self.pending = 0
        self.pending_kind = None
        self.offender = None
        self.phase = PLAY
        self.turn = victim if keeps_turn else self._next(victim)
        self._round_end_check()

    def _do_uno(self) -> None:
        self.uno_window = None

    def _do_catch(self, target: int | None) -> None:
        assert target is not None
        self._take(target, self.rules.uno.penalty, self.rules.uno.id)
        self.uno_window = None

    def _do_choose_color(self, color: int | None) -> None:
        self.color = color
        self.phase = PLAY

    def _do_misplay(self, p: int) -> None:
        """MISPLAY-1: the card goes back to the hand, penalty cards, the turn passes."""
        self._begin_turn()
        self._take(p, self.rules.misplay.cards, self.rules.misplay.id)
        self.drawn = None
        if self.rules.misplay.turn_passes:
            self.phase = PLAY
            self.turn = self._next(p)
            self.cause = (self.rules.misplay.id, p, None, p, False)

    def _do_advise(self, p: int) -> None:
        self._take(p, self.rules.advice.cards, self.rules.advice.id)

    # ----------------------------------------------------------- round's end

    def _round_end_check(self) -> None:
        """END-1: the player who went out wins once every draw is resolved; if a challenge
        sent cards back to them, the round goes on."""
        w = self.winner
        if w is None:
            return
        if self.hands[w]:
            self.winner = None
            return
        self._end_round(w)

    def _end_round(self, winner: int) -> None:
        """SCORE-1/2: the winner scores the cards left in the other hands."""
        points = self.deck.points
        self.round_points = sum(points[c] for h in self.hands for c in h)
        self.winner = winner
        self.scores[winner] += self.round_points
        self.phase = OVER
        self.uno_window = None

    def next_round(self) -> None:
        """END-2: shuffle everything and deal again; the table says who deals."""
        if self.phase != OVER:
            raise IllegalActionError("the round is not over", "END-2", self.to_text())
        if self.game_over:
            raise IllegalActionError("the game is over", "SCORE-2", self.to_text())
        assert self.winner is not None
        if self.rules.next_round.next_dealer is NextDealer.WINNER:
            self.dealer = self.winner
        else:
            self.dealer = (self.dealer + 1) % self.n
        self.round += 1
        self._start_round(None)

    # ------------------------------------------------------------------- views

    def view(self, player: Checked) -> PlayerView:
        """HIDDEN-1: own hand, hand sizes of all; the challenger alone sees the hand (CHAL-1)."""
        p = self.seat(player)
        revealed = None
        if self.reveal is not None and self.reveal[0] == p:
            revealed = (self.names[self.reveal[1]], tuple(self._sorted_codes(self.reveal[2])))
        return PlayerView(
            player=player, hand=tuple(self._sorted_codes(self.hands[p])),
            hand_sizes={n: len(h) for n, h in zip(self.names, self.hands, strict=True)},
            top=self.deck.code(self.top) if self.top is not None else None,
            color=self._color_name(self.color),
            direction="left" if self.direction == 1 else "right",
            to_play=self.to_play, phase=self.phase, draw_pile=len(self.pile),
            scores=dict(zip(self.names, self.scores, strict=True)),
            uno_pending=self.names[self.uno_window] if self.uno_window is not None else None,
            revealed=revealed)

    def _color_name(self, color: int | None) -> str | None:
        return self.deck.colors[color].value if color is not None else None

    def state_json(self) -> dict[str, Any]:
        """The state as JSON (what ``unoformal replay --json`` prints)."""
        return {
            "rules": self.rules.name, "players": list(self.names),
            "dealer": self.names[self.dealer], "round": self.round,
            "to_play": self.to_play, "phase": self.phase,
            "direction": "left" if self.direction == 1 else "right",
            "color": self._color_name(self.color),
            "top": self.deck.code(self.top) if self.top is not None else None,
            "hands": {n: self._sorted_codes(h) for n, h in zip(self.names, self.hands,
                                                                 strict=True)},
            "draw_pile": len(self.pile), "discard_pile": len(self.discard),
            "uno_pending": self.names[self.uno_window] if self.uno_window is not None else None,
            "round_over": self.round_over,
            "winner": self.names[self.winner] if self.round_over and self.winner is not None
            else None,
            "round_points": self.round_points if self.round_over else 0,
            "scores": dict(zip(self.names, self.scores, strict=True)),
            "game_over": self.game_over, "game_winner": self.game_winner,
            "text": self.to_text(),
        }

    # -------------------------------------------------------------- text form

    def to_text(self) -> str:
        """The canonical one-line form of the whole state (see :mod:`.text`)."""
        from tests.reference.engine_v1.text import state_to_text
        return state_to_text(self)

    @classmethod
    def from_text(cls, text: Checked, rules: Checked = None) -> Game:
        from tests.reference.engine_v1.text import state_from_text
        return state_from_text(text, rules)

    def copy(self) -> Game:
        """An independent copy (history shared as a new list)."""
        cls = type(self)
        return self.copy_into(cls.__new__(cls))

    def copy_into(self, new: Game) -> Game:
        """``new`` (a fresh instance, not initialised) made an independent copy of this game.

        Every field is named: a class compiled by mypyc keeps its fields in slots, not in a
        ``__dict__``; a Python subclass's own fields are in its ``__dict__``, copied first
        (tests/engine/test_copy.py checks that no field is missed)."""
        # Not getattr(self, "__dict__", None): compiled, a missing attribute builds an
        # AttributeError before the default is returned, which cost a third of each copy.
        if type(self).__dictoffset__:
            new.__dict__.update(self.__dict__)
        new.rules, new.deck, new.t, new.names, new.n = (self.rules, self.deck, self.t,
                                                        self.names, self.n)
        new.f_kind, new.f_color, new.f_rank = self.f_kind, self.f_color, self.f_rank
        new.f_effect, new.wd4_legal = self.f_effect, self.wd4_legal
        new.seed, new.shuffles, new.round, new.dealer = (self.seed, self.shuffles,
                                                         self.round, self.dealer)
        new.origin, new.dealer_draws = self.origin, self.dealer_draws
        new.hands = [list(h) for h in self.hands]
        new.pile = list(self.pile)
        new.discard = list(self.discard)
        new.scores = list(self.scores)
        new.history = list(self.history)
        new.turn, new.direction, new.color, new.prev_color = (self.turn, self.direction,
                                                               self.color, self.prev_color)
        new.phase, new.drawn, new.pending, new.pending_kind = (self.phase, self.drawn,
                                                               self.pending, self.pending_kind)
        new.offender, new.reveal, new.uno_window = self.offender, self.reveal, self.uno_window
        new.winner, new.round_points = self.winner, self.round_points
        new.cause, new._from_drawn = self.cause, self._from_drawn
        new.chance = self.chance.fork()
        new._legal = None  # a copy checks its first action itself
        return new

    def __repr__(self) -> str:
        return f"Game({self.to_text()!r})"


def _check_players(players: Sequence[str], rules: RuleTable) -> list[str]:
    """DECK-2's range, and names the text form carries (:func:`unoformal.inputs.check_name`)."""
    return check_players(players, rules.players.minimum, rules.players.maximum)



# The phase in which an on-turn action that belongs to one phase only is allowed.
_PHASE_OF = {ActionType.CHOOSE_COLOR: COLOR, ActionType.ACCEPT: RESPOND,
             ActionType.CHALLENGE: RESPOND}

_CHECKS = {
    ActionType.ADVISE: Game._check_advise,
    ActionType.UNO: Game._check_uno,
    ActionType.CATCH: Game._check_catch,
}


@dataclass
class _Lookups:
    """Everything about a (table, players) pair that does not change during play."""

    kind: list[Kind]
    wild: list[bool]
    color: list[int | None]
    rank: list[int | None]
    effect: list[CardEffect]
    seats: dict[str, int]
    draw: list[Action]
    pass_: list[Action]
    accept: list[Action]
    challenge: list[Action]
    uno: list[Action]
    advise: list[Action]
    catch: list[list[Action]]
    choose_color: list[list[Action]]
    misplay: list[list[Action]]
    plays: list[list[tuple[list[Action], list[Action]]]]
    resolved: dict[Action, tuple[int, int | None, int | None, int | None]]
    match_rows: dict[tuple[int | None, int | None], list[bool]]
    # When every effect can be carried out (EXT-SHORT) and bluffs are playable (WD4-1), a
    # legal play on a normal turn is exactly a matching card: the fast path in _on_turn.
    play_is_match: bool
    uno_with: int  # UNO-1: the hand size at which playing a card may carry "UNO"
    wd4_blocks: Said  # WD4-1, stated for this table
    cards: tuple[int, ...]  # the deck in canonical order, what every deal shuffles (DEAL-2)


_LOOKUPS: dict[tuple[int, tuple[str, ...]], tuple[RuleTable, _Lookups]] = {}


def _lookups(rules: RuleTable, deck: Deck, names: tuple[str, ...]) -> _Lookups:
    key = (id(rules), names)
    hit = _LOOKUPS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    faces = deck.faces
    ci = deck.color_index
    codes = [f.code for f in faces]
    colors = [c.value for c in deck.colors]
    effects = [rules.effect(f.kind) for f in faces]
    say_with_card = rules.uno.say_with_card and rules.uno.enabled

    def plays(name: str, face: int) -> tuple[list[Action], list[Action]]:
        named: list[str | None] = list(colors) if effects[face].chooses_color else [None]
        one = [Action(name, ActionType.PLAY, codes[face], c) for c in named]
        two = [Action(name, ActionType.PLAY, codes[face], c, uno=u) for c in named
               for u in ((False, True) if say_with_card else (False,))]
        return one, two

    table = _Lookups(
        kind=[f.kind for f in faces], wild=[f.kind.is_wild for f in faces],
        color=[ci[f.color] if f.color is not None else None for f in faces],
        rank=[f.rank for f in faces], effect=effects,
        seats={name: i for i, name in enumerate(names)},
        draw=[Action(name, ActionType.DRAW) for name in names],
        pass_=[Action(name, ActionType.PASS) for name in names],
        accept=[Action(name, ActionType.ACCEPT) for name in names],
        challenge=[Action(name, ActionType.CHALLENGE) for name in names],
        uno=[Action(name, ActionType.UNO) for name in names],
        advise=[Action(name, ActionType.ADVISE) for name in names],
        catch=[[Action(name, ActionType.CATCH, target=t) for t in names] for name in names],
        choose_color=[[Action(name, ActionType.CHOOSE_COLOR, color=c) for c in colors]
                      for name in names],
        misplay=[[Action(name, ActionType.MISPLAY, code) for code in codes] for name in names],
        plays=[[plays(name, face) for face in range(len(faces))] for name in names],
        resolved={}, match_rows={},
        play_is_match=rules.draw_what_is_left.enabled and rules.wd4_legality.bluff_playable,
        uno_with=rules.uno.says_with, cards=tuple(deck.cards()),
        wd4_blocks=wd4_blocks(rules))
    if len(_LOOKUPS) > 256:
        _LOOKUPS.clear()
    _LOOKUPS[key] = (rules, table)
    return table
