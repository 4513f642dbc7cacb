"""Is a refutation reachable? A bounded search from a deal for a violation a user can play.

The prover's counterexample is a model of the inductive step: some state satisfying the
invariant, not necessarily one any game reaches (a hand of 106 cards, a Wild Draw Four
waiting with nothing to draw). This module looks for the same property failing in a
state a game does reach: bounded model checking (BMC) over the transition relation,
``s0`` a first deal (the table's own, DEAL-2: :func:`first_deal`) and
``s1 .. sk`` each a successor of the one before (``next_relation``: the start card, then
any action of the table), asking at each depth ``k`` up to ``depth`` whether some query
of the property holds from ``sk``. The path found is written as a game record (the
hands dealt, the draw pile in the order the path draws it) and replayed by the engine
(:func:`unoformal.engine.record.replay`): the search counts as a success only when the
engine plays every action, and the property's own query, asked of the engine's state
before the violating action (:func:`concrete_check`), still fails there.

When no such run is found within the bound the refutation stays a model of the
inductive step only: the property is *not proved at this strength* (the invariant is
too weak to prove it, or it fails further from the deal than the bound looks), which
is not the same as *refuted*.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

import z3

from unoformal.engine.game import Game
from unoformal.engine.record import replay, with_rules
from unoformal.rulebook.table import RuleTable
from unoformal.rules.state import SYMBOLIC
from unoformal.verification.z3.actions import Spec, Step, next_relation
from unoformal.verification.z3.properties import TRUE, Property, Query
from unoformal.verification.z3.solver import make_solver
from unoformal.verification.z3.state import Sym, concrete_state, dealt, equal, fresh, ival
from unoformal.verification.z3.witness import action_of, cards, names, val

# Depth 3 from a deal: the start card and two actions before the violating one. Every
# shipped refutation the search reached, it reached at depth 0 or 1 (docs/verification.md,
# "Refuted, or not proved at this strength"); a deeper search of the whole deck mostly
# times out, and each depth costs about as much as all those before it.
DEFAULT_DEPTH = 3
DEFAULT_BUDGET_S = 60.0
# The reshuffle is a sub-action (``Step.in_next`` false) and a deal is far from running
# out of cards within a few actions; a new deal (END-2) ends the round the run is about.
LEFT_OUT = ("next_deal",)
TRIES = 3  # runs the engine refuses, per count and depth, before the count is given up

# The two readings of a refutation (``Reach.conclusion``).
REACHED = "refuted"
NOT_PROVED = "not proved at this strength"


@dataclass
class Reach:
    """What the bounded search from a deal found for one refutation.

    ``record``: the game record from the deal to the violating action (its last
    action), replayed by the engine; ``at``: the index of that action in the record;
    ``label``: the property's query it violates; ``depth``: the number of steps before
    it, the start card first; ``bound``: the deepest depth searched; ``why``: when
    nothing was found, why (the bound, the budget, a solver time-out, or a path the
    engine refused, never accepted as a success)."""

    bound: int
    seconds: float
    record: dict[str, Any] | None = None
    at: int | None = None
    label: str | None = None
    depth: int | None = None
    why: str | None = None
    refused: list[str] = field(default_factory=list)
    # The violating action, when the property says it must be allowed and the rules
    # refuse it (``properties.enabled``): not in the record, which ends before it.
    refused_action: str | None = None
    # The engine's refusal of ``refused_action`` (its rule, then its words): which rule
    # takes away what the property says is allowed.
    refusal: str | None = None
    # Every depth up to ``bound`` asked and answered, no run refused by the engine: "not
    # reached" then means no run of the relation within the bound (not a time-out, a
    # budget spent, or a disagreement between the relation and the engine).
    complete: bool = False

    @property
    def reached(self) -> bool:
        return self.record is not None

    @property
    def conclusion(self) -> str:
        return REACHED if self.reached else NOT_PROVED

    def to_json(self) -> dict[str, Any]:
        """The ``reach`` object of a ``verify --json`` row."""
        out: dict[str, Any] = {"reached": self.reached, "conclusion": self.conclusion,
                               "bound": self.bound, "complete": self.complete or self.reached,
                               "seconds": round(self.seconds, 3)}
        if self.reached:
            out.update(depth=self.depth, action=self.label, at=self.at, record=self.record,
                       refused_action=self.refused_action)
            if self.refusal is not None:
                out["refusal"] = self.refusal
        else:
            out["why"] = self.why
        return out

    def sentence(self) -> str:
        """One line for the command's output and the show page."""
        if self.reached:
            assert self.record is not None
            assert self.at is not None
            # counted from 1 for a reader; ``at`` (the JSON's) is the record's index
            what = (f"action {self.at + 1} ({self.label})" if self.refused_action is None else
                    f"the position after its {self.at} action(s), where the rules refuse "
                    f"{self.refused_action} ({self.label}{_by(self.refusal)})")
            return (f"reached from a deal: a game of {len(self.record['actions'])} "
                    f"action(s) that the engine replays breaks it at {what}; the "
                    "property is refuted")
        return (f"{self.searched()}: the counterexample's state may be unreachable, so "
                "the property is not proved at this strength, not refuted")

    def searched(self) -> str:
        """What the search covered, when it found nothing: its whole bound, or where and
        why it stopped short."""
        if self.complete:
            return f"no game from a deal of at most {self.bound} step(s) breaks it"
        return f"no game from a deal found ({self.why})"


