"""The two checks of trace validation, at every step of an engine game:

1. **Legal set.** The engine's legal actions (every player's, out-of-turn ones
   included) equal the action instances whose guard holds in the relation, and
   ``apply`` refuses exactly the others (its own checks, not only ``legal_actions``).
2. **Successor.** The engine's successor satisfies the relation for the action taken,
   with the chance outcome it drew (the cards of each draw, the drawn card, the start
   card), and every draw variant that the relation allows with that outcome leads to
   that same successor: it is the only one.

Deals are checked the same way: ``next_deal`` (END-2, DEAL-2) with the hands dealt, then
the start card (START-*, EXT-START) with each card turned and put back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from unoformal.compare.relation.compile import Env
from unoformal.compare.relation.engine_side import (
    TracedGame,
    counts,
    dealt_values,
    values,
)
from unoformal.compare.relation.model import (
    Family,
    Model,
    Variant,
    _name,
    describe,
    projection_of,
)
from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.errors import UnoError
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import CardEffect
from unoformal.verification.z3.state import DRAWN, NONE, OVER, RESPOND

Enabled = dict[Action, list[tuple[Family, dict[str, int]]]]


@dataclass(frozen=True)
class Finding:
    """One disagreement between the engine and the relation."""

    check: str  # "legal", "refusal", "successor", "deal"
    step: str  # the Z3 step (family) concerned
    detail: str
    engine: str = ""  # the engine's side
    relation: str = ""  # the relation's side


@dataclass
class Outcome:
    """What one checked step found: disagreements, and the branches it hit."""

    findings: list[Finding] = field(default_factory=list)
    hits: list[str] = field(default_factory=list)


class Checker:
    """Both checks for one rule table and player count."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.n, self.nf = model.n, model.nfaces
        self.outs = len(model.pre.out)  # MERCY's flags in a state's values
        self._universe: dict[int, list[tuple[Action, int, int | None]]] = {}

    # ------------------------------------------------------------ legal set

    def enabled(self, env: Env, turn: int, names: Sequence[str]) -> Enabled:
        """Every action instance whose guard holds, as the engine action it stands for."""
        out: Enabled = {}
        for fam in self.model.families:
            flags = fam.tests()(env)
            for flag, (choice, action) in zip(flags, self.model.cases(fam, turn, names),
                                                 strict=True):
                if flag:
                    out.setdefault(action, []).append((fam, choice))
        return out

    def universe(self, game: Game) -> list[tuple[Action, int, int | None]]:
        """Every action instance of the relation at this turn, resolved for the engine."""
        known = self._universe.get(game.turn)
        if known is None:
            known = self._universe[game.turn] = []
            for fam in self.model.families:
                for _, action in self.model.cases(fam, game.turn, game.names):
                    p, face, _, _ = game._resolve(action)
                    known.append((action, p, face))
        return known

    def legal(self, game: Game, enabled: Enabled) -> list[Finding]:
        engine = set(game.legal_actions())
        relation = set(enabled)
        if engine == relation:
            return []
        out = []
        for action in sorted(engine - relation, key=str):
            out.append(Finding("legal", "-", f"the engine offers {action}; no step's guard holds",
                               engine=str(action)))
        for action in sorted(relation - engine, key=str):
            steps = ", ".join(sorted({f.name for f, _ in enabled[action]}))
            out.append(Finding("legal", steps, f"the guard of {steps} holds for {action}; "
                               "the engine does not offer it", relation=str(action)))
        return out

    def refusals(self, game: Game, enabled: Enabled) -> list[Finding]:
        """``apply``'s own checks: a refusal exactly for the instances not enabled."""
        out = []
        for action, p, face in self.universe(game):
            try:
                refused = game.refusal(action, p, face)
            except UnoError as err:
                out.append(Finding("refusal", "-", f"{action}: {err.message}"))
                continue
            if (refused is None) != (action in enabled):
                word = "accepts" if refused is None else f"refuses ({refused.rule_id})"
                out.append(Finding("refusal", "-", f"apply {word} {action}, but the relation "
                                   f"{'allows' if action in enabled else 'does not allow'} it"))
        return out

    # ------------------------------------------------------------ successor

    def successor(self, env: Env, choices: list[tuple[Family, dict[str, int]]],
                  game: TracedGame, post: list[int]) -> Outcome:
        """The relation's successors of the action taken, with the engine's draws."""
        takes = [counts(e[3], self.nf) for e in game.events if e[0] == "take" and e[2] != 0]
        drawn = game.drawn if game.phase == "drawn" else None
        if drawn is None and self.outs:  # MERCY cleared the card a player knocked out kept
            cards = [e[3] for e in game.events if e[0] == "take" and e[3]]
            drawn = cards[-1][-1] if cards else None
        return self._match(env, choices, takes, {"face": _n(drawn)}, post)

    def _match(self, env: Env, choices: list[tuple[Family, dict[str, int]]],
               takes: list[list[int]], chance: dict[str, int], post: list[int]) -> Outcome:
        result = Outcome()
        want = projection_of(post, self.n, self.nf, self.outs)
        allowed: list[tuple[Family, Variant, tuple[int, ...]]] = []
        for fam, choice in choices:
            for variant in fam.variants:
                local = dict(env)
                fam.bind(local, choice, variant)
                for key, name in variant.names.items():
                    if key not in fam.choices and key in chance:
                        local[name] = chance[key]
                if not variant.set_draws(local, takes):  # placed, and the step's check
                    continue
                allowed.append((fam, variant, variant.post(local)))
        if not allowed:
            names = ", ".join(sorted({f.name for f, _ in choices}))
            result.findings.append(Finding(
                "successor", names, "no step allows the engine's successor with the cards it "
                f"drew ({_bags(takes, self.model)})",
                engine=describe(post, self.n, self.model.deck)))
            return result
        for fam, variant, got in allowed:
            label = fam.name + (f" [{variant.modes}]" if variant.modes else "")
            result.hits += [label] if label == fam.name else [fam.name, label]
            if projection_of(got, self.n, self.nf, self.outs) != want:
                result.findings.append(Finding(
                    "successor", label, "the relation's successor differs from the engine's",
                    engine=describe(post, self.n, self.model.deck),
                    relation=describe(got, self.n, self.model.deck)))
        return result

    # ----------------------------------------------------------------- deals

    def deal(self, game: TracedGame, over: list[int] | None) -> Outcome:
        """The deal just made (``over``: the state before it, when it is a next deal),
        then the start card, against ``next_deal`` and the start steps."""
        result = Outcome()
        dealt = next(e for e in game.events if e[0] == "dealt")
        scores = over[7 + (self.n + 2) * self.nf:7 + (self.n + 2) * self.nf + self.n] \
            if over is not None else [0] * self.n
        start = dealt_values(game, (dealt[1], dealt[2]), game.dealer, scores)
        if over is not None:
            env = self.model.env(over)
            fams: list[tuple[Family, dict[str, int]]] = [
                (f, {}) for f in self.model.deals if f.guard(env)]
            for fam, _ in fams:
                for variant in fam.variants:
                    for hand, cards in zip(variant.step.dealt, dealt[1], strict=True):
                        for var, k in zip(hand, counts(cards, self.nf), strict=True):
                            env[_name(var)] = k
            self._merge(result, self._match(env, fams, [], {}, start), "next_deal")
        self._starts(game, start, result)
        return result

    def _starts(self, game: TracedGame, start: list[int], result: Outcome) -> None:
        env = self.model.env(start)
        dealer = f"dealer {game.dealer}"
        mine = [f for f in self.model.starts if f.seat == dealer]
        returned = [e[1] for e in game.events if e[0] == "returned"]
        takes = [counts(e[3], self.nf) for e in game.events if e[0] == "take" and e[2] != 0]
        for card in returned:  # START-WD4: the card goes back, the dealt state again
            self._merge(result, self._match(env, [(f, {}) for f in mine], [],
                                            {"face": card, "color": NONE}, start), "start")
        # the start card: the pile's only card, or its top under MERCY (a hand knocked
        # out at the start goes under it)
        first = (game.discard[-1] if self.outs else game.discard[0]) if game.discard else NONE
        # the color too: chance where the start rule draws it (color_at_random)
        chance = {"face": first, "color": _n(game.color)}
        self._merge(result, self._match(env, [(f, {}) for f in mine], takes, chance,
                                        values(game)), "start")

    @staticmethod
    def _merge(into: Outcome, part: Outcome, what: str) -> None:
        into.hits += part.hits
        into.findings += [Finding("deal", f.step, f"{what}: {f.detail}", f.engine, f.relation)
                          for f in part.findings]


