"""The engine: a game state that plays and referees by interpreting the rule table.

The API follows python-chess and OpenSpiel: a :class:`Game` from players, a seed
and a rule table; :meth:`Game.legal_actions`; :meth:`Game.apply`; a per-player
:meth:`Game.view`; :attr:`Game.round_over` / :attr:`Game.game_over` and their
outcome; a canonical text form (:meth:`Game.to_text` / :meth:`Game.from_text`).

Every value that decides play comes from the table: which cards match, what each
kind does, how many cards a penalty costs, who deals. Code here only sequences
those values; rule IDs in comments name the entry being interpreted.
"""

from __future__ import annotations

import _random
import dataclasses
import hashlib
import random
from collections.abc import Iterable, MutableSequence, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final, TypeVar

from mypy_extensions import mypyc_attr

from unoformal.engine.actions import Action, ActionType, check_action, check_readable
from unoformal.engine.text import read_state, state_to_text
from unoformal.errors import IllegalActionError, InvalidInputError
from unoformal.inputs import check_name, check_seed, show
from unoformal.language import conditions
from unoformal.language.cards import Said
from unoformal.language.commands import Command, in_phase
from unoformal.language.conditions import Cond, Conjunct, DrawnOnly, Matches, Unanswering
from unoformal.language.protocols import Binding, Concrete, Who
from unoformal.rulebook.cards import Color, Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import (
    CLASSIC,
    CardEffect,
    Leaves,
    LeaveTies,
    Partners,
    RuleTable,
    partner_of,
)
from unoformal.rulebook.words import KIND_NAMES
from unoformal.rules.challenge import wd4_blocks, wd4_excuses
from unoformal.rules.deal import dealing
from unoformal.rules.effects import answers_to, deflected_by
from unoformal.rules.play import Plays
from unoformal.rules.play import plays as card_plays
from unoformal.rules.respond import Responses, responses
from unoformal.rules.start import starts
from unoformal.rules.state import (
    COLOR,
    DRAWN,
    MORE,
    OVER,
    PHASES,
    PLAY,
    RESPOND,
    START,
    check_names,
)
from unoformal.rules.turn import Turn, turn
from unoformal.rules.uno import OutOfTurn, out_of_turn

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
_JUMP_PHASES: Final = (PLAY, RESPOND)

# An argument of the public API that the body checks and refuses in words
# (InvalidInputError, naming the rule). Typed Any rather than the type it must have: the
# compiled engine (setup.py) checks annotated types itself, with a bare TypeError.
Checked = Any


# The build compiles this module with mypyc where it can (setup.py). mypyc cannot build a
# native subclass of random.Random, so the shuffler stays a Python class.
@mypyc_attr(native_class=False)
class _Random(random.Random):
    """``random.Random`` with the standard library's own shuffle, written out: Fisher-Yates
    from the last card down, each index drawn by rejection from ``getrandbits`` as
    ``Random._randbelow`` draws it, so every shuffle puts the cards in exactly the order
    ``random.shuffle`` does (tests compare them), without a Python call per card: a third
    of a deal's time."""

    gauss_next: float | None  # random.Random's own, which its seed() resets

    def shuffle(self, x: MutableSequence[Any]) -> None:
        getrandbits = self.getrandbits
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]


def _generator(key: str) -> _Random:
    """``Random(key)``: the generator seeded exactly as ``random.seed`` seeds one from a
    string (version 2: the text's bytes, then their SHA-512, read as one big-endian
    integer), without the Python layers of ``Random.__init__`` and ``Random.seed`` around
    the C seeding: a reshuffle builds one, and under uniform play at ten players those
    layers were a twentieth of the engine's time."""
    rng: _Random = _Random.__new__(_Random)
    data = key.encode()
    _SEED(rng, int.from_bytes(data + hashlib.sha512(data).digest(), "big"))
    rng.gauss_next = None  # as Random.seed leaves it
    return rng


_SEED: Final = _random.Random.seed


