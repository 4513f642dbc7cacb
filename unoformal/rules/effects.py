"""What a card does once played, stated once as primitives of the rule language
(:mod:`unoformal.language`) for a table: SKIP-1, REV-1 and TWO-1, D2-1, WILD-1,
WD4-2 and NOSTACK-1's draws, and END-1's round won.

A card's effect in the table (:class:`~unoformal.rulebook.table.CardEffect`: how many seats
it skips, whether it reverses, how many cards its victim draws and whether they answer
first) folds here into a sequence of primitives, a Python ``if`` on a table value
staying a Python ``if``. What only the state decides is a labelled branch
(:class:`~unoformal.language.effects.When`): whether a Reverse acts as a Skip at this
number of players (TWO-1), and, with END-1's final draw switched off, whether the player
has just gone out. EXT-LAST settles a last draw card that stacking would let be answered.

The play commands (:mod:`unoformal.rules.play`) end with these steps; both backends
read them, the engine running each primitive and the relation encoding it.
"""

from __future__ import annotations

from unoformal.language.conditions import (
    Both,
    Cond,
    Either,
    GoesOut,
    HoldsKind,
    HoldsTopNumber,
    PendingIn,
    PhaseIs,
    PhaseNot,
    ReverseSkips,
    Unless,
)
from unoformal.language.coverage import Label
from unoformal.language.effects import (
    AddPending,
    Effect,
    EndIfOut,
    EndRound,
    FlipDirection,
    Mark,
    NoteEffect,
    NoteOut,
    PassTurn,
    SetPhase,
    Shows,
    Take,
    When,
)
from unoformal.language.protocols import Who
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import CardEffect, JumpedDrawTwo, RuleTable, SeveralExchange
from unoformal.rulebook.words import KIND_NAMES
from unoformal.rules.state import MORE, PLAY, RESPOND

# What coverage counts of a round a draw card ended (the play's, or its answer's).
LAST_DRAW_CARD = Label("END-1", "last-draw-card-resolved", "a last Draw Two / Wild Draw Four "
                       "resolved first, then the round ends", (Kind.DRAW_TWO, Kind.WILD_DRAW_FOUR))


def victim_draws(effect: CardEffect) -> Label:
    """What coverage counts where the victim of a card of ``effect`` draws its cards."""
    return Label(effect.id, "victim-draws", "the next player draws and loses the turn",
                 (effect.kind,))


def card_effect(table: RuleTable, kind: Kind, exchanges: bool) -> tuple[Effect, ...]:
    """The steps of a card of ``kind`` taking effect, then END-1: a player who went out
    wins once every draw is resolved, or at once where the table's final draw is off.
    ``exchanges``: SEVEN-O's 7 or 0, whose exchange SEVERAL may let end the turn."""
    effect = table.effect(kind)
    steps = _turn(table, effect, exchanges)
    if deflects(table, kind):
        return (When(PhaseIs(RESPOND), _deflected(table, kind), (NoteOut(), *steps),
                     ("deflects", "takes_effect"), part=".deflect"),)
    if effect.victim_draws and (not table.end_of_round.resolve_final_draw
                                or stacks_last_card(table, kind)):
        # END-1 switched off, or EXT-LAST off where this card may be answered: going out
        # with a draw card ends the round before its draw.
        return (When(GoesOut(), (EndRound(),), steps, ("goes_out", "takes_effect")),)
    return (NoteOut(), *steps)


def answers_to(table: RuleTable, pending: Kind) -> tuple[Kind, ...]:
    """NOSTACK-1 (or its stacking variant), stated once: the kinds of card that may
    answer a waiting draw card of kind ``pending`` (none under the rulebook). Every
    reader asks this: the play's guard and the victim's coverage (the language's
    conditions built from it), the card's effect, the refusal's words and the relation."""
    stack = table.no_stacking
    stacked = stack.answers if stack.victim_may_answer and pending in stack.answers else ()
    return (*stacked, *deflected_by(table, pending))


def deflected_by(table: RuleTable, pending: Kind) -> tuple[Kind, ...]:
    """NOSTACK-1's deflection (a house rule, off in the rulebook): the kinds of card that
    pass a waiting draw card of kind ``pending`` on to another victim."""
    stack = table.no_stacking
    return tuple(stack.deflect_with) if pending in stack.deflects else ()


def deflects(table: RuleTable, kind: Kind) -> tuple[Kind, ...]:
    """The kinds of waiting draw card a card of ``kind`` may deflect (none where it
    deflects nothing)."""
    return tuple(p for p in table.drawing_kinds() if kind in deflected_by(table, p))


def jump_adds(table: RuleTable, kind: Kind) -> bool:
    """JUMP-IN's ``adds`` reading: a Draw Two waits for its victim to accept it, so that
    an identical Draw Two jumped in on it adds its cards to those waiting."""
    rule = table.jump_in
    return rule.enabled and rule.draw_two is JumpedDrawTwo.ADDS and kind is Kind.DRAW_TWO


def waits(table: RuleTable, kind: Kind) -> bool:
    """Whether a card of ``kind`` that makes its victim draw waits for the victim's answer
    (a challenge, WD4-2; NOSTACK-1's stacking; JUMP-IN's ``adds``) rather than being drawn
    at once. Every reader asks this: the card's effect and the relation's phases."""
    effect = table.effect(kind)
    return bool(effect.victim_draws) and (effect.victim_may_challenge
                                          or bool(answers_to(table, kind))
                                          or jump_adds(table, kind))


def answered_by(table: RuleTable, kind: Kind) -> tuple[Kind, ...]:
    """The kinds of waiting draw card a card of ``kind`` may answer (NOSTACK-1)."""
    return tuple(p for p in table.drawing_kinds() if kind in answers_to(table, p))


