"""Validation runs: full-deck games whose every step is checked against the relation.

Games are played by bots that aim at coverage: mostly the greedy play of a real player
(play a card when one is legal, else draw), with a share of moves that pick the action
whose step or branch has been hit least so far (misplays, advice, catches, challenges,
UNO said late), and some games in which everyone draws and keeps until nothing is left
(so passes with nothing to draw and reshuffles inside penalties happen). Which step is
which comes from the relation itself (:class:`~.check.Enabled`), so a bot reaches every
action the table has without knowing the rules.

Coverage is counted per step and draw variant (``catch [reshuffle]``) and per named
branch (``went out with a draw card (+4, END-1)``). Branches the full deck cannot reach
are listed, with the reason, in ``unreachable.toml``; any other branch never hit is a
failure, and so is a listed one that is hit.
"""

from __future__ import annotations

import random
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from unoformal.compare.relation.check import (
    KNOCKED_OUT,
    WD4_ALONE,
    WD4_WITH_WD4,
    Checker,
    Finding,
    branches,
    pre_branches,
    went_out_with,
)
from unoformal.compare.relation.engine_side import TracedGame, values
from unoformal.compare.relation.model import Model
from unoformal.engine.actions import Action, ActionType
from unoformal.engine.record import to_record
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import Leaves, RuleTable
from unoformal.runtime import campaign

UNREACHABLE = Path(__file__).with_name("unreachable.toml")
DEFAULT_PLAYERS = (2, 3, 4, 10)
DEFAULT_CAP = 30_000  # steps per player count when no --steps is given: stop once covered
DEAL_CAP = 2_000  # deals checked on their own, at most, to see every start card kind
STYLES = ("greedy", "crowded", "hoard", "wilds-last", "curious", "crowded")
SEMANTIC = (
    "play after drawing (DRAW-1)", "UNO said with the card (UNO-1)",
    "UNO window opened (UNO-1)", "went out", "round over (END-1)", "game over (SCORE-2)",
)


@dataclass
class Mismatch:
    """A finding with the shortest record that reaches it."""

    finding: Finding
    players: int
    record: dict[str, Any]
    actions: int

    def to_json(self) -> dict[str, Any]:
        f = self.finding
        return {"check": f.check, "step": f.step, "detail": f.detail, "engine": f.engine,
                "relation": f.relation, "players": self.players, "record": self.record}


@dataclass
class Report:
    rules: str
    players: list[int]
    steps: int = 0
    games: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    coverage: dict[str, dict[str, int]] = field(default_factory=dict)  # count -> label -> hits
    uncovered: dict[str, list[str]] = field(default_factory=dict)
    unexpected: dict[str, list[str]] = field(default_factory=dict)  # unreachable, yet hit
    seconds: float = 0.0
    cpu: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.mismatches and not any(self.uncovered.values()) \
            and not any(self.unexpected.values())

    def add(self, part: Report) -> None:
        """Fold in the report of one player count (in the order of ``players``); CPU time
        adds up, wall time is the caller's."""
        self.steps += part.steps
        self.games += part.games
        self.mismatches += part.mismatches
        self.coverage.update(part.coverage)
        self.uncovered.update(part.uncovered)
        self.unexpected.update(part.unexpected)
        self.cpu += part.cpu

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "players": self.players, "steps": self.steps,
                "games": self.games, "mismatches": [m.to_json() for m in self.mismatches],
                "uncovered": self.uncovered, "unreachable_hit": self.unexpected,
                "coverage": self.coverage, "seconds": round(self.seconds, 2),
                "cpu_seconds": round(self.cpu, 2)}


@cache
def _unreachable() -> list[dict[str, Any]]:
    return list(tomllib.loads(UNREACHABLE.read_text()).get("unreachable", []))


