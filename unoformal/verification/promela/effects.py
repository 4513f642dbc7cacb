"""Effects read as Promela statements, run in order inside one ``d_step`` on the state
:mod:`.model` declares, as the engine runs them on a game (``Effect.run``): a condition
of a ``When`` is asked of the state at its point of the effect.

Chance is the option's: a draw takes the multiset of cards its script names (the
explorer's chance player takes a draw's cards in face order, so only the multiset
counts), a random color the color named. Where the state cannot give the script's
outcome (the pile lacks a card, the draw would be of another size) the option sets
``bad``, and :mod:`.model` puts the state back as it was: the option is then a step
to the same state, which adds no state to Spin's count."""

from __future__ import annotations

from collections.abc import Callable

from unoformal.language import effects as e
from unoformal.language.protocols import Binding
from unoformal.rules.state import OVER, PLAY, RESPOND
from unoformal.verification.promela.conditions import cond, seat, wd4_legal
from unoformal.verification.promela.context import (
    KINDS,
    NONE,
    Ctx,
    PromelaError,
    Slot,
    phase_code,
)

Lines = list[str]

# The state's control fields as :mod:`.model` names them.
FIELD = {"uno_window": "uno", "drawn": "drawn", "pending": "pending",
         "pending_kind": "pkind", "offender": "offender", "prev_color": "prevc",
         "color": "color", "winner": "winner", "wd4_legal": "legal", "turn": "turn"}


def field(name: str) -> str:
    if name not in FIELD:
        raise PromelaError(f"the Promela model holds no field {name!r}")
    return FIELD[name]


def when(test: str, then: Lines, otherwise: Lines | None = None) -> Lines:
    """``if`` the test holds, else ``otherwise`` (deterministic: a d_step allows it), as
    one statement."""
    if test == "true":
        return then
    if test == "false":
        return otherwise or []
    yes = "; ".join(then) or "skip"
    no = "; ".join(otherwise or []) or "skip"
    return [f"if :: ({test}) -> {yes} :: else -> {no} fi"]


# ---- the engine's primitives (Game._take, _place, _resolved, _round_end_check ...)

def take(ctx: Ctx, who: str, count: str, most: int, keeps: bool) -> Lines:
    """``_take``: ``who`` draws ``count`` cards, the whole pile then RESHUFFLE-1 when it
    runs short, what is left of it drawn (EXT-SHORT); the script's multiset is what comes
    from the pile (after the reshuffle: from the new pile)."""
    if count == "0":
        return []  # the engine's loop takes nothing: no chance node, no change
    at = ctx.used
    ctx.used += 1
    got = ctx.next_slot(Slot("cards", most), at)
    if got is None:
        return []
    size = sum(got)
    nf, keep_top = ctx.nf, ctx.table.reshuffle.keep_top
    fits = " && ".join(f"pile[{g}] >= {got[g]}" for g in range(nf) if got[g]) or "true"
    moved = [f"pile[{g}] = pile[{g}] - {got[g]}; {ctx.hand('t_seat', g)} = "
             f"{ctx.hand('t_seat', g)} + {got[g]}" for g in range(nf) if got[g]]
    whole = [f"{ctx.hand('t_seat', g)} = {ctx.hand('t_seat', g)} + pile[{g}]; pile[{g}] = 0"
             for g in range(nf)]
    back = [f"pile[{g}] = disc[{g}]{'' if keep_top else f' + (top == {g} -> 1 : 0)'}; "
            f"disc[{g}] = 0" for g in range(nf)]
    if not keep_top:
        back.append(f"top = {NONE}")
    out = [f"t_seat = {who}", f"t_count = {count}", f"t_had = {ctx.total('pile')}"]
    out += when(
        "t_had >= t_count",
        when(f"t_count == {size} && {fits}", [*moved, "t_taken = t_count"], ["bad = 1"]),
        [*whole, *back, f"t_left = {ctx.total('pile')}",
         *when(f"{size} == (t_count - t_had < t_left -> t_count - t_had : t_left) && {fits}",
               [*moved, f"t_taken = t_had + {size}"], ["bad = 1"])])
    # UNO-1: a hand grown back holds no forgotten UNO
    out += when("t_taken > 0 && uno == t_seat", [f"uno = {NONE}"])
    if keeps:
        if ctx.table.draw.cards != 1:
            raise PromelaError("a draw of several cards whose last card is kept has no "
                               "Promela reading (the order of the cards would count)")
        faces = [g for g in range(nf) if got[g]]
        out.append(f"drawn = {faces[0] if size == 1 else NONE}")
    return out


