"""Simple bots that play whole games: a random-legal bot and a greedy bot.

A bot sees what a player at the table sees (HIDDEN-1): the rule table, its own
:class:`~unoformal.engine.game.PlayerView` and its own legal actions. The
simulation hands it a :class:`Seat`, which refuses to show anything else, so a
bot cannot peek at other hands even by mistake.

Bots never choose the penalty actions ``misplay`` and ``advise`` (MISPLAY-1,
ADVICE-1): those exist to referee humans. The simulation offers them only when
asked to (``penalties=True``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game, PlayerView
from unoformal.errors import InvalidInputError
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable

PENALTY_ACTIONS = frozenset({ActionType.MISPLAY, ActionType.ADVISE})


class PublicGame(Protocol):
    """What a bot may consult. :class:`Game` has this shape; :class:`Seat` enforces it."""

    @property
    def rules(self) -> RuleTable: ...

    def view(self, player: str) -> PlayerView: ...

    def legal_actions(self, player: str | None = None, *,
                      penalties: bool = True) -> list[Action]: ...


class Bot(Protocol):
    """A player. ``choose`` is asked on its turn and must return one of ``options``;
    ``react`` is asked out of turn (UNO-1: say UNO, catch) and may return None."""

    name: str

    def choose(self, game: PublicGame, player: str,
               options: Sequence[Action] | None = None) -> Action: ...

    def react(self, game: PublicGame, player: str,
              options: Sequence[Action]) -> Action | None: ...


class Seat:
    """One player's window on a game (HIDDEN-1): the table, and that player's view
    and legal actions only. Asking about another player raises."""

    def __init__(self, game: Game, player: str) -> None:
        game.seat(player)
        self._game = game
        self.player = player

    @property
    def rules(self) -> RuleTable:
        return self._game.rules

    def view(self, player: str) -> PlayerView:
        return self._game.view(self._own(player))

    def legal_actions(self, player: str | None = None, *,
                      penalties: bool = True) -> list[Action]:
        return self._game.legal_actions(self._own(player), penalties=penalties)

    def _own(self, player: str | None) -> str:
        if player is not None and player != self.player:
            raise InvalidInputError(f"the seat of {self.player} cannot look at {player}'s "
                                    "cards or actions", "HIDDEN-1")
        return self.player


def offered(game: PublicGame, player: str, penalties: bool = False) -> list[Action]:
    """The actions a bot may pick from: the legal ones, without the penalty actions
    unless ``penalties``."""
    return game.legal_actions(player, penalties=penalties)


class RandomBot:
    """Uniformly random among the offered actions. Out of turn it also may do nothing:
    ``None`` is one more equally likely choice."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: PublicGame, player: str,
               options: Sequence[Action] | None = None) -> Action:
        options = offered(game, player) if options is None else options
        return self.rng.choice(options)

    def react(self, game: PublicGame, player: str,
              options: Sequence[Action]) -> Action | None:
        choices: list[Action | None] = [*options, None]
        return self.rng.choice(choices)


@dataclass(frozen=True)
class CardInfo:
    """What the greedy bot knows of a card code: public facts from the table (DECK-1,
    SCORE-1)."""

    color: str | None
    wild: bool
    draws_four: bool
    points: int


_CARD_INFO: dict[int, tuple[RuleTable, dict[str, CardInfo]]] = {}


def card_info(rules: RuleTable) -> dict[str, CardInfo]:
    """Per card code, read once per table (kept while the table lives)."""
    hit = _CARD_INFO.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    deck = Deck.of(rules)
    info = {
        face.code: CardInfo(face.color.value if face.color is not None else None,
                            face.kind.is_wild, face.kind is Kind.WILD_DRAW_FOUR, points)
        for face, points in zip(deck.faces, deck.points, strict=True)
    }
    if len(_CARD_INFO) > 64:
        _CARD_INFO.clear()
    _CARD_INFO[id(rules)] = (rules, info)
    return info