# Python subclasses (stated chance, the observers, tests) are allowed; the explorer's
# policy is compiled with the engine.
@mypyc_attr(allow_interpreted_subclasses=True)
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
        rng = _generator(f"{game.seed}/{game.shuffles}")
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
        _generator(f"{game.seed}/{game.shuffles}").shuffle(cards)
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
    # HIDDEN-1's open_below: the other hands shown to every player (a house rule)
    shown: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # END-2's elimination, MERCY (house rules): who has left the game, or is knocked out
    # of the round, in the order they left
    out: tuple[str, ...] = ()


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
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(Concrete):
    """A game of UNO under one rule table, from the first deal to game over."""

    # ``cause`` (Concrete's): the last effect that moved the turn or set the phase other
    # than a plain play; refusals name it as their cause.
    # The actions legal_actions() last listed for this very state (None once anything
    # changed): apply() accepts one of them without deriving its legality again.
    _legal: tuple[Action, ...] | None = None
    # While _on_turn asks DRAW-1's draw of the seat whose plays it has just listed: that
    # seat times 2, plus 1 if it listed a play. CanPlay (``_can_play_any``) then reads it
    # instead of going over the hand a second time. -1 at every other moment.
    _plays_listed: int = -1
    # The same for the card just drawn (DRAW-1): while _on_turn lists the moves after a
    # draw, the seat times 2, plus 1 if the drawn card may be played, as its play's listing
    # found. A rule file's draw and keep ask it again (HOUSE-DRAW-UNTIL's drawn-playable,
    # through ``_can_play``), which then reads it. -1 at every other moment.
    _drawn_listed: int = -1
    # The match row and WD4-1's row last looked up, with the (color, top) each was for as
    # one int (``_row_key``): a listing asks for them once per card, and a tuple and a
    # dict lookup each time cost more than the cards' conjuncts. -1: none yet.
    _match_key: int = -1
    _match: list[bool] | None = None
    _block_key: int = -1
    _block: list[bool] | None = None
    # ``ran`` (Concrete's), coverage: while a list, every move appends the (rule, branch)
    # labels of what ran in it (the commands' Shows, Sorts and When; a reshuffle, a short
    # draw). The explorer and the step-by-step page set it.
    # Coverage of this round's deal: what turning the start card ran (START-*, DEAL-3 ...).
    started: tuple[tuple[str, str], ...] = ()

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
        self.names = check_readable(check_names(players, rules))
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
        self.out: tuple[int, ...] = ()
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
        """DEAL-2: a round dealt (as given, or shuffled), then its start card turned."""
        self._reset_round()
        if deal is not None:
            self._deal_given(deal)
        else:
            self._deal_shuffled(self.rules.deal.hand_size)
        self._turn_start_card()

    def _reset_round(self) -> None:
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
        # RESHUFFLE-1 read split, as a record states it (unoformal.engine.chance): the
        # pile's bottom cards that are the other half (0: one pile). No part of the state
        # text: the game's own chance keeps one pile, and so does every reader of it.
        self.pile_lower = 0
        self.reveal: tuple[int, int, tuple[int, ...]] | None = None
        self.winner: int | None = None
        self.round_points = 0
        self.cause = None

    def _deal_next(self, cards: int) -> None:
        """The ``Deal`` primitive (END-2's next round): everything shuffled and dealt."""
        self.round += 1
        self._reset_round()
        self._deal_shuffled(cards)

    def _deal_shuffled(self, size: int) -> None:
        """DEAL-2: shuffle, ``size`` cards each, one at a time from the dealer's left."""
        cards = list(self.t.cards)
        seats = self.seated_from(self.dealer)
        if len(cards) <= size * len(seats):
            raise InvalidInputError(f"{len(seats)} hands of {size} need more than the "
                                    f"deck's {len(cards)} cards", "DEAL-2")
        self.chance.shuffle(self, cards, self.rules.deal.id)
        for _ in range(size):
            for p in seats:
                self.hands[p].append(cards.pop())
        self.pile, self.pile_lower = cards, 0

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
        for p, name in enumerate(self.names):  # MERCY: no deal gives a hand it knocks out
            why = self.rules.mercy.too_many(len(self.hands[p]))
            if why is not None:
                raise InvalidInputError(f"deal.hands.{name}: {why}, so no deal gives one",
                                        self.rules.mercy.id)
        pile = self._codes(deal.get("draw_pile", []), "deal.draw_pile")
        if not pile:
            raise InvalidInputError("deal.draw_pile is empty: no start card to turn", "DEAL-2")
        self.pile, self.pile_lower = pile[::-1], 0
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
        """DEAL-2/3 and START-*: turn the start card and apply its start rule. What that
        ran is always counted (``started``: once a round, so it costs nothing)."""
        self.chance.dealt(self)
        ran, self.ran = self.ran, []
        try:
            self._start_card()
        finally:
            started, self.ran = self.ran, ran
        self.started = tuple(started)
        if ran is not None:
            ran.extend(started)
        self.chance.close(self, self.rules.deal.id)

    def _start_card(self) -> None:
        """DEAL-2/3, START-* and EXT-START: the start command of the kind on top of the
        pile (unoformal.rules.start), made again while it sends the card back (START-WD4
        turns another card)."""
        starts = self._run().starts
        while not self.discard:
            card = self.pile[-1]
            starts[self.f_kind[card]].run(self, Binding(self.dealer, card=card))

    def _turn_up(self, face: int) -> None:
        """The ``TurnUp`` primitive: the top of the pile onto the discard."""
        card = self.pile.pop()
        assert card == face, "the start command is made for the card on top of the pile"
        self.discard.append(card)

    def _turn_again(self, rule: str) -> None:
        """The ``TurnAgain`` primitive: the pile, the card on top, shuffled by chance."""
        self.chance.turn_again(self, self.pile, rule)

    def _start_at(self, seats: int, direction: int, face: int) -> None:
        """The ``StartAt`` primitive: who plays first, which way, on which color."""
        self.direction = direction
        self.turn = self._around(self.dealer, seats)
        self.color = self.f_color[face]
        self.phase = PLAY

    def _note_start(self, rule: str, face: int) -> None:
        self.cause = (rule, self.dealer, face, self.turn, False)

    def _random_color(self, rule: str) -> None:
        self.color = self.chance.color(self, rule)

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
        """SCORE-2: someone has reached the target; or (END-2's elimination) one player is
        left in the game."""
        return self.phase == OVER and (max(self.scores) >= self.rules.target.score
                                       or (len(self.out) == self.n - 1
                                           and self.rules.next_round.leaves
                                           is not Leaves.NONE))

    @property
    def won_by_elimination(self) -> bool:
        """END-2's elimination: the game is over with one player left, nobody having
        reached the target (SCORE-2)."""
        return self.game_over and max(self.scores) < self.rules.target.score

    @property
    def game_winner(self) -> str | None:
        if not self.game_over:
            return None
        if self.won_by_elimination:  # the one player left
            return self.names[self.seated_from(0)[-1]]
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
        if not self.out:  # nobody is out (every table but END-2's and MERCY's): no call
            return (seat + steps * self.direction) % self.n
        return self._around(seat, steps * self.direction)

    def _around(self, seat: int, steps: int) -> int:
        """The seat ``steps`` seats on from ``seat`` (to the left when positive), over the
        players still in (END-2's elimination, MERCY)."""
        if not self.out:
            return (seat + steps) % self.n
        way = 1 if steps > 0 else -1
        for _ in range(abs(steps)):
            seat = (seat + way) % self.n
            while seat in self.out:
                seat = (seat + way) % self.n
        return seat

    def seated_from(self, seat: int) -> list[int]:
        """The players still in the game (every seat but END-2's seats out), from the one
        to ``seat``'s left round to ``seat``: the order of a deal."""
        n = self.n
        return [(seat + k) % n for k in range(1, n + 1) if (seat + k) % n not in self.out]

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

    def _row_key(self) -> int:
        """(color, top) as one int, what the match row and WD4-1's row depend on."""
        color, discard = self.color, self.discard
        return ((color + 1 if color is not None else 0) << 16) \
            + (discard[-1] + 1 if discard else 0)

    def _match_row(self) -> list[bool]:
        """PLAY-1 for every face at once; it depends only on (color, top), so it is cached."""
        at = self._row_key()
        row = self._match
        if at == self._match_key and row is not None:
            return row
        key = (self.color, self.discard[-1] if self.discard else None)
        row = self.t.match_rows.get(key)
        if row is None:
            row = [self._matches(face) for face in range(len(self.f_kind))]
            self.t.match_rows[key] = row
        self._match_key, self._match = at, row
        return row

    def _wd4_is_legal(self, hand: Iterable[int]) -> bool:
        """WD4-1, on the hand left after playing it (another wild card held excuses it
        where the table's house rule says so: ``wild_excuses``)."""
        cards = list(hand)
        excused = self.t.wd4_excused
        if excused is not None and any(excused[c] for c in cards):
            return True
        return not any(self._wd4_blocks(c) for c in cards)

    def _wd4_blocks(self, face: int) -> bool:
        """WD4-1 (``unoformal.rules.challenge``): holding ``face`` makes a Wild Draw Four
        illegal."""
        return self._block_row()[face]

    def _block_row(self) -> list[bool]:
        """WD4-1's statement for every face at once. A statement of the rule language reads
        only the faces, the current color and PLAY-1's match (``language.cards.Concrete``), so
        it depends only on (color, top), as the match row: it is cached the same way."""
        at = self._row_key()
        row = self._block
        if at == self._block_key and row is not None:
            return row
        key = (self.color, self.discard[-1] if self.discard else None)
        row = self.t.block_rows.get(key)
        if row is None:
            said = self.t.wd4_blocks
            row = [said.holds(self, face) for face in range(len(self.f_kind))]
            self.t.block_rows[key] = row
        self._block_key, self._block = at, row
        return row

    def _wd4_legal_without(self, p: int, face: int) -> bool:
        """WD4-1: no card left in ``p``'s hand once ``face`` is played makes a Wild Draw
        Four illegal (what ``_wd4_blocking`` names, without building its words)."""
        row, excused = self._block_row(), self.t.wd4_excused
        skipped = blocked = False
        for card in self.hands[p]:
            if card == face and not skipped:
                skipped = True
            elif excused is not None and excused[card]:
                return True  # WD4-1's house rule: another wild card held makes it legal
            elif row[card]:
                if excused is None:
                    return False
                blocked = True
        return not blocked

    def _can_play_any(self, p: int) -> bool:
        """Whether ``p`` holds a card they may play now (``_can_play``)."""
        known = self._plays_listed
        if known >= 0 and known >> 1 == p:
            return known & 1 == 1
        matching = self._matching()
        return any(self._may_play(p, face, matching) for face in set(self.hands[p]))

    def _matching(self) -> list[bool] | None:
        """The match row where a card that does not match is no play (every phase but an
        answer to a draw card), else None: what :meth:`_may_play` is given."""
        return self._match_row() if self.phase != RESPOND else None

    def _may_play(self, p: int, face: int, matching: list[bool] | None) -> bool:
        """``_can_play``, a card that does not match passed over without asking its other
        conjuncts where its command's Matches conjunct would refuse it (``matching``: from
        :meth:`_matching`)."""
        return self._may_match(face, matching) and self._can_play(p, face)

    def _may_match(self, face: int, matching: list[bool] | None) -> bool:
        """Whether ``face`` is not passed over for not matching (``_may_play``); answering a
        draw card (``matching`` None), for being of a kind the phase refuses (NOSTACK-1: a
        few kinds answer, where most of a hand is refused by the phase alone)."""
        if matching is None:
            return self.t.playable_in_respond[face] is not None
        return matching[face] or not self.t.must_match[face]

    def _wd4_blocking(self, p: int, face: int) -> str | None:
        """WD4-1 in the words of the table's reading, naming the card that makes a Wild
        Draw Four ``face`` illegal (the lowest such card: the same words however the hand
        is ordered); None when no card does."""
        rest = list(self.hands[p])
        rest.remove(face)
        held = [c for c in rest if self._wd4_blocks(c)]
        if not held or self._wd4_is_legal(rest):
            return None
        top = self.deck.code(self.top) if self.top is not None else "-"
        return self.t.wd4_blocks.words(card=self.deck.code(min(held)), top=top,
                                       color=self._color_name(self.color) or "-")

    def _can_play(self, p: int, face: int) -> bool:
        """Whether ``p`` may play ``face`` from their hand now: the play command's
        ``playable`` conjuncts for the card's kind (unoformal.rules.play)."""
        known = self._drawn_listed
        if known >= 0 and known >> 1 == p and face == self.drawn:
            return known & 1 == 1
        t = self.t
        phase = self.phase
        # the conjuncts reduced for the phase (``in_phase``): while a draw card waits,
        # most kinds are refused by the phase alone (NOSTACK-1), before any is asked
        if phase == PLAY:
            parts = t.playable_in_play[face]
        elif phase == RESPOND:
            parts = t.playable_in_respond[face]
        elif phase == DRAWN:
            parts = t.playable_in_drawn[face]
        else:
            parts = t.playable[face]
        if parts is None:
            return False
        return self._all_hold(parts, p, face)

    def _all_hold(self, parts: tuple[Conjunct, ...], p: int, face: int) -> bool:
        """Whether every one of ``parts`` holds of ``p`` playing ``face``."""
        return self._all_bound(parts, Binding(p, None, None, face))

    def _all_bound(self, parts: tuple[Conjunct, ...], b: Binding) -> bool:
        """Whether every one of ``parts`` holds of the move ``b`` binds."""
        for part in parts:  # noqa: SIM110 - compiled, a loop beats all()
            if not part.cond.holds(self, b):
                return False
        return True

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
                      penalties: Checked = True) -> list[Action]:
        """Every legal action of ``player`` (of all players when None), including
        out-of-turn ones (UNO, catch, advice). ``penalties=False`` leaves out the actions
        that only exist to be penalised (MISPLAY-1, ADVICE-1), as bots want. The
        arguments are checked first, whatever the phase: a name that is no player's is
        refused after the round as during it."""
        seat = None if player is None else self.seat(player)
        if not isinstance(penalties, bool):
            raise InvalidInputError(f"penalties {show(penalties)}: expected True or False",
                                    key="penalties")
        if self.phase == OVER or self.phase == START:
            return []
        return self._listed(seat, penalties)

    def _listed(self, seat: int | None, penalties: bool) -> list[Action]:
        """:meth:`legal_actions` of a seat (every seat's when None) in a round under way."""
        moves = self.t.out_of_turn
        # ADVICE-1's guard names no seat: it holds for every adviser or for none.
        advise = penalties and moves.advise.allows(self, Binding(self.turn))
        target = self.uno_window
        jump: Command | None = None
        # a jump waits for the play phase, or (JUMP-IN's "adds") joins a draw card that
        # waits: the jump's guard says which
        top = self.top if self.t.jumps and self.phase in _JUMP_PHASES else None
        twin = -1  # the top's face while a jump may be listed: an int, compared unboxed
        aimed = False
        if top is not None:
            jump = self.t.jump[top]
            twin = top
            aimed = self.t.aim[top] is not None
        out: list[Action] = []
        if advise or target is not None or jump is not None:
            turn, hands = self.turn, self.hands
            others = advise or target is not None  # else only a jump is asked of the others
            first, last = (0, self.n) if seat is None else (seat, seat + 1)
            gone = self.out  # END-2's seats out have no move (empty but for elimination)
            for p in range(first, last):  # compiled, a range of ints is a C loop
                if gone and p in gone:
                    continue
                if others:
                    self._out_of_turn(p, out, advise, moves)
                if p == turn:
                    self._on_turn(p, out, penalties)
                elif jump is not None and _holds(hands[p], twin) \
                        and (aimed or jump.allows(self, Binding(p, card=twin))):
                    # a jump that names a seat (SEVEN-O's 7) is asked seat by seat: with
                    # no seat named, "the next player only" holds for none
                    self._add_plays(out, p, twin, len(hands[p]) == self.t.uno_with)
        elif seat is None or seat == self.turn:
            self._on_turn(self.turn, out, penalties)  # nobody else has an action
        self._legal = tuple(out)
        return out

    def _add_plays(self, out: list[Action], p: int, face: int, with_uno: bool) -> None:
        """``p``'s plays of ``face`` (each color, and UNO said or not where it may be),
        appended to ``out``. A play that names a seat (``_Aim``) is listed only for the
        seats its command's guard allows, by the state (SEVEN-O's ``next`` reading: the
        next player only): the lookups list every other player."""
        t = self.t
        aim = t.aim[face]
        if aim is None:
            out += t.plays[p][face][with_uno]
            return
        # What refusal() would ask of each listed play, without resolving the action
        # from its text nor putting a refusal into words (most seats are refused under
        # ``next``): on turn the card's play, out of turn its jump (a play out of turn
        # with no jump is refused, PLAY-1). The conjuncts that read no target are asked
        # once per UNO call: they cannot tell the seats apart (``failing_of`` then asks
        # the branch a split command does not have: nothing).
        on_turn = p == self.turn
        command = t.play[face] if on_turn else t.jump[face]
        if command is None:
            return
        shared, aimed = (aim.play if on_turn else aim.jump)
        plays = t.plays[p][face][with_uno]
        binds = t.aim_binds[p][face][with_uno]
        said = [-1, -1]  # per UNO call (False, True): the shared conjuncts unknown/fail/hold
        for i in range(len(plays)):
            target, uno = binds[i]
            if self.out and target in self.out:
                continue  # END-2: a player who has left the game is nobody's target
            b = Binding(p, target, None, face, None, uno)
            if aimed is None:  # a guard with branches: asked whole, as refusal() asks it
                if command.failing(self, b) is None:
                    out.append(plays[i])
                continue
            u = 1 if uno else 0
            if said[u] < 0:
                said[u] = 1 if command.failing_of(shared, self, b) is None else 0
            if said[u] == 1 and command.failing_of(aimed, self, b) is None:
                out.append(plays[i])

    def _on_turn(self, p: int, out: list[Action], penalties: bool) -> None:
        """The moves of the player to move: the table's on-turn commands whose guards the
        phase leaves possible (``_Lookups.menu``, derived from the guards once per table),
        each asked with its guard reduced for the phase, in the commands' order. A guard
        a house rule changes changes what is listed; nothing here names a phase's moves."""
        b = Binding(p, None, self.offender)
        # DRAW-1's CanPlay, asked by a draw after the plays of the play phase, reads what
        # their listing found of the same seat (-1: nothing; another phase lists the
        # plays by other conjuncts)
        in_play = self.phase == PLAY
        try:
            for move in self.t.menu[self.phase]:
                if move.cards:
                    listed = self._cards(p, out, penalties)
                    if in_play:
                        self._plays_listed = listed
                elif move.command.failing_of(move.guard, self, b) is None:
                    out += move.each[p]
        finally:  # what the listing found holds for this state only
            self._plays_listed = -1
            self._drawn_listed = -1

    def _cards(self, p: int, out: list[Action], penalties: bool) -> int:
        """``p``'s plays and misplays, card by card; what ``_plays_listed`` may say of
        them (-1: nothing), for DRAW-1's draw asked next."""
        t = self.t
        phase = self.phase
        hand = self.hands[p]
        misplays = t.misplay[p]
        with_uno = len(hand) == t.uno_with
        if phase == DRAWN and not penalties and t.drawn_only:
            drawn = self.drawn
            if drawn is not None:
                able = self._can_play(p, drawn)
                if able:
                    self._add_plays(out, p, drawn, with_uno)
                self._drawn_listed = 2 * p + (1 if able else 0)
            return -1
        if phase == PLAY and not penalties and t.play_rest is not None:
            # A bot's listing: a card is a play when it matches (the row) and the rest of
            # its conjuncts hold, asked of the matching cards alone (none under classic;
            # a house rule's own, progressive stacking's "only a card of its kind
            # answers"; WD4-1 under rlcard). Sorting only the cards that match: a hand's
            # few.
            row = self._match_row()
            rest = t.play_rest
            listed = 0
            faces = [face for face in hand if row[face]]
            faces.sort()  # a list sorted and its repeats passed over: no set to build
            b: Binding | None = None  # one binding, made when a conjunct is first asked
            last = -1
            for face in faces:
                if face == last:
                    continue
                last = face
                more = rest[face]
                if more is None:
                    continue
                if more:
                    if b is None:
                        b = Binding(p)
                    b.card = face
                    if not self._all_bound(more, b):
                        continue
                self._add_plays(out, p, face, with_uno)
                listed = 1
            return 2 * p + listed
        if phase == PLAY and penalties and t.play_is_match:
            # Every effect can be carried out and a misplay's penalty drawn (EXT-SHORT on):
            # a card is a play exactly when it matches, else a misplay (rules.turn).
            row = self._match_row()
            for face in sorted(set(hand)):
                if row[face]:
                    self._add_plays(out, p, face, with_uno)
                else:
                    out.append(misplays[face])
            return -1
        return 2 * p + self._list_plays(p, out, penalties)

    def _list_plays(self, p: int, out: list[Action], penalties: bool) -> bool:
        """``p``'s plays, each card asked in full (``_may_play``), and with ``penalties``
        their misplays, in the order of the faces; whether a play was listed. Without
        penalties only the cards that may be played are sorted."""
        t = self.t
        hand = self.hands[p]
        with_uno = len(hand) == t.uno_with
        matching = self._matching()
        if not penalties:  # the cards passed over for not matching are most of a hand
            listed = False
            for face in sorted({face for face in hand if self._may_match(face, matching)}):
                if self._can_play(p, face):
                    self._add_plays(out, p, face, with_uno)
                    listed = True
            return listed
        listed = False
        misplays = t.misplay[p]
        answering = self.phase == RESPOND
        for face in sorted(set(hand)):
            if self._may_play(p, face, matching):
                self._add_plays(out, p, face, with_uno)
                listed = True
            elif not answering and t.turn.misplay.allows(self, Binding(p, card=face)):
                out.append(misplays[face])
        return listed

    def _out_of_turn(self, p: int, out: list[Action], advise: bool,
                     moves: OutOfTurn) -> None:
        if advise:
            out.append(self.t.advise[p])
        target = self.uno_window
        if target is not None:
            if moves.say_uno.allows(self, Binding(p)):
                out.append(self.t.uno[p])
            elif moves.catch.allows(self, Binding(p, target)):
                out.append(self.t.catch[p][target])

    # ------------------------------------------------------------------ apply

    def apply(self, action: Checked) -> None:
        """Play one action. Raises :class:`InvalidInputError` for malformed input and
        :class:`IllegalActionError` for a rule it breaks; either way the state is unchanged."""
        p, face, color, target = self._indices_of(action)
        listed = self._legal
        if listed is None or not _among(listed, action):
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
        p, face, color, target = self._indices_of(action)
        self._legal = None
        self.reveal = None
        self._do(action.type, p, face, color, target, action.uno)
        self.history.append(action)

    def _indices_of(self, action: Checked) -> tuple[int, int | None, int | None, int | None]:
        """An action's seat, face, color and target. An action listed by legal_actions()
        is one of the lookups' own objects (``_Lookups.own``), found by its identity, where
        hashing the tuple cost a tenth of a step (party, 4 players, uniform play); one met
        before is found by value (``_Lookups.resolved``); any other is checked and
        translated once (:meth:`_met`)."""
        own = self.t.own.get(id(action))
        if own is not None and own[0] is action:
            return own[1]
        try:
            resolved = self.t.resolved.get(action)
        except TypeError:  # an unhashable field: _resolve names it
            resolved = None
        return resolved if resolved is not None else self._met(action)

    def _met(self, action: Checked) -> tuple[int, int | None, int | None, int | None]:
        """An action's indices, met for the first time by this table and players: checked,
        translated and kept (``_Lookups.resolved``). Ten players meet thousands of actions,
        and checking one from its text costs more than playing it."""
        resolved = self._resolve(action)
        self.t.resolved[action] = resolved
        return resolved

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
        aimed = self._aimed(kind, face)
        if aimed is not None:
            if action.target is None:
                raise InvalidInputError(f"{action}: {aimed[0]} needs a target", aimed[1],
                                        None if face is None else self.to_text())
            target = self.seat(action.target, "target")
        elif action.target is not None:
            words, rule = self._untargeted(kind, face)
            raise InvalidInputError(f"{action}: {words}", rule)
        if action.uno and kind is not ActionType.PLAY:
            raise InvalidInputError(f"{action}: 'uno' goes with a play", "UNO-1")
        return p, face, color, target

    def _aimed(self, kind: ActionType, face: int | None) -> tuple[str, str] | None:
        """What an action that names a target seat is called and its rule (None for an
        action that names none): a catch (UNO-1), or a play whose command chooses a seat."""
        if kind is ActionType.CATCH:
            return "catch", "UNO-1"
        if kind is ActionType.PLAY and face is not None:
            command = self.t.play[face]
            if Who.TARGET in command.choices:
                return f"play {self.deck.code(face)}", command.cites[-1]
        return None

    def _untargeted(self, kind: ActionType, face: int | None) -> tuple[str, str]:
        """The words and the rule refusing a target named by an action whose command
        chooses none. A play's: the house rule under which another card names a player
        (SEVEN-O's 7), or PLAY-1 where no card does; another move's: its command's rule
        (a catch alone names a target: UNO-1)."""
        if kind is _PLAY and face is not None:
            said = f"play {self.deck.code(face)} names no player"
            aiming = _aiming(self.rules)
            if aiming is None:
                return f"{said}: no play does in these rules", "PLAY-1"
            return f"{said}: only {aiming.name} does ({aiming.prose})", aiming.cites[-1]
        return f"{kind.value} takes no target", self._command_at(kind, self.turn, face).cites[0]

    def _color(self, action: Action) -> int:
        color = Color(action.color)  # check_action: the color's name
        if color not in self.deck.color_index:
            raise InvalidInputError(f"{action}: {color.value} is not in this deck", "DECK-1")
        return self.deck.color_index[color]

    def refusal(self, action: Action, p: int, face: int | None) -> Refusal | None:
        """Why a well-formed action is illegal now (None when it is legal)."""
        if self.phase == OVER:
            if self.game_over:
                return self._game_over_refusal()
            return Refusal(self.rules.end_of_round.id, "the round is over")
        if self.phase == START:
            return Refusal("START-WD4", "the start card is not settled (EXT-START is off)")
        if self.out:
            gone = self._gone(action, p)
            if gone is not None:
                return gone
        kind = action.type
        check = _CHECKS.get(kind)
        if check is not None:
            return check(self, action, p, face)
        return self._turn_check(action, p, face)

    def _game_over_refusal(self) -> Refusal:
        if self.won_by_elimination:
            return Refusal(self.rules.next_round.id, f"the game is over: {self.game_winner} "
                           "is the last player left in it")
        return Refusal(self.rules.target.id, f"the game is over: {self.game_winner} "
                       f"reached the target score of {self.rules.target.score}")

    def _gone(self, action: Action, p: int) -> Refusal | None:
        """END-2's elimination and MERCY: a player who is out neither moves nor is named
        by a move."""
        if self.rules.mercy.enabled:
            rule, why = self.rules.mercy.id, (f"is knocked out of the round (MERCY: "
                                             f"{self.rules.mercy.at} cards or more)")
        else:
            rule, why = self.rules.next_round.id, ("has left the game (the most cards at a "
                                                  "round's end)")
        if p in self.out:
            return Refusal(rule, f"{self.names[p]} {why} and has no move")
        target = self.t.seats.get(action.target) if action.target is not None else None
        if target is not None and target in self.out:
            return Refusal(rule, f"{action.target} {why} and cannot be named")
        return None

    def command_of(self, action: Checked) -> Command | None:
        """The command ``action`` would run now, as :meth:`refusal` finds it (None when no
        command runs: the round is over or its start card not settled). Its ``cites``
        name the rules the action is made under; the referee's answer starts with them.
        A malformed action is refused first, whatever the phase."""
        p, face, _, _ = self._resolve(action)
        if self.phase == OVER or self.phase == START:
            return None
        assert isinstance(action, Action)  # _resolve checked it
        return self._command_at(action.type, p, face)

    def _command_at(self, kind: ActionType, p: int, face: int | None) -> Command:
        """The command an action of ``kind`` by seat ``p`` (of ``face``, a play's) runs now."""
        t = self.t
        if kind is _ADVISE:
            return t.out_of_turn.advise
        if kind is ActionType.UNO:
            return t.out_of_turn.say_uno
        if kind is ActionType.CATCH:
            return t.out_of_turn.catch
        if kind is _PLAY:
            assert face is not None
            jump = t.jump[face] if p != self.turn else None
            # With no jump for the card (JUMP-IN off, or a wild), a play out of turn is
            # still the card's play, refused because its actor is the player to move.
            return t.play[face] if jump is None else jump
        return self._command(kind)

    def _turn_check(self, action: Action, p: int, face: int | None) -> Refusal | None:
        """PLAY-1 (whose turn), then the move's own command: the refusal of its first
        failing conjunct (what a round waiting for a color or an answer takes, START-WILD
        and WD4-2, first)."""
        if p != self.turn:
            jump = None if face is None or action.type is not _PLAY else self.t.jump[face]
            if jump is None:
                return self._not_to_move(action)
            target = None if action.target is None else self.seat(action.target, "target")
            return self._guard(jump, Binding(p, target, None, face, None, action.uno))
        kind = action.type
        if kind is ActionType.PLAY:
            return self._play_check(action, p, face)
        return self._guard(self._command(kind), Binding(p, None, self.offender, face))

    def _command(self, kind: ActionType) -> Command:
        """The command an on-turn action other than a play runs (a pass: keeping the card
        drawn, or passing with nothing left to draw)."""
        t = self.t
        if kind is _DRAW:
            return t.turn.draw
        if kind is _PASS:
            return self._pass_command()
        if kind is _MISPLAY:
            return t.turn.misplay
        if kind is _CHOOSE_COLOR:
            return t.turn.choose_color
        return t.responses.accept if kind is _ACCEPT else t.responses.challenge

    def _play_check(self, action: Action, p: int, face: int | None) -> Refusal | None:
        """The play command of the card's kind (unoformal.rules.play)."""
        assert face is not None
        target = None if action.target is None else self.seat(action.target, "target")
        return self._guard(self.t.play[face], Binding(p, target, None, face, None, action.uno))

    def _answers_said(self) -> str:
        """What the victim of a pending draw card may do, under the rule of that card
        (WD4-2 for a Wild Draw Four; D2-1 for a Draw Two under stacking): a refusal's
        ``{may}``."""
        kind = self.pending_kind
        assert kind is not None  # a respond phase has one (the text reader: WD4-2)
        may = ["accept"]
        if self.rules.effect(kind).victim_may_challenge:
            may.append("challenge")
        passing = deflected_by(self.rules, kind)
        answering = [k for k in answers_to(self.rules, kind) if k not in passing]
        if answering:
            may.append("answer with a " + " or a ".join(KIND_NAMES[k] for k in answering))
        if passing:
            may.append("pass it on with a " + " or a ".join(KIND_NAMES[k] for k in passing))
        return " or ".join(may) if len(may) < 3 else ", ".join(may[:-1]) + " or " + may[-1]

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
        if self.phase == RESPOND and card is not None and rule_id == self.f_effect[card].id:
            # stacking: the Draw Two waits for its victim's answer; nobody drew yet
            return f"{who}'s {'drawn ' if drawn else ''}{name} takes effect ({rule_id})"
        if self.phase == RESPOND and rule_id == self.rules.no_stacking.id \
                and self.pending_kind is not None:
            # a deflection: the card passed the draw card on, which now waits for the mover
            return (f"{who}'s {name} passed the {KIND_NAMES[self.pending_kind]} on "
                    f"({rule_id}), so {mover} must answer it")
        what = {
            "TWO-1": f"{who}'s Reverse acted as a Skip (TWO-1), so {mover} {then}",
            "SKIP-1": f"{who}'s Skip skipped {hit} (SKIP-1), so {mover} moves",
            "D2-1": f"{who}'s Draw Two made {hit} draw and lose the turn (D2-1), so "
                    f"{mover} moves",
            "DRAW-1": f"{who} drew and may play only the drawn card or pass (DRAW-1)",
            "MISPLAY-1": f"{who} misplayed and lost the turn (MISPLAY-1), so {mover} moves",
        }.get(rule_id)
        if rule_id == self.rules.draw.id and card is not None and self.phase == DRAWN \
                and not self.t.turn.keep.allows(self, Binding(actor)):
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
        return self._guard(self.t.out_of_turn.advise, Binding(p))

    def _check_uno(self, action: Action, p: int, face: int | None) -> Refusal | None:
        return self._guard(self.t.out_of_turn.say_uno, Binding(p))

    def _guard(self, command: Command, b: Binding) -> Refusal | None:
        """The refusal of a command's first failing conjunct: its rule and words, and
        what made the state so when the conjunct says to name it."""
        part = command.failing(self, b)
        if part is None:
            return None
        rule, words = part.refusal(self, b)
        return self._caused(rule, words) if part.caused else Refusal(rule, words)

    def _check_catch(self, action: Action, p: int, face: int | None) -> Refusal | None:
        target = self.seat(action.target or "", "target")
        return self._guard(self.t.out_of_turn.catch, Binding(p, target))

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
        ran = self.ran
        if ran is not None and taken < count:
            ran.append((self.rules.draw_what_is_left.id, "draw-what-is-left"))

    def _reshuffle(self) -> None:
        """RESHUFFLE-1: keep the top discard, shuffle the rest into a new pile."""
        keep = self.rules.reshuffle.keep_top and bool(self.discard)
        rest = self.discard[:-1] if keep else self.discard
        self.discard = self.discard[-1:] if keep else []
        self.chance.reshuffle(self, rest, self.rules.reshuffle.id)
        self.pile, self.pile_lower = rest, 0
        ran = self.ran
        if ran is not None:
            ran.append((self.rules.reshuffle.id, "reshuffle"))

    def _do(self, kind: ActionType, p: int, face: int | None, color: int | None,
            target: int | None, uno: bool) -> None:
        """Run the handler of the action's type. A chain of tests rather than a table of
        functions: compiled (setup.py), each handler is then a direct call, where calling a
        function taken from a dict boxed every argument, on every step."""
        if kind is _PLAY:
            self._do_play(p, face, color, target, uno)
        elif kind is _DRAW:
            self._do_draw(p)
        elif kind is _PASS:
            self._do_pass(p)
        elif kind is _ACCEPT:
            self._do_accept(p)
        elif kind is _CHALLENGE:
            self._do_challenge(p)
        elif kind is _UNO:
            self._do_uno(p)
        elif kind is _CATCH:
            self._do_catch(p, target)
        elif kind is _CHOOSE_COLOR:
            self._do_choose_color(p, color)
        elif kind is _MISPLAY:
            self._do_misplay(p, face)
        else:
            assert kind is _ADVISE, kind  # check_action admits only the ten types
            self._do_advise(p)

    def _run(self) -> _Lookups:
        """The lookups whose commands a move runs: without coverage labels, unless
        ``ran`` counts them."""
        t = self.t
        if self.ran is None:
            return t
        counted = t.counted
        assert counted is not None  # set where the lookups are built
        return counted

    def _do_play(self, p: int, face: int | None, color: int | None, target: int | None,
                 uno: bool) -> None:
        """PLAY-1 and the card's effect: the play command of its kind (unoformal.rules.play)."""
        assert face is not None
        run = self._run()
        command = run.play[face] if p == self.turn else run.jump[face]
        assert command is not None  # apply refuses a play out of turn without JUMP-IN
        command.run(self, Binding(p, target, None, face, color, uno))

    def _place(self, p: int, face: int, color: int | None, judges: bool,
               names_color: bool) -> None:
        """The ``PlaceCard`` primitive: the card from the hand onto the discard."""
        hand = self.hands[p]
        _remove(hand, face)
        if judges:
            self.wd4_legal = self._wd4_is_legal(hand)
            self.prev_color = self.color
        self.discard.append(face)
        self.color = color if names_color else self.f_color[face]
        self.drawn = None

    def _reverse_is_skip(self) -> bool:
        """TWO-1: a Reverse acts as a Skip at this number of players. Asked of the table
        on each Reverse, not kept in the lookups: a mutant of the table's reading
        (tests/test_mutation.py) must reach the engine, whose lookups outlive a test."""
        return self.rules.reverse_is_skip(self.n - len(self.out))

    def _do_draw(self, p: int) -> None:
        """DRAW-1: the ``draw`` command (unoformal.rules.turn)."""
        self._run().turn.draw.run(self, Binding(p))

    def _do_pass(self, p: int) -> None:
        """DRAW-1 / EXT-PASS: the ``keep`` or ``pass_nothing_to_draw`` command."""
        turn = self._run().turn
        self._pass_command(turn).run(self, Binding(p))

    def _pass_command(self, turn: Turn | None = None) -> Command:
        """What a pass is in this phase: DRAW-1's keep after a draw, SEVERAL's stop after
        a number card kept the turn, else EXT-PASS's pass with nothing to draw."""
        moves = self.t.turn if turn is None else turn
        if self.phase == DRAWN:
            return moves.keep
        if self.phase == MORE and moves.stop is not None:
            return moves.stop
        return moves.pass_nothing_to_draw

    def _do_accept(self, p: int) -> None:
        """WD4-2 / D2-1 under stacking: the ``accept`` command (unoformal.rules.respond)."""
        self._run().responses.accept.run(self, Binding(p, None, self.offender))

    def _do_challenge(self, p: int) -> None:
        """CHAL-1..4: the ``challenge`` command (unoformal.rules.respond)."""
        self._run().responses.challenge.run(self, Binding(p, None, self.offender))

    def _pending_rule(self) -> str:
        """The rule of the draw card being answered (D2-1, WD4-2): what its draw is under."""
        return self.f_effect[self._penalty_card()].id

    def _penalty_card(self) -> int:
        """The draw card an accept or a challenge resolves, for the words of its cause: a
        card of the pending kind (the words name only its kind).

        Not the discard's top: RESHUFFLE-1 without keep_top shuffles the whole discard back,
        that card too, when a draw empties the pile (this penalty's, or a catch's or an
        advice's while it waits); the pending kind stays, in the state and in its text
        (whose reader refuses a respond phase without one, WD4-2)."""
        kind = self.pending_kind
        assert kind is not None
        return self.t.first[kind]

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

    def _do_uno(self, p: int) -> None:
        self._run().out_of_turn.say_uno.run(self, Binding(p))

    def _do_catch(self, p: int, target: int | None) -> None:
        assert target is not None
        self._run().out_of_turn.catch.run(self, Binding(p, target))

    def _do_choose_color(self, p: int, color: int | None) -> None:
        """START-WILD: the ``choose_color`` command (unoformal.rules.turn)."""
        self._run().turn.choose_color.run(self, Binding(p, color=color))

    def _do_misplay(self, p: int, face: int | None) -> None:
        """MISPLAY-1: the ``misplay`` command (unoformal.rules.turn)."""
        self._run().turn.misplay.run(self, Binding(p, card=face))

    def _do_advise(self, p: int) -> None:
        self._run().out_of_turn.advise.run(self, Binding(p))

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

    def _knock_out_at(self, at: int, to_pile: bool) -> None:
        """The ``KnockOut`` primitive (MERCY, the last step of every move of a round):
        every player in the round holding ``at`` cards or more is knocked out at once, in
        seat order; a player to move knocked out passes the turn on; one player left wins
        the round. Nothing is checked once the round is over. A card a player already out
        is made to take (a Wild Draw Four of theirs challenged after they were knocked
        out) follows their hand."""
        if self.phase in (OVER, START):
            return
        hands, out = self.hands, self.out
        knocked = [p for p in range(self.n) if len(hands[p]) >= at or (hands[p] and p in out)]
        if not knocked:
            return
        for p in knocked:
            self._knock_out(p, to_pile)
        if self.uno_window in self.out:
            self.uno_window = None
        if self.turn in self.out:  # their turn ends: the next player in plays
            self.turn = self._around(self.turn, self.direction)
            if self.phase != COLOR:  # or names the start card's color (START-WILD)
                self.phase = PLAY
            self.drawn = None
            self.pending = 0  # a draw card waiting for them is drawn by nobody
            self.pending_kind = None
            self.offender = None
            self._round_end_check()  # END-1: its player, if they went out with it, wins
        if self.phase != OVER and len(self.out) == self.n - 1:  # the last one in wins
            self.drawn = None  # a card the player to move drew is no longer theirs to play
            self._end_round(self.seated_from(0)[-1])

    def _knock_out(self, p: int, to_pile: bool) -> None:
        """MERCY: ``p``'s cards go under the discard pile (or the draw pile), and ``p`` is
        out of the round. A player who went out with a draw card still waiting (END-1's
        winner-to-be) and then took cards up to the limit (an advice's penalty) is out,
        not the winner: the hand the knock-out empties was not played out."""
        hand = self.hands[p]
        self.hands[p] = []
        if self.winner == p:  # (``_knock_out_at`` asks nothing once the round is over)
            self.winner = None
        if to_pile:
            self.pile[0:0] = hand  # the pile's bottom is its first card
            if self.pile_lower:  # under a split pile, the bottom half grows
                self.pile_lower += len(hand)
        else:
            self.discard[0:0] = hand  # under the pile: the top card stays the last
        if p not in self.out:
            self.out = (*self.out, p)

    def _end_round(self, winner: int) -> None:
        """SCORE-1/2: the winner scores the cards left in the other hands (with partners,
        the opponents' alone under ``opponents``), and a partner as much. (The winner's
        own hand is empty, but for MERCY's last player in, whose cards are not counted.)"""
        points = self.deck.points
        partner = self.partner(winner)
        mate = partner if self.rules.points.partners is Partners.OPPONENTS else -1
        self.round_points = sum(points[c] for i, h in enumerate(self.hands)
                                if i != mate and i != winner for c in h)
        self.winner = winner
        self.scores[winner] += self.round_points
        if partner is not None:
            self.scores[partner] += self.round_points
        self.phase = OVER
        self.uno_window = None
        # a round a play ends at once may leave a draw card waiting: nobody draws it now
        self.pending = 0
        self.pending_kind = None
        self.offender = None
        if self.rules.next_round.leaves is Leaves.MOST_CARDS and not self.game_over:
            self._leave(winner)

    def _leave(self, winner: int) -> None:
        """END-2's elimination (a house rule): the player holding the most cards, the
        winner apart, leaves the game; on a tie the first of them in seat order, or from
        the winner's left (``leave_ties``). Nobody leaves when nobody else holds a card.
        The cards stay in the hand until the next deal gathers them (SCORE-1 has counted
        them)."""
        order = self.seated_from(-1 if self.rules.next_round.leave_ties
                                 is LeaveTies.FIRST_SEAT else winner)
        most, loser = 0, -1
        for p in order:
            if p != winner and len(self.hands[p]) > most:
                most, loser = len(self.hands[p]), p
        if loser >= 0:
            self.out = (*self.out, loser)  # in the order they left: the game's last places

    @property
    def leaving(self) -> int | None:
        """END-2's elimination: the player who left the game at the end of this round,
        which is over (None: nobody did). Their cards stay in the hand until the next
        deal, and a seat that left before is dealt none: so it is the one seat out that
        still holds cards."""
        if self.phase != OVER:
            return None
        return next((p for p in self.out if self.hands[p]), None)

    def partner(self, seat: int) -> int | None:
        """SCORE-1's teams: the seat opposite ``seat`` at an even count of 4 or more, where
        the table has partners; else None."""
        return partner_of(self.rules, self.n, seat)

    def next_round(self) -> None:
        """END-2 and DEAL-2: the ``next_deal`` command (unoformal.rules.deal), refused by
        its first failing conjunct; then the start card is turned."""
        command, b = self.t.deal, Binding(self.dealer)
        refusal = command.refusal(self, b)
        if refusal is not None:
            raise IllegalActionError(refusal[1], refusal[0], self.to_text())
        command.run(self, b)
        self._turn_start_card()

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
            revealed=revealed, shown=self._shown(p),
            out=tuple(self.names[q] for q in self.out))

    def _shown(self, p: int) -> dict[str, tuple[str, ...]]:
        """HIDDEN-1's open hands: the others' hands of fewer cards than ``open_below``."""
        below = self.rules.hidden.open_below
        return {name: tuple(self._sorted_codes(hand))
                for q, (name, hand) in enumerate(zip(self.names, self.hands, strict=True))
                if q != p and len(hand) < below}

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
        } | ({"out": [self.names[p] for p in self.out]} if self.rules.seats_leave() else {})

    # -------------------------------------------------------------- text form

    def to_text(self) -> str:
        """The canonical one-line form of the whole state (see :mod:`.text`)."""
        return state_to_text(self)

    @classmethod
    def from_text(cls, text: Checked, rules: Checked = None) -> Game:
        """The state of a text (:meth:`to_text`), with the seeded chance; a text of a
        variant read from a file needs its table (``rules``)."""
        table, values = read_state(text, rules)
        g = Game.__new__(Game)
        g.chance = SEEDED
        g.deck = Deck.of(table)
        g.n = len(values["names"])
        for name, value in values.items():  # every field of the state schema, by its name
            setattr(g, name, value)
        g._tables()
        g.pile_lower = 0  # no part of the text: one pile (a split is stated chance's alone)
        g.history = []
        g.dealer_draws = []
        g.origin = {"dealer": None, "deal": None}
        return g

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
        new.pile_lower = self.pile_lower
        new.out = self.out
        new.winner, new.round_points = self.winner, self.round_points
        new.cause = self.cause
        new.chance = self.chance.fork()
        new._legal = None  # a copy checks its first action itself
        new._plays_listed = -1
        new._drawn_listed = -1
        # keyed by the (color, top) they were looked up for, so they hold for the copy
        new._match_key, new._match = self._match_key, self._match
        new._block_key, new._block = self._block_key, self._block
        new.ran = None  # and counts no coverage until asked
        new.started = self.started
        return new

    def __repr__(self) -> str:
        return f"Game({self.to_text()!r})"



