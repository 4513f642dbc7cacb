"""The engine's own successor function, with chance made a nondeterministic choice.

:class:`ExploreGame` is the engine's :class:`~unoformal.engine.game.Game` played with the
:class:`Enumerate` chance player: at every chance node the engine names (a card drawn, a
reshuffle, the start card turned again under START-WD4, a start color drawn at random),
the outcome is a *chosen* face or color instead of the seed's. Every rule is still the
engine's; this module decides only which outcome comes.

Choices are made by a *script*: a tuple of faces, one per point where more than one
distinct face could come. Running an action with a script that is too short raises
:class:`NeedChoice` with the options; :func:`outcomes` backtracks over every script.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from mypy_extensions import mypyc_attr

from unoformal.engine.actions import Action
from unoformal.engine.game import Chance, Game
from unoformal.rulebook.table import RuleTable

# What the chance nodes did while an action or a deal ran (bit flags). No label is read
# from them any more (a move's come from Game.ran, a deal's from Game.started): they are
# what the frozen labeller of tests/reference/coverage_agree.py is checked on.
RESHUFFLED = 1  # RESHUFFLE-1 happened
SHORT = 2  # a draw found no card left (EXT-SHORT: the rest is forgiven)
START_AGAIN = 4  # START-WD4: the start card went back and another was turned


class NeedChoice(Exception):
    """More than one distinct face could come next; the script says none yet."""

    def __init__(self, options: list[int]) -> None:
        super().__init__(options)
        self.options = options


@dataclass(frozen=True)
class Deal:
    """A deal as a record writes it (``json``) and as face indices (``hands``, ``pile``
    top first: its first card is the start card)."""

    json: dict[str, Any]
    hands: tuple[tuple[int, ...], ...]
    pile: list[int]


# Marked so that Python subclasses are allowed, and so that ExploreGame.__new__ makes an
# instance without running __init__ once compiled, as Game.copy needs.
@mypyc_attr(allow_interpreted_subclasses=True)
class ExploreGame(Game):
    """The engine with the :data:`ENUMERATE` chance player, and the script it follows.

    It overrides nothing of the rules: only how a given deal is read (:meth:`redeal`
    deals a parsed :class:`Deal` again without parsing its codes) and what a copy keeps
    (a graph edge is one action, so no history)."""

    given: Deal | None = None
    script: tuple[int, ...] = ()
    pos = 0
    floor = 0
    left = 0  # cards the draw under way has still to take
    events = 0
    log: list[int] | None = None  # faces taken from the pile before any reshuffle
    # None: a choice the script does not make raises NeedChoice; a list: take the first
    # option and note (position, the other options) here, so no run is wasted
    branches: list[tuple[int, list[int]]] | None = None

    @classmethod
    def deal(cls, players: Sequence[str], rules: RuleTable, dealer: str,
             deal: dict[str, Any], script: tuple[int, ...] = ()) -> ExploreGame:
        """The state after DEAL-2/DEAL-3/START-* for a given deal (``NeedChoice`` if a
        start rule draws or turns again and the script does not say which card comes)."""
        return cls(players, rules, dealer, deal, script)

    def __init__(self, players: Sequence[str], rules: RuleTable, dealer: str,
                 deal: dict[str, Any], script: tuple[int, ...] = ()) -> None:
        self.script, self.pos, self.events = script, 0, 0
        super().__init__(players, 0, rules, dealer, deal, chance=ENUMERATE)

    def redeal(self, deal: Deal, script: tuple[int, ...] = ()) -> ExploreGame:
        """The same game dealt again: the engine's own ``_start_round``, without
        rebuilding the deck and the lookups, nor parsing the deal's codes, every time."""
        game = self.copy()
        game.script, game.pos, game.events = script, 0, 0
        game.given = deal
        game._start_round(deal.json)
        game.given = None
        return game

    def _deal_given(self, deal: dict[str, Any]) -> None:
        if self.given is None:
            super()._deal_given(deal)
            return
        self.hands = [list(h) for h in self.given.hands]
        self.pile = self.given.pile[::-1]  # the engine keeps the top last

    def copy(self) -> ExploreGame:
        new = Game.copy(self)  # keeps the class
        assert isinstance(new, ExploreGame)
        new.history = []  # a graph edge is one action
        if self.log is not None:
            new.log = []
        return new

    def choose(self, options: list[int], cap: int | None = None) -> int:
        """The script's next face among ``options``; a single option needs no choice.

        ``cap``, for a card drawn: the highest face that leaves enough cards at or above it
        for the rest of the draw."""
        if cap is not None and self.rules.draw.cards == 1:
            # Within one draw of several cards only the multiset matters: take them in
            # face order (DRAW-1 reads back the last card only when it draws one card).
            # A face above the cap would leave the draw's last cards no option: a run
            # spent for nothing (a quarter of the runs on `big`).
            options = [f for f in options if self.floor <= f <= cap]
        if len(options) == 1:
            face = options[0]
        elif self.pos < len(self.script):
            face = self.script[self.pos]
            self.pos += 1
        elif self.branches is None or not options:
            # no option left: the draw's faces would come out of face order (a
            # permutation of another outcome), so this run is dropped
            raise NeedChoice(options)
        else:
            face = options[0]
            self.branches.append((self.pos, options[1:]))
            self.script = (*self.script, face)
            self.pos += 1
        self.floor = face
        return face


