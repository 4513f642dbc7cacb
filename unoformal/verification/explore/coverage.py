"""Which rule, and which branch of a rule, each transition of the state graph exercises.

The explorer labels every edge it finds (and every initial and round-over state) with
the (rule ID, branch) pairs that ran. A move's labels are the commands' own
(:class:`~unoformal.language.effects.Shows`, ``Sorts`` and a ``When``'s two ways, and the
engine's reshuffle and short draw): the engine appends them to ``Game.ran`` while the
move runs, so a label names what ran, never a guess made from the states afterwards. The
deal's start card is a command too (``Game.started`` holds what it ran); the score is not
yet, and its labels are read here from the finished state.

The catalogue of what may be covered is built the same way: the labels of the table's
commands, and the branches below that no command states. A branch never labelled in a
complete graph is never enabled in that deck: a dead rule, or a dead branch.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from unoformal.engine.game import Game
from unoformal.language.commands import labels_of
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import RuleTable
from unoformal.rules.book import commands

Label = tuple[str, str]


@dataclass(frozen=True)
class Branch:
    rule: str
    name: str
    text: str
    kinds: tuple[Kind, ...] = ()  # cards it needs: dead "by deck" when none are dealt


_K = Kind
# What no command states: the deal itself (DEAL-2), the chance of a draw (RESHUFFLE-1,
# EXT-SHORT: the engine's draw labels them) and the score (SCORE-1).
OUTSIDE_COMMANDS: tuple[Branch, ...] = (
    Branch("DEAL-2", "deal", "hands dealt, the start card turned"),
    Branch("RESHUFFLE-1", "reshuffle", "the discard pile below the top becomes the pile"),
    Branch("SCORE-1", "numbers", "number cards left in a hand score face value",
           (_K.NUMBER,)),
    Branch("SCORE-1", "actions", "action cards left in a hand score action_points",
           (_K.SKIP, _K.REVERSE, _K.DRAW_TWO)),
    Branch("SCORE-1", "wilds", "wild cards left in a hand score wild_points",
           (_K.WILD, _K.WILD_DRAW_FOUR)),
    Branch("EXT-SHORT", "draw-what-is-left", "fewer cards left than named: what is left "
           "is drawn"),
)


def stated(rules: RuleTable) -> list[Branch]:
    """Every branch the commands of ``rules`` state, once each, in the commands' order."""
    seen: dict[Label, Branch] = {}
    for command in commands(rules):
        for label in labels_of(command):
            seen.setdefault((label.rule, label.branch),
                            Branch(label.rule, label.branch, label.text, label.kinds))
    return list(seen.values())


def catalogue(rules: RuleTable) -> list[Branch]:
    """The branches of the entries this table has switched on: what its commands state
    and what no command states, in the order of the table's entries (a rule's branches
    in the order its commands state them)."""
    order: dict[str, int] = {}
    for _, rule in rules.entries():
        if rule.enabled:
            order.setdefault(rule.id, len(order))
    found = [b for b in (*OUTSIDE_COMMANDS, *stated(rules)) if b.rule in order]
    return sorted(found, key=lambda b: order[b.rule])


def text_of(rules: RuleTable) -> dict[Label, str]:
    """The words of every branch of ``rules``, by label."""
    return {(b.rule, b.name): b.text for b in (*OUTSIDE_COMMANDS, *stated(rules))}


# Entries that are not transitions of one round, with the reason the graph does not
# (and need not) show them.
OUTSIDE: dict[str, str] = {
    "DECK-1": "the deck itself: every deal the explorer makes is checked to be exactly it",
    "DECK-2": "the number of players: fixed per preset (2-4)",
    "DECK-3": "scope (what is not in the game): nothing to fire",
    "DEAL-1": "choosing the first dealer happens before the round; the explorer fixes the "
              "dealer (every seat is alike, so the graphs for other dealers are the same up "
              "to renaming seats)",
    "END-2": "between rounds: the explorer's graph is one round",
    "SCORE-2": "between rounds: the explorer's graph is one round",
    "MERCY": "settled after every move, not by a branch of a command: the graph holds who "
             "is knocked out (its key), and no branch counts it",
}


# The kind the labels of a score test, as a constant: compiled (setup.py), reading a
# member of a Python enum class costs a lookup through the class each time.
NUMBER: Final = Kind.NUMBER


class Labeler:
    """The (rule, branch) labels of a deal, a move and a finished round."""

    def __init__(self, game: Game) -> None:
        self.kind = game.f_kind

    def initial(self, g: Game) -> list[Label]:
        """DEAL-2, and what turning the start card ran (``Game.started``)."""
        return [("DEAL-2", "deal"), *g.started]

    def over(self, g: Game) -> Iterator[Label]:
        """SCORE-1: what the cards left in the losers' hands score."""
        for seat, hand in enumerate(g.hands):
            if seat == g.winner:
                continue
            for c in hand:
                kind = self.kind[c]
                if kind is NUMBER:
                    yield ("SCORE-1", "numbers")
                elif kind.is_wild:
                    yield ("SCORE-1", "wilds")
                else:
                    yield ("SCORE-1", "actions")

    def edge(self, after: Game) -> list[Label]:
        """What the move that made ``after`` ran (``after.ran``, which the caller set to a
        list before the move)."""
        ran = after.ran
        assert ran is not None, "coverage is counted only where Game.ran is a list"
        return ran
