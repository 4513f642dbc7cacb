"""A small deck's round as one Promela program: the state the explorer keys, and an
option of one ``do`` loop per command, binding and chance outcome, each a ``d_step``.

One explorer state is one Spin state: the program has one process whose only control
point is the loop, every option is a single ``d_step`` (no intermediate state), the
scratch variables are ``hidden`` (outside Spin's state vector), and every option ends by
clearing the fields the round reads only in another phase (``Field.phases``: the drawn
card outside ``drawn``, the pending draw outside ``respond``), as the explorer's key
leaves them out. The pile is held as counts, the rest of the deck, as the key implies it.
Spin's count has one state more than the explorer's: its initial state, before the deal,
from which one option per deal (hands, start card, its start rule's chance) leads to
every state the explorer starts from."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from unoformal.language.commands import Command
from unoformal.language.conditions import UnoCall
from unoformal.language.protocols import Actor, Binding, Who
from unoformal.rules import play as card_play
from unoformal.rules.book import commands
from unoformal.rules.start import starts
from unoformal.rules.state import DRAWN, OVER, RESPOND, START
from unoformal.rules.turn import turn as turn_moves
from unoformal.rules.uno import out_of_turn
from unoformal.verification.explore.graph import Config
from unoformal.verification.promela.conditions import both, cond, either, negated
from unoformal.verification.promela.context import DEALT, NONE, ROOT, Ctx, phase_code
from unoformal.verification.promela.effects import effect, when

Lines = list[str]
Writer = Callable[[], tuple[str, Lines]]  # an option's guard and body, for the script set

# The state: (name, Promela type, value in the initial state). Seats, colors, faces and
# kinds are bytes, NONE (255) for none; ``dir`` is 1 to the left (+1), 0 to the right.
SCALARS = (("phase", "byte", ROOT), ("start", "byte", NONE), ("turn", "byte", 0),
           ("dir", "bit", 1),
           ("color", "byte", NONE), ("uno", "byte", NONE), ("drawn", "byte", NONE),
           ("pending", "byte", 0), ("pkind", "byte", NONE), ("offender", "byte", NONE),
           ("legal", "bit", 0), ("prevc", "byte", NONE), ("winner", "byte", NONE),
           ("top", "byte", NONE))
SCRATCH = ("t_actor", "t_off", "t_seat", "t_count", "t_had", "t_left", "t_taken")


@dataclass(frozen=True)
class Model:
    """The program and what it holds (for the report and the benchmark)."""

    text: str
    options: int
    deals: int  # the states dealt, before the start card is turned: Spin's, not the explorer's

    def explorer_states(self, spin_states: int) -> int:
        """The explorer's count that Spin's ``spin_states`` stands for: less the initial
        state and the dealt states."""
        return spin_states - 1 - self.deals


def arrays(ctx: Ctx) -> list[tuple[str, int]]:
    return [("hand", ctx.players * ctx.nf), ("disc", ctx.nf), ("pile", ctx.nf)]


def declarations(ctx: Ctx) -> Lines:
    out = [f"{kind} {name} = {value};" for name, kind, value in SCALARS]
    out += [f"byte {name}[{size}];" for name, size in arrays(ctx)]
    out += [f"hidden byte {name};" for name in SCRATCH] + ["hidden byte bad;"]
    out += [f"hidden byte bk_{name};" for name, _, _ in SCALARS]
    out += [f"hidden byte bk_{name}[{size}];" for name, size in arrays(ctx)]
    return out


def inlines(ctx: Ctx) -> Lines:
    """``save`` and ``restore`` (an option whose chance outcome the state cannot give ends
    where it began) and ``settle`` (the fields no rule reads in the phase reached)."""
    names = [n for n, _, _ in SCALARS] + [f"{a}[{i}]" for a, size in arrays(ctx)
                                          for i in range(size)]
    save = "; ".join(f"bk_{x} = {x}" for x in names)
    restore = "; ".join(f"{x} = bk_{x}" for x in names)
    settle = [
        f"if :: phase != {phase_code(DRAWN)} -> drawn = {NONE} :: else -> skip fi;",
        f"if :: phase != {phase_code(RESPOND)} -> pending = 0; pkind = {NONE}; "
        f"offender = {NONE}; legal = 0; prevc = {NONE} :: else -> skip fi;",
        # END-1's winner-to-be given cards back (a penalty while their draw card waits) is
        # no winner: the check when it is resolved says so, and no rule reads it before
        f"if :: winner != {NONE} && {ctx.hand_total('winner')} > 0 -> winner = {NONE} "
        ":: else -> skip fi"]
    return [f"inline save() {{ {save} }}", f"inline restore() {{ {restore} }}",
            "inline settle() {", *["  " + x for x in settle], "}"]


def option(guard: str, body: Lines, name: str) -> Lines:
    """One option: its guard, then the body as one indivisible step."""
    if guard == "false":
        return []
    risky = any("bad = 1" in line for line in body)
    end = ["if :: bad -> restore(); bad = 0 :: else -> settle() fi"] if risky else ["settle()"]
    steps = (["save()"] if risky else []) + body + end
    return [f"  :: d_step {{ /* {name} */ ({guard}) ->",
            *[f"       {line};" for line in steps[:-1]], f"       {steps[-1]} }}"]


def branched(ctx: Ctx, command: Command, bound: Bound,
             way: int | None = None) -> tuple[str, Lines]:
    """The guard and body of ``command`` (``Command.failing`` and ``Command.run``), for
    its branch ``way`` (None: a command without branches). The guard: the command's, and
    the first branch whose condition holds with its own guard, asked before the move; the
    body: the common effect, then the branch, which is the first whose condition holds
    after it (another than ``way``: the option ends where it began)."""
    a, b = bound.ask, bound.run
    guard = [cond(ctx, part.cond, a) for part in command.guard]
    body = bound.first + effect(ctx, command.effect, b)
    if way is None:
        return both(guard), body
    ways: list[str] = []
    earlier: list[str] = []
    for br in command.branches:
        when_ = cond(ctx, br.when, a)
        ways.append(both([*earlier, when_, *[cond(ctx, p.cond, a) for p in br.guard]]))
        earlier.append(negated(when_))
    before = [negated(cond(ctx, br.when, b)) for br in command.branches[:way]]
    taken = both([*before, cond(ctx, command.branches[way].when, b)])
    steps = effect(ctx, command.branches[way].effect, b)
    return both([*guard, either(ways)]), body + when(taken, steps, ["bad = 1"])


def ways(command: Command) -> list[int | None]:
    return list(range(len(command.branches))) if command.branches else [None]


def scripts(ctx: Ctx, write: Writer) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every script the chance slots of ``write`` need (probing it first)."""
    ctx.script, ctx.slots, ctx.used = None, [], 0
    write()
    choices = [_bags(ctx.copies, s.most) if s.kind == "cards"
               else [(c,) for c in range(ctx.ncolors)] for s in ctx.slots]
    yield from itertools.product(*choices)