def first_deal(spec: Spec) -> tuple[Sym, Any]:
    """A first deal and what makes it one: the table's own deal (``next_deal``'s effect,
    DEAL-2: hand_size cards each from the whole deck, the rest the pile, the start card
    not yet turned), no scores yet. Not the invariant's ``dealt`` phase, which admits any
    hands (a hand of 100 cards): that is what the search must not start from.

    The dealer is one fixed seat (the one ``next_deal`` passes the role to from the last
    seat, or gives the last seat as the winner): a first deal is the same game turned
    round the table whoever deals (DEAL-1 draws the
    dealer; every rule names seats from the dealer or the player to move), so one dealer
    is every dealer. With it every seat an action names is a number, and the search at
    7 players and more no longer times out at the first action (the TWO-1 witness at
    7-10 players: a time-out of 10 s each with any dealer, 1.2-3.0 s with one,
    measured)."""
    before = fresh(spec.n, spec.deck, "undealt", knocks=spec.knocks).evolve(dealer=ival(spec.n - 1),
                                                        winner=ival(spec.n - 1))
    step = spec.next_deal(before)
    return step.post, z3.And(step.draws, *[x == 0 for x in before.scores])


def search(rules: RuleTable, prop: Property, counts: Collection[int],
           depth: int = DEFAULT_DEPTH, budget_s: float = DEFAULT_BUDGET_S,
           timeout_ms: int = 10_000) -> dict[int, Reach]:
    """For each player count of ``counts``: the shortest run from a deal (at most
    ``depth`` steps before the violating action) after which ``prop`` fails, replayed by
    the engine, or why none was found. One count at a time, smallest first: asked about
    several counts at once (the number of players a symbol, as the prover asks) the
    queries timed out where each count alone took a second (RLCard's card-effects at
    2-4 players, measured). ``budget_s`` is for all the counts together: a count it
    leaves no time for says so."""
    start = time.perf_counter()
    out: dict[int, Reach] = {}
    for n in sorted(set(counts)):
        spent = time.perf_counter() - start
        if spent > budget_s:
            out[n] = Reach(depth, 0.0, why=f"not searched: the search's time budget "
                                          f"({budget_s:.0f} s) was spent on fewer players")
            continue
        out[n] = _search_at(rules, prop, n, depth, budget_s - spent, timeout_ms)
    return out