_CHECKS = {
    ActionType.ADVISE: Game._check_advise,
    ActionType.UNO: Game._check_uno,
    ActionType.CATCH: Game._check_catch,
}


@dataclass
class _Lookups:
    """Everything about a (table, players) pair that does not change during play."""

    kind: list[Kind]
    first: dict[Kind, int]  # per kind: its first face (a search of ``kind`` on every penalty)
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
    # The actions built here, by id: each with its indices (as ``Game._resolve`` finds
    # them), for ``Game._met``; the object is kept, so that its id stays its own
    own: dict[int, tuple[Action, tuple[int, int | None, int | None, int | None]]]
    match_rows: dict[tuple[int | None, int | None], list[bool]]
    block_rows: dict[tuple[int | None, int | None], list[bool]]  # WD4-1's, the same way
    # When every effect can be carried out (EXT-SHORT) and bluffs are playable (WD4-1), a
    # legal play on a normal turn is exactly a matching card: the fast path in _on_turn.
    play_is_match: bool
    # Every kind's playable conjuncts keep DRAW-1's "only the drawn card" (a rule file may
    # drop it): after drawing, a bot's listing then asks the drawn card alone
    drawn_only: bool
    uno_with: int  # UNO-1: the hand size at which playing a card may carry "UNO"
    wd4_blocks: Said  # WD4-1, stated for this table
    wd4_excused: list[bool] | None  # per face: holding it makes a Wild Draw Four legal
    out_of_turn: OutOfTurn  # UNO-1 and ADVICE-1's moves, as commands for this table
    responses: Responses  # WD4-2 and CHAL-1..4's answers to a draw card, as commands
    turn: Turn  # DRAW-1, EXT-PASS, MISPLAY-1 and START-WILD's moves, as commands
    play: list[Command]  # per face: the play of its kind (PLAY-1 ..., unoformal.rules.play)
    jump: list[Command | None]  # per face: its play out of turn (JUMP-IN), None: none
    jumps: bool  # some face has one: legal_actions looks for a jump only then
    # per face whose play names a seat (SEVEN-O's swap), its guards split for the seats
    # listed (_Aim); None: the play names none
    aim: list[_Aim | None]
    # per seat and face, parallel to ``plays``: each play's (target seat, UNO said)
    aim_binds: list[list[tuple[list[tuple[int, bool]], list[tuple[int, bool]]]]]
    starts: dict[Kind, Command]  # per kind: the start card of it turned (unoformal.rules.start)
    deal: Command  # END-2 and DEAL-2: the next deal (unoformal.rules.deal)
    playable: list[tuple[Conjunct, ...]]  # per face: whether it may be played now
    must_match: list[bool]  # per face: ``playable`` asks PLAY-1's match outside an answer
    # What the engine asks where it knows the round is in its play phase: ``playable``
    # reduced by that phase (language.commands.in_phase: the conjuncts on the phase alone
    # decided once, here); None: the phase refuses it.
    playable_in_play: list[tuple[Conjunct, ...] | None]
    # Where every face's play-phase conjuncts ask PLAY-1's match (``Matches``): per face,
    # the others (None: the phase refuses the face), read after the match row; None
    # where some face's do not ask it (the card by card listing then)
    play_rest: list[tuple[Conjunct, ...] | None] | None
    playable_in_respond: list[tuple[Conjunct, ...] | None]  # the same, answering
    playable_in_drawn: list[tuple[Conjunct, ...] | None]  # the same, after a draw
    # Per phase, the on-turn moves its guards leave possible, in the commands' order:
    # what legal_actions lists for the player to move (_menu)
    menu: dict[str, list[_Move]]
    cards: tuple[int, ...]  # the deck in canonical order, what every deal shuffles (DEAL-2)
    # The same lookups with the commands as stated, coverage labels and all: what a move
    # runs while Game.ran counts. These lookups' own commands are without them.
    counted: _Lookups | None = None