def most_pending(ctx: Ctx) -> int:
    """The most cards a draw card can leave pending: one card's, or (answered by another,
    NOSTACK-1's variant) the whole deck's."""
    table = ctx.table
    if table.no_stacking.victim_may_answer:
        return sum(ctx.copies)
    return max((table.effect(k).victim_draws for k in set(ctx.f_kind)), default=0)


def place(ctx: Ctx, n: e.PlaceCard, b: Binding) -> Lines:
    """``_place``: the card onto the discard, the color, WD4-1's verdict and the color
    before it (judged on the hand left, before the card is on top)."""
    f = b.card
    out = [f"{ctx.hand(b.actor, f)} = {ctx.hand(b.actor, f)} - 1"]
    if n.judges:
        verdict = wd4_legal(ctx, lambda g: ctx.hand(b.actor, g))
        out += [f"legal = ({verdict} -> 1 : 0)", "prevc = color"]
    out += when(f"top != {NONE}", ["disc[top] = disc[top] + 1"])
    color = ctx.f_color[f]
    out += [f"top = {f}", f"color = {b.color if n.names_color else _none(color)}",
            f"drawn = {NONE}"]
    return out


def end_round(winner: str) -> Lines:
    """``_end_round`` (SCORE-1's points are a sum of the hands: not held)."""
    return [f"winner = {winner}", f"phase = {phase_code(OVER)}", f"uno = {NONE}",
            "pending = 0", f"pkind = {NONE}", f"offender = {NONE}"]


def round_end_check(ctx: Ctx) -> Lines:
    """``_round_end_check`` (END-1): the player who went out wins once every draw is
    resolved; one given cards back does not."""
    return when(f"winner != {NONE}",
                when(f"{ctx.hand_total('winner')} > 0", [f"winner = {NONE}"],
                     end_round("winner")))


def resolved(ctx: Ctx, n: e.Resolve, b: Binding) -> Lines:
    """``_resolved``: nothing pending, the turn stays or passes, END-1 is checked."""
    turn = str(b.actor) if n.keeps_turn else ctx.next_seat(b.actor)
    return ["pending = 0", f"pkind = {NONE}", f"offender = {NONE}",
            f"phase = {phase_code(PLAY)}", f"turn = {turn}", *round_end_check(ctx)]


def add_pending(n: e.AddPending) -> Lines:
    return [f"pending = (phase == {phase_code(RESPOND)} -> pending : 0) + {n.cards}",
            f"pkind = {KINDS.index(n.kind)}"]


def open_window(ctx: Ctx, n: e.OpenWindow, b: Binding) -> Lines:
    if b.uno:
        return []
    return when(f"{ctx.hand_total(b.actor)} == {n.cards_left}", [f"uno = {b.actor}"])


def turn_up(ctx: Ctx, b: Binding) -> Lines:
    """``_turn_up``: the start card from the pile onto the (empty) discard."""
    return [f"pile[{b.card}] = pile[{b.card}] - 1", f"top = {b.card}"]


def start_at(ctx: Ctx, n: e.StartAt, b: Binding) -> Lines:
    """``_start_at``: who plays first (from the dealer), which way, on which color."""
    return [f"dir = {1 if n.direction == 1 else 0}",
            f"turn = {(ctx.dealer + n.seats) % ctx.players}",
            f"color = {_none(ctx.f_color[b.card])}", f"phase = {phase_code(PLAY)}"]


def random_color(ctx: Ctx) -> Lines:
    at = ctx.used
    ctx.used += 1
    got = ctx.next_slot(Slot("color"), at)
    return [] if got is None else [f"color = {got[0]}"]