class Enumerate(Chance):
    """The chance player of the explorer: every outcome is a choice of the game's script
    (:meth:`ExploreGame.choose`), and the order of a shuffle is never drawn.

    A card drawn is any face the pile holds (the pile's order does not matter: it is a
    multiset); a reshuffle only notes that it happened; START-WD4's shuffle puts a chosen
    face, other than those turned again, on top; a start color drawn at random is any
    color. Every node still uses up its shuffle number, as the seeded one does, so the
    state's ``shuffles`` counts the same. It keeps no state: the game holds the script."""

    def shuffle(self, game: Game, cards: list[int], rule: str) -> None:
        game.shuffles += 1  # a given deal and dealer: never drawn (the order would not matter)

    def turn_again(self, game: Game, pile: list[int], rule: str) -> None:
        g = _explored(game)
        g.shuffles += 1
        g.events |= START_AGAIN
        again = {i for i, k in enumerate(g.f_kind)
                 if (s := g.rules.start_rule(k)) is not None and s.turn_another_card}
        face = g.choose(sorted(set(pile) - again))
        pile.remove(face)
        pile.append(face)

    def reshuffle(self, game: Game, cards: list[int], rule: str) -> None:
        g = _explored(game)
        g.shuffles += 1
        g.events |= RESHUFFLED
        g.floor = 0
        g.log = None if g.log is None else [*g.log, -1]

    def begin_draw(self, game: Game, seat: int, count: int, rule: str) -> None:
        g = _explored(game)
        g.floor, g.left = 0, count

    def draw(self, game: Game, seat: int, rule: str) -> int:
        g = _explored(game)
        pile = g.pile
        ordered = sorted(pile)
        # the cards still to come from this pile: the rest of the draw, or all it holds
        coming = min(g.left, len(ordered))
        face = g.choose(sorted(set(ordered)), cap=ordered[len(ordered) - max(coming, 1)])
        g.left -= 1
        pile.remove(face)
        if g.log is not None:
            g.log.append(face)
        return face

    def end_draw(self, game: Game, seat: int, count: int, taken: int, rule: str) -> None:
        if taken < count:
            _explored(game).events |= SHORT

    def color(self, game: Game, rule: str) -> int:
        g = _explored(game)
        g.shuffles += 1  # as the seeded draw of it
        return g.choose(list(range(len(g.deck.colors))))


def _explored(game: Game) -> ExploreGame:
    assert isinstance(game, ExploreGame)  # ENUMERATE is given to ExploreGame only
    return game


ENUMERATE: Final = Enumerate()


def outcomes(game: ExploreGame, action: Action, count: bool = False) -> Iterator[
        tuple[tuple[int, ...], ExploreGame]]:
    """Every outcome of a legal ``action`` (on copies), one per script of chance choices,
    in the lexicographic order of the scripts. ``count``: each outcome's ``ran`` holds
    the coverage labels of what ran in it.

    Each run takes the first option at every choice its script does not make and notes
    the others; their scripts are run next, deepest choice first. So every run is an
    outcome (re-running from the start after a NeedChoice wasted a run per choice)."""
    stack: list[tuple[int, ...]] = [()]
    while stack:
        new = game.copy()
        new.script, new.pos, new.events = stack.pop(), 0, 0
        branches: list[tuple[int, list[int]]] = []
        new.branches = branches
        if count:
            new.ran = []
        try:
            new.push(action)
            done = True
        except NeedChoice:  # only with no option left: a dropped run
            done = False
        new.branches = None
        for pos, others in branches:
            stack.extend((*new.script[:pos], face) for face in reversed(others))
        if done:
            yield new.script, new


def deal_outcomes(template: ExploreGame, deal: Deal) -> Iterator[
        tuple[tuple[int, ...], ExploreGame]]:
    """Every state a deal can start in (START-D2 draws, START-WD4 turns another card:
    choices). ``template`` is any game of the same table and players."""
    stack: list[tuple[int, ...]] = [()]
    while stack:
        script = stack.pop()
        try:
            yield script, template.redeal(deal, script)
        except NeedChoice as need:
            stack.extend((*script, face) for face in reversed(need.options))


def first_outcome(players: Sequence[str], rules: RuleTable, dealer: str,
                  deal: dict[str, Any]) -> ExploreGame:
    """One state the deal can start in (the first option at every choice)."""
    script: tuple[int, ...] = ()
    while True:
        try:
            return ExploreGame.deal(players, rules, dealer, deal, script)
        except NeedChoice as need:
            script += (need.options[0],)