# A guard split for the seats a play may name: the conjuncts that read no target, then
# those that may (None for the second: the command has branches, so it is asked whole).
_Split = tuple[tuple[Conjunct, ...], tuple[Conjunct, ...] | None]


class _Aim:
    """The guards of a play that names a seat, on turn (``play``) and out of turn
    (``jump``), each split (``_Split``) so that listing its seats asks what reads no
    seat once: with ten players a 7 names nine."""

    def __init__(self, play: _Split, jump: _Split) -> None:
        self.play = play
        self.jump = jump


def _split(command: Command | None) -> _Split:
    """``command``'s guard as the seats listed ask it (``_Aim``)."""
    if command is None:
        return (), None
    if command.branches:
        return (), None
    shared = tuple(part for part in command.guard if not _reads_target(part.cond))
    return shared, tuple(part for part in command.guard if part not in shared)


# What a node of the rule language may hold and still read no target seat: plain values,
# the enums (Who itself: every node reads a seat through a Who field) and a card's effect.
_PLAIN: Final = (bool, int, float, str, Enum, CardEffect)
_CONDITIONS: Final = conditions.__name__  # the module of the rule language's own nodes


def _reads_target(node: object) -> bool:
    """Whether ``node`` may read the seat a move names as its target. Only the rule
    language's own conditions are looked into (each reads a seat through a ``Who`` field:
    ``Binding.of``, ``seat_of``); anything else, a user's own condition among them, is
    taken to read it."""
    if node is None or isinstance(node, _PLAIN):
        return node is Who.TARGET
    if isinstance(node, (tuple, list)):
        return any(_reads_target(item) for item in node)
    if isinstance(node, Cond) and type(node).__module__ == _CONDITIONS \
            and dataclasses.is_dataclass(node):
        return any(_reads_target(getattr(node, f.name)) for f in dataclasses.fields(node))
    return True