def _search_at(rules: RuleTable, prop: Property, n: int, depth: int, budget_s: float,
               timeout_ms: int) -> Reach:
    """The search at ``n`` players: one solver, one more step of the relation per depth
    (each depth's query asked in a push/pop scope above the run so far)."""
    start = time.perf_counter()
    spec = Spec(rules, n)
    s0, deal = first_deal(spec)
    states = [s0]
    solver = make_solver(timeout_ms)
    solver.add(deal)
    refused: list[str] = []
    why = None
    for k in range(depth + 1):
        if k:
            states.append(fresh(spec.n, spec.deck, f"reach{k}", knocks=spec.knocks))
            solver.add(_next(spec, states[k - 1], states[k], first=k == 1))
        found, why = _at_depth(spec, prop, solver, states, refused, (start, budget_s))
        if found is not None:
            found.bound, found.complete = depth, True
            found.seconds = time.perf_counter() - start
            return found
        if why is not None or len(refused) >= TRIES:
            break
    searched = why is None and not refused
    why = why or f"no run of at most {depth} steps from a deal violates it"
    if refused:
        why += (f"; {len(refused)} run(s) found that the engine refused, the first: "
                f"{refused[0]}")
    return Reach(depth, time.perf_counter() - start, why=why, refused=refused,
                 complete=searched)


def _next(spec: Spec, s: Sym, t: Sym, first: bool) -> Any:
    """``next_relation`` from ``s`` to ``t``; from the deal (``first``) the start card only:
    nothing else may happen before it (every other action's guard asks for a later phase),
    and building the other actions' relations there took most of a search's time (1.4 of
    3.7 s for stacking's card-effects at five players, measured)."""
    if not first:
        return next_relation(spec, s, t, LEFT_OUT)
    starts = tuple(f"start_{kind.name.lower()}" for kind in spec.kinds)
    return z3.Or([z3.And(step.relation, equal(step.post, t))
                  for step in spec.steps(s, starts) if step.in_next])


def _at_depth(spec: Spec, prop: Property, solver: z3.Solver, states: list[Sym],
              refused: list[str], clock: tuple[float, float]) -> tuple[Reach | None, str | None]:
    """A run to the last state after which some query of ``prop`` fails, as a record the
    engine replays; else None, and why the search must stop, if it must. A run the engine
    refuses is never taken for a success: it is added to ``refused``, and the same actions
    with the same cards are ruled out for another try (a start Wild whose color the
    engine draws at random, RLCard's START-WILD, is not the color the model chose), until
    ``TRIES`` runs in all were refused."""
    queries = list(prop.queries(spec, states[-1]))
    k = len(states) - 1
    blocked: list[Any] = []
    while queries and len(refused) < TRIES:
        if time.perf_counter() - clock[0] > clock[1]:
            return None, f"the search's time budget ran out at depth {k}"
        solver.push()
        solver.add(z3.Or([q.formula for q in queries]), *blocked)
        answer = solver.check()
        if answer != z3.sat:
            why = solver.reason_unknown() if answer == z3.unknown else None
            solver.pop()
            return None, None if why is None else f"the solver could not decide depth {k} ({why})"
        model = solver.model()
        query = next(q for q in queries if z3.is_true(model.eval(q.formula, True)))
        path = path_of(spec, model, states)
        reach = _reach(spec, prop, model, states, query, spec.n)
        blocked.append(z3.Not(_same_run(spec, model, states, path)))
        solver.pop()
        if reach.reached:
            return reach, None
        refused.append(reach.why or "")
    return None, None


def _same_run(spec: Spec, m: z3.ModelRef, states: list[Sym], path: list[Step]) -> Any:
    """The model's run: the same action, with the same card, at each step."""
    return z3.And([z3.And(step.relation, equal(step.post, post),
                          step.face == val(m, step.face) if z3.is_expr(step.face) else True)
                   for step, post in zip(path, states[1:], strict=True)])