def _n(x: int | None) -> int:
    return NONE if x is None else x


def _bags(takes: list[list[int]], model: Model) -> str:
    return "; ".join(" ".join(model.deck.code(f) for f, k in enumerate(t) for _ in range(k))
                     for t in takes) or "none"


def pre_branches(pre: list[int], action: Action, model: Model, seat: int) -> list[str]:
    """Branches of an action known before it is taken. A Wild Draw Four is classed by the
    kinds of current-color card its player holds besides it: WD4-1 counts each of them."""
    if action.type.value != "play" or action.card is None:
        return []
    kind = model.deck.faces[model.deck.index[action.card]].kind
    nf = model.nfaces
    if kind is Kind.WILD_DRAW_FOUR and not model.rules.effect(kind).victim_may_challenge:
        wd4 = model.deck.index[action.card]
        return [WD4_WITH_WD4 if pre[7 + seat * nf + wd4] > 1 else WD4_ALONE]
    if not model.rules.effect(kind).victim_may_challenge:
        return []
    color = pre[3]
    held = {model.deck.faces[f].kind for f in range(nf)
            if pre[7 + seat * nf + f] and model.spec.fcolor[f] == color and color != NONE}
    if not held:
        return ["Wild Draw Four played holding no card of the current color (WD4-1)"]
    return [f"Wild Draw Four played holding a {k.name.lower().replace('_', ' ')} of the "
            "current color (WD4-1)" for k in sorted(held, key=lambda k: k.value)]


