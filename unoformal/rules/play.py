"""Playing a card, stated once as a guarded command per kind of card
(:mod:`unoformal.language`) for a table: PLAY-1's matching, DRAW-1's drawn card,
NOSTACK-1's answers, WD4-1's legality, UNO-1's call and EXT-SHORT, then the card's effect.

One command per kind, as the relation has one action per kind (``play_number``,
``play_skip`` ...): the table's values for that kind fold into its guard and effect.

The guard has two parts. :func:`playable` says whether a card may be played now, and is
what every other move asks (may the player draw, keep the card drawn, misplay it); the
command adds that the card is in the hand and that a UNO said with it is said rightly.
Its conjuncts come in the order of the refusals a user reads: after a draw, only the
card drawn; while a draw card waits, only an answer; then WD4-1, then the match, then
EXT-SHORT.

The effect places the card (hand to discard, the color, WD4-1's verdict), opens the UNO
window, and lets the card take effect: the primitives of :mod:`unoformal.rules.effects`
(skip, reverse, the draw cards, a round won).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from unoformal.language.commands import Command
from unoformal.language.conditions import (
    PENDING_RULE,
    Both,
    CanEffect,
    CardOfColor,
    Conjunct,
    Differ,
    DrawnOnly,
    Either,
    GoesOut,
    HoldsCard,
    IsTop,
    Legal,
    Matches,
    NamesCurrent,
    OffenderHolds,
    OnOtherColor,
    PendingIn,
    PhaseIn,
    PhaseIs,
    PhaseNot,
    SameNumber,
    SameSeat,
    SaysUno,
    Unanswering,
    UnoCall,
    Wd4Legal,
    WindowOf,
)
from unoformal.language.coverage import Label
from unoformal.language.effects import (
    Effect,
    Mark,
    OpenWindow,
    PassHands,
    PlaceCard,
    Shows,
    Sorts,
    When,
)
from unoformal.language.protocols import Actor, Who
from unoformal.rulebook.cards import Face, Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import JumpWindow, RuleTable, SeveralThen, SwapWith
from unoformal.rules.challenge import legality
from unoformal.rules.effects import (
    LAST_DRAW_CARD,
    answers,
    card_effect,
    deflects,
    jump_adds,
    stacks_last_card,
)
from unoformal.rules.house import changed_guard, knocking, then
from unoformal.rules.state import DRAWN, MORE, OVER, PLAY, RESPOND
from unoformal.rules.turn import color_first, turn_begins

_K = Kind
# What coverage counts of a play (unoformal.language.effects.Shows): PLAY-1's match, read
# before the card is placed, and what the card then does.
BY_COLOR = Label("PLAY-1", "by-color", "a card played on the current color")
BY_NUMBER = Label("PLAY-1", "by-number", "a number played on the same number, other color",
                  (_K.NUMBER,))
BY_SYMBOL = Label("PLAY-1", "by-symbol", "an action card played on the same symbol, other "
                  "color", (_K.SKIP, _K.REVERSE, _K.DRAW_TWO))
WILD_PLAYED = Label("PLAY-1", "wild", "a wild card played", (_K.WILD, _K.WILD_DRAW_FOUR))
NUMBER_PLAYED = Label("PLAY-1", "number", "a number card played: the turn passes on",
                      (_K.NUMBER,))
SAID_WITH_CARD = Label("UNO-1", "said-with-card", "UNO said with the next-to-last card")
WINDOW_OPENS = Label("UNO-1", "window-opens", "UNO not said with the next-to-last card: "
                     "the player can be caught until the next turn begins")
LAST_CARD = Label("END-1", "last-card", "the last card played ends the round")


def playable(table: RuleTable, kind: Kind) -> tuple[Conjunct, ...]:
    """PLAY-1, DRAW-1, NOSTACK-1 (and EXT-LAST under its stacking), WD4-1, EXT-SHORT:
    whether a card of ``kind`` in the hand may be played now."""
    effect = table.effect(kind)
    draw = table.draw.id
    guard = [
        Conjunct(DrawnOnly(table.draw.may_play_drawn), draw,
                 "after drawing only the drawn card may be played", caused=True),
    ]
    if effect.victim_draws:
        guard.append(Conjunct(answers(table, kind), table.no_stacking.id,
                              "the victim of a draw card cannot answer it", caused=True))
        if stacks_last_card(table, kind) is False:
            guard.append(Conjunct(OffenderHolds(), table.last_draw_card_drawn.id,
                                  "{offender} went out with the card that waits, so it "
                                  "is not answered: {actor} draws its cards (END-1)"))
    else:
        guard.append(Conjunct(answers(table, kind), PENDING_RULE, "{actor} must {may}",
                              caused=True))
        guard += _deflecting(table, kind)
    guard.append(Conjunct(PhaseIn(_PLAY_PHASES + ((MORE,) if table.several.enabled else ())),
                          "PLAY-1", "nothing to play now"))
    guard += _more(table, kind)
    if kind is Kind.WILD_DRAW_FOUR and not table.wd4_legality.bluff_playable:
        guard.append(Conjunct(Unanswering(Wd4Legal()), table.wd4_legality.id,
                              "Wild Draw Four while holding {blocking}"))
    guard.append(Conjunct(Unanswering(Matches(kind)), "PLAY-1",
                          "{card} does not match {top} / {color}"))
    if effect.victim_draws and not effect.victim_may_challenge \
            and not table.draw_what_is_left.enabled:
        guard.append(Conjunct(Unanswering(CanEffect(effect)), table.draw_what_is_left.id,
                              "its victim cannot draw the cards it names"))
    # a rule file's changes to whether a card may be played (``play``): every reader of
    # these conjuncts (the play's guard, the engine's listing, the relation) reads them
    return changed_guard(table, "play", tuple(guard), kind)


_PLAY_PHASES = (PLAY, DRAWN, RESPOND)


def _more(table: RuleTable, kind: Kind) -> tuple[Conjunct, ...]:
    """SEVERAL: once its player keeps the turn after a number card, only a number card of
    that number may follow (``same-number``), or any card that may be played
    (``any-playable``, which adds nothing: PLAY-1's match still holds)."""
    rule = table.several
    if not rule.enabled or rule.then is SeveralThen.ANY_PLAYABLE:
        return ()
    said = "after a number card only another card of its number may be played, or a pass"
    if kind is not Kind.NUMBER:
        return (Conjunct(PhaseNot(MORE), rule.id, said),)
    return (Conjunct(Either((PhaseNot(MORE), SameNumber())), rule.id, said),)


def _deflecting(table: RuleTable, kind: Kind) -> tuple[Conjunct, ...]:
    """NOSTACK-1's deflection, for a card of ``kind`` that passes a draw card on: it
    matches the current color (unless ``deflect_any_color``), and, as an answer under
    EXT-LAST, never passes on a draw card its player went out with."""
    waiting = deflects(table, kind)
    if not waiting:
        return ()
    stack = table.no_stacking
    out: list[Conjunct] = []
    if not stack.deflect_any_color:
        out.append(Conjunct(Either((PhaseNot(RESPOND), Matches(kind))), stack.id,
                            "{card} does not match {top} / {color}: a card that passes a "
                            "draw card on matches it"))
    if any(stacks_last_card(table, p) is False for p in waiting):
        out.append(Conjunct(OffenderHolds(), table.last_draw_card_drawn.id,
                            "{offender} went out with the card that waits, so it is not "
                            "passed on: {actor} draws its cards (END-1)"))
    return tuple(out)


def play(table: RuleTable, kind: Kind, able: tuple[Conjunct, ...] | None = None,
         exchange: bool | None = None) -> Command:
    """The player to move plays a card of ``kind``; it takes effect. ``able``: the
    card's :func:`playable` conjuncts, when already built. ``exchange``: SEVEN-O's play of
    a number that swaps hands with a chosen player (True) or passes every hand on (False)."""
    effect = table.effect(kind)
    uno = table.uno
    allowed = uno.say_with_card and uno.enabled
    steps: list[Effect] = [
        *turn_begins(table),
        *_matched(table, kind),
        PlaceCard(kind, effect.victim_may_challenge, effect.chooses_color)]
    if kind is Kind.WILD_DRAW_FOUR:
        steps.append(Sorts(Legal(True), *legality(table, secret=True)))
    if uno.enabled:  # UNO-1 off: no call, so no window
        # counted here, where it opens: turn_begins closed any window before
        steps += (OpenWindow(uno.cards_left), Sorts(WindowOf(Who.ACTOR), WINDOW_OPENS))
    if exchange is not None:
        steps.append(_exchanged(table, exchange))
    steps += card_effect(table, kind, exchange is not None)
    steps += (Sorts(SaysUno(), SAID_WITH_CARD),
              Sorts(PhaseIs(OVER), LAST_DRAW_CARD if effect.victim_draws else LAST_CARD))
    choices = (Who.CARD, Who.COLOR) if effect.chooses_color else (Who.CARD,)
    name = f"play_{kind.name.lower()}"
    cites: tuple[str, ...] = ("PLAY-1", effect.id)
    aimed: tuple[Conjunct, ...] = ()
    said = "the player to move plays a card from their hand onto the discard pile"
    if exchange is not None:
        rule = table.seven_o
        name = "play_swap_hands" if exchange else "play_pass_hands"
        cites = (*cites, rule.id)
        if exchange:
            choices = (Who.CARD, Who.TARGET)
            aimed = _aimed(table)
            said = (f"the player to move plays a {rule.swap_rank} and swaps hands with "
                    + ("the next player" if rule.swap_with is SwapWith.NEXT
                       else "another player they choose"))
        else:
            said = (f"the player to move plays a {rule.pass_rank} and every hand passes to "
                    "the next player")
    return knocking(table, then(table, Command(
        name, tuple(dict.fromkeys(cites)), Actor.ON_TURN, choices,
        (color_first(table),
         Conjunct(HoldsCard(), "PLAY-1", "{card} is not in {actor}'s hand"),
         Conjunct(UnoCall(allowed, uno.says_with), uno.id,
                  "UNO is said with the next-to-last card" if uno.enabled
                  else "nobody calls UNO in these rules"),
         *(playable(table, kind) if able is None else able), *aimed),
        tuple(steps), said), kind))


def _aimed(table: RuleTable) -> tuple[Conjunct, ...]:
    """SEVEN-O: whose hand a 7 may be swapped with, as its reading says: another player
    (``chosen``), or the next player alone (``next``; the move still names them, so a
    record reads alike under both readings)."""
    rule = table.seven_o
    aimed = [Conjunct(Differ(Who.ACTOR, Who.TARGET), rule.id,
                      "{actor} cannot swap hands with themself")]
    if rule.swap_with is SwapWith.NEXT:
        aimed.append(Conjunct(SameSeat(Who.TARGET, Who.NEXT), rule.id,
                              "{actor} swaps hands with the next player only, not {target}"))
    return tuple(aimed)


def _exchanged(table: RuleTable, swap: bool) -> Effect:
    """SEVEN-O: the hands change places after the card is placed, unless it was the
    player's last card (the round then ends, and a winner is handed no cards)."""
    rule = table.seven_o
    way = Label(rule.id, "swap" if swap else "pass", f"a {rule.swap_rank} swaps two hands"
                if swap else f"a {rule.pass_rank} passes every hand on", (Kind.NUMBER,))
    return When(GoesOut(), (), (PassHands(swap),), ("goes_out", "hands_exchanged"),
                covers=(Label(rule.id, "last-card", "an exchange card played as the last "
                              "card exchanges nothing", (Kind.NUMBER,)), way))


def _matched(table: RuleTable, kind: Kind) -> tuple[Effect, ...]:
    """What coverage counts of the play before the card is placed: DRAW-1's drawn card,
    how PLAY-1 matched, NOSTACK-1's Draw Two on a Draw Two, WILD-1's color named."""
    steps: list[Effect] = [Sorts(PhaseIs(DRAWN), Label(table.draw.id, "play-drawn",
                                                       "the drawn card played at once"))]
    if kind.is_wild:
        steps.append(Shows(WILD_PLAYED))
    else:
        steps.append(Sorts(CardOfColor(), BY_COLOR,
                           BY_NUMBER if kind is Kind.NUMBER else BY_SYMBOL))
    if kind is Kind.NUMBER:
        steps.append(Shows(NUMBER_PLAYED))
    elif kind is Kind.DRAW_TWO:
        steps.append(Sorts(Both((PhaseIs(PLAY), OnOtherColor(kind))),
                           Label(table.no_stacking.id, "draw-two-on-draw-two", "a Draw Two "
                                 "on a Draw Two by symbol on a normal turn", (kind,))))
    elif kind is Kind.WILD:
        rule = table.effect(kind).id
        steps.append(Sorts(NamesCurrent(),
                           Label(rule, "names-current-color", "a Wild naming the current "
                                 "color", (kind,)),
                           Label(rule, "names-another-color", "a Wild naming another color",
                                 (kind,))))
    elif kind is Kind.WILD_DRAW_FOUR:
        steps.append(Shows(Label(table.effect(kind).id, "names-color", "a Wild Draw Four "
                                 "played, its player names the color", (kind,))))
    return tuple(steps)


@dataclass(frozen=True)
class Plays:
    """The play of each kind of card, built for one table. A kind's play may be split by
    rank (``ranked``): a house rule whose cards of one rank do more than the others of
    their kind gives that rank a command of its own, with the choices it needs."""

    commands: dict[Kind, Command]
    playable: dict[Kind, tuple[Conjunct, ...]]
    ranked: dict[tuple[Kind, int], Command] = field(default_factory=dict)
    # JUMP-IN: per play command's name, the same card played out of turn (none when off)
    jumps: dict[str, Command] = field(default_factory=dict)

    def all(self) -> tuple[Command, ...]:
        """Every play command: the kinds' in rulebook order, each kind's ranks after it."""
        out: list[Command] = []
        for kind, command in self.commands.items():
            out.append(command)
            out += [c for (k, _), c in sorted(self.ranked.items(), key=_by_rank) if k is kind]
        return tuple(out)

    def of(self, face: Face) -> Command:
        """The command that plays ``face``."""
        if face.rank is not None:
            command = self.ranked.get((face.kind, face.rank))
            if command is not None:
                return command
        return self.commands[face.kind]

    def faces(self, deck: Deck, name: str) -> list[int]:
        """The faces of ``deck`` (their indices) that the play command ``name`` plays."""
        return [i for i, face in enumerate(deck.faces) if self.of(face).name == name]

    def jump(self, face: Face) -> Command | None:
        """The command that plays ``face`` out of turn (JUMP-IN), None where none does."""
        return self.jumps.get(self.of(face).name)

    def kind(self, name: str) -> Kind:
        """The kind of card the play command ``name`` plays."""
        for kind, command in self.commands.items():
            if command.name == name:
                return kind
        for (kind, _), command in self.ranked.items():
            if command.name == name:
                return kind
        raise KeyError(f"no play command {name!r}")


def _by_rank(item: tuple[tuple[Kind, int], Command]) -> int:
    return item[0][1]


@cache
def plays(table: RuleTable) -> Plays:
    """The plays of ``table``, one per kind of card, and one per rank a house rule gives
    its own (built once per table)."""
    held = {face.kind for face in Deck.of(table).faces}
    kinds = [k for k in Kind if k in held]  # the deck's kinds, as the relation's actions
    able = {k: playable(table, k) for k in kinds}  # the very conjuncts the plays end with
    out = Plays({k: play(table, k, able[k]) for k in kinds}, able, ranked(table))
    if table.jump_in.enabled:
        out.jumps.update((c.name, jump(table, c, out.kind(c.name)))
                         for c in out.all() if c.name in jumpable(out))
    return out


def jumpable(built: Plays) -> tuple[str, ...]:
    """The play commands whose cards can be identical to the top: every kind's but the
    wilds' (JUMP-IN: a wild's color is named, not the card's)."""
    return tuple(c.name for c in built.all() if not built.kind(c.name).is_wild)


def jump(table: RuleTable, played: Command, kind: Kind) -> Command:
    """JUMP-IN: the card of the play command ``played`` played out of turn by a player who
    holds one identical to the top: the turn is theirs (``Mark``: a round the card ends at
    once is left on the jumper's turn), then the play runs as on their turn, its moves of
    the turn counted from the actor. The guard: while the player to move has yet to play
    or draw (:func:`_jump_when`), the card identical to the top, then the play's own
    conjuncts but its color phase's (the phase is the play phase) and those the jump's
    phase replaces. Its readings: :func:`_jump_when` and :func:`_jump_effect`."""
    rule = table.jump_in
    now = "it is {to_move}'s turn, not {actor}'s"
    when = _jump_when(table, kind)
    replaced = (answers(table, kind),) if len(when) > 1 else ()
    return Command(
        "jump_" + played.name.removeprefix("play_"), (*played.cites, rule.id), Actor.OTHER,
        played.choices,
        (*when,
         Conjunct(IsTop(), rule.id, now + ": out of turn only a card identical to the top, "
                  "{top}, may be played (jumping in)"),
         *(c for c in played.guard[1:] if c.cond not in replaced)),
        (Shows(Label(rule.id, "jump-in", "a player jumps in out of turn with a card "
                     "identical to the top", (kind,))),
         Mark("turn", Who.ACTOR), *_jump_effect(table, played)),
        "a player who is not to move plays a card identical to the top of the discard "
        "pile; play goes on from them")


def _jump_when(table: RuleTable, kind: Kind) -> tuple[Conjunct, ...]:
    """JUMP-IN: when a jump may be made. Before the player to move plays or draws, with
    nothing waiting; under the ``adds`` reading a Draw Two may also join a Draw Two that
    waits for its victim (who is to move, so cannot jump), unless the Draw Two's player
    went out with it (END-1: the round ends once it is drawn)."""
    rule = table.jump_in
    now = "it is {to_move}'s turn, not {actor}'s"
    if not jump_adds(table, kind):
        return (Conjunct(PhaseIs(PLAY), rule.id, now + ", and nobody jumps in once they have "
                         "drawn or while a card waits for its answer or color"),)
    return (Conjunct(Either((PhaseIs(PLAY), Both((PhaseIs(RESPOND), PendingIn((kind,)))))),
                     rule.id, now + ", and nobody jumps in once they have drawn or while a "
                     "card other than a Draw Two waits for its answer or color"),
            Conjunct(OffenderHolds(), rule.id, "{offender} went out with the Draw Two that "
                     "waits: nobody adds to it"))


def _jump_effect(table: RuleTable, played: Command) -> tuple[Effect, ...]:
    """JUMP-IN: the play's effect, run for the jumper. Under the ``closes`` reading it
    begins with the turn's beginning, which closes any UNO window (UNO-1); under
    ``stays-open`` a turn taken out of turn is not the next turn, so the window is left
    as it is (the jumper's own, where their card opens one, takes its place)."""
    if table.jump_in.uno_window is JumpWindow.CLOSES:
        return played.effect
    begins = turn_begins(table)
    return tuple(step for step in played.effect if step not in begins)


def ranked(table: RuleTable) -> dict[tuple[Kind, int], Command]:
    """The plays of the ranks a house rule gives a command of their own (none in the
    rulebook): SEVEN-O's swap and pass, for the ranks the deck holds."""
    rule = table.seven_o
    if not rule.enabled:
        return {}
    held = {face.rank for face in Deck.of(table).faces if face.kind is Kind.NUMBER}
    return {(Kind.NUMBER, rank): play(table, Kind.NUMBER, exchange=swap)
            for rank, swap in ((rule.swap_rank, True), (rule.pass_rank, False))
            if rank in held}


def command(table: RuleTable, name: str) -> Command:
    """The play command ``name`` built anew for ``table`` (the relation builds it through a
    view of the table that notes the entries it reads, so it is not taken from a cache)."""
    for kind in Kind:
        if name == f"play_{kind.name.lower()}":
            return play(table, kind)
    for built in ranked(table).values():
        if built.name == name:
            return built
    if name.startswith("jump_"):
        played = "play_" + name.removeprefix("jump_")
        kind = next((k for k in Kind if played == f"play_{k.name.lower()}"), Kind.NUMBER)
        return jump(table, command(table, played), kind)
    raise KeyError(f"no play command {name!r}")