def unreachable(rules: RuleTable) -> dict[str, str]:
    """Branches the full deck cannot reach under ``rules``, with the reason."""
    out = {}
    for entry in _unreachable():
        names = entry.get("rules", "*")
        names = [names] if isinstance(names, str) else names
        if "*" in names or rules.name in names:
            out[entry["branch"]] = entry["reason"]
    return out


def required(model: Model) -> list[str]:
    """Every step in every draw variant, and every named branch, the table makes possible."""
    labels: list[str] = []
    for fam in model.families + model.deals + model.starts:
        for variant in fam.variants:
            label = fam.name + (f" [{variant.modes}]" if variant.modes else "")
            if label not in labels:
                labels.append(label)
    labels += [b for b in SEMANTIC if _possible(b, model.rules)]
    labels += list(dict.fromkeys(went_out_with(model.rules.effect(k)) for k in model.spec.kinds
                                 if model.rules.effect(k).victim_draws))
    labels += _wd4_branches(model)
    if model.rules.no_stacking.victim_may_answer:
        labels.append("play answering a draw card (NOSTACK-1)")
    mercy = model.rules.mercy
    if mercy.enabled:
        labels += KNOCKED_OUT
        if model.n * (mercy.at - 1) < model.deck.size - 1:
            # EXT-PASS needs every card but the top in the hands, which n hands under
            # MERCY's limit cannot hold (verify finds its step enabled in no state)
            labels = [label for label in labels if label != "pass_nothing_to_draw"]
    return labels


def _wd4_branches(model: Model) -> list[str]:
    """WD4-1's cases: no card of the current color held, or one of each colored kind;
    where the card cannot be challenged, it is legal only as the table says (no bluff):
    with another Wild Draw Four held or not."""
    if not model.rules.effect(Kind.WILD_DRAW_FOUR).victim_may_challenge:
        return [WD4_ALONE, WD4_WITH_WD4] if Kind.WILD_DRAW_FOUR in model.spec.kinds else []
    kinds = [k for k in model.spec.kinds if not k.is_wild]
    return ["Wild Draw Four played holding no card of the current color (WD4-1)"] + [
        f"Wild Draw Four played holding a {k.name.lower().replace('_', ' ')} of the current "
        "color (WD4-1)" for k in kinds]


def _possible(branch: str, rules: RuleTable) -> bool:
    if "UNO said with" in branch:
        return rules.uno.say_with_card and rules.uno.enabled
    if "UNO window" in branch:
        return rules.uno.enabled
    return True


_MODELS: dict[tuple[int, int], tuple[RuleTable, Model]] = {}


def model_for(rules: RuleTable, n: int) -> Model:
    """The compiled relation of ``rules`` at ``n`` players, built once per process (its
    guards, draws and updates compile as they are first asked)."""
    known = _MODELS.get((id(rules), n))
    if known is None or known[0] is not rules:
        if len(_MODELS) > 64:
            _MODELS.clear()
        known = _MODELS[(id(rules), n)] = (rules, Model(rules, n))
    return known[1]


# ------------------------------------------------------------------- bots

Labels = Callable[[Action], list[str]]
Policy = Callable[[TracedGame, Labels, list[Action], "random.Random", Counter[str]], Action]


RARE = 25  # hits below which a step or branch is sought out


def _rare(labels: Labels, legal: list[Action], rng: random.Random,
          hits: Counter[str]) -> Action | None:
    """The action whose step or branch has been hit least, if that is below ``RARE``."""
    score = {a: min(hits[b] for b in labels(a)) for a in legal}
    least = min(score.values())
    if least >= RARE:
        return None
    return rng.choice([a for a in legal if score[a] == least])


