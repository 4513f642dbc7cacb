"""The properties, stated in the rulebook's own words and numbers.

Nothing here reads a rule value from the table: the numbers below are copied
from the rulebook (seed 000; docs/rules.md states them for classic), so a wrong
table entry (compiled into the actions) makes a proof fail. Faces are named by
what they are (color, kind, rank: the card vocabulary); how many there are is
checked against the rulebook by the ``deck`` property.

Each property yields queries. A query is a formula over a pre-state ``s`` (and
the actions from it) that is satisfiable exactly when the property fails; the
prover asserts the invariant on ``s`` first, so every proof is inductive: over
all states that satisfy the invariant, not only those reached from one deal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache

import z3

from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import (
    CatchUntil,
    HouseProperty,
    MercyCards,
    NextDealer,
    OwnCondition,
    Partners,
    RuleTable,
    SeveralExchange,
    SeveralThen,
    SwapWith,
)
from unoformal.rules.house import made_by
from unoformal.verification.z3.actions import Spec, Step
from unoformal.verification.z3.state import (
    COLOR,
    DEALT,
    DRAWN,
    KINDS,
    MORE,
    NONE,
    OVER,
    PLAY,
    RESPOND,
    STUCK,
    Expr,
    Sym,
    concrete,
    f_or,
    fand,
    feq,
    fge,
    fimplies,
    fite,
    flt,
    fne,
    fnot,
    fsum,
    ival,
    per_list,
    when,
)

# ---- The rulebook's numbers (seed 000), deliberately not read from the table ----
DECK_SIZE = 108  # DECK-1
COLORS = 4  # DECK-1
PLAYERS = (2, 10)  # DECK-2
TWO_PLAYERS = 2  # TWO-1
HAND_SIZE = 7  # DEAL-2
DRAWS_ONE = 1  # DRAW-1
DRAW_TWO_VICTIM = 2  # D2-1
WD4_VICTIM = 4  # WD4-2
OFFENDER_DRAWS = 4  # CHAL-2
CHALLENGER_DRAWS = 6  # CHAL-3
UNO_PENALTY = 2  # UNO-1
MISPLAY_PENALTY = 2  # MISPLAY-1
ADVICE_PENALTY = 2  # ADVICE-1
START_D2_DRAWS = 2  # START-D2
ACTION_POINTS = 20  # SCORE-1
WILD_POINTS = 50  # SCORE-1
TARGET = 500  # SCORE-2
SWAP_RANK, PASS_RANK = 7, 0  # SEVEN-O, the house rule: a 7 swaps two hands, a 0 passes all
PLENTY = 12  # "enough cards left": the rulebook assumes a card is always there to draw

WD4 = KINDS.index(Kind.WILD_DRAW_FOUR)
D2 = KINDS.index(Kind.DRAW_TWO)


# SEVEN-O's plays that exchange hands (the 7 and the 0)
EXCHANGES = ("play_swap_hands", "play_pass_hands")


TRUE = z3.BoolVal(True)


@dataclass
class Query:
    """Satisfiable exactly when the property fails for ``label`` (an action, usually).

    A query about one action is split in two: ``given``, the action's transition relation
    (the very same term for every property asking about that action), and ``fails``, what
    the property says cannot happen across it. The prover can then ask every property's
    ``fails`` about one action in a single query (``prover.check_together``)."""

    label: str
    fails: Expr
    steps: list[Step] = field(default_factory=list)  # the path of a counterexample from s
    given: Expr = TRUE
    # What ``fails`` assumes besides ``given`` (the claim's own hypothesis, such as "enough
    # cards left"): ``fails`` implies it. If ``given`` and ``assume`` hold in no invariant
    # state, the query is unsatisfiable whatever the claim: a vacuous proof.
    assume: Expr = TRUE

    @property
    def formula(self) -> Expr:
        return self.fails if self.given is TRUE else fand(self.given, self.fails)

    @property
    def kind(self) -> str:
        """The label without the seat its step names (the seat is one of the symmetry
        reduction's instances: the vacuity check asks that some instance holds)."""
        if not self.steps:
            return self.label
        return self.label.replace(self.steps[0].label, self.steps[0].kind, 1)

    @property
    def hypothesis(self) -> Expr:
        """What the claim is proved under (with the invariant): the relation and ``assume``."""
        if self.assume is TRUE:
            return self.given
        return self.assume if self.given is TRUE else fand(self.given, self.assume)


def across(step: Step, *fails: Expr, label: str | None = None,
           path: list[Step] | None = None) -> Query:
    """The query "``step`` happens and ``fails`` holds": every argument of ``fails`` but
    the last (the negated claim) is the claim's hypothesis."""
    return Query(step.label if label is None else label,
                 fails[0] if len(fails) == 1 else fand(*fails),
                 [step] if path is None else path, step.relation,
                 fand(*fails[:-1]) if len(fails) > 1 else TRUE)


def enabled(label: str, step: Step, *when: Expr) -> Query:
    """The query "``when`` holds and ``step`` is not enabled" (the claim: it is)."""
    return Query(label, fand(*when, z3.Not(step.guard)), [step], assume=fand(*when))


def aimed_well(spec: Spec, step: Step) -> Expr:
    """A play's chosen seat, where it chooses one (a house rule's swap): another seated
    player, or under SEVEN-O's ``next`` reading the next player after the one who plays."""
    target = step.choices.get("target")
    if target is None:
        return TRUE
    if spec.table.seven_o.swap_with is SwapWith.NEXT:
        return target == spec.seat_on(step.pre, step.mover, step.pre.direction, 1)
    return fand(target != step.mover, target >= 0, spec.seated(target),
                *in_round(spec, step.pre, target))


def in_round(spec: Spec, s: Sym, seat: Expr) -> list[Expr]:
    """MERCY: ``seat`` is not knocked out, as a conjunct list (none under any other
    table, whose terms stay as they were)."""
    return [fnot(spec.is_out(s, seat))] if s.out else []


@dataclass(frozen=True)
class Property:
    name: str
    title: str
    rule_ids: tuple[str, ...]
    queries: Callable[[Spec, Sym], Iterator[Query]]
    players: Callable[[int], bool] = lambda n: True
    # The entries that must be switched on for the property to ask anything: where one
    # is off (a house rule, off in classic), the property is expected vacuous, with no
    # manifest entry per variant (unoformal.verification.z3.manifest.expected). An entry
    # may name a reading, "ID.value=reading": the property of a value's other reading
    # asks nothing where the table reads it otherwise.
    needs: tuple[str, ...] = ()


# ------------------------------------------------------------------ helpers


def left(spec: Spec, seat: Expr, steps: int) -> Expr:
    """DEAL-3: the seat ``steps`` places to the left (the next name in the list)."""
    return spec.seat_after(seat, ival(1), steps)


def value(spec: Spec, face: int) -> int:
    """SCORE-1 in the rulebook's numbers: face value, 20 for actions, 50 for wilds."""
    f = spec.deck.faces[face]
    if f.kind is Kind.NUMBER:
        return f.rank or 0
    return WILD_POINTS if f.kind.is_wild else ACTION_POINTS


def holds_color(spec: Spec, hand: list[Expr], color: Expr) -> Expr:
    """WD4-1: the hand has a card of ``color`` (numbers, symbols; never a wild)."""
    return f_or([fand(color == spec.fcolor[g], hand[g] >= 1)
                  for g in range(spec.nfaces) if spec.deck.faces[g].color is not None])


def enough(spec: Spec, s: Sym) -> Expr:
    return s.pile_total() + s.disc_total() >= PLENTY


def in_turn(step: Step) -> bool:
    return not step.name.startswith("start_") and step.name not in ("next_deal", "reshuffle")


def in_next(step: Step) -> bool:
    return step.in_next


def step_queries(claim: Callable[[Spec, Step], Expr], names: tuple[str, ...] | None = None,
                 asked: Callable[[Step], bool] = in_next
                 ) -> Callable[[Spec, Sym], Iterator[Query]]:
    """A property checked action by action: ``relation ⇒ claim`` for each action (the
    ``names`` given, or every one) that it is ``asked`` about (by default those of
    ``next``)."""
    def queries(spec: Spec, s: Sym) -> Iterator[Query]:
        for step in spec.steps(s, names):
            if asked(step):
                yield across(step, z3.Not(claim(spec, step)))
    return queries


# ---------------------------------------------------------------- invariant


def invariant(spec: Spec, s: Sym, counts: bool = True, strengthen: bool = True,
              totals: bool = True) -> Expr:
    """TypeOK plus the strengthening the proofs need (each part proved by ``invariant``)."""
    return fand(invariant_parts(spec, s, counts, strengthen, totals))


def invariant_parts(spec: Spec, s: Sym, counts: bool = True, strengthen: bool = True,
                    totals: bool = True, since: Sym | None = None) -> list[Expr]:
    """The conjuncts of the invariant: TypeOK plus the strengthening the proofs need.
    ``totals=False`` keeps the counts' signs but not DECK-1's copies of each face (the
    prover's cheaper first hypothesis, a superset of the invariant's states).
    ``since``: only the conjuncts over a variable ``s`` does not share with that state
    (each conjunct names the variables it reads; the others are the very same terms).

    The strengthening (END-1, WD4-1): outside a finished round only the player of an
    unresolved draw card can hold no cards; and a player who went out with a Wild
    Draw Four played it legally (no card of the current color was left)."""
    n, nf = spec.n, spec.nfaces
    def seat(x: Expr) -> Expr:
        return fand(fge(x, 0), flt(x, spec.count))

    def face(x: Expr) -> Expr:
        return fand(fge(x, 0), flt(x, nf))

    def phase(*ps: int) -> Expr:
        return f_or([feq(s.phase, p) for p in ps])

    def won() -> Expr:  # the winner went out, or (MERCY) is the last player in
        out = feq(s.seat_total(s.winner), 0)
        return out if not s.out else f_or(out, feq(spec.players_in(s), 1))

    ncolors = len(spec.deck.colors)
    more = (MORE,) if spec.table.several.enabled else ()  # SEVERAL's phase, where it is on
    parts: list[tuple[str, Callable[[], Expr | list[Expr]]]] = []
    if counts:  # DECK-1; its preservation is the conservation property
        parts.append(("hands pile disc", lambda: [
            fge(x, 0) for x in [x for h in s.hands for x in h] + s.pile + s.disc]))
        if totals:
            parts.append(("hands pile disc top", lambda: [
                feq(s.face_total(g), spec.deck.copies[g]) for g in range(nf)]))
    parts += [
        ("turn", lambda: seat(s.turn)),
        ("dealer", lambda: seat(s.dealer)),
        ("direction", lambda: f_or(feq(s.direction, 1), feq(s.direction, -1))),
        ("phase", lambda: phase(PLAY, DRAWN, RESPOND, COLOR, OVER, DEALT, STUCK, *more)),
        ("top", lambda: f_or(feq(s.top, NONE), face(s.top))),
        ("top phase", lambda: feq(feq(s.top, NONE), feq(s.phase, DEALT))),
        ("phase disc", lambda: fimplies(feq(s.phase, DEALT), fand([feq(x, 0) for x in s.disc]))),
        ("color", lambda: fand(fge(s.color, NONE), flt(s.color, ncolors))),
        ("phase color", lambda: fimplies(phase(PLAY, DRAWN, RESPOND, *more),
                                         fne(s.color, NONE))),
        ("phase drawn hands turn", lambda: fite(
            feq(s.phase, DRAWN),
            fand(face(s.drawn), fge(spec.select(s.seat_hand(s.turn), s.drawn,
                                                list(range(nf))), 1)),
            feq(s.drawn, NONE))),
        ("phase offender turn direction pending pending_kind", lambda: fite(
            feq(s.phase, RESPOND),
            fand(seat(s.offender), feq(s.turn, spec.seat_on(s, s.offender, s.direction, 1)),
                 fge(s.pending, 0), fge(s.pending_kind, 0), flt(s.pending_kind, len(KINDS))),
            fand(feq(s.pending, 0), feq(s.offender, NONE), feq(s.pending_kind, NONE)))),
        ("uno_window", lambda: fand(fge(s.uno_window, NONE), flt(s.uno_window, spec.count))),
        ("phase uno_window", lambda: fimplies(phase(DEALT, OVER, STUCK), feq(s.uno_window, NONE))),
        ("phase winner hands round_points", lambda: fite(
            feq(s.phase, OVER),
            fand(seat(s.winner), won(), fge(s.round_points, 0)),
            fand(feq(s.winner, NONE), feq(s.round_points, 0)))),
        ("scores", lambda: fand([fge(x, 0) for x in s.scores])),
        ("prev_color", lambda: f_or(fge(s.prev_color, NONE), flt(s.prev_color, ncolors))),
    ]
    if len(spec.counts) > 1:  # one of the counts asked about; no cards at an empty seat
        parts.append(("", lambda: spec.one_of(spec.counts)))
        parts += [("hands scores", lambda p=p: fimplies(  # type: ignore[misc]
                      z3.Not(spec.seated(p)), fand(feq(s.hand_total(p), 0),
                                                   feq(s.scores[p], 0))))
                  for p in range(spec.counts[0], n)]
    if strengthen:
        # END-1: a hand is empty only when the round is over or its player's draw card is
        # still to be resolved.
        parts += [("phase hands offender out", lambda p=p: spec.for_seated(  # type: ignore[misc]
                      p, fimplies(fand(fne(s.phase, OVER), feq(s.hand_total(p), 0),
                                       *in_round(spec, s, ival(p))),
                                  fand(feq(s.phase, RESPOND), feq(s.offender, p)))))
                  for p in range(n)]
        # WD4-1: going out with a Wild Draw Four leaves no card of the current color.
        # (MERCY: an offender knocked out since holds no cards either, but did not go out)
        # Only where the play notes that verdict, for a challenge (WD4-2): with none, a
        # Wild Draw Four that waits to be stacked on notes nothing (no-mercy's preset).
        gone = in_round(spec, s, s.offender)
        if spec.table.effect(Kind.WILD_DRAW_FOUR).victim_may_challenge:
            parts.append(("phase pending_kind hands offender wd4_legal out", lambda: fimplies(
                fand(feq(s.phase, RESPOND), feq(s.pending_kind, WD4),
                     feq(s.seat_total(s.offender), 0), *gone),
                s.wd4_legal)))
    if s.out:
        parts += _knocked_out(spec, s)
    out: list[Expr] = []
    for names, build in parts:
        if since is None or any(getattr(s, f) is not getattr(since, f) for f in names.split()):
            built = build()
            out += built if isinstance(built, list) else [built]
    return out


def _knocked_out(spec: Spec, s: Sym) -> list[tuple[str, Callable[[], Expr | list[Expr]]]]:
    """MERCY's part of the invariant: a player out holds no cards; in a round, every
    player in holds fewer than the limit, the player to move and an open UNO window are
    in, and two players at least are; nobody is out of a round not yet started."""
    at = spec.table.mercy.at
    live = fand(fne(s.phase, OVER), fne(s.phase, DEALT), fne(s.phase, STUCK))
    w = s.uno_window
    parts: list[tuple[str, Callable[[], Expr | list[Expr]]]] = [
        ("out hands", lambda: [fimplies(x, feq(s.hand_total(p), 0))
                               for p, x in enumerate(s.out)]),
        ("out", lambda: [fimplies(fnot(spec.seated(p)), fnot(x)) for p, x in enumerate(s.out)]),
        ("phase out hands", lambda: [spec.for_seated(p, fimplies(
            fand(live, fnot(x)), flt(s.hand_total(p), at))) for p, x in enumerate(s.out)]),
        ("phase out turn", lambda: fimplies(live, fnot(spec.is_out(s, s.turn)))),
        ("phase out", lambda: fimplies(live, fge(spec.players_in(s), 2))),
        ("phase out ", lambda: fimplies(f_or(feq(s.phase, DEALT), feq(s.phase, STUCK)),
                                        fand([fnot(x) for x in s.out]))),
        ("phase hands", lambda: [spec.for_seated(p, fimplies(
            f_or(feq(s.phase, DEALT), feq(s.phase, STUCK)), flt(s.hand_total(p), at)))
            for p in range(spec.n)]),
        ("uno_window out", lambda: fimplies(fne(w, NONE), fnot(spec.is_out(s, w)))),
    ]
    return parts


def _inductive(spec: Spec, s: Sym) -> Iterator[Query]:
    # A conjunct an action leaves as it was (the very same term: Z3 shares equal terms)
    # holds after it because it held before: only the others are asked. Only the
    # conjuncts over a variable the action changed are built (``since``).
    held = {part.get_id() for part in invariant_parts(spec, s, counts=False)}
    for step in spec.steps(s):
        if step.in_next:
            # The counts part is preserved by the conservation property; the rest here.
            post = [part for part in invariant_parts(spec, step.post, counts=False, since=s)
                    if part.get_id() not in held]
            yield across(step, z3.Not(fand(post)))


# ---------------------------------------------------------------- properties


def _deck(spec: Spec, s: Sym) -> Iterator[Query]:
    """DECK-1: the rulebook's 108 cards, counted face by face."""
    want: dict[tuple[object, ...], int] = {}
    for color in range(COLORS):
        want[(color, Kind.NUMBER, 0)] = 1
        for rank in range(1, 10):
            want[(color, Kind.NUMBER, rank)] = 2
        for kind in (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO):
            want[(color, kind, None)] = 2
    want[(NONE, Kind.WILD, None)] = 4
    want[(NONE, Kind.WILD_DRAW_FOUR, None)] = 4
    have = {(spec.fcolor[g], f.kind, f.rank): spec.deck.copies[g]
            for g, f in enumerate(spec.deck.faces)}
    ok = have == want and sum(want.values()) == DECK_SIZE
    ok = ok and (spec.rules.players.minimum, spec.rules.players.maximum) == PLAYERS
    yield Query("deck", z3.BoolVal(not ok))


def _conserved(spec: Spec, step: Step) -> Expr:
    """Each face's total is kept and no count goes negative. A count the action leaves
    as it was (the very same term) is non-negative by the hypothesis, and a face none of
    whose counts moved keeps its total, so only the counts that moved are asked about
    (the same claim, hundreds of terms fewer at ten players)."""
    s, t = step.pre, step.post
    moved: set[int] = set(range(spec.nfaces)) if t.top is not s.top else set()
    counts = []
    for after, before in zip([*t.hands, t.pile, t.disc], [*s.hands, s.pile, s.disc],
                             strict=True):
        if after is not before:
            changed = [g for g in range(spec.nfaces) if after[g] is not before[g]]
            moved.update(changed)
            counts += [fge(after[g], 0) for g in changed]
    return fand(*[feq(t.face_total(g), s.face_total(g)) for g in sorted(moved)], *counts)


def _conservation(spec: Spec, s: Sym) -> Iterator[Query]:
    """``_conserved`` across every action. An action that passes the hands under MERCY
    (``PassKept``) is asked with each count the pass gave replaced by a fresh one, of
    which only what the pass keeps of each face is known; that lemma, about one column
    of fresh counts, and the signs of the hands the pass was given are asked on their
    own. All three unsatisfiable, the action keeps every count (the action itself is
    one instance of the first query)."""
    for step in spec.steps(s):
        claim = _conserved(spec, step)
        if not step.kept:
            yield across(step, z3.Not(claim))
            continue
        pairs: list[tuple[Expr, Expr]] = []
        facts: list[Expr] = []
        for kept in step.kept:
            fresh, known = kept.abstract()
            pairs += fresh
            facts += [kept.signed(), *known]
        yield Query(step.label, fand(*facts, z3.Not(z3.substitute(claim, *pairs))), [step],
                    z3.substitute(step.relation, *pairs), fand(*facts))
        for kept in step.kept:
            yield across(step, z3.Not(kept.signed()),
                         label=f"{step.label}: the hands given to the pass of the hands")
            yield across(step, z3.Not(kept.lemma()),
                         label=f"{step.label}: each face's count over the hands passed")


def _top_stays(spec: Spec, s: Sym) -> Iterator[Query]:
    """RESHUFFLE-1: the top discard stays; the pile gets exactly the cards below it."""
    for step in spec.steps(s):
        if step.name == "reshuffle":
            t = step.post
            claim = fand(t.top == s.top, *[t.pile[g] == s.disc[g] for g in range(spec.nfaces)])
        elif step.in_next and in_turn(step) and not step.name.startswith("play_"):
            claim = step.post.top == s.top
        else:
            continue
        yield across(step, z3.Not(claim))


def _seated(spec: Spec, step: Step) -> Expr:
    """The player to move (and the dealer) is always one of the seats 0..n-1."""
    t = step.post
    return fand(t.turn >= 0, flt(t.turn, spec.count), t.dealer >= 0, flt(t.dealer, spec.count))


def _wd4_legality(spec: Spec, step: Step) -> Expr:
    """WD4-1: legal exactly when the player holds no card of the current color."""
    s = step.pre
    return step.post.wd4_legal == z3.Not(holds_color(spec, s.seat_hand(s.turn), s.color))


def _challenge(spec: Spec, s: Sym) -> Iterator[Query]:
    """CHAL-2/3/4: who draws how many, who moves next; the named color stays."""
    for step in spec.steps(s, ("challenge_upheld", "challenge_failed")):
        t, me, off = step.post, s.turn, s.offender

        def grew(p: Expr, k: int, t: Sym = t) -> Expr:
            return t.seat_total(p) == s.seat_total(p) + k

        legal = fand(grew(me, CHALLENGER_DRAWS), grew(off, 0),
                       t.turn == spec.seat_on(s, me, s.direction, 1))
        bluff = fand(grew(off, OFFENDER_DRAWS), grew(me, 0), t.turn == me)
        claim = fand(s.pending_kind == WD4, z3.If(s.wd4_legal, legal, bluff), t.color == s.color)
        yield across(step, enough(spec, s), z3.Not(claim))


def _two_players_same(spec: Spec, s: Sym) -> Iterator[Query]:
    """TWO-1: a Reverse and a Skip of the same color lead to the same turn order."""
    rev, skip = spec.play(s, "play_reverse"), spec.play(s, "play_skip")
    same_color = (spec.lookup(spec.fcolor, rev.face, spec.faces_of(Kind.REVERSE))
                  == spec.lookup(spec.fcolor, skip.face, spec.faces_of(Kind.SKIP)))
    a, b = rev.post, skip.post
    order = [spec.for_seated(k, spec.seat_after(a.turn, a.direction, k, fewer=True)
                             == spec.seat_after(b.turn, b.direction, k, fewer=True))
             for k in range(1, spec.n)]
    claim = fand(a.turn == b.turn, *order)
    # Its own relation (both plays), so the prover asks it apart from the queries about
    # the state alone: with three or more players it is refuted (the witness).
    when = (same_color, s.phase == PLAY, s.seat_total(s.turn) > 2)
    yield Query("play_reverse|play_skip", fand(*when, z3.Not(claim)), [rev],
                fand(rev.relation, skip.relation), fand(*when))


def _turn_returns(spec: Spec, step: Step) -> Expr:
    """TWO-1: with two players Reverse, Skip and Draw Two give the turn back."""
    return f_or(step.post.phase == OVER, step.post.turn == step.pre.turn)


def _no_stacking(spec: Spec, s: Sym) -> Iterator[Query]:
    """NOSTACK-1: the victim of a draw card has no play, and loses the turn."""
    for step in spec.steps(s, spec.play_names()):
        yield across(step, s.phase == RESPOND)
        if step.name == "play_draw_two":
            victim = spec.seat_on(s, s.turn, s.direction, 1)
            claim = f_or(step.post.phase == OVER, step.post.turn != victim)
            yield across(step, z3.Not(claim), label=step.label + " (victim)")


def _deflect(spec: Spec, s: Sym) -> Iterator[Query]:
    """NOSTACK-1's deflection, in its own numbers: a Skip or Reverse its victim plays on a
    waiting draw card leaves the same count of the same kind waiting, comes from the
    deflector now, and hits the next player (after a Skip) or the next in the flipped
    direction (after a Reverse; with two players it acts as a Skip, TWO-1); nobody
    draws. With the deflector's last card the round ends, nothing pending. And a victim
    holding such a card of the current color may play it."""
    stack = spec.table.no_stacking
    if not stack.deflect_with:
        return  # off: nothing to ask, a vacuous verdict (Property.needs)
    for kind in stack.deflect_with:
        for step in spec.steps(s, (f"play_{kind.name.lower()}",)):
            t, me, d = step.post, s.turn, s.direction
            no, yes = z3.BoolVal(False), z3.BoolVal(True)
            flips = two_or_more(spec, no, yes, s) if kind is Kind.REVERSE else no
            way = z3.If(flips, -d, d)
            nobody_draws = [t.hand_total(p) <= s.hand_total(p) for p in range(spec.n)]
            passed = fand(t.phase == RESPOND, t.pending == s.pending,
                          t.pending_kind == s.pending_kind, t.offender == me,
                          t.direction == way, t.turn == spec.seat_on(s, me, way, 1))
            out = fand(t.phase == OVER, t.winner == me, t.pending == 0)
            claim = fand(z3.If(s.seat_total(me) == 1, out, passed), *nobody_draws)
            yield across(step, s.phase == RESPOND, z3.Not(claim))
            faces = spec.play_faces(step.name)
            yield enabled(step.label + " (allowed)", step, s.phase == RESPOND,
                          f_or([s.pending_kind == KINDS.index(k) for k in stack.deflects]),
                          s.seat_total(s.offender) >= 1,
                          f_or([fand(step.face == g, s.seat_hand(me)[g] >= 1,
                                     spec.fcolor[g] == s.color) for g in faces]),
                          z3.Not(step.choices["uno"]),  # not saying UNO: always allowed
                          step.choices["color"] == NONE, aimed_well(spec, step),
                          enough(spec, s))


def _several(spec: Spec, s: Sym) -> Iterator[Query]:
    """SEVERAL, in its own words: a player who plays a number card keeps the turn exactly
    when they still hold a number card of its number; then (read ``same-number``) only
    such a card may follow, and a pass gives the turn to the next player."""
    rule = spec.table.several
    if not rule.enabled:
        return  # off: nothing to ask, a vacuous verdict (Property.needs)
    ranks = spec.deck.numbers
    for step in spec.steps(s, (*spec.play_names(), "stop")):
        t, me = step.post, s.turn
        if step.name == "stop":
            yield across(step, z3.Not(fand(t.phase == PLAY,
                                           t.turn == spec.seat_on(s, me, s.direction, 1))))
            continue
        number = spec.play_kind(step.name) is Kind.NUMBER
        # read ends-turn, SEVEN-O's exchange card is the last card played: it never keeps
        # the turn; read after, the hand held after the exchange is the one asked
        ends = rule.exchange is SeveralExchange.ENDS_TURN and step.name in EXCHANGES
        if number:
            keeps = False if ends else f_or([
                fand(f_or([step.face == g for g in faces]),
                     f_or([t.seat_hand(me)[g] >= 1 for g in faces]))
                for faces in ranks.values()])
            claim = z3.If(keeps, fand(t.phase == MORE, t.turn == me), t.phase != MORE)
            yield across(step, s.phase != RESPOND, z3.Not(claim))
        if rule.then is SeveralThen.SAME_NUMBER:
            same = f_or([fand(f_or([step.face == g for g in faces]),
                              f_or([s.top == g for g in faces])) for faces in ranks.values()])
            label = step.label + " (after a number)"
            yield (across(step, s.phase == MORE, z3.Not(same), label=label) if number
                   else across(step, s.phase == MORE, label=label))


def _one_card(spec: Spec, step: Step) -> Expr:
    """PLAY-1: only the player to move loses cards, one at most; one card is discarded."""
    s, t = step.pre, step.post
    hands = [t.hand_total(p) >= s.hand_total(p) - when(s.turn, p, ival(1), ival(0))
             for p in range(spec.n)]
    def shown(x: Sym) -> Expr:
        return x.disc_total() + z3.If(x.top != NONE, 1, 0)

    return fand(*hands, shown(t) <= shown(s) + 1)


def _after_draw(spec: Spec, s: Sym) -> Iterator[Query]:
    """DRAW-1: draw one card, once; then only the drawn card may be played."""
    for step in spec.steps(s):
        if step.name.startswith("play_"):
            claim = z3.Implies(s.phase == DRAWN, step.face == s.drawn)
        elif step.name == "draw":
            t = step.post
            gets = [t.hand_total(p) == s.hand_total(p)
                    + when(s.turn, p, ival(DRAWS_ONE), ival(0))
                    for p in range(spec.n)]
            claim = fand(s.phase == PLAY, t.phase == DRAWN, *gets)
            # "If you cannot or will not play, draw": drawing is always allowed.
            yield enabled(step.label + " (allowed)", step, s.phase == PLAY, enough(spec, s))
        else:
            continue
        yield across(step, z3.Not(claim))
    # "... or keep it and end your turn": keeping the drawn card is always allowed.
    for step in spec.steps(s, ("keep",)):
        yield Query(step.label + " (allowed)", fand(s.phase == DRAWN, z3.Not(step.guard)),
                    [step], assume=s.phase == DRAWN)
    # "You may play that drawn card at once if it is legal."
    for step in spec.steps(s, spec.play_names()):
        faces = spec.play_faces(step.name)
        wild = spec.deck.faces[faces[0]].kind.is_wild
        match = f_or([fand(step.face == g, _matching(spec, g, s)) for g in faces])
        yield enabled(step.label + " (drawn card)", step, s.phase == DRAWN,
                      step.face == s.drawn, match, enough(spec, s),
                      step.choices["color"] == (0 if wild else NONE),
                      z3.Not(step.choices["uno"]), aimed_well(spec, step))


def _matching(spec: Spec, face: int, s: Sym) -> Expr:
    """PLAY-1 in words: same color, same number, same symbol, or a wild."""
    f = spec.deck.faces[face]
    if f.kind.is_wild:
        return z3.BoolVal(True)
    same_kind = f_or([s.top == g for g, h in enumerate(spec.deck.faces) if h.kind is f.kind
                       and (f.kind is not Kind.NUMBER or h.rank == f.rank)])
    return f_or(s.color == spec.fcolor[face], same_kind)


def _play_matches(spec: Spec, s: Sym) -> Iterator[Query]:
    """PLAY-1: exactly the matching cards may be played on a normal turn."""
    for step in spec.steps(s, spec.play_names()):
        kind_faces = spec.play_faces(step.name)
        match = f_or([fand(step.face == g, _matching(spec, g, s)) for g in kind_faces])
        yield across(step, s.phase != RESPOND, z3.Not(match))
        wild = spec.deck.faces[kind_faces[0]].kind.is_wild
        choice = fand(step.choices["color"] == (0 if wild else NONE),
                        z3.Not(step.choices["uno"]), aimed_well(spec, step))
        holds = spec.select(s.seat_hand(s.turn), step.face, kind_faces) >= 1
        yield enabled(step.label + " (allowed)", step, s.phase == PLAY,
                      f_or([step.face == g for g in kind_faces]), holds, match,
                      enough(spec, s), choice)


def _penalties(spec: Spec, s: Sym) -> Iterator[Query]:
    """D2-1, WD4-2, UNO-1, MISPLAY-1, ADVICE-1: the rulebook's number of cards."""
    names = ("play_draw_two", "catch", "misplay", "advise", "play_wild_draw_four")
    for step in spec.steps(s, names):
        t = step.post

        def grew(p: Expr, k: int, t: Sym = t) -> Expr:
            return t.seat_total(p) == s.seat_total(p) + k

        path = [step]
        if step.name == "play_draw_two":
            claim = grew(spec.seat_on(s, s.turn, s.direction, 1), DRAW_TWO_VICTIM)
        elif step.name == "catch":
            claim = grew(s.uno_window, UNO_PENALTY)
        elif step.name == "misplay":
            claim = fand(grew(s.turn, MISPLAY_PENALTY), t.phase == PLAY,
                           t.turn == spec.seat_on(s, s.turn, s.direction, 1))
        elif step.name == "advise":
            claim = grew(step.mover, ADVICE_PENALTY)
        else:  # WD4-2: accepting a Wild Draw Four draws 4 and loses the turn
            accept = spec.accept(t)
            victim = t.turn
            u = accept.post
            claim = z3.Implies(fand(s.phase == PLAY, accept.relation),
                               fand(u.seat_total(victim) == t.seat_total(victim) + WD4_VICTIM,
                                      f_or(u.phase == OVER,
                                            u.turn == spec.seat_on(s, victim, t.direction,
                                                                      1))))
            path = [step, accept]
        yield across(step, enough(spec, s), z3.Not(claim), path=path)


def _start(spec: Spec, s: Sym) -> Iterator[Query]:
    """DEAL-3 and START-*: who plays first, in which direction, after each start card."""
    for step in spec.steps(s, tuple(f"start_{k.name.lower()}" for k in spec.kinds)
                           + tuple(f"start_{k.name.lower()}_only_left" for k in spec.kinds)):
        t, d = step.post, s.dealer
        first, second = left(spec, d, 1), left(spec, d, 2)
        kind = next(k for k in spec.kinds if step.name.removesuffix("_only_left")
                    == f"start_{k.name.lower()}")
        goes_left = t.direction == 1
        same = fand([t.hand_total(p) == s.hand_total(p) for p in range(spec.n)])
        others = fand([f_or(first == p, t.hand_total(p) == s.hand_total(p))
                         for p in range(spec.n)])
        # a colored start card's own color is the current color
        own = t.color == spec.lookup(spec.fcolor, step.face, spec.faces_of(kind))
        if step.name.endswith("_only_left"):  # EXT-START: like a Wild start card
            claim = fand(t.turn == first, t.phase == COLOR)
        elif kind is Kind.NUMBER:
            claim = fand(t.turn == first, goes_left, t.phase == PLAY, same, own)
        elif kind is Kind.DRAW_TWO:
            claim = fand(t.turn == second, goes_left, t.phase == PLAY, own,
                           t.seat_total(first) == s.seat_total(first) + START_D2_DRAWS, others)
        elif kind is Kind.SKIP:
            claim = fand(t.turn == second, goes_left, t.phase == PLAY, same, own)
        elif kind is Kind.REVERSE:
            claim = fand(t.turn == d, t.direction == -1, t.phase == PLAY, same, own)
        elif kind is Kind.WILD:
            claim = fand(t.turn == first, goes_left, t.phase == COLOR, same)
        else:  # START-WD4: back into the deck, another card is turned
            claim = fand(t.phase == DEALT, t.top == NONE,
                           *[t.pile[g] == s.pile[g] for g in range(spec.nfaces)])
        # Only Wild Draw Fours left is a short pile: no "enough cards" assumption there.
        plenty = z3.BoolVal(True) if step.name.endswith("_only_left") else enough(spec, s)
        yield across(step, plenty, z3.Not(claim))


def _scoring(spec: Spec, step: Step) -> Expr:
    """END-1, SCORE-1/2: exactly the round's winner scores the cards left, in points."""
    s, t = step.pre, step.post
    ends = fand(s.phase != OVER, t.phase == OVER)
    worth = tuple(value(spec, g) for g in range(spec.nfaces))
    left_over = fsum([per_list(h, worth) for h in t.hands])
    w = t.winner
    scored = fand(
        t.seat_total(w) == 0,
        *[z3.If(w == p, t.scores[p] == s.scores[p] + left_over, t.scores[p] == s.scores[p])
          for p in range(spec.n)])
    same = fand([a == b for a, b in zip(t.scores, s.scores, strict=True)])
    return z3.If(ends, scored, same)


def _teams(spec: Spec, step: Step) -> Expr:
    """SCORE-1's teams, in the house rule's words: at an even count of 4 or more, a round
    won scores for the winner and the seat opposite, the same points; nobody else scores;
    read ``opponents``, the points are the opponents' hands only. (What a card is worth is
    the ``scoring`` property's; here the table's points, so that a rule that changes them,
    double-score, does not read as a team's.)"""
    s, t = step.pre, step.post
    reading = spec.table.points.partners
    ends = fand(s.phase != OVER, t.phase == OVER)
    worth = tuple(spec.deck.points)
    w = t.winner

    def at(n: int) -> Expr:
        mate = [(p + n // 2) % n if n % 2 == 0 and n >= 4 else NONE for p in range(n)]
        m: Expr = ival(NONE)
        for p in reversed(range(n)):
            m = fite(feq(w, p), ival(mate[p]), m)
        counted = [fite(feq(m, q), ival(0), per_list(h, worth))
                   if reading is Partners.OPPONENTS else per_list(h, worth)
                   for q, h in enumerate(t.hands[:n])]
        left_over = fsum(counted)
        gains = [z3.If(f_or(w == p, m == p), t.scores[p] == s.scores[p] + left_over,
                       t.scores[p] == s.scores[p]) for p in range(n)]
        return fand(t.seat_total(w) == 0, *gains)

    scored = fand([fimplies(feq(spec.count, n), at(n)) for n in spec.counts])
    same = fand([a == b for a, b in zip(t.scores, s.scores, strict=True)])
    return z3.If(ends, scored, same)


def _teams_queries(spec: Spec, s: Sym) -> Iterator[Query]:
    if spec.table.points.partners is Partners.NONE:
        return  # no partners: nothing to ask, a vacuous verdict (Property.needs)
    yield from step_queries(_teams, asked=_within_round)(spec, s)


def _next_deal(spec: Spec, s: Sym) -> Iterator[Query]:
    """END-2, DEAL-2, SCORE-2: deal 7 each, the dealer passes left, until someone has 500."""
    for step in spec.steps(s, ("next_deal",)):
        t = step.post
        claim = fand(*[spec.for_seated(p, t.hand_total(p) == HAND_SIZE) for p in range(spec.n)],
                       t.dealer == left(spec, s.dealer, 1),
                       *[a == b for a, b in zip(t.scores, s.scores, strict=True)],
                       *[x < TARGET for x in s.scores])
        yield across(step, z3.Not(claim))
    yield Query("game_over", spec.game_over(s) != f_or([x >= TARGET for x in s.scores]))


def _next_deal_mover(spec: Spec, s: Sym) -> Iterator[Query]:
    """END-2 read ``mover``: the player to move when the round ended plays first in the
    next one (DEAL-3's first seat after the new dealer)."""
    if spec.table.next_round.next_dealer is not NextDealer.MOVER:
        return  # read otherwise: nothing to ask, a vacuous verdict (Property.needs)
    first = spec.table.first_turn.first_seat
    for step in spec.steps(s, ("next_deal",)):
        yield across(step, z3.Not(left(spec, step.post.dealer, first) == s.turn))


def _mercy(spec: Spec, s: Sym) -> Iterator[Query]:
    """MERCY in its own numbers, after every move of a round: a player out stays out and
    holds no card; every player in holds fewer than ``at`` cards; the player to move is
    in; a move that leaves one player in ends the round, which that player wins and which
    scores nothing; and (the discard reading, no reshuffle in the move) a player knocked
    out put ``at`` cards or more under the discard pile."""
    rule = spec.table.mercy
    if not rule.enabled:
        return  # switched off: nothing to ask, a vacuous verdict (Property.needs)
    at = rule.at
    # EXT-PASS changes no hand, and at 2-4 players MERCY leaves no state where it is
    # enabled (every card but the top in hands of 24): asked, it would make every verdict
    # vacuous. A rule file's move made by a pass is part of its step, and is asked.
    passes = "pass" in made_by(spec.table)
    for step in spec.steps(s):
        if not (step.in_next and in_turn(step)) or \
                (step.name == "pass_nothing_to_draw" and not passes):
            continue
        t = step.post
        live = fand(t.phase != OVER, t.phase != DEALT, t.phase != STUCK)
        new = f_or([fand(fnot(x), y) for x, y in zip(s.out, t.out, strict=True)])
        parts = [fimplies(live, fnot(spec.is_out(t, t.turn))),
                 fimplies(fand(new, feq(spec.players_in(t), 1)),
                          fand(t.phase == OVER, fnot(spec.is_out(t, t.winner)),
                               t.round_points == 0))]
        for p in range(spec.n):
            parts += [spec.for_seated(p, fimplies(s.out[p], t.out[p])),
                      fimplies(t.out[p], feq(t.hand_total(p), 0)),
                      spec.for_seated(p, fimplies(fand(live, fnot(t.out[p])),
                                                  flt(t.hand_total(p), at)))]
        if rule.cards is MercyCards.DISCARD and "reshuffle" not in step.drawn_from:
            parts.append(fimplies(new, fge(t.disc_total() - s.disc_total(), at)))
        yield across(step, z3.Not(fand(parts)))


def _end_of_round(spec: Spec, s: Sym) -> Iterator[Query]:
    """END-1: a last card ends the round once its draw is resolved (a last Draw Two's
    victim has drawn its 2 cards when the round is scored), and a draw card its player
    went out with is never answered (EXT-LAST, where stacking could answer it); a
    challenge never sends cards back to a player who went out (WD4-1 makes that card
    legal)."""
    plays = spec.play_names()
    for step in spec.steps(s, (*plays, "challenge_upheld", "accept")):
        t = step.post
        if step.name == "challenge_upheld":  # (MERCY: or the offender is knocked out)
            claim = s.seat_total(s.offender) >= 1
            if s.out:
                claim = f_or(claim, spec.is_out(s, s.offender))
        elif step.name == "accept":  # (MERCY: an offender knocked out since did not go out)
            went = fand(s.seat_total(s.offender) == 0, *in_round(spec, s, s.offender)) \
                if s.out else s.seat_total(s.offender) == 0
            claim = z3.Implies(went, fand(t.phase == OVER, t.winner == s.offender))
        else:
            out = fand(s.seat_total(s.turn) == 1, s.phase != RESPOND)
            over = t.phase == OVER
            if step.name == "play_draw_two":  # its victim draws before the round is scored
                victim = spec.seat_on(s, s.turn, s.direction, 1)
                over = fand(over, t.seat_total(victim) == s.seat_total(victim)
                            + DRAW_TWO_VICTIM)
            claim = z3.Implies(out, f_or(over, t.phase == RESPOND))
            if spec.rules.last_draw_card_drawn.enabled:
                # EXT-LAST: a draw card its player went out with is never answered
                claim = fand(claim, z3.Implies(s.phase == RESPOND,
                                               s.seat_total(s.offender) >= 1))
        yield across(step, enough(spec, s), z3.Not(claim))


def _card_effects(spec: Spec, s: Sym) -> Iterator[Query]:
    """SKIP-1, REV-1, D2-1, WILD-1, WD4-2, TWO-1 and PLAY-1: what each card does to the
    turn, the direction and the color; nobody but a Draw Two's victim draws."""
    for step in spec.steps(s, spec.play_names()):
        t, me, d = step.post, s.turn, s.direction
        kind = spec.play_kind(step.name)
        faces = spec.faces_of(kind)
        nxt = spec.seat_on(s, me, d, 1)
        own = spec.lookup(spec.fcolor, step.face, faces)
        nobody_draws = [t.hand_total(p) <= s.hand_total(p) for p in range(spec.n)]
        if kind is Kind.NUMBER:
            claim = fand(t.turn == nxt, t.direction == d, t.color == own, *nobody_draws)
        elif kind is Kind.SKIP:
            claim = fand(t.turn == spec.seat_on(s, me, d, 2), t.direction == d,
                           t.color == own, *nobody_draws)
        elif kind is Kind.REVERSE:  # with two players it acts as a Skip (TWO-1)
            claim = two_or_more(spec, fand(t.turn == me, t.color == own, *nobody_draws),
                                fand(t.direction == -d, t.turn == spec.seat_on(s, me, -d, 1),
                                     t.color == own, *nobody_draws), s)
        elif kind is Kind.DRAW_TWO:
            victim = concrete(nxt)  # a number under the symmetry reduction
            others = [t.hand_total(p) <= s.hand_total(p) if victim is not None
                      else f_or(nxt == p, t.hand_total(p) <= s.hand_total(p))
                      for p in range(spec.n) if p != victim]
            claim = fand(t.turn == spec.seat_on(s, me, d, 2), t.direction == d,
                           t.color == own, *others)
        elif kind is Kind.WILD:
            claim = fand(t.turn == nxt, t.direction == d, t.color == step.choices["color"],
                           *nobody_draws)
        else:  # WD4-2: the next player accepts or challenges first
            claim = fand(t.phase == RESPOND, t.turn == nxt, t.direction == d,
                           t.offender == me, t.color == step.choices["color"], *nobody_draws)
        normal = fand(s.phase != RESPOND, s.seat_total(me) > 2, enough(spec, s))
        yield across(step, normal, z3.Not(claim))


def two_or_more(spec: Spec, two: Expr, more: Expr, s: Sym | None = None) -> Expr:
    """``two`` with two players (TWO-1), ``more`` with more (in the round ``s``: under
    MERCY, the players in)."""
    if s is not None and s.out:
        return fite(feq(spec.players_in(s), TWO_PLAYERS), two, more)
    if TWO_PLAYERS not in spec.counts:
        return more
    if spec.counts == (TWO_PLAYERS,):
        return two
    return fite(feq(spec.count, TWO_PLAYERS), two, more)


def _uno(spec: Spec, s: Sym) -> Iterator[Query]:
    """UNO-1: say UNO with the next-to-last card, or afterwards before an accusation;
    forgetting it opens a window in which the player, holding one card, can be caught.
    ADVICE-1: advising is always possible (and costs the adviser)."""
    for step in spec.steps(s, spec.play_names()):
        t, me = step.post, s.turn
        says = step.choices["uno"]
        two = fand(s.seat_total(me) == 2, s.phase != RESPOND, enough(spec, s))
        window = f_or(t.phase == OVER, t.uno_window == z3.If(says, NONE, me))
        yield across(step, two, z3.Not(window))
        faces = spec.play_faces(step.name)
        wild = spec.deck.faces[faces[0]].kind.is_wild
        free = fand(step.choices["color"] == (0 if wild else NONE), aimed_well(spec, step))
        yield enabled(step.label + " (say UNO)", step, s.phase == PLAY, two,
                      spec.select(s.seat_hand(me), step.face, faces) >= 1,
                      f_or([fand(step.face == g, _matching(spec, g, s)) for g in faces]),
                      free, says)
    live = fand(s.phase != OVER, s.phase != DEALT, s.phase != STUCK, enough(spec, s))
    for step in spec.steps(s, ("uno", "catch", "advise")):
        if step.name == "uno":
            yield enabled(step.label, step, live, s.uno_window != NONE, s.uno_window == step.mover)
        elif step.name == "catch":
            target = step.pre.uno_window
            yield across(step, s.seat_total(target) != 1)
        else:  # (MERCY: a player in)
            here = fand(live, *in_round(spec, s, step.mover)) if s.out else live
            yield Query(step.label + " (allowed)",
                        spec.if_seated(step.mover, fand(here, z3.Not(step.guard))), [step],
                        assume=spec.if_seated(step.mover, here))


def _uno_catch_later(spec: Spec, s: Sym) -> Iterator[Query]:
    """UNO-1 read ``any-time``: a turn that begins closes no window. After a play that
    leaves its player two cards or more, or a draw, by someone else than the player whose
    window is open, that window is still open while its player holds one card."""
    if spec.table.uno.catch_until is not CatchUntil.ANY_TIME:
        return  # read otherwise: nothing to ask, a vacuous verdict (Property.needs)
    # A draw card's victim is the only other player at two, whose window its draw
    # closes: a play that makes no one draw, or the draw, asks it at every count
    plays = tuple(name for name in spec.play_names() if "draw" not in name)
    for step in spec.steps(s, (*plays, "draw")):
        t, me, w = step.post, s.turn, s.uno_window
        yield across(step, w != NONE, w != me, s.seat_total(me) > 2, t.phase != OVER,
                     t.seat_total(w) == 1, z3.Not(t.uno_window == w))


def _extensions(spec: Spec, s: Sym) -> Iterator[Query]:
    """EXT-PASS and EXT-SHORT, in the words of their table entries: with nothing to draw
    a player passes; a draw of more cards than are left draws what is left."""
    for step in spec.steps(s, ("pass_nothing_to_draw", "accept")):
        if step.name == "pass_nothing_to_draw":
            stuck = fand(s.phase == PLAY, s.pile_total() == 0, s.disc_total() == 0)
            yield enabled(step.label, step, stuck)
        else:
            short = fand(s.phase == RESPOND, s.pile_total() + s.disc_total() < s.pending)
            yield enabled(step.label, step, short)


def _within_round(step: Step) -> bool:
    return step.in_next and step.name != "next_deal"


def _in_turn(step: Step) -> bool:
    return step.in_next and in_turn(step)


def _none(spec: Spec, s: Sym) -> Iterator[Query]:
    """``steps-enabled`` has no query of its own: the prover asks whether each action is
    enabled in some invariant state (``prover._steps_enabled``)."""
    return iter(())


# Each action cites its own entries (``Step.rule_ids``, named with it when it is never
# enabled); the property cites the moves a turn offers (play, draw, pass).
def _seven_o(spec: Spec, s: Sym) -> Iterator[Query]:
    """SEVEN-O: a 7 played swaps its player's hand (less the 7) with the hand of another
    player they choose, any other player (the default reading: :func:`_swapped_with`);
    a 0 passes every hand to the next player in the direction of play; the turn then
    passes on as after any number card. Played as the last card, either ends the round
    and exchanges nothing. After an exchange a UNO window is open only on a hand of one
    card."""
    me, d = s.turn, s.direction
    nxt = spec.seat_on(s, me, d, 1)
    for step in spec.steps(s, EXCHANGES):
        t, faces = step.post, spec.play_faces(step.name)
        swap = step.name == "play_swap_hands"
        rank = spec.lookup(spec.frank, step.face, faces) == (SWAP_RANK if swap else PASS_RANK)
        played = [fite(step.face == g, ival(1), ival(0)) if g in faces else ival(0)
                  for g in range(spec.nfaces)]
        window = z3.Implies(t.uno_window != NONE, t.seat_total(t.uno_window) == 1)
        if swap:
            target = step.choices["target"]
            mine, theirs = s.seat_hand(me), s.seat_hand(target)
            hands = fand(*[t.seat_hand(target)[g] == mine[g] - played[g]
                           for g in range(spec.nfaces)],
                         *[t.seat_hand(me)[g] == theirs[g] for g in range(spec.nfaces)],
                         *[z3.Implies(fand(me != p, target != p),
                                      t.hand_total(p) == s.hand_total(p))
                           for p in range(spec.n)])
        else:  # (MERCY: the hands of the players in)
            hands = fand(*[spec.for_seated(p, z3.Implies(
                fand(*in_round(spec, s, ival(p))),
                t.seat_total(spec.seat_on(s, ival(p), d, 1))
                == s.hand_total(p) - when(me, p, ival(1), ival(0)))) if s.out else
                spec.for_seated(p, t.seat_total(spec.seat_on(s, ival(p), d, 1))
                                == s.hand_total(p) - when(me, p, ival(1), ival(0)))
                for p in range(spec.n)])
        normal = fand(s.phase != RESPOND, s.seat_total(me) >= 2, enough(spec, s))
        yield across(step, normal, z3.Not(fand(rank, hands, window, t.turn == nxt,
                                               t.phase == PLAY)))
        last = fand(s.phase != RESPOND, s.seat_total(me) == 1, enough(spec, s))
        kept = fand(*[t.hand_total(p) == s.hand_total(p) - when(me, p, ival(1), ival(0))
                      for p in range(spec.n)])
        yield across(step, last, z3.Not(fand(t.phase == OVER, kept)),
                     label=step.label + " (last card)")
        if swap:
            yield from _swapped_with(spec, s, step, faces, False)


def _swapped_with(spec: Spec, s: Sym, step: Step, faces: list[int],
                  nearest: bool) -> Iterator[Query]:
    """SEVEN-O's readings of whose hand a 7 swaps with: any other player may be chosen
    (``chosen``, the default, ``nearest`` False), or the next player and only they
    (``next``). Each is stated apart from the table's value, so a table that plays the
    other reading refutes it."""
    me = s.turn
    nxt = spec.seat_on(s, me, s.direction, 1)
    target = step.choices["target"]
    if nearest:
        yield across(step, z3.Not(target == nxt), label=step.label + " (the next player)")
        aim = target == nxt
    else:
        aim = fand(target != me, target >= 0, spec.seated(target), *in_round(spec, s, target))
    matching = f_or([fand(step.face == g, _matching(spec, g, s)) for g in faces])
    yield enabled(step.label + (" (the next player)" if nearest else " (any other player)"),
                  step, s.phase == PLAY, s.seat_total(me) >= 2, matching, enough(spec, s),
                  spec.select(s.seat_hand(me), step.face, faces) >= 1,
                  step.choices["color"] == NONE, z3.Not(step.choices["uno"]), aim)


def _seven_o_next(spec: Spec, s: Sym) -> Iterator[Query]:
    """SEVEN-O read ``next``: a 7 swaps with the next player in the direction of play,
    only with them, and always may (letsuno's "swap with the next player")."""
    for step in spec.steps(s, ("play_swap_hands",)):
        yield from _swapped_with(spec, s, step, spec.play_faces(step.name), True)


def _jump_in(spec: Spec, s: Sym) -> Iterator[Query]:
    """JUMP-IN, with its default readings: out of turn a player plays only a card
    identical to the top of the discard pile, and only while the player to move has yet
    to play or draw; play then goes on from them (after a number card, the player after
    the jumper moves; the jumper holds one card less); a Draw Two jumped in on hits the
    player after the jumper (``each``); a jump closes a UNO window (``closes``); holding
    such a card, any player but the one to move may jump in."""
    d = s.direction
    for step in spec.steps(s, spec.jump_names()):
        me, t = step.mover, step.post
        yield across(step, z3.Not(fand(step.face == s.top, s.phase == PLAY, me != s.turn)))
        if step.name == "jump_number":
            claim = fand(t.turn == spec.seat_on(s, me, d, 1), t.direction == d,
                         t.seat_total(me) == s.seat_total(me) - 1)
            yield across(step, s.seat_total(me) >= 2, enough(spec, s), z3.Not(claim),
                         label=step.label + " (goes on from the jumper)")
            yield _jump_window(spec, s, step, False)
        if step.name == "jump_draw_two":
            yield _jumped_draw_two(spec, s, step, False)
        yield enabled(step.label + " (allowed)", step, s.phase == PLAY, me != s.turn,
                      *_jump_allowed(spec, s, step))


def _jump_allowed(spec: Spec, s: Sym, step: Step) -> list[Expr]:
    """What a jump needs besides its phase: a seated jumper holding the card identical to
    the top, enough cards left, and choices that are well made."""
    me, faces = step.mover, spec.play_faces(step.name)
    return [spec.seated(me), step.face == s.top, f_or([step.face == g for g in faces]),
            spec.select(s.seat_hand(me), step.face, faces) >= 1, enough(spec, s),
            step.choices["color"] == NONE, z3.Not(step.choices["uno"]),
            aimed_well(spec, step)]


def _jump_in_adds(spec: Spec, s: Sym) -> Iterator[Query]:
    """JUMP-IN read ``adds``: a Draw Two is jumped in on while the player to move has yet
    to play or draw, or while a Draw Two waits for its victim; then 2 more cards wait
    (:func:`_jumped_draw_two`); a player other than the victim holding the identical
    Draw Two may so jump in while its player still holds a card."""
    for step in spec.steps(s, ("jump_draw_two",)):
        me = step.mover
        waits = fand(s.phase == RESPOND, s.pending_kind == D2)
        when = f_or([s.phase == PLAY, waits])
        yield across(step, z3.Not(fand(step.face == s.top, when, me != s.turn)),
                     label=step.label + " (when)")
        yield _jumped_draw_two(spec, s, step, True)
        yield enabled(step.label + " (allowed on a Draw Two that waits)", step, waits,
                      me != s.turn, s.seat_total(s.offender) >= 1,
                      *_jump_allowed(spec, s, step))


def _jumped_draw_two(spec: Spec, s: Sym, step: Step, adds: bool) -> Query:
    """JUMP-IN's readings of a Draw Two jumped in on, in D2-1's numbers (the jumper keeping
    a card, enough cards left). ``each``: the player after the jumper draws 2 at once and
    loses the turn; the first victim drew theirs before. ``adds``: nobody draws yet; 2
    more cards wait, for the player after the jumper to accept (the first victim, who was
    to move, draws none of them)."""
    me, t, d = step.mover, step.post, s.direction
    victim = spec.seat_on(s, me, d, 1)
    hypothesis = (s.seat_total(me) >= 2, enough(spec, s))
    if adds:
        before = fite(s.phase == RESPOND, s.pending, ival(0))
        others = [z3.Implies(me != p, t.hand_total(p) == s.hand_total(p))
                  for p in range(spec.n)]
        claim = fand(t.phase == RESPOND, t.turn == victim, t.offender == me,
                     t.pending == before + DRAW_TWO_VICTIM, *others)
        return across(step, *hypothesis, z3.Not(claim), label=step.label + " (adds)")
    claim = fand(t.phase == PLAY, t.turn == spec.seat_on(s, me, d, 2),
                 t.seat_total(victim) == s.seat_total(victim) + DRAW_TWO_VICTIM)
    return across(step, s.phase == PLAY, *hypothesis, z3.Not(claim),
                  label=step.label + " (each)")


def _jump_window(spec: Spec, s: Sym, step: Step, stays: bool) -> Query:
    """JUMP-IN's readings of a UNO window open when a player jumps in (with a number, one
    that leaves the jumper more cards than a window is about): ``closes``, it is closed,
    as when the next turn begins (UNO-1); ``stays-open``, it is as it was."""
    t = step.post
    claim = t.uno_window == s.uno_window if stays else t.uno_window == NONE
    return across(step, s.uno_window != NONE, s.seat_total(step.mover) >= 3, z3.Not(claim),
                  label=step.label + (" (the window stays open)" if stays
                                      else " (the window closes)"))


def _jump_in_window_open(spec: Spec, s: Sym) -> Iterator[Query]:
    """JUMP-IN read ``stays-open``: a jump leaves a UNO window as it was."""
    for step in spec.steps(s, ("jump_number",)):
        yield _jump_window(spec, s, step, True)


STEPS_ENABLED = Property(
    "steps-enabled", "every action, each way its draws come out, is enabled in some "
    "invariant state (else every claim about it holds vacuously)",
    ("PLAY-1", "DRAW-1", "EXT-PASS"), _none)

PROPERTIES: tuple[Property, ...] = (
    Property("deck", "the deck is the rulebook's 108 cards; 2 to 10 players",
             ("DECK-1", "DECK-2"), _deck),
    Property("invariant", "the invariant (TypeOK and its END-1/WD4-1 strengthening) is "
             "inductive (its card counts: conservation)", ("DECK-1", "END-1", "WD4-1"),
             _inductive),
    Property("conservation", "every action keeps each face's count; no count goes negative",
             ("DECK-1", "RESHUFFLE-1"), _conservation),
    Property("reshuffle-keeps-top", "the top discard never enters the draw pile",
             ("RESHUFFLE-1",), _top_stays),
    Property("seated", "the player to move is always seated",
             ("DECK-2", "PLAY-1"), step_queries(_seated)),
    Property("wd4-legality", "a Wild Draw Four is legal iff no card of the current color is "
             "held", ("WD4-1",), step_queries(_wd4_legality, ("play_wild_draw_four",))),
    Property("challenge", "challenged legal card: challenger draws 6, loses the turn; bluff: "
             "offender draws 4, challenger keeps it; the color stays",
             ("CHAL-1", "CHAL-2", "CHAL-3", "CHAL-4"), _challenge),
    Property("two-player-reverse-is-skip", "a Reverse and a Skip of one color give the same "
             "turn order", ("TWO-1",), _two_players_same),
    Property("two-player-turn-returns", "with two players Reverse, Skip and Draw Two give the "
             "turn back", ("TWO-1",),
             step_queries(_turn_returns, ("play_reverse", "play_skip", "play_draw_two")),
             players=lambda n: n == TWO_PLAYERS),
    Property("no-stacking", "the victim of a draw card has no play and loses the turn",
             ("NOSTACK-1", "D2-1"), _no_stacking),
    Property("one-card-per-turn", "only the player to move loses a card, one at most",
             ("PLAY-1",), step_queries(_one_card, asked=_in_turn)),
    Property("after-draw", "draw one card once; then only the drawn card may be played",
             ("DRAW-1",), _after_draw),
    Property("play-matches", "exactly the cards matching color, number or symbol, and wilds, "
             "may be played", ("PLAY-1", "WILD-1"), _play_matches),
    Property("penalties", "Draw Two 2, Wild Draw Four 4, missed UNO 2, misplay 2, advice 2",
             ("D2-1", "WD4-2", "UNO-1", "MISPLAY-1", "ADVICE-1"), _penalties),
    Property("start-card", "the start card's effect on the first player",
             ("DEAL-3", "START-D2", "START-SKIP", "START-REV", "START-WILD", "START-WD4"),
             _start),
    Property("scoring", "exactly the winner scores the cards left: face value, 20, 50",
             ("END-1", "SCORE-1", "SCORE-2"), step_queries(_scoring, asked=_within_round)),
    Property("next-deal", "7 cards each, the dealer passes left, until someone has 500",
             ("END-2", "DEAL-2", "SCORE-2"), _next_deal),
    Property("card-effects", "Skip skips one, Reverse turns the order, Draw Two's victim "
             "draws and is skipped, wilds name the color", ("PLAY-1", "SKIP-1", "REV-1", "D2-1",
                                                           "WILD-1", "WD4-2", "TWO-1"),
             _card_effects),
    Property("uno", "say UNO with the next-to-last card or before an accusation; caught "
             "holding one card; advice is always possible", ("UNO-1", "ADVICE-1"), _uno),
    Property("extensions", "with nothing to draw a player passes; a draw takes what is left",
             ("EXT-PASS", "EXT-SHORT"), _extensions),
    Property("end-of-round", "a last card ends the round after its draw; a challenge never "
             "sends cards back to a player who went out", ("END-1", "WD4-1", "EXT-LAST"),
             _end_of_round),
    Property("seven-o", "a 7 swaps two hands, a 0 passes every hand on; not as the last "
             "card", ("SEVEN-O",), _seven_o, needs=("SEVEN-O",)),
    Property("jump-in", "out of turn only a card identical to the top, before the player to "
             "move plays or draws; play goes on from the jumper; a Draw Two jumped in on "
             "hits the player after the jumper; a jump closes a UNO window", ("JUMP-IN",),
             _jump_in, needs=("JUMP-IN",)),
    # The other readings of the house rules, each a property of its own: a table that
    # plays the default refutes them (the manifest says why), as the defaults' properties
    # are refuted by a table that plays another reading.
    Property("seven-o-next", "a 7 swaps hands with the next player, only with them "
             "(SEVEN-O read next)", ("SEVEN-O",), _seven_o_next, needs=("SEVEN-O",)),
    Property("jump-in-adds", "a Draw Two jumped in on a waiting Draw Two adds 2 to it; the "
             "player after the jumper is to accept (JUMP-IN read adds)", ("JUMP-IN",),
             _jump_in_adds, needs=("JUMP-IN",)),
    Property("jump-in-window-open", "a jump leaves a UNO window open (JUMP-IN read "
             "stays-open)", ("JUMP-IN",), _jump_in_window_open, needs=("JUMP-IN",)),
    # A property of a value's reading other than the rulebook's asks nothing of a table
    # that reads it the rulebook's way: its verdict there is vacuous, with no manifest
    # entry per variant (Property.needs, "ID.value=reading").
    Property("uno-catch-later", "a forgotten UNO can be caught at any later time: no turn "
             "closes its window (UNO-1 read catch_until any-time)", ("UNO-1",),
             _uno_catch_later, needs=("UNO-1", "UNO-1.catch_until=" + CatchUntil.ANY_TIME.value)),
    Property("deflect", "a Skip or Reverse played on a waiting draw card passes the same "
             "count on: to the next player, or after a Reverse the next in the flipped "
             "direction (NOSTACK-1 deflect_with)", ("NOSTACK-1", "SKIP-1", "REV-1", "TWO-1"),
             _deflect, needs=("NOSTACK-1.deflect_with",)),
    Property("several", "a number card keeps its player's turn while they hold another of "
             "its number; then only such a card, or a pass (SEVERAL)", ("SEVERAL", "PLAY-1"),
             _several, needs=("SEVERAL",)),
    Property("teams", "partners seated opposite score a round won alike, from every other "
             "hand or the opponents' (SCORE-1 partners)", ("SCORE-1", "SCORE-2"),
             _teams_queries, needs=("SCORE-1.partners",)),
    Property("mercy", "a player holding the limit (25) or more is out of the round with none; "
             "the player to move is in; the last player in wins a round scoring nothing "
             "(MERCY)", ("MERCY",), _mercy, needs=("MERCY",)),
    Property("next-deal-mover", "the player to move when the round ended plays first in "
             "the next (END-2 read next_dealer mover)", ("END-2", "DEAL-3"), _next_deal_mover,
             needs=("END-2.next_dealer=" + NextDealer.MOVER.value,)),
    STEPS_ENABLED,
)


def property_named(name: str, rules: RuleTable | None = None) -> Property:
    """The shipped property ``name``, or one of ``rules``' rule files (:func:`properties_of`)."""
    for prop in PROPERTIES if rules is None else properties_of(rules):
        if prop.name == name:
            return prop
    raise KeyError(name)


def properties_of(rules: RuleTable) -> tuple[Property, ...]:
    """The shipped properties, then those a rule file states of its house rules
    (``[[house.property]]``), each needing its rule: vacuous where the rule is off."""
    return PROPERTIES + tuple(_stated(rule.id, p, rules.own) for rule in rules.house
                              for p in rule.properties)


@cache
def _stated(rule_id: str, stated: HouseProperty,
            own: tuple[OwnCondition, ...] = ()) -> Property:
    """A rule file's property as a Z3 property: every step of its move starts where
    ``before`` holds and ends where ``after`` holds, each a condition of the rule
    language (unoformal.rules.house), encoded on the pre- and post-state; ``own``, the
    conditions the file's module adds."""
    from unoformal.language.protocols import Binding
    from unoformal.rules.house import condition

    where = f"house rule {rule_id}: property {stated.name}"
    before = condition(stated.before, f"{where}.before", own=own) if stated.before else None
    after = condition(stated.after, f"{where}.after", own=own) if stated.after else None

    def queries(spec: Spec, s: Sym) -> Iterator[Query]:
        if not any(rule.id == rule_id and rule.enabled for rule in spec.table.house):
            return  # the rule is off: nothing to ask, a vacuous verdict (Property.needs)
        for step in spec.steps(s, (stated.command,)):
            b = Binding(step.mover)
            if before is not None:
                yield across(step, z3.Not(before.encode(spec, s, b)),
                             label=step.label + " (before)")
            if after is not None:
                yield across(step, z3.Not(after.encode(spec, step.post, b)),
                             label=step.label + " (after)")

    return Property(stated.name, stated.says, (rule_id,), queries, needs=(rule_id,))