def path_of(spec: Spec, m: z3.ModelRef, states: list[Sym]) -> list[Step]:
    """The step of the relation each transition of the model takes."""
    out = []
    for pre, post in itertools.pairwise(states):
        out.append(next(step for step in spec.steps(pre)
                        if step.in_next and step.name not in LEFT_OUT
                        and z3.is_true(m.eval(z3.And(step.relation, equal(step.post, post)),
                                              True))))
    return out


def _reach(spec: Spec, prop: Property, m: z3.ModelRef, states: list[Sym],
           query: Query, n: int) -> Reach:
    """The model's run as a record, kept only when the engine and the property's own
    check agree (:func:`check_record`)."""
    path = path_of(spec, m, states)
    taken = taken_steps(query)
    record = to_record(spec, m, states[0], path + taken, n)
    before = len(record["actions"]) - len(taken)  # the actions before the violating one
    step = query.steps[0] if query.steps else None
    action = action_of(spec, m, step) if step is not None else None
    problem = check_record(spec.table, prop, record, before, query.label,
                           None if action is None else action.to_json())
    if problem is not None:
        return Reach(0, 0.0, why=problem)
    refused = None if taken or action is None else str(action)
    refusal = None if refused is None or action is None else \
        _refusal(spec.table, record, action.to_json())
    # the table embedded (a shipped variant by name), so the record replays with no file
    # beside it, as every record the project writes does
    record = with_rules(record, spec.table)
    return Reach(0, 0.0, record, before, query.label, len(path), refused_action=refused,
                 refusal=refusal)


def _refusal(rules: RuleTable, record: dict[str, Any], action: dict[str, Any]) -> str | None:
    """The rule, then the words, with which the engine refuses ``action`` at the end of
    ``record`` (check_record has found that it does)."""
    error = replay(dict(record, actions=[*record["actions"], action]), rules=rules).error
    if error is None:
        return None
    return f"{error.rule_id}: {error.message}" if error.rule_id else error.message


def _by(refusal: str | None) -> str:
    return "" if refusal is None else f"; refused under {refusal}"


def taken_steps(query: Query) -> list[Step]:
    """The query's step the record plays: its first, when the query assumes it happens
    (its relation is ``given``); none when the query is about a step the rules refuse
    (``properties.enabled``: the claim is that it is enabled) or about the state alone."""
    return query.steps[:1] if query.steps and query.given is not TRUE else []


def to_record(spec: Spec, m: z3.ModelRef, s0: Sym, steps: list[Step],
              n: int) -> dict[str, Any]:
    """The game record of ``steps`` from the dealt state ``s0``: the hands dealt, the
    draw pile with the start card first, then every card the steps draw, in order, then
    the rest."""
    who = names(n)
    order: list[str] = []
    for step in steps:
        if step.name.startswith("start_"):
            order.append(spec.deck.code(val(m, step.face)))
        for f in range(spec.nfaces):
            gone = val(m, step.pre.pile[f]) - val(m, step.post.pile[f])
            if step.name.startswith("start_") and f == val(m, step.face):
                gone -= 1
            order += [spec.deck.code(f)] * max(gone, 0)
    rest = cards(spec, m, s0.pile)
    for code in order:
        rest.remove(code)
    # the start card is the deal's (the draw pile's first card), no player's action
    played = (action_of(spec, m, st) for st in steps if not st.name.startswith("start_"))
    actions = [a for a in played if a is not None]
    return {"rules": spec.table.name, "players": who, "dealer": who[val(m, s0.dealer)],
            "seed": 0,
            "deal": {"hands": {who[p]: cards(spec, m, s0.hands[p]) for p in range(n)},
                     "draw_pile": order + rest},
            "actions": [a.to_json() for a in actions]}