@dataclass
class _Move:
    """An on-turn move as the listing asks it in one phase: its command, its guard
    reduced for the phase, and per seat the actions listed when the guard holds (every
    color, for a color to name); ``cards``: the plays and misplays, asked card by card."""

    command: Command
    guard: tuple[Conjunct, ...]
    each: list[list[Action]]
    cards: bool = False


def _menu(t: _Lookups, cards_played: Plays) -> dict[str, list[_Move]]:
    """Per phase, the on-turn moves whose guards that phase leaves possible
    (``in_phase``), in the commands' order: the answers to a draw card, the cards, the
    draw, the pass with nothing to draw, the drawn card kept, the color named. Derived
    from the guards, so a house rule that lets a move be made in another phase is listed
    there with no change here."""
    moves, answers = t.turn, t.responses
    singles = [(answers.accept, [[a] for a in t.accept]),
               (answers.challenge, [[a] for a in t.challenge]),
               (None, []),  # the cards, in their place in the order
               (moves.draw, [[a] for a in t.draw]),
               (moves.pass_nothing_to_draw, [[a] for a in t.pass_]),
               (moves.keep, [[a] for a in t.pass_]),
               *(((moves.stop, [[a] for a in t.pass_]),) if moves.stop is not None else ()),
               (moves.choose_color, t.choose_color)]
    card_guards = [c.guard for c in cards_played.all()] + [moves.misplay.guard]
    out: dict[str, list[_Move]] = {}
    for phase in PHASES:
        listed: list[_Move] = []
        for command, each in singles:
            if command is None:
                if any(in_phase(g, phase) is not None for g in card_guards):
                    listed.append(_Move(moves.misplay, (), [], cards=True))
                continue
            guard = in_phase(command.guard, phase)
            if guard is not None:
                listed.append(_Move(command, guard, each))
        out[phase] = listed
    return out