def answers(table: RuleTable, kind: Kind) -> Cond:
    """NOSTACK-1 as a condition on a card of ``kind`` played: no draw card waits, or the
    one that waits may be answered with it."""
    waiting = answered_by(table, kind)
    if not waiting:
        return PhaseNot(RESPOND)
    return Either((PhaseNot(RESPOND), PendingIn(waiting)))


def holds_unanswerable(table: RuleTable) -> Cond:
    """The actor holds a draw card NOSTACK-1 does not let them answer the waiting one
    with (coverage of an accept)."""
    def unanswering(kind: Kind) -> Cond:
        waiting = answered_by(table, kind)
        return Both((HoldsKind(kind), Unless(PendingIn(waiting)))) if waiting \
            else HoldsKind(kind)

    return Either(tuple(unanswering(k) for k in table.drawing_kinds()))


def stacks_last_card(table: RuleTable, kind: Kind) -> bool | None:
    """EXT-LAST where NOSTACK-1's stacking lets a card of ``kind`` be answered (None
    elsewhere): whether one that is its player's last card ends the round at once (True,
    EXT-LAST off) or is drawn by the next player without an answer (False)."""
    if not answers_to(table, kind):
        return None
    return not table.last_draw_card_drawn.enabled


def _deflected(table: RuleTable, kind: Kind) -> tuple[Effect, ...]:
    """NOSTACK-1's deflection: a Skip or Reverse played on a waiting draw card passes it
    on, its count and kind unchanged, the deflector now the one it comes from: after a
    Skip to the next player, after a Reverse to the next in the flipped direction (at
    the player counts where a Reverse acts as a Skip, TWO-1, the direction stays and the
    turn goes back alike). With the last card the round ends at once: the deflector has
    gone out, and the waiting draw is nobody's."""
    stack = table.no_stacking
    named = KIND_NAMES[kind]
    moves: tuple[Effect, ...] = (PassTurn(1),)
    if table.effect(kind).reverses:
        moves = (When(ReverseSkips(), moves, (FlipDirection(), *moves),
                      ("reverse_skips", "reverse_flips"), part=".deflect.rev"),)
    return (NoteEffect(stack.id),
            Shows(Label(stack.id, f"deflect-{kind.name.lower().replace('_', '-')}",
                        f"a {named} passes a waiting draw card on", (kind,))),
            *moves,
            When(GoesOut(), (EndRound(),), (Mark("offender", Who.ACTOR),),
                 ("goes_out", "passes_on"),
                 covers=(Label(stack.id, "deflect-last-card", "a draw card passed on with "
                               "the last card: the round ends at once", (kind,)), None)))


def _more(table: RuleTable, moved: tuple[Effect, ...]) -> Effect:
    """SEVERAL: a player who still holds a number card of the number just played keeps the
    turn, in the phase in which more of it may follow; else the turn passes as ever (a
    player who went out holds none, so the round ends)."""
    rule = table.several
    return When(HoldsTopNumber(), (NoteEffect(None), SetPhase(MORE)), moved,
                ("keeps_turn", "turn_passes"),
                covers=(Label(rule.id, "keeps-turn", "a number card played while another "
                              "of its number is held: the turn stays", (Kind.NUMBER,)), None))


def _turn(table: RuleTable, effect: CardEffect, exchanges: bool) -> tuple[Effect, ...]:
    """REV-1 and TWO-1: a Reverse flips the direction, or at the player counts the table
    names acts as a Skip (and TWO-1 is then the cause)."""
    cause = effect.id if effect.skips else None  # SKIP-1 (a draw card's below)
    if not effect.reverses:
        return _moves(table, effect, effect.skips, cause, exchanges)
    return (When(ReverseSkips(),
                 _moves(table, effect, effect.skips + 1, table.two_players.id, exchanges),
                 (FlipDirection(), *_moves(table, effect, effect.skips, cause, exchanges)),
                 ("reverse_skips", "reverse_flips"), part=".rev",
                 covers=(Label(table.two_players.id, "reverse-acts-as-skip",
                               "two players: a Reverse gives the turn back", (effect.kind,)),
                         Label(effect.id, "direction-flips", "the direction of play flips",
                               (effect.kind,)))),)


def _moves(table: RuleTable, effect: CardEffect, skips: int,
           cause: str | None, exchanges: bool) -> tuple[Effect, ...]:
    """Where the turn goes: to the victim, who answers first (WD4-2, or NOSTACK-1's
    stacking), or past the victim's draw and ``skips`` more seats."""
    draws = effect.victim_draws
    if not draws:
        moved: tuple[Effect, ...] = (NoteEffect(cause), PassTurn(1 + skips), SetPhase(PLAY),
                                     EndIfOut())
        several = table.several
        if effect.kind is Kind.NUMBER and several.enabled and not (
                exchanges and several.exchange is SeveralExchange.ENDS_TURN):
            moved = (_more(table, moved),)
        if skips and cause == effect.id:  # the card's own skip (not TWO-1's Reverse)
            return (Shows(Label(effect.id, "skip", "the next player loses the turn",
                                (effect.kind,))), *moved)
        return moved
    if waits(table, effect.kind):
        return (NoteEffect(effect.id), AddPending(draws, effect.kind),
                Mark("offender", Who.ACTOR), PassTurn(1), SetPhase(RESPOND))
    return (NoteEffect(effect.id),
            Shows(victim_draws(effect)),
            Take(Who.NEXT, draws, effect.id, part=".victim"),
            PassTurn(1 + skips), SetPhase(PLAY), EndIfOut())