def branch(ctx: Ctx, n: e.When, b: Binding) -> Lines:
    """``When``: each way is written from the same point of the script; the path taken
    uses the slots of its own way."""
    start = ctx.used
    then = effect(ctx, n.then, b)
    after_then, ctx.used = ctx.used, start
    otherwise = effect(ctx, n.otherwise, b)
    ctx.used = max(ctx.used, after_then)
    return when(cond(ctx, n.cond, b), then, otherwise)


def instead(ctx: Ctx, n: e.Instead, b: Binding) -> Lines:
    """A house rule's steps where the move's own one was."""
    return effect(ctx, n.steps, b)


def _none(value: int | None) -> int:
    return NONE if value is None else value


def _no_state(ctx: Ctx, n: e.Effect, b: Binding) -> Lines:
    """Bookkeeping no rule of the round reads (causes, a reveal, coverage's points)."""
    return []


def _turn_again(ctx: Ctx, n: e.Effect, b: Binding) -> Lines:
    """START-WD4: the card goes back and another is turned. The state that follows is the
    one the same deal reaches with that other card turned first, which its own option
    writes; so this option ends where it began (``bad``), adding no state."""
    return ["bad = 1"]


Reading = Callable[[Ctx, e.Effect, Binding], Lines]

_READINGS: dict[type, Reading] = {
    e.Take: lambda x, n, b: take(x, seat(x, b, n.who), str(n.cards), n.cards,  # type: ignore[attr-defined]
                                 n.keeps),  # type: ignore[attr-defined]
    e.TakePending: lambda x, n, b: take(x, seat(x, b, n.who), "pending",  # type: ignore[attr-defined]
                                        most_pending(x), False),
    e.Clear: lambda x, n, b: [f"{field(n.field)} = {NONE}"],  # type: ignore[attr-defined]
    e.Copy: lambda x, n, b: [f"{field(n.field)} = {field(n.source)}"],  # type: ignore[attr-defined]
    e.Resolve: resolved,  # type: ignore[dict-item]
    e.SetPhase: lambda x, n, b: [f"phase = {phase_code(n.phase)}"],  # type: ignore[attr-defined]
    e.PassTurn: lambda x, n, b: [f"turn = {x.next_seat(b.actor, n.steps)}"],  # type: ignore[attr-defined]
    e.PassOn: lambda x, n, b: [f"turn = {x.next_seat('turn', n.steps)}"],  # type: ignore[attr-defined]
    e.SetColor: lambda x, n, b: [f"color = {b.color}"],
    e.PlaceCard: place,  # type: ignore[dict-item]
    e.OpenWindow: open_window,  # type: ignore[dict-item]
    e.FlipDirection: lambda x, n, b: ["dir = 1 - dir"],
    e.AddPending: lambda x, n, b: add_pending(n),  # type: ignore[arg-type]
    e.Mark: lambda x, n, b: [f"{field(n.field)} = {seat(x, b, n.who)}"],  # type: ignore[attr-defined]
    e.NoteOut: lambda x, n, b: when(f"{x.hand_total(b.actor)} == 0 && winner == {NONE}",
                                    [f"winner = {b.actor}"]),
    e.EndIfOut: lambda x, n, b: round_end_check(x),
    e.EndRound: lambda x, n, b: end_round(str(b.actor)),
    e.When: branch,  # type: ignore[dict-item]
    e.Instead: instead,  # type: ignore[dict-item]
    e.TurnUp: lambda x, n, b: turn_up(x, b),
    e.StartAt: start_at,  # type: ignore[dict-item]
    e.RandomColor: lambda x, n, b: random_color(x),
    e.TurnAgain: _turn_again,
    e.Reveal: _no_state, e.Caused: _no_state, e.NoteCause: _no_state,
    e.NoteEffect: _no_state, e.NoteStart: _no_state, e.Shows: _no_state, e.Sorts: _no_state,
}


def effect(ctx: Ctx, steps: tuple[e.Effect, ...], b: Binding) -> Lines:
    """``steps`` in order as Promela statements; a class without a reading is refused."""
    out: Lines = []
    for step in steps:
        reading = _READINGS.get(type(step))
        if reading is None:
            raise PromelaError(f"{type(step).__name__} has no Promela reading: add one to "
                               "unoformal/verification/promela/effects.py")
        out += reading(ctx, step, b)
    return out