def _greedy(game: TracedGame, labels: Labels, legal: list[Action], rng: random.Random,
            hits: Counter[str]) -> Action:
    """A real player's move: catch a missed UNO or say it late when one can, play a card
    when one is legal (wilds last, UNO said half the time), else draw; accept or challenge
    at random. A third of the time, an action whose step or branch is still rare."""
    rare = _rare(labels, legal, rng, hits) if rng.random() < 0.3 else None
    if rare is not None:
        return rare
    calls = [a for a in legal if a.type in (ActionType.CATCH, ActionType.UNO)]
    if calls and rng.random() < 0.5:
        return rng.choice(calls)
    mine = [a for a in legal if a.player == game.to_play]
    drain = [a for a in mine if a.type is ActionType.DRAW]
    if drain and 0 < len(game.pile) <= 6:
        return drain[0]  # empty a short pile: penalties then need RESHUFFLE-1
    plays = [a for a in mine if a.type is ActionType.PLAY and a.uno == (rng.random() < 0.5)]
    plays = plays or [a for a in mine if a.type is ActionType.PLAY]
    bold = [a for a in plays if a.card is not None and _challengeable(game, a.card)]
    if bold and rng.random() < (0.5 if len(game.pile) < 4 else 0.25):
        return rng.choice(bold)  # a Wild Draw Four, a bluff when the color is held (WD4-1)
    tame = [a for a in plays if a.color is None]
    if tame and rng.random() < 0.8:
        return rng.choice(tame)
    if plays:
        return rng.choice(plays)
    for kind in (ActionType.DRAW, ActionType.CHOOSE_COLOR):
        options = [a for a in mine if a.type is kind]
        if options:
            return rng.choice(options)
    rest = [a for a in mine if a.type not in (ActionType.MISPLAY, ActionType.ADVISE)]
    return rng.choice(rest or legal)


def _challengeable(game: TracedGame, card: str) -> bool:
    return game.rules.effect(game.deck.faces[game.deck.index[card]].kind).victim_may_challenge


def _curious(game: TracedGame, labels: Labels, legal: list[Action], rng: random.Random,
             hits: Counter[str]) -> Action:
    """The action whose step or branch is rarest; a real player's move once none is rare."""
    rare = _rare(labels, legal, rng, hits)
    return rare if rare is not None else _greedy(game, labels, legal, rng, hits)


def _hoard(game: TracedGame, labels: Labels, legal: list[Action], rng: random.Random,
           hits: Counter[str]) -> Action:
    """Draw and keep, and pass once nothing is left to draw (EXT-PASS); the game then goes
    on as :func:`_greedy` (see ``_Run.game``)."""
    mine = [a for a in legal if a.player == game.to_play]
    for kind in (ActionType.DRAW, ActionType.PASS):
        options = [a for a in mine if a.type is kind]
        if options:
            return options[0]
    return _greedy(game, labels, legal, rng, hits)


def _hunt(game: TracedGame, labels: Labels, legal: list[Action], rng: random.Random,
          hits: Counter[str]) -> Action:
    """MERCY: the player in holding the most cards draws and keeps (until knocked out);
    the others play as :func:`_greedy` but draw rather than go down to one card, so that
    nobody goes out and the round ends with the last player in."""
    mine = [a for a in legal if a.player == game.to_play]
    hands = game.hands
    biggest = max((p for p in range(game.n) if p not in game.out),
                  key=lambda p: len(hands[p]))
    if game.turn == biggest or len(hands[game.turn]) <= 2:
        for kind in (ActionType.DRAW, ActionType.PASS):
            options = [a for a in mine if a.type is kind]
            if options:
                return options[0]
    return _greedy(game, labels, legal, rng, hits)


def _wilds_last(game: TracedGame, labels: Labels, legal: list[Action], rng: random.Random,
                hits: Counter[str]) -> Action:
    """As :func:`_greedy`, but a wild card is played only when nothing else can be (so
    rounds end on a wild, a Wild Draw Four among them)."""
    mine = [a for a in legal if a.player == game.to_play and a.type is ActionType.PLAY]
    if any(a.color is None for a in mine):
        legal = [a for a in legal if not (a.type is ActionType.PLAY and a.color is not None)]
    return _greedy(game, labels, legal, rng, hits)