def check_record(rules: RuleTable, prop: Property, record: dict[str, Any], before: int,
                 label: str, action: dict[str, Any] | None) -> str | None:
    """None when the engine plays every action of ``record`` and ``prop``'s query
    ``label`` fails from the engine's state after its first ``before`` actions (with the
    choices of ``action``, the violating one); else what went wrong, in one line. When
    the record stops before ``action`` (the rules refuse it, and the property says they
    must not), the engine must refuse it there too."""
    try:
        pre = replay(record, rules=rules, stop_at=before)
        whole = replay(record, rules=rules)
        refused = None
        if action is not None and before == len(record["actions"]):
            refused = replay(dict(record, actions=[*record["actions"], action]), rules=rules)
    except Exception as err:  # a record the engine refuses is reported, not raised
        return f"the engine refuses the record: {err}"
    for result in (pre, whole):
        if result.error is not None:
            where = "its set-up" if result.error_index is None else \
                f"action {result.error_index}"
            return f"the engine refuses {where}: {result.error}"
    if refused is not None and refused.error_index != before:
        return f"the engine plays {action}, which the relation refuses"
    return concrete_check(rules, prop, pre.game, action, label, record)


def concrete_check(rules: RuleTable, prop: Property, game: Game,
                   action: dict[str, Any] | None, label: str,
                   record: dict[str, Any] | None = None) -> str | None:
    """The property's query ``label`` asked of the engine's concrete state ``game``, with
    the choices of ``action`` (the record's violating action): None when it fails there
    (satisfiable), else why not. A query about the start card is about the deal before
    it, which the engine never shows (a record's game starts with the start card turned):
    its state is then the deal of ``record``, with its start card."""
    spec = Spec(rules, game.n)
    start = label.startswith("start_") and record is not None
    s = _deal_of(spec, record, game) if start and record is not None else to_sym(game)
    queries = [q for q in prop.queries(spec, s) if q.label == label]
    if not queries:
        return f"the property asks nothing about {label} in the engine's state"
    for query in queries:
        solver = make_solver(10_000)
        solver.add(query.formula)
        if query.steps and start and record is not None:
            solver.add(query.steps[0].face == spec.deck.codes.index(
                record["deal"]["draw_pile"][0]))
        elif query.steps and action is not None:
            solver.add(*_chosen(spec, query.steps[0], game, action))
        if solver.check() == z3.sat:
            return None
    return f"the property holds at {label} in the engine's state: its check does not fail"


def _deal_of(spec: Spec, record: dict[str, Any], game: Game) -> Sym:
    """The dealt state of ``record`` (DEAL-2, before the start card), as Z3 values."""
    codes = spec.deck.codes
    hands = [[ival(list(record["deal"]["hands"][name]).count(c)) for c in codes]
             for name in game.names]
    held = [sum(list(h).count(c) for h in record["deal"]["hands"].values()) for c in codes]
    pile = [ival(k - held[f]) for f, k in enumerate(spec.deck.copies)]
    return dealt(hands, pile, ival(list(game.names).index(record["dealer"])),
                 [ival(0)] * game.n, knocks=spec.knocks)


def to_sym(game: Game) -> Sym:
    """The engine's state as Z3 values. (``compare.successors`` has the same, but loads the
    explorer and networkx, which ``verify`` would then load for every run.)"""
    nfaces = len(game.deck.faces)
    return concrete_state({f.name: getattr(game, f.name) for f in SYMBOLIC}, game.n, nfaces,
                          knocks=game.rules.knocks_out())


def _chosen(spec: Spec, step: Step, game: Game, action: dict[str, Any]) -> Iterator[Any]:
    """The step's choices fixed to the engine action's: who acts, the card, the color,
    the target, the UNO call."""
    who = list(game.names)
    yield step.mover == who.index(action["player"])
    card = action.get("card")
    if card is not None and step.face is not None and not isinstance(step.face, int):
        yield step.face == spec.deck.codes.index(card)
    color = action.get("color")
    if color is not None and "color" in step.choices:
        yield step.choices["color"] == [c.value for c in spec.deck.colors].index(color)
    target = action.get("target")
    if target is not None and "target" in step.choices:
        yield step.choices["target"] == who.index(target)
    if "uno" in step.choices:
        yield step.choices["uno"] == bool(action.get("uno", False))