WD4_ALONE = "Wild Draw Four played holding no other Wild Draw Four (WD4-1)"
WD4_WITH_WD4 = "Wild Draw Four played holding another Wild Draw Four (WD4-1)"


def went_out_with(effect: CardEffect) -> str:
    """The branch of going out with a card whose victim draws (END-1), by what it draws."""
    return f"went out with a draw card (+{effect.victim_draws}, END-1)"


def branches(pre: list[int], post: list[int], action: Action, model: Model,
             seat: int) -> list[str]:
    """Branches within a step that the coverage names (beyond its draw variants)."""
    nf = model.nfaces
    out = []
    phase, post_phase = pre[0], post[0]
    hand_before = sum(pre[7 + seat * nf:7 + (seat + 1) * nf])
    if action.type.value == "play":
        if phase == DRAWN:
            out.append("play after drawing (DRAW-1)")
        if phase == RESPOND:
            out.append("play answering a draw card (NOSTACK-1)")
        if action.uno:
            out.append("UNO said with the card (UNO-1)")
        elif post[6] == seat:
            out.append("UNO window opened (UNO-1)")
        if hand_before == 1:
            out.append("went out")
            effect = model.rules.effect(model.deck.faces[model.deck.index[action.card]].kind) \
                if action.card is not None else None
            if effect is not None and effect.victim_draws:
                out.append(went_out_with(effect))
    if post_phase == OVER and phase != OVER:
        out.append("round over (END-1)")
    if model.pre.out:
        out += knocked_out(pre, post, model)
    return out


KNOCKED_OUT = ("a player knocked out (MERCY)", "the player to move knocked out (MERCY)",
               "a round won by the last player in (MERCY)")


def knocked_out(pre: list[int], post: list[int], model: Model) -> list[str]:
    """MERCY's branches of a step: somebody knocked out; the player to move; the last
    player in winning."""
    n = model.n
    at = 7 + (n + 2) * model.nfaces + n  # the flags follow the scores
    before, after = pre[at:at + n], post[at:at + n]
    if after == before:
        return []
    out = [KNOCKED_OUT[0]]
    if after[pre[1]] and not before[pre[1]]:
        out.append(KNOCKED_OUT[1])
    if post[0] == OVER and sum(after) == n - 1:
        out.append(KNOCKED_OUT[2])
    return out


__all__ = ["KNOCKED_OUT", "WD4_ALONE", "WD4_WITH_WD4", "Checker", "Enabled", "Finding",
           "Outcome", "branches", "pre_branches", "went_out_with"]