def _bags(copies: list[int], most: int) -> list[tuple[int, ...]]:
    """Every multiset of at most ``most`` cards of a deck of ``copies``."""
    ranges = [range(c + 1) for c in copies]
    return [bag for bag in itertools.product(*ranges) if sum(bag) <= most]


def written(ctx: Ctx, name: str, make: Writer, extra: str) -> Lines:
    """The options of one binding: one per script."""
    out: Lines = []
    for script in list(scripts(ctx, make)):
        ctx.script, ctx.used = script, 0
        guard, body = make()
        out += option(both([extra, guard]), body, name)
    ctx.script = None
    return out


@dataclass(frozen=True)
class Bound:
    """A binding of a command's choices, read in its guard (``ask``: the seats the state
    names are its fields) and in its body (``run``: they are copied first, as the engine
    binds them before the move), and what the state must say for it (``need``)."""

    ask: Binding
    run: Binding
    need: str
    first: Lines


def bindings(ctx: Ctx, command: Command) -> Iterator[Bound]:
    """Every binding of ``command``'s choices: the player to move and the offender are
    the state's; a seat out of turn, a card, a color, a target and the call are written
    one by one."""
    seats = range(ctx.players)
    faces = _faces(ctx, command) if Who.CARD in command.choices else [None]
    colors = range(ctx.ncolors) if Who.COLOR in command.choices else [None]
    targets = seats if Who.TARGET in command.choices else [None]
    calls = (False, True) if any(isinstance(p.cond, UnoCall) for p in command.guard) \
        else (False,)
    on_turn = command.actor is Actor.ON_TURN
    actors: list[int | None] = [None] if on_turn else list(seats)
    for p, f, c, t, u in itertools.product(actors, faces, colors, targets, calls):
        if p is None:
            ask = Binding("turn", t, "offender", f, c, u)
            run = Binding("t_actor", t, "t_off", f, c, u)
            yield Bound(ask, run, "true", ["t_actor = turn", "t_off = offender"])
        else:
            need = f"turn != {p}" if command.actor is Actor.OTHER else "true"
            yield Bound(Binding(p, t, "offender", f, c, u), Binding(p, t, "t_off", f, c, u),
                        need, ["t_off = offender"])