def _among(listed: tuple[Action, ...], action: object) -> bool:
    """``action in listed``, asked first by identity (compiled, a C loop over pointers):
    an action taken from the listing is that very object. Another equal one is found by
    value, as ``in`` finds it."""
    for a in listed:
        if a is action:
            return True
    return action in listed


def _remove(hand: list[int], face: int) -> None:
    """``hand.remove(face)``, compiled: the first copy, found by comparing C integers where
    ``remove`` compares each card before it as an object (a hand of forty cards under
    uniform play)."""
    for i in range(len(hand)):
        if hand[i] == face:
            del hand[i]
            return
    raise ValueError(f"face {face} is not in the hand")  # as list.remove would


def _holds(hand: list[int], face: int) -> bool:
    """``face in hand``, compiled: ``in`` compares each card as an object, this loop as a
    C integer (a jump asks it of every hand, on every listing)."""
    for card in hand:  # noqa: SIM110 - compiled, a loop beats any()
        if card == face:
            return True
    return False


# Per table: its first play that names a target seat, or None (asked by the refusal of a
# target that a play does not name; tests.engine.helpers forgets it with the commands).
_AIMING: dict[int, tuple[RuleTable, Command | None]] = {}


class _Faces:
    """A deck's faces alone, for a statement that reads nothing of the state (the kinds
    WD4-1's house rule names): the language's concrete protocol, with no color or top."""

    def __init__(self, deck: Deck) -> None:
        self.f_kind = [f.kind for f in deck.faces]
        self.f_color: list[int | None] = [None] * len(deck.faces)
        self.color: int | None = None

    def _matches(self, face: int) -> bool:
        return False


