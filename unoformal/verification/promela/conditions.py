"""Conditions, and statements about a card, read as Promela expressions over the state
that :mod:`.model` declares. The move's own values (actor, card, color, target, the UNO
call) are known when an option is written, so a condition over them alone folds to
``true`` or ``false``; the seats the state names (the player to move, the next one) are
expressions. Each reading follows the engine's primitive it stands for
(``unoformal.engine.game``), cited by name."""

from __future__ import annotations

from collections.abc import Callable

from unoformal.language import cards as card
from unoformal.language import conditions as c
from unoformal.language.protocols import Binding, Who
from unoformal.rulebook.cards import Kind
from unoformal.rules import play as card_play
from unoformal.rules.challenge import wd4_blocks, wd4_excuses
from unoformal.rules.state import RESPOND
from unoformal.verification.promela.context import KINDS, NONE, Ctx, PromelaError, phase_code


def seat(ctx: Ctx, b: Binding, who: Who) -> str:
    """The seat ``who`` names: the move's, or the state's (``seat_of``)."""
    if who is Who.NEXT:
        return ctx.next_seat(b.actor)
    if who is Who.TO_MOVE:
        return "turn"
    value = b.of(who)
    return str(NONE if value is None else value)


def both(terms: list[str]) -> str:
    kept = [t for t in terms if t != "true"]
    if "false" in kept:
        return "false"
    return "(" + " && ".join(kept) + ")" if kept else "true"


def either(terms: list[str]) -> str:
    kept = [t for t in terms if t != "false"]
    if "true" in kept:
        return "true"
    return "(" + " || ".join(kept) + ")" if kept else "false"


def negated(term: str) -> str:
    return {"true": "false", "false": "true"}.get(term, f"!({term})")


def flag(value: bool) -> str:
    return "true" if value else "false"


# ---- the engine's predicates (Game._matches, available, _can_play ...)

def matches(ctx: Ctx, face: int) -> str:
    """``_matches`` (PLAY-1): same color, number or symbol as the top, or a wild."""
    m = ctx.table.matching
    kind = ctx.f_kind[face]
    if kind.is_wild:
        return flag(m.wild_any_time)
    parts = []
    color = ctx.f_color[face]
    if m.by_color and color is not None:
        parts.append(f"color == {color}")
    if kind is Kind.NUMBER:
        if m.by_number:
            same = [g for g in ctx.faces_of(kind) if ctx.f_rank[g] == ctx.f_rank[face]]
            parts.append(ctx.is_face("top", same))
    elif m.by_symbol:
        parts.append(ctx.is_face("top", ctx.faces_of(kind)))
    return either(parts)


def available(ctx: Ctx) -> str:
    """``available``: the pile and what RESHUFFLE-1 would return (all but a kept top)."""
    top = "0" if ctx.table.reshuffle.keep_top else "(top != 255 -> 1 : 0)"
    return f"({ctx.total('pile')}+{ctx.total('disc')}+{top})"


def can_draw(ctx: Ctx, count: str) -> str:
    """``_can_draw`` (EXT-SHORT)."""
    if ctx.table.draw_what_is_left.enabled:
        return "true"
    return f"({available(ctx)} >= {count})"


def can_play(ctx: Ctx, actor: object, face: int) -> str:
    """``_can_play``: the play command's ``playable`` conjuncts for the card's kind."""
    b = Binding(actor, card=face)
    parts = card_play.playable(ctx.table, ctx.f_kind[face])
    return both([cond(ctx, part.cond, b) for part in parts])


def can_play_any(ctx: Ctx, who: str) -> str:
    """``_can_play_any``: a card in the hand that may be played."""
    return either([both([f"{ctx.hand(who, g)} >= 1", can_play(ctx, who, g)])
                   for g in range(ctx.nf)])


def blocks(ctx: Ctx, statement: card.Card, face: int) -> str:
    """A statement about ``face`` (WD4-1's blocking card) over the state."""
    if isinstance(statement, card.Said):
        return blocks(ctx, statement.part, face)
    if isinstance(statement, card.OfCurrentColor):
        color = ctx.f_color[face]
        return "false" if color is None else f"(color == {color})"
    if isinstance(statement, card.OfKind):
        return flag(ctx.f_kind[face] is statement.kind)
    if isinstance(statement, card.Playable):
        return matches(ctx, face)
    if isinstance(statement, card.Not):
        return negated(blocks(ctx, statement.part, face))
    if isinstance(statement, card.All):
        return both([blocks(ctx, p, face) for p in statement.parts])
    raise PromelaError(f"{type(statement).__name__} has no Promela reading")