def _faces(ctx: Ctx, command: Command) -> list[int]:
    """The faces a play (or its out-of-turn jump) plays; any face for another command."""
    played = card_play.plays(ctx.table)
    name = command.name.removeprefix("jump_")
    name = "play_" + name if command.name.startswith("jump_") else name
    faces = played.faces(ctx.deck, name) if name.startswith("play_") else []
    return faces or list(range(ctx.nf))


def moves(ctx: Ctx, penalties: bool) -> Iterator[Command]:
    """The commands of a round (the explorer's: no next deal, no start), without the
    moves that only exist to be penalised when ``penalties`` is off (legal_actions)."""
    skipped = {starts(ctx.table).commands[k].name for k in starts(ctx.table).commands}
    skipped.add("next_deal")
    if not penalties:
        skipped |= {turn_moves(ctx.table).misplay.name, out_of_turn(ctx.table).advise.name}
    for command in commands(ctx.table):
        if command.name not in skipped:
            yield command


IN_ROUND = (f"phase != {phase_code(OVER)} && phase != {phase_code(START)} && phase < {ROOT}")


def round_options(ctx: Ctx, penalties: bool) -> Lines:
    out: Lines = []
    for command in moves(ctx, penalties):
        for bound in bindings(ctx, command):
            for way in ways(command):
                make = functools.partial(branched, ctx, command, bound, way)
                out += written(ctx, command.name, make, both([IN_ROUND, bound.need]))
    return out


def deals(ctx: Ctx, hand: int) -> Iterator[tuple[list[list[int]], int]]:
    """Every deal for the fixed dealer: a multiset per hand, then the start card."""
    def split(left: list[int], seats: int) -> Iterator[list[list[int]]]:
        if seats == 0:
            yield []
            return
        for bag in _bags(left, hand):
            if sum(bag) == hand:
                rest = [x - y for x, y in zip(left, bag, strict=True)]
                for more in split(rest, seats - 1):
                    yield [list(bag), *more]
    for hands in split(list(ctx.copies), ctx.players):
        held = [sum(h[g] for h in hands) for g in range(ctx.nf)]
        for t in range(ctx.nf):
            if ctx.copies[t] > held[t]:
                yield hands, t


def deal_options(ctx: Ctx, hand: int) -> Lines:
    """From the initial state, every deal (DEAL-2): the hands, the rest the pile, and which
    of its cards is on top, to be turned (``start``). No chance is left in it, so each deal
    is one option, to a state of its own: the start card's command follows it."""
    out: Lines = []
    for hands, t in deals(ctx, hand):
        dealt = [f"hand[{p * ctx.nf + g}] = {hands[p][g]}" for p in range(ctx.players)
                 for g in range(ctx.nf) if hands[p][g]]
        dealt += [f"pile[{g}] = {ctx.copies[g] - sum(h[g] for h in hands)}"
                  for g in range(ctx.nf)]
        out += option(f"phase == {ROOT}", [*dealt, f"start = {t}", f"phase = {DEALT}"], "deal")
    return out


def start_options(ctx: Ctx) -> Lines:
    """From a dealt state, the start card's command (DEAL-2, DEAL-3, START-*:
    ``Game._start_card``), one option per card on top, branch and chance outcome."""
    out: Lines = []
    table = starts(ctx.table)
    for t in range(ctx.nf):
        command = table.commands[ctx.f_kind[t]]
        b = Binding(ctx.dealer, card=t)
        bound = Bound(b, b, "true", [f"start = {NONE}"])
        for way in ways(command):
            make = functools.partial(branched, ctx, command, bound, way)
            out += written(ctx, command.name, make, f"phase == {DEALT} && start == {t}")
    return out


def program(config: Config) -> Model:
    """The Promela program of ``config``'s round."""
    players = len(config.players)
    ctx = Ctx(config.rules, players, players - 1)
    dealt = deal_options(ctx, config.rules.deal.hand_size)
    options = dealt + start_options(ctx) + round_options(ctx, config.penalties)
    count = sum(1 for line in options if line.startswith("  :: d_step"))
    deals = sum(1 for line in dealt if line.startswith("  :: d_step"))
    faces = ", ".join(f"{g}={ctx.deck.code(g)}" for g in range(ctx.nf))
    head = [f"/* {config.rules.name}: {players} players, faces {faces}.",
            "   Generated by unoformal (unoformal/verification/promela); see docs/explorer.md. */"]
    text = [*head, *declarations(ctx), *inlines(ctx), "", "active proctype round() {",
            "end:", "  do", *options, "  od", "}"]
    return Model("\n".join(text) + "\n", count, deals)


