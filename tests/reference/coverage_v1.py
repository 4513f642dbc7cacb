"""The explorer's labeller before coverage moved into the commands, frozen (from commit
bf6b9ed, ``unoformal/verification/explore/coverage.py``): it works each edge's labels out
from the action, the states before and after and the chance events.
``coverage_agree.py`` checks the labels the commands count against it. Never compiled.

The original docstring follows.

Which rule, and which branch of a rule, each transition of the state graph exercises.

The explorer labels every edge it finds (and every initial and round-over state) with
the (rule ID, branch) pairs it shows enabled, by looking at what the engine did: the
action, the state before and after, and the chance events. A branch never labelled in
a complete graph is never enabled in that deck: a dead rule, or a dead branch.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import RuleTable
from unoformal.rules.state import DRAWN, OVER, PLAY, RESPOND, START
from unoformal.verification.explore.chance import RESHUFFLED, SHORT, START_AGAIN

Label = tuple[str, str]


@dataclass(frozen=True)
class Branch:
    rule: str
    name: str
    text: str
    kinds: tuple[Kind, ...] = ()  # cards it needs: dead "by deck" when none are dealt
    stacking: bool = False  # only where a draw card may be answered (NOSTACK-1's variant)


_K = Kind
BRANCHES: tuple[Branch, ...] = (
    Branch("DEAL-2", "deal", "hands dealt, the start card turned"),
    Branch("DEAL-3", "number-start", "a number start card: the dealer's left plays first"),
    Branch("START-D2", "start", "Draw Two start: the first player draws and is skipped",
           (_K.DRAW_TWO,)),
    Branch("START-SKIP", "start", "Skip start: the first player is skipped", (_K.SKIP,)),
    Branch("START-REV", "start", "Reverse start: the dealer plays first, to the right",
           (_K.REVERSE,)),
    Branch("START-WILD", "start", "Wild start: the first player chooses the color",
           (_K.WILD,)),
    Branch("START-WILD", "choose-color", "the first player names the color", (_K.WILD,)),
    Branch("START-WD4", "turned-again", "Wild Draw Four start: back in the deck, another "
           "card turned", (_K.WILD_DRAW_FOUR,)),
    Branch("PLAY-1", "by-color", "a card played on the current color"),
    Branch("PLAY-1", "by-number", "a number played on the same number, other color",
           (_K.NUMBER,)),
    Branch("PLAY-1", "by-symbol", "an action card played on the same symbol, other color",
           (_K.SKIP, _K.REVERSE, _K.DRAW_TWO)),
    Branch("PLAY-1", "wild", "a wild card played", (_K.WILD, _K.WILD_DRAW_FOUR)),
    Branch("PLAY-1", "number", "a number card played: the turn passes on", (_K.NUMBER,)),
    Branch("DRAW-1", "draw", "a player draws"),
    Branch("DRAW-1", "play-drawn", "the drawn card played at once"),
    Branch("DRAW-1", "keep-drawn", "the drawn card kept: the turn ends"),
    Branch("RESHUFFLE-1", "reshuffle", "the discard pile below the top becomes the pile"),
    Branch("HIDDEN-1", "challenger-sees-hand", "the challenged hand is shown to the "
           "challenger only", (_K.WILD_DRAW_FOUR,)),
    Branch("SKIP-1", "skip", "the next player loses the turn", (_K.SKIP,)),
    Branch("REV-1", "direction-flips", "the direction of play flips", (_K.REVERSE,)),
    Branch("D2-1", "victim-draws", "the next player draws and loses the turn",
           (_K.DRAW_TWO,)),
    Branch("WILD-1", "names-current-color", "a Wild naming the current color", (_K.WILD,)),
    Branch("WILD-1", "names-another-color", "a Wild naming another color", (_K.WILD,)),
    Branch("WD4-2", "names-color", "a Wild Draw Four played, its player names the color",
           (_K.WILD_DRAW_FOUR,)),
    Branch("WD4-2", "accept", "the victim accepts: draws and loses the turn",
           (_K.WILD_DRAW_FOUR,)),
    Branch("NOSTACK-1", "draw-two-on-draw-two", "a Draw Two on a Draw Two by symbol on a "
           "normal turn", (_K.DRAW_TWO,)),
    Branch("NOSTACK-1", "victim-holds-draw-card", "the victim of a draw card holds a draw "
           "card it may not answer with", (_K.DRAW_TWO, _K.WILD_DRAW_FOUR)),
    Branch("TWO-1", "reverse-acts-as-skip", "two players: a Reverse gives the turn back",
           (_K.REVERSE,)),
    Branch("MISPLAY-1", "misplay", "an incorrect card taken back, penalty, turn passes"),
    Branch("ADVICE-1", "advise", "a player who advises draws the penalty"),
    Branch("WD4-1", "legal", "a Wild Draw Four played holding no card of the current color",
           (_K.WILD_DRAW_FOUR,)),
    Branch("WD4-1", "bluff", "a Wild Draw Four played holding the current color",
           (_K.WILD_DRAW_FOUR,)),
    Branch("CHAL-1", "challenge", "a challenge: the hand is shown", (_K.WILD_DRAW_FOUR,)),
    Branch("CHAL-2", "upheld", "challenge upheld: the offender draws, the challenger keeps "
           "the turn", (_K.WILD_DRAW_FOUR,)),
    Branch("CHAL-3", "failed", "challenge failed: the challenger draws more, loses the turn",
           (_K.WILD_DRAW_FOUR,)),
    Branch("CHAL-4", "named-color-stays", "after a challenge the named color stays",
           (_K.WILD_DRAW_FOUR,)),
    Branch("UNO-1", "said-with-card", "UNO said with the next-to-last card"),
    Branch("UNO-1", "said-afterwards", "UNO said afterwards, before an accusation"),
    Branch("UNO-1", "caught", "a player caught with one card and no UNO draws the penalty"),
    Branch("UNO-1", "window-closes", "the next turn begins: the missed UNO is safe"),
    Branch("END-1", "last-card", "the last card played ends the round"),
    Branch("END-1", "last-draw-card-resolved", "a last Draw Two / Wild Draw Four resolved "
           "first, then the round ends", (_K.DRAW_TWO, _K.WILD_DRAW_FOUR)),
    Branch("END-1", "challenge-sends-cards-back", "the challenge sends cards back to the "
           "player who went out: the round goes on", (_K.WILD_DRAW_FOUR,)),
    Branch("SCORE-1", "numbers", "number cards left in a hand score face value",
           (_K.NUMBER,)),
    Branch("SCORE-1", "actions", "action cards left in a hand score action_points",
           (_K.SKIP, _K.REVERSE, _K.DRAW_TWO)),
    Branch("SCORE-1", "wilds", "wild cards left in a hand score wild_points",
           (_K.WILD, _K.WILD_DRAW_FOUR)),
    Branch("EXT-PASS", "pass", "nothing to draw: the player passes"),
    Branch("EXT-SHORT", "draw-what-is-left", "fewer cards left than named: what is left "
           "is drawn"),
    Branch("EXT-START", "wd4-stays", "only Wild Draw Fours left: the start card stays as a "
           "Wild", (_K.WILD_DRAW_FOUR,)),
    Branch("EXT-LAST", "drawn-not-answered", "a last draw card stacking could answer is drawn "
           "by the next player, and the round ends", (_K.DRAW_TWO, _K.WILD_DRAW_FOUR),
           stacking=True),
)

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
}


def catalogue(rules: RuleTable) -> list[Branch]:
    """The branches of the entries this table has switched on (those about answering a
    draw card only where one may be answered)."""
    on = {rule.id for _, rule in rules.entries() if rule.enabled}
    stacks = rules.no_stacking.victim_may_answer
    return [b for b in BRANCHES if b.rule in on and (stacks or not b.stacking)]


# The members the labels test, as constants: compiled (setup.py), reading a member of a
# Python enum class costs a lookup through the class each time; a Final name is a C static.
ACT_PLAY: Final = ActionType.PLAY
ACT_DRAW: Final = ActionType.DRAW
ACT_PASS: Final = ActionType.PASS
ACT_ACCEPT: Final = ActionType.ACCEPT
ACT_CHALLENGE: Final = ActionType.CHALLENGE
ACT_MISPLAY: Final = ActionType.MISPLAY
NUMBER: Final = Kind.NUMBER
SKIP: Final = Kind.SKIP
REVERSE: Final = Kind.REVERSE
DRAW_TWO: Final = Kind.DRAW_TWO
WILD: Final = Kind.WILD
WILD_DRAW_FOUR: Final = Kind.WILD_DRAW_FOUR


class Labeler:
    """Turns what the engine did into (rule, branch) labels."""

    def __init__(self, game: Game) -> None:
        self.face = game.deck.index  # card code -> face
        self.kind = game.f_kind
        self.wild = [k.is_wild for k in game.f_kind]  # per face: a property call saved
        self.fcolor = game.f_color
        self.points = game.deck.points

    def initial(self, g: Game, events: int) -> Iterator[Label]:
        yield ("DEAL-2", "deal")
        if events & START_AGAIN:
            yield ("START-WD4", "turned-again")
        if g.phase == START or not g.discard:
            return
        kind = self.kind[g.discard[-1]]
        rule = g.rules.start_rule(kind)
        if kind is WILD_DRAW_FOUR:
            yield ("EXT-START", "wd4-stays")
        elif rule is None:
            yield ("DEAL-3", "number-start")
        else:
            yield (rule.id, "start")

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

    def edge(self, b: Game, a: Action, c: Game, events: int) -> list[Label]:
        # A list, not a generator: labels are read for every edge the search finds, and a
        # generator object per edge (and per nested helper) was a tenth of their cost.
        out: list[Label] = []
        if events & RESHUFFLED:
            out.append(("RESHUFFLE-1", "reshuffle"))
        if events & SHORT:
            out.append(("EXT-SHORT", "draw-what-is-left"))
        if b.uno_window is not None and c.uno_window is None and a.type in (
                ACT_PLAY, ACT_DRAW, ACT_MISPLAY) \
                and a.player != b.names[b.uno_window]:
            out.append(("UNO-1", "window-closes"))
        if b.phase == RESPOND and self._victim_holds_draw_card(b):
            out.append(("NOSTACK-1", "victim-holds-draw-card"))
        t = a.type
        if t is ACT_PLAY:
            self._play(b, a, c, out)
        elif t is ACT_DRAW:
            out.append(("DRAW-1", "draw"))
        elif t is ACT_PASS:
            out.append(("DRAW-1", "keep-drawn") if b.phase == DRAWN else ("EXT-PASS", "pass"))
        elif t is ACT_ACCEPT:
            out.append(("WD4-2", "accept") if b.pending_kind is WILD_DRAW_FOUR else (
                "D2-1", "victim-draws"))
            if c.phase == OVER:
                out.append(("END-1", "last-draw-card-resolved"))
                if b.pending_kind in b.rules.no_stacking.answers:
                    out.append(("EXT-LAST", "drawn-not-answered"))
        elif t is ACT_CHALLENGE:
            self._challenge(b, c, out)
        else:
            out.extend(_SIMPLE[t])
        return out

    def _victim_holds_draw_card(self, b: Game) -> bool:
        return any(self.kind[x] in (DRAW_TWO, WILD_DRAW_FOUR)
                   for x in b.hands[b.turn])

    def _play(self, b: Game, a: Action, c: Game, out: list[Label]) -> None:
        face = self.face[a.card or ""]
        kind = self.kind[face]
        if b.phase == DRAWN:
            out.append(("DRAW-1", "play-drawn"))
        if self.wild[face]:
            out.append(("PLAY-1", "wild"))
        elif self.fcolor[face] == b.color:
            out.append(("PLAY-1", "by-color"))
        else:
            out.append(("PLAY-1", "by-number" if kind is NUMBER else "by-symbol"))
        self._effect(b, face, kind, c, out)
        if a.uno:
            out.append(("UNO-1", "said-with-card"))
        if c.phase == OVER:
            out.append(("END-1", "last-draw-card-resolved" if b.rules.effect(kind).victim_draws
                        else "last-card"))

    def _effect(self, b: Game, face: int, kind: Kind, c: Game, out: list[Label]) -> None:
        if kind is NUMBER:
            out.append(("PLAY-1", "number"))
        elif kind is SKIP:
            out.append(("SKIP-1", "skip"))
        elif kind is REVERSE:
            out.append(("REV-1", "direction-flips") if c.direction != b.direction else (
                "TWO-1", "reverse-acts-as-skip"))
        elif kind is DRAW_TWO:
            if c.phase != RESPOND:
                out.append(("D2-1", "victim-draws"))
            top = b.discard[-1]
            if b.phase == PLAY and self.kind[top] is DRAW_TWO and \
                    self.fcolor[top] != self.fcolor[face]:
                out.append(("NOSTACK-1", "draw-two-on-draw-two"))
        elif kind is WILD:
            out.append(("WILD-1", "names-current-color" if c.color == b.color
                        else "names-another-color"))
        else:
            out.append(("WD4-2", "names-color"))
            out.append(("WD4-1", "legal" if c.wd4_legal else "bluff"))

    def _challenge(self, b: Game, c: Game, out: list[Label]) -> None:
        out.append(("CHAL-1", "challenge"))
        if c.reveal is not None:
            out.append(("HIDDEN-1", "challenger-sees-hand"))
        out.append(("CHAL-3", "failed") if b.wd4_legal else ("CHAL-2", "upheld"))
        if c.color == b.color:
            out.append(("CHAL-4", "named-color-stays"))
        offender = b.offender
        if offender is not None and not b.hands[offender] and c.phase != OVER:
            out.append(("END-1", "challenge-sends-cards-back"))
        if c.phase == OVER:
            out.append(("END-1", "last-draw-card-resolved"))


_SIMPLE: dict[ActionType, tuple[Label, ...]] = {
    ActionType.UNO: (("UNO-1", "said-afterwards"),),
    ActionType.CATCH: (("UNO-1", "caught"),),
    ActionType.CHOOSE_COLOR: (("START-WILD", "choose-color"),),
    ActionType.MISPLAY: (("MISPLAY-1", "misplay"),),
    ActionType.ADVISE: (("ADVICE-1", "advise"),),
}