# MERCY: the steps of one validation game before the next begins
MERCY_GAME = 2_500
MERCY_THINNED = 60

POLICIES: dict[str, Policy] = {"greedy": _greedy, "curious": _curious, "hoard": _hoard,
                               "wilds-last": _wilds_last, "hunt": _hunt}


def _variant_label(game: TracedGame, action: Action, name: str) -> str:
    """The step and draw variant an action would take (played on a copy: whether a draw
    needs RESHUFFLE-1 depends only on the state, not on the cards drawn)."""
    trial = game.copy()
    assert isinstance(trial, TracedGame)
    trial.push(action)
    modes = ["reshuffle" if e[4] else "pile" for e in trial.events
             if e[0] == "take" and e[2] != 0]
    return f"{name} [{'+'.join(modes)}]" if modes else name


# -------------------------------------------------------------------- runs

class _Run:
    """Validation at one player count."""

    def __init__(self, rules: RuleTable, n: int, seed: int, refusals: bool) -> None:
        self.rules, self.n, self.seed, self.refusals = rules, n, seed, refusals
        self.model = model_for(rules, n)
        self.checker = Checker(self.model)
        self.hits: Counter[str] = Counter()
        self.findings: dict[tuple[str, str, str], Mismatch] = {}
        self.steps = self.games = 0
        self.names = [f"P{i}" for i in range(n)]
        self.opening = False

    def covered(self, need: Sequence[str]) -> bool:
        return all(self.hits[b] for b in need)

    def game(self, index: int, budget: int) -> None:
        style = STYLES[index % len(STYLES)]
        if self.rules.knocks_out():
            # MERCY: hoarding at many players drains the deck before 25; and a short pile
            # is rare (the hands hold no more than 24 each), so crowded positions, thinned,
            # come twice as often
            style = {"hoard": "hunt", "curious": "crowded"}.get(style, style)
        rng = random.Random(f"{self.seed}/{self.n}/{index}")
        seed = self.seed * 100_000 + index
        if style == "crowded":
            game = TracedGame(self.names, seed=seed, rules=self.rules, dealer=self.names[-1],
                              deal=self._crowded(rng))
            style = "wilds-last"
            self.opening = True  # its first move plays the card that can be challenged
        else:
            game = TracedGame(self.names, seed=seed, rules=self.rules)
        self.games += 1
        if not self._deal(game, None):
            return
        if self.rules.knocks_out():
            # MERCY: a round won by the last player in scores nothing, so a game can go on
            # for a long time; a new game (another style, another position) covers more.
            # A crowded position's part is its start: its pile thinned, a short game
            budget = min(budget, self.steps + (MERCY_THINNED if self.opening else MERCY_GAME))
            if self.opening:
                self._thinned(game, rng)
                self.opening = rng.random() < 0.5  # half the time no Wild Draw Four first
        while self.steps < budget:
            if game.round_over:
                if game.out and game.rules.next_round.leaves is not Leaves.NONE:
                    # END-2's elimination: a player has left, and the next round would be
                    # one of the seats left (or none: one left wins), seat for seat a round
                    # of fewer players, which the relation at this count does not state.
                    # Validate compares rounds of this count: the player comes back, so the
                    # next round is one at this count again (the leaving and the rounds of
                    # the seats left are the whole-game tests',
                    # tests/catalogue/test_most_cards_out.py)
                    self.hits["a player left (END-2)"] += 1
                    game.out = ()
                if game.game_over:
                    self.hits["game over (SCORE-2)"] += 1
                    return
                over = values(game)
                game.events.clear()
                game.next_round()
                if not self._deal(game, over):
                    return
                continue
            drained = game.available() == 0
            if not self._step(game, rng, POLICIES[style]):
                return
            if drained and style == "hoard":
                style = "greedy"

    def _crowded(self, rng: random.Random) -> dict[str, Any]:
        """A position (like a FEN: the record format's ``deal``) with almost every card in
        the hands and a short pile (3 to 6 cards), the first player two to four cards from
        going out and holding a draw card (one whose effect makes its victim draw): UNO
        windows, catches and penalties meet RESHUFFLE-1 and EXT-SHORT, and rounds end on a
        draw card (END-1)."""
        deck = self.model.deck
        cards = [deck.code(c) for c in deck.cards()]
        rng.shuffle(cards)
        size = rng.choice((3, 3, 4, 6))  # the start card leaves 2 or more (unreachable.toml)
        pile, rest = cards[:size], cards[size:]
        draws = [i for i, c in enumerate(rest)
                 if self.rules.effect(deck.faces[deck.index[c]].kind).victim_draws]
        challenged = [i for i in draws if self.rules.effect(
            deck.faces[deck.index[rest[i]]].kind).victim_may_challenge]
        if challenged and rng.random() < 0.7:
            draws = challenged  # half the time a card that can be challenged (CHAL-2/3)
        if draws:
            rest.insert(0, rest.pop(rng.choice(draws)))  # into the first player's hand
            color = deck.faces[deck.index[pile[0]]].color  # the start card's
            same = [i for i, c in enumerate(rest) if i and deck.faces[deck.index[c]].color
                    is color and color is not None]
            if same:  # a card of the color too: a Wild Draw Four is then a bluff (WD4-1)
                rest.insert(1, rest.pop(rng.choice(same)))
        first = rng.choice((2, 2, 3, 4))
        hands = {self.names[0]: rest[:first]}
        others = rest[first:]
        for i, name in enumerate(self.names[1:]):
            hands[name] = others[i::self.n - 1]
        mercy = self.rules.mercy
        if mercy.enabled:  # hands well under MERCY's limit (room for a penalty or two):
            room = max(2, mercy.at - 8)  # what does not fit is the pile's (_thinned)
            for name, hand in hands.items():
                pile += hand[room:]
                hands[name] = hand[:room]
        return {"hands": hands, "draw_pile": pile}

    @staticmethod
    def _thinned(game: TracedGame, rng: random.Random) -> None:
        """MERCY: a crowded position's hands are under the limit, so its pile is long;
        all but 0 to 2 of its cards go under the discard pile (the position of a long
        round, which random play reaches once in thousands of steps): RESHUFFLE-1 then
        meets catches and challenges at every player count."""
        keep = rng.choice((0, 1, 2))
        if len(game.pile) > keep:
            game.discard[0:0] = game.pile[:-keep]  # the pile's top is its last card
            game.pile = game.pile[-keep:]

    def deals(self, need: Sequence[str], limit: int) -> None:
        """Deals only (each checked against the start steps) until every start card kind
        is covered: a start card of one kind comes in 1 deal in 27 (4 Wilds in 108)."""
        starts = [b for b in need if b.startswith("start_")]
        for index in range(limit):
            if self.covered(starts):
                return
            game = TracedGame(self.names, seed=self.seed * 100_000 + 50_000 + index,
                              rules=self.rules)
            self._deal(game, None)

    def _deal(self, game: TracedGame, over: list[int] | None) -> bool:
        outcome = self.checker.deal(game, over)
        self.hits.update(outcome.hits)
        for f in outcome.findings:
            self._found(f, game)
        return not outcome.findings and game.phase != "start"

    def _step(self, game: TracedGame, rng: random.Random, policy: Policy) -> bool:
        pre = values(game)
        env = self.model.env(pre)
        enabled = self.checker.enabled(env, game.turn, game.names)
        findings = self.checker.legal(game, enabled)
        if self.refusals:
            findings += self.checker.refusals(game, enabled)
        legal = [a for a in game.legal_actions() if a in enabled]
        for f in findings:
            self._found(f, game)
        if findings or not legal:
            return False
        def labels(a: Action) -> list[str]:
            fams = enabled[a]
            out = [min(f.name for f, _ in fams),
                   *pre_branches(pre, a, self.model, game.t.seats[a.player])]
            if any(len(f.variants) > 1 for f, _ in fams):
                out.append(_variant_label(game, a, out[0]))
            return out

        action = policy(game, labels, legal, rng, self.hits)
        if self.opening:
            self.opening = False
            bold = [a for a in legal if a.player == game.to_play and a.card is not None
                    and a.type is ActionType.PLAY and _challengeable(game, a.card)]
            action = rng.choice(bold) if bold else action
        seat = game.t.seats[action.player]
        self.hits.update(pre_branches(pre, action, self.model, seat))
        game.events.clear()
        game.apply(action)
        self.steps += 1
        post = values(game)
        outcome = self.checker.successor(env, enabled[action], game, post)
        self.hits.update(outcome.hits)
        self.hits.update(branches(pre, post, action, self.model, seat))
        for f in outcome.findings:
            self._found(f, game)
        return not outcome.findings

    def _found(self, finding: Finding, game: TracedGame) -> None:
        key = (finding.check, finding.step, finding.detail.split(":")[0])
        known = self.findings.get(key)
        if known is None or len(game.history) < known.actions:
            self.findings[key] = Mismatch(finding, self.n, to_record(game), len(game.history))