def wd4_legal(ctx: Ctx, held: Callable[[int], str]) -> str:
    """``_wd4_is_legal`` on a hand (``held(face)``: its count): no blocking card held."""
    said = wd4_blocks(ctx.table)
    legal = both([negated(both([blocks(ctx, said, g), f"{held(g)} >= 1"]))
                  for g in range(ctx.nf)])
    excuses = wd4_excuses(ctx.table)  # WD4-1's house rule: another wild card held
    if excuses is None:
        return legal
    return either([legal, *[both([blocks(ctx, excuses, g), f"{held(g)} >= 1"])
                            for g in range(ctx.nf)]])


def wd4_legal_without(ctx: Ctx, actor: object, face: int) -> str:
    """``_wd4_legal_without``: the hand once ``face`` is played."""
    return wd4_legal(ctx, lambda g: f"({ctx.hand(actor, g)} - {int(g == face)})")


def can_effect(ctx: Ctx, node: c.CanEffect) -> str:
    """``_can_effect`` (EXT-SHORT off): the victim can draw what the card names."""
    effect = node.effect
    if effect.victim_may_challenge or ctx.table.draw_what_is_left.enabled:
        return "true"
    keep = 1 if ctx.table.reshuffle.keep_top else 0
    discard = f"({ctx.total('disc')}+(top != 255 -> 1 : 0))"
    return f"({ctx.total('pile')}+{discard}+{1 - keep} >= {effect.victim_draws})"


# ---- one reading per condition class

def _phase_is(ctx: Ctx, phase: str) -> str:
    return f"(phase == {phase_code(phase)})"


def _drawn_playable(ctx: Ctx, n: c.DrawnPlayable, b: Binding) -> str:
    able = either([both([f"drawn == {g}", can_play(ctx, b.actor, g)]) for g in range(ctx.nf)])
    return able if n.value else negated(able)


def _uno_call(ctx: Ctx, n: c.UnoCall, b: Binding) -> str:
    if not b.uno:
        return "true"
    return f"({ctx.hand_total(b.actor)} == {n.with_cards})" if n.allowed else "false"


def _drawn_only(ctx: Ctx, n: c.DrawnOnly, b: Binding) -> str:
    other = negated(_phase_is(ctx, "drawn"))
    return either([other, f"(drawn == {b.card})"]) if n.may_play_drawn else other


def _goes_out(ctx: Ctx, b: Binding) -> str:
    return f"({ctx.hand_total(b.actor)} == 0 && winner == {NONE})"


def _offender_holds(ctx: Ctx) -> str:
    return (f"(phase != {phase_code(RESPOND)} || offender == {NONE} || "
            f"{ctx.hand_total('offender')} > 0)")


def _hand_at_least(ctx: Ctx, n: c.HandAtLeast, b: Binding) -> str:
    return f"({ctx.hand_total(seat(ctx, b, n.who))} {'>=' if n.value else '<'} {n.cards})"


def _only_kind_left(ctx: Ctx, n: c.OnlyKindLeft) -> str:
    kinds = (n.kind, *n.also)
    return both([f"pile[{g}] == 0" for g in range(ctx.nf) if ctx.f_kind[g] not in kinds])


def _on_other_color(ctx: Ctx, n: c.OnOtherColor, b: Binding) -> str:
    mine = ctx.f_color[b.card]
    other = [g for g in ctx.faces_of(n.kind) if ctx.f_color[g] != mine]
    return ctx.is_face("top", other)


def _same_number(ctx: Ctx, n: c.SameNumber, b: Binding) -> str:
    mine = ctx.deck.faces[b.card]
    if mine.kind is not Kind.NUMBER or mine.rank is None:
        return "false"
    return ctx.is_face("top", ctx.deck.numbers[mine.rank])


def _holds_top_number(ctx: Ctx, n: c.HoldsTopNumber, b: Binding) -> str:
    return either([f"({ctx.is_face('top', faces)} && "
                   + either([f"{ctx.hand(b.actor, g)} >= 1" for g in faces]) + ")"
                   for faces in ctx.deck.numbers.values()])


def _holds_kind(ctx: Ctx, n: c.HoldsKind, b: Binding) -> str:
    return either([f"{ctx.hand(b.actor, g)} >= 1" for g in ctx.faces_of(n.kind)])


Reading = Callable[[Ctx, c.Cond, Binding], str]