class GreedyBot:
    """A simple, honest, sensible player.

    * catches an opponent who forgot UNO whenever it can, and says its own UNO
      (with its next-to-last card when the rules let it, UNO-1);
    * jumps in whenever it can (JUMP-IN), saying UNO with the card where it is due;
    * prefers playing over drawing; among colored cards plays the one worth most
      points (SCORE-1), keeping wilds for last, then a Wild Draw Four before a Wild;
    * names the color it holds most of (ties: the table's color order);
    * with a card that swaps hands (SEVEN-O), swaps with the player holding the fewest
      cards (ties: the first in seat order);
    * as the victim of a Wild Draw Four (WD4-2) challenges when the odds that the
      offender held the previous color make the expected cards saved (CHAL-2)
      exceed the expected extra cards (CHAL-3), reading both from the table.

    The rng breaks no ties (ties go to the first option, in the engine's order); it
    is kept so every bot has the same constructor.
    """

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._cards: dict[str, CardInfo] | None = None
        self._rules: RuleTable | None = None

    def _info(self, rules: RuleTable) -> dict[str, CardInfo]:
        if self._cards is None or self._rules is not rules:
            self._cards, self._rules = card_info(rules), rules
        return self._cards

    def react(self, game: PublicGame, player: str,
              options: Sequence[Action]) -> Action | None:
        urgent = self._urgent(options)
        if urgent is not None:
            return urgent
        # JUMP-IN: out of turn, a play is a jump (asked of bots only out of turn)
        jumps = [a for a in options if a.type is ActionType.PLAY]
        return next((a for a in jumps if a.uno), jumps[0]) if jumps else None

    @staticmethod
    def _urgent(options: Sequence[Action]) -> Action | None:
        """A catch, else the bot's own UNO (UNO-1)."""
        for kind in (ActionType.CATCH, ActionType.UNO):
            for action in options:
                if action.type is kind:
                    return action
        return None

    def choose(self, game: PublicGame, player: str,
               options: Sequence[Action] | None = None) -> Action:
        options = offered(game, player) if options is None else options
        urgent = self._urgent(options)
        if urgent is not None:
            return urgent
        if len(options) == 1:
            return options[0]
        cards = self._info(game.rules)
        plays = [a for a in options if a.type is ActionType.PLAY]
        if plays:
            return self._best_play(game, player, plays, cards)
        if _has(options, ActionType.CHALLENGE) and \
                self._should_challenge(game.rules, game.view(player)):
            return _first(options, ActionType.CHALLENGE)
        if _has(options, ActionType.CHOOSE_COLOR):
            return self._pick_color(options, game.view(player).hand, cards)
        for kind in (ActionType.ACCEPT, ActionType.DRAW, ActionType.PASS):
            if _has(options, kind):
                return _first(options, kind)
        return options[0]

    def _best_play(self, game: PublicGame, player: str, plays: list[Action],
                   cards: dict[str, CardInfo]) -> Action:
        def value(action: Action) -> tuple[bool, bool, int]:
            info = cards[action.card or ""]
            return (not info.wild, info.draws_four, info.points)

        best = max(value(a) for a in plays)
        card = next(a.card for a in plays if value(a) == best)
        chosen = [a for a in plays if a.card == card]
        if any(a.uno for a in chosen):  # UNO-1: say it with the next-to-last card
            chosen = [a for a in chosen if a.uno]
        if chosen[0].target is not None:  # SEVEN-O: swap with the smallest hand
            sizes = game.view(player).hand_sizes
            return min(chosen, key=lambda a: (sizes[a.target or ""], chosen.index(a)))
        if len(chosen) == 1 or chosen[0].color is None:
            return chosen[0]
        rest = list(game.view(player).hand)  # the view only when a color is to be named
        rest.remove(card or "")
        return self._pick_color(chosen, rest, cards)

    def _pick_color(self, options: Sequence[Action], hand: Sequence[str],
                    cards: dict[str, CardInfo]) -> Action:
        """The option naming the color held most (WILD-1, START-WILD)."""
        held = Counter(cards[c].color for c in hand if cards[c].color is not None)
        named = [a for a in options if a.color is not None]
        return max(named, key=lambda a: (held[a.color], -named.index(a)))

    def _should_challenge(self, rules: RuleTable, view: PlayerView) -> bool:
        """Challenge when P(bluff) * saved > (1 - P(bluff)) * extra, where P(bluff) is
        the chance that the offender's hand holds the previous color, each card being
        of that color with probability 1 / number of colors (DECK-1)."""
        offender_cards = view.hand_sizes[_previous_player(view)]
        p_color = 1 / len(rules.deck.colors)
        p_bluff = 1 - (1 - p_color) ** offender_cards
        pending = rules.wild_draw_four.victim_draws
        saved = pending - rules.challenge_upheld.challenger_draws
        extra = rules.challenge_failed.challenger_draws - pending
        return p_bluff * saved > (1 - p_bluff) * extra


def _previous_player(view: PlayerView) -> str:
    """The seat before ``view.player`` in the direction of play (DEAL-3): who played
    the draw card this player is answering."""
    names = [n for n in view.hand_sizes if n not in view.out or n == view.player]
    step = 1 if view.direction == "left" else -1  # over the players in (END-2)
    return names[(names.index(view.player) - step) % len(names)]


def _has(options: Sequence[Action], kind: ActionType) -> bool:
    return any(a.type is kind for a in options)


def _first(options: Sequence[Action], kind: ActionType) -> Action:
    return next(a for a in options if a.type is kind)


BotFactory = Callable[[random.Random], Bot]

BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, rng: random.Random) -> Bot:
    """A bot by name; ``InvalidInputError`` lists the known names."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise InvalidInputError(f"unknown bot {name!r}: expected one of "
                                f"{', '.join(BOTS)}") from None
    return factory(rng)