def validate(rules: RuleTable, players: Sequence[int] = DEFAULT_PLAYERS,
             steps: int | None = None, seed: int = 0, refusals: bool = True,
             where: campaign.Options | None = None, first: bool = False) -> Report:
    """Validate the engine against the relation compiled from ``rules`` at each player
    count: ``steps`` checked steps each, or (None) until every reachable branch is hit
    (at most ``DEFAULT_CAP``). Each count is one campaign task (:mod:`unoformal.runtime.campaign`;
    ``where`` None: in this process): its games depend on the coverage its own earlier
    games reached, so a count is not split further, and the report is the same on any
    number of workers. ``first``: a count stops after the first game with a mismatch
    (a planted bug's test needs one, not the whole budget)."""
    started = time.perf_counter()
    jobs = [(rules, n, steps, seed, refusals, first) for n in players]
    parts = campaign.run(validate_count, jobs, where or campaign.Options(workers=1, bar=False),
                         label="validate", unit="player counts")
    report = Report(rules.name, list(players))
    for part in parts:
        report.add(part)
    report.seconds = time.perf_counter() - started
    return report


def validate_count(job: tuple[RuleTable, int, int | None, int, bool, bool]) -> Report:
    """A campaign task: validation at one player count, from its own seed."""
    rules, n, steps, seed, refusals, first = job
    started, cpu0 = time.perf_counter(), time.process_time()
    report = Report(rules.name, [n])
    skip = unreachable(rules)
    run = _Run(rules, n, seed, refusals)
    need = [b for b in required(run.model) if b not in skip]
    # MERCY: a short pile is rare (no hand holds 25 cards), so what meets RESHUFFLE-1 takes
    # longer to reach
    budget = steps if steps is not None else DEFAULT_CAP * (2 if rules.knocks_out() else 1)
    index = 0
    while run.steps < budget and not (steps is None and run.covered(need) and index >= 4):
        before = run.steps
        run.game(index, budget)
        index += 1
        if run.steps == before and index > 50:
            break  # games that end before any step (a stuck start): nothing more to learn
        if first and run.findings:
            break
    if not (first and run.findings):
        run.deals(need, DEAL_CAP)
    report.steps, report.games = run.steps, run.games
    report.coverage[str(n)] = dict(sorted(run.hits.items()))
    report.uncovered[str(n)] = [b for b in need if not run.hits[b]]
    report.unexpected[str(n)] = [b for b in skip if run.hits[b]]
    report.mismatches = sorted(run.findings.values(), key=lambda m: m.actions)
    report.seconds = time.perf_counter() - started
    report.cpu = time.process_time() - cpu0
    return report