_READINGS: dict[type, Reading] = {
    c.Fixed: lambda x, n, b: flag(n.value),  # type: ignore[attr-defined]
    c.SomeWindow: lambda x, n, b: f"(uno != {NONE})",
    c.WindowOf: lambda x, n, b: f"(uno == {seat(x, b, n.who)})",  # type: ignore[attr-defined]
    c.Differ: lambda x, n, b: _differ(b.of(n.a), b.of(n.b)),  # type: ignore[attr-defined]
    c.HandIs: lambda x, n, b: f"({x.hand_total(seat(x, b, n.who))} == {n.cards})",  # type: ignore[attr-defined]
    c.HandAtLeast: lambda x, n, b: _hand_at_least(x, n, b),  # type: ignore[arg-type]
    c.CanDraw: lambda x, n, b: can_draw(x, str(n.cards)),  # type: ignore[attr-defined]
    c.CanDrawPending: lambda x, n, b: can_draw(x, "pending"),
    c.PhaseIs: lambda x, n, b: _phase_is(x, n.phase),  # type: ignore[attr-defined]
    c.PhaseNot: lambda x, n, b: negated(_phase_is(x, n.phase)),  # type: ignore[attr-defined]
    c.PhaseIn: lambda x, n, b: either([_phase_is(x, p) for p in n.phases]),  # type: ignore[attr-defined]
    # only a kind the deck holds can be pending (a play put it there)
    c.PendingIn: lambda x, n, b: either([f"(pkind == {KINDS.index(k)})" for k in n.kinds  # type: ignore[attr-defined]
                                         if x.faces_of(k)]),
    c.Legal: lambda x, n, b: "(legal)" if n.value else "(!legal)",  # type: ignore[attr-defined]
    c.Offends: lambda x, n, b: f"(offender == {seat(x, b, Who.OFFENDER)})",
    c.CardsLeft: lambda x, n, b: (f"({available(x)} >= {n.cards})" if n.value  # type: ignore[attr-defined]
                                  else f"({available(x)} < {n.cards})"),  # type: ignore[attr-defined]
    c.CanPlay: lambda x, n, b: (can_play_any(x, seat(x, b, n.who)) if n.value  # type: ignore[attr-defined]
                                else negated(can_play_any(x, seat(x, b, n.who)))),  # type: ignore[attr-defined]
    c.DrawnPlayable: _drawn_playable,  # type: ignore[dict-item]
    c.HoldsCard: lambda x, n, b: f"({x.hand(b.actor, b.card)} >= 1)",
    c.IsTop: lambda x, n, b: f"(top == {b.card})",
    c.CardPlayable: lambda x, n, b: (can_play(x, b.actor, b.card) if n.value  # type: ignore[attr-defined]
                                     else negated(can_play(x, b.actor, b.card))),
    c.UnoCall: _uno_call,  # type: ignore[dict-item]
    c.DrawnOnly: _drawn_only,  # type: ignore[dict-item]
    c.Unanswering: lambda x, n, b: either([_phase_is(x, RESPOND),
                                           cond(x, n.cond, b)]),  # type: ignore[attr-defined]
    c.Matches: lambda x, n, b: matches(x, b.card),
    c.Wd4Legal: lambda x, n, b: wd4_legal_without(x, b.actor, b.card),
    c.CanEffect: lambda x, n, b: can_effect(x, n),  # type: ignore[arg-type]
    c.GoesOut: lambda x, n, b: _goes_out(x, b),
    c.OffenderHolds: lambda x, n, b: _offender_holds(x),
    c.ReverseSkips: lambda x, n, b: flag(x.table.reverse_is_skip(x.players)),
    c.OnlyKindLeft: lambda x, n, b: _only_kind_left(x, n),  # type: ignore[arg-type]
    c.Both: lambda x, n, b: both([cond(x, p, b) for p in n.parts]),  # type: ignore[attr-defined]
    c.Either: lambda x, n, b: either([cond(x, p, b) for p in n.parts]),  # type: ignore[attr-defined]
    c.Unless: lambda x, n, b: negated(cond(x, n.part, b)),  # type: ignore[attr-defined]
    c.SaysUno: lambda x, n, b: flag(bool(b.uno)),
    c.CardOfColor: lambda x, n, b: f"(color == {_or_none(x.f_color[b.card])})",
    c.NamesCurrent: lambda x, n, b: f"(color == {b.color})",
    c.OnOtherColor: _on_other_color,  # type: ignore[dict-item]
    c.HoldsKind: _holds_kind,  # type: ignore[dict-item]
    c.SameNumber: _same_number,  # type: ignore[dict-item]
    c.HoldsTopNumber: _holds_top_number,  # type: ignore[dict-item]
    c.ColorKept: lambda x, n, b: "(prevc == color)",
}


def _differ(a: object, b: object) -> str:
    """Two seats differ: known when both are the move's, else asked of the state."""
    if isinstance(a, int) and isinstance(b, int):
        return flag(a != b)
    return f"({a} != {b})"


def _or_none(value: int | None) -> int:
    return NONE if value is None else value


def cond(ctx: Ctx, node: c.Cond, b: Binding) -> str:
    """``node`` as a Promela expression; a class without a reading is refused by name."""
    reading = _READINGS.get(type(node))
    if reading is None:
        raise PromelaError(f"{type(node).__name__} has no Promela reading: add one to "
                           "unoformal/verification/promela/conditions.py")
    return reading(ctx, node, b)
