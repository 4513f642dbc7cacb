"""The engine's own successor function, with chance made a nondeterministic choice.

:class:`ExploreGame` is the engine's :class:`~unoformal.engine.game.Game` with its two
chance hooks overridden (and ``_start_color``, a start color drawn at random, branches
over every color): ``_pop_card`` (every card leaving the draw pile, RESHUFFLE-1
inside it) takes a *chosen* face instead of the top card, and ``_rng`` returns a
shuffler that leaves the choice to ``_pop_card`` (or, while the start card is turned
again under START-WD4, puts a chosen face on top). Every rule is still the engine's.

Choices are made by a *script*: a tuple of faces, one per point where more than one
distinct face could come. Running an action with a script that is too short raises
:class:`NeedChoice` with the options; :func:`outcomes` backtracks over every script.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.spec.table import RuleTable

# Events the coverage analysis reads (bit flags set while an action runs).
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
    """The engine, with every chance outcome chosen by a script."""

    given: Deal | None = None
    script: tuple[int, ...] = ()
    pos = 0
    floor = 0
    left = 0  # cards the draw under way has still to take (set by _take)
    events = 0
    dealing = False
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
        self.script, self.pos, self.events, self.dealing = script, 0, 0, True
        super().__init__(players, 0, rules, dealer, deal)
        self.dealing = False

    def redeal(self, deal: Deal, script: tuple[int, ...] = ()) -> ExploreGame:
        """The same game dealt again: the engine's own ``_start_round``, without
        rebuilding the deck and the lookups, nor parsing the deal's codes, every time."""
        game = self.copy()
        game.script, game.pos, game.events, game.dealing = script, 0, 0, True
        game.given = deal
        game._start_round(deal.json)
        game.dealing, game.given = False, None
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

    def _take(self, p: int, count: int) -> None:
        self.floor, self.left = 0, count
        super()._take(p, count)

    def _rng(self) -> random.Random:
        self.shuffles += 1
        # one shuffler serves every game: seeding a Random per reshuffle cost a tenth
        # of the explorer's time, and the explorer runs one action at a time
        _SHUFFLER.game = self
        return _SHUFFLER

    def _start_color(self) -> int:
        """A start color drawn at random (``color_at_random``): every color is a chance
        outcome of its own."""
        self.shuffles += 1  # as the engine's draw of it
        return self.choose(list(range(len(self.deck.colors))))

    def _reshuffle(self) -> None:
        super()._reshuffle()
        self.events |= RESHUFFLED
        self.floor = 0
        self.log = None if self.log is None else [*self.log, -1]

    def _pop_card(self) -> int | None:
        if not self.pile:
            self._reshuffle()
            if not self.pile:
                self.events |= SHORT
                return None
        ordered = sorted(self.pile)
        # the cards still to come from this pile: the rest of the draw, or all it holds
        coming = min(self.left, len(ordered))
        face = self.choose(sorted(set(ordered)), cap=ordered[len(ordered) - max(coming, 1)])
        self.left -= 1
        self.pile.remove(face)
        if self.log is not None:
            self.log.append(face)
        return face


# A Python class, not compiled (setup.py): mypyc cannot build a native subclass of
# random.Random. Defined after ExploreGame, which its annotation names: a compiled module
# whose Python class names a native class defined further down crashed at import.
@mypyc_attr(native_class=False)
class _Shuffler(random.Random):
    """What ``ExploreGame._rng`` hands to the engine's shuffles: no randomness.

    After RESHUFFLE-1 the order does not matter (``_pop_card`` chooses); while the
    start card is turned again (START-WD4) the chosen face is put on top."""

    game: ExploreGame

    def __init__(self) -> None:
        super().__init__(0)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        game = self.game
        if not (game.dealing and x is game.pile):
            # RESHUFFLE-1 (even during the deal, for START-D2's draw) shuffles a new
            # list; only START-WD4 shuffles the pile itself
            return
        game.events |= START_AGAIN
        again = {i for i, k in enumerate(game.f_kind)
                 if (s := game.rules.start_rule(k)) is not None and s.turn_another_card}
        face = game.choose(sorted(set(x) - again))
        x.remove(face)
        x.append(face)


_SHUFFLER = _Shuffler()


def outcomes(game: ExploreGame, action: Action) -> Iterator[tuple[tuple[int, ...],
                                                                  ExploreGame]]:
    """Every outcome of a legal ``action`` (on copies), one per script of chance choices,
    in the lexicographic order of the scripts.

    Each run takes the first option at every choice its script does not make and notes
    the others; their scripts are run next, deepest choice first. So every run is an
    outcome (re-running from the start after a NeedChoice wasted a run per choice)."""
    stack: list[tuple[int, ...]] = [()]
    while stack:
        new = game.copy()
        new.script, new.pos, new.events = stack.pop(), 0, 0
        branches: list[tuple[int, list[int]]] = []
        new.branches = branches
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