def _excused(rules: RuleTable, deck: Deck) -> list[bool] | None:
    """WD4-1's ``wild_excuses``, per face (:func:`unoformal.rules.challenge.wd4_excuses`):
    holding it makes a Wild Draw Four legal; None where no card does."""
    said = wd4_excuses(rules)
    if said is None:
        return None
    faces = _Faces(deck)
    return [said.holds(faces, face) for face in range(len(deck.faces))]


def _aiming(rules: RuleTable) -> Command | None:
    hit = _AIMING.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    found = next((c for c in card_plays(rules).all() if Who.TARGET in c.choices), None)
    if len(_AIMING) > 256:
        _AIMING.clear()
    _AIMING[id(rules)] = (rules, found)
    return found


def _binds(one: list[Action], two: list[Action], seats: dict[str, int]
           ) -> tuple[list[tuple[int, bool]], list[tuple[int, bool]]]:
    """Each of a seat's plays of a face (``_Lookups.plays``) as (its target's seat, UNO
    said), in the same order: what ``Game._add_plays`` binds the play with. A function of
    the module, not one nested in ``_lookups`` beside ``plays``: compiled, two nested
    functions that call each other share an environment, a reference cycle left behind
    by every table built (the explorer runs with the cycle collector off)."""
    return ([(-1 if a.target is None else seats[a.target], a.uno) for a in one],
            [(-1 if a.target is None else seats[a.target], a.uno) for a in two])


def _own(t: _Lookups, deck: Deck, names: tuple[str, ...]) -> None:
    """Fill ``t.own``: every action the lookups built, with its indices (seat, face,
    color, target), as ``Game._indices`` translates them."""
    seats = {name: i for i, name in enumerate(names)}
    color = {c.value: deck.color_index[c] for c in deck.colors}
    singles = (t.draw, t.pass_, t.accept, t.challenge, t.uno, t.advise)
    built: list[tuple[Action, int | None]] = [(a, None) for each in singles for a in each]
    built += [(a, None) for each in (*t.catch, *t.choose_color) for a in each]
    built += [(a, face) for each in t.misplay for face, a in enumerate(each)]
    built += [(a, face) for each in t.plays for face, (one, two) in enumerate(each)
              for a in (*one, *two)]
    for action, face in built:
        t.own[id(action)] = (action, (
            seats[action.player], face, None if action.color is None else color[action.color],
            None if action.target is None else seats[action.target]))


def _must_match(playable: tuple[Conjunct, ...]) -> bool:
    """Whether these conjuncts refuse a card that does not match (PLAY-1) in any phase but
    an answer to a draw card: ``Matches``, alone or ``Unanswering``."""
    return any(isinstance(c, Matches) or (isinstance(c, Unanswering)
                                          and isinstance(c.cond, Matches))
               for c in (part.cond for part in playable))


_LOOKUPS: dict[tuple[int, tuple[str, ...]], tuple[RuleTable, _Lookups]] = {}

_Section = TypeVar("_Section", OutOfTurn, Responses, Turn)


def _bare(section: _Section) -> _Section:
    """A section's commands without what coverage counts (``Command.uncounted``)."""
    return dataclasses.replace(section, **{
        f.name: command.uncounted() for f in dataclasses.fields(section)
        if (command := getattr(section, f.name)) is not None})  # a house rule's, when off


def _rest_after_match(in_play: list[tuple[Conjunct, ...] | None]
                      ) -> list[tuple[Conjunct, ...] | None] | None:
    """``_Lookups.play_rest``: each face's play-phase conjuncts but PLAY-1's match, where
    every face the phase does not refuse asks the match; else None."""
    rest: list[tuple[Conjunct, ...] | None] = []
    for parts in in_play:
        if parts is None:
            rest.append(None)
            continue
        if not any(isinstance(part.cond, Matches) for part in parts):
            return None
        rest.append(tuple(part for part in parts if not isinstance(part.cond, Matches)))
    return rest


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
    cards_played = card_plays(rules)
    moves = turn(rules)
    in_play = [in_phase(cards_played.playable[f.kind], PLAY) for f in faces]

    def plays(name: str, face: int) -> tuple[list[Action], list[Action]]:
        named: list[str | None] = list(colors) if effects[face].chooses_color else [None]
        # A play that names a seat (a house rule's swap) names any other player.
        aimed: list[str | None] = [t for t in names if t != name] \
            if Who.TARGET in cards_played.of(faces[face]).choices else [None]
        one = [Action(name, ActionType.PLAY, codes[face], c, t) for c in named for t in aimed]
        two = [Action(name, ActionType.PLAY, codes[face], c, t, u) for c in named
               for t in aimed for u in ((False, True) if say_with_card else (False,))]
        return one, two

    table = _Lookups(
        kind=[f.kind for f in faces], wild=[f.kind.is_wild for f in faces],
        first={k: i for i, k in reversed(list(enumerate(f.kind for f in faces)))},
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
        resolved={}, own={}, match_rows={}, block_rows={},
        # ... and no rule file changes whether a card may be played (its ``play`` changes)
        play_is_match=rules.draw_what_is_left.enabled and rules.wd4_legality.bluff_playable
        and not any(c.command == "play" for r in rules.house if r.enabled for c in r.changes),
        drawn_only=all(any(isinstance(c.cond, DrawnOnly) for c in cards_played.playable[k])
                       for k in cards_played.playable),
        uno_with=rules.uno.says_with, cards=tuple(deck.cards()),
        wd4_blocks=wd4_blocks(rules), wd4_excused=_excused(rules, deck),
        out_of_turn=out_of_turn(rules),
        responses=responses(rules), turn=moves,
        play=[cards_played.of(f) for f in faces],
        jump=[cards_played.jump(f) for f in faces], jumps=bool(cards_played.jumps),
        aim=[None] * len(faces), aim_binds=[],
        starts=dict(starts(rules).commands), deal=dealing(rules),
        playable=[cards_played.playable[f.kind] for f in faces],
        must_match=[_must_match(cards_played.playable[f.kind]) for f in faces],
        playable_in_play=in_play, play_rest=_rest_after_match(in_play),
        playable_in_respond=[in_phase(cards_played.playable[f.kind], RESPOND) for f in faces],
        playable_in_drawn=[in_phase(cards_played.playable[f.kind], DRAWN) for f in faces],
        menu={})
    table.counted = counted = dataclasses.replace(table)
    counted.counted = counted
    table.out_of_turn = _bare(table.out_of_turn)
    table.responses = _bare(table.responses)
    table.turn = _bare(table.turn)
    table.menu = counted.menu = _menu(table, cards_played)
    bare = {c.name: c.uncounted() for c in (*cards_played.all(), *cards_played.jumps.values())}
    table.play = [bare[c.name] for c in table.play]
    table.jump = [None if c is None else bare[c.name] for c in table.jump]
    table.starts = {k: c.uncounted() for k, c in table.starts.items()}
    _own(table, deck, names)
    table.aim = counted.aim = [
        _Aim(_split(c), _split(j)) if Who.TARGET in c.choices else None
        for c, j in zip(table.play, table.jump, strict=True)]
    table.aim_binds = counted.aim_binds = [
        [_binds(one, two, table.seats) if table.aim[face] is not None else ([], [])
         for face, (one, two) in enumerate(row)] for row in table.plays]
    if len(_LOOKUPS) > 256:
        _LOOKUPS.clear()
    _LOOKUPS[key] = (rules, table)
    return table
