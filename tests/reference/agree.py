"""The agreement check: the live engine against the frozen one (``engine_v1``), in lockstep.

Both engines play the same games (the same seed, variant and player count), driven by one
policy with its own seeded generator. At every step the check compares:

* the legal action sets of all players (as canonical action text, order aside); now and
  then also one player's, or those without the penalised actions (``penalties=False``);
* the canonical state text (``to_text()``) after the chosen action, applied to each;
  now and then the same action applied to a copy of each too (a copy has no list of legal
  actions, so that ``apply`` derives its legality again through ``refusal()``);
* for a sample of ILLEGAL candidates, drawn kind first from the whole action space (every
  action kind, every face, color and target, the ``uno`` flag, and malformed shapes): the
  error class, the rule ID and the rules named as causes must agree (different words are
  counted and shown separately, not a disagreement), and the state and history of each
  engine must be unchanged by the refusal;
* at a round's end, ``next_round()`` in both until the game is over, then a new game.

A disagreement names the variant, the player count, the job's seed, the step and the
action, and carries a version-2 record (``meta.agree`` says what differed) that reproduces
it: :func:`replay_both` replays a record in both engines step by step.

Also here: :func:`records_agree` (every record of ``tests/records`` and every record the
suite builds, ``suite_records.jsonl.gz``, see ``harvest.py``, replays alike) and
:func:`vectors_agree` (``unoformal vectors`` lines alike from both engines).

Run it::

    python -m tests.reference.agree --steps 1000000 --workers 2

``--steps`` is per variant, in total over the player counts (split evenly among them).
``--short`` adds each shipped variant on a 56-card deck (``<variant>-short``, 2 to 7
players), where the draw pile runs out and RESHUFFLE-1, EXT-SHORT and EXT-PASS are reached.
The work is split into fixed (variant, players, chunk) jobs, each with its own seed derived
from ``--seed``, so the result (and its digest) is the same whatever ``--workers``.
"""

from __future__ import annotations

import argparse
import copy
import functools
import gzip
import hashlib
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.reference import FROZEN_VARIANTS
from tests.reference.engine_v1 import game as frozen_game
from tests.reference.engine_v1 import record as frozen_record
from tests.reference.engine_v1 import vectors as frozen_vectors
from unoformal.compare import vectors as live_vectors
from unoformal.engine import game as live_game
from unoformal.engine import record as live_record
from unoformal.engine.actions import Action, ActionType
from unoformal.errors import UnoError
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import derive, load_rules

HERE = Path(__file__).resolve().parent
RECORDS = HERE.parent / "records"
SUITE_RECORDS = HERE / "suite_records.jsonl.gz"

CHUNK = 25_000  # steps per job: a job is the unit of work (and of seeding)
MAX_ROUND_STEPS = 2_000  # a round still going after this many steps is cut (new game)
KEPT = 3  # disagreements kept (with their record) per job; all are counted
FILTER_SHARE = 0.2  # how often a player's (or penalty-free) legal actions are compared too
COPY_SHARE = 0.05  # how often the chosen action is also applied to a copy of each engine
WORDS_SHOWN = 3  # word differences kept per job, as examples
KINDS = [t.value for t in ActionType]
# --short: each shipped variant on a deck of 56 cards (one of each number, Skip, Reverse and
# Draw Two per color, two Wild and two Wild Draw Four), 2 to 7 players: the pile runs out
# (RESHUFFLE-1, EXT-SHORT, EXT-PASS), which a full deck almost never does.
SHORT = "-short"
SHORT_DECK: dict[str, dict[str, Any]] = {
    "DECK-1": {"number_copies": [1] * 10, "skip_copies": 1, "reverse_copies": 1,
               "draw_two_copies": 1, "wild_copies": 2, "wild_draw_four_copies": 2},
    "DECK-2": {"maximum": 7}}
MALFORMED = "malformed"


# ------------------------------------------------------------------ results


@dataclass
class Disagreement:
    variant: str
    players: int
    seed: str  # the job's seed text
    game_seed: int
    step: int  # the job's step of the disputed action (0: its first), or of the next one
    game_step: int  # the index of the disputed action in the game's record
    what: str  # legal | state | refusal | unchanged | accepted | copy | setup | round
    action: str | None
    live: str
    frozen: str
    record: dict[str, Any]

    def line(self) -> str:
        live, frozen = _differ(self.live, self.frozen)
        return (f"{self.variant} players={self.players} seed={self.seed!r} "
                f"game_seed={self.game_seed} step={self.step} (action {self.game_step} of "
                f"the game) {self.what}: action={self.action!r}\n  live:   {live[:400]}"
                f"\n  frozen: {frozen[:400]}")


def _fields(text: str) -> dict[str, str] | None:
    words = text.split(" ")
    if not words or not all("=" in w for w in words) or not text.startswith("rules="):
        return None
    return dict(w.partition("=")[::2] for w in words)


def _differ(live: str, frozen: str) -> tuple[str, str]:
    """Two state texts by the fields where they differ (anything else as it is)."""
    a, b = _fields(live), _fields(frozen)
    if a is None or b is None:
        return live, frozen
    keys = [k for k in {**a, **b} if a.get(k) != b.get(k)]
    return (" ".join(f"{k}={a.get(k)}" for k in keys) + " (other fields alike)",
            " ".join(f"{k}={b.get(k)}" for k in keys))


@dataclass
class Tally:
    """What one job (or a sum of jobs) did."""

    steps: int = 0
    games: int = 0
    games_over: int = 0
    rounds: int = 0
    cut: int = 0
    stuck: int = 0
    filtered: int = 0  # legal sets compared for one player, or without penalties
    reshuffles: int = 0  # steps whose action shuffled (RESHUFFLE-1: the pile ran out)
    refusals: int = 0
    copies: int = 0
    disagreements: int = 0
    word_diffs: int = 0
    seconds: float = 0.0
    kinds: Counter[str] = field(default_factory=Counter)  # chosen actions, by kind
    tried: Counter[str] = field(default_factory=Counter)  # illegal candidates, by kind
    refused_by: Counter[str] = field(default_factory=Counter)  # their rule IDs
    kept: list[Disagreement] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    digest: str = ""

    def add(self, other: Tally) -> None:
        for name in ("steps", "games", "games_over", "rounds", "cut", "stuck", "reshuffles",
                     "filtered", "refusals", "copies",
                     "disagreements", "word_diffs", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.kinds.update(other.kinds)
        self.tried.update(other.tried)
        self.refused_by.update(other.refused_by)
        self.kept += other.kept
        self.words += other.words[:WORDS_SHOWN]
        self.digest = hashlib.sha256((self.digest + other.digest).encode()).hexdigest()


@dataclass(frozen=True)
class Job:
    variant: str
    players: int
    chunk: int
    steps: int
    seed: int
    refusals: int = 1  # illegal candidates tried per step

    @property
    def seed_text(self) -> str:
        return f"agree/{self.seed}/{self.variant}/{self.players}/{self.chunk}"


@functools.cache
def variant_rules(name: str) -> RuleTable:
    """A shipped variant, or ``<shipped>-short``: it on the short deck (:data:`SHORT_DECK`)."""
    if name.endswith(SHORT):
        base = name.removesuffix(SHORT)
        return derive(load_rules(base), name, f"{base} on a deck of 56 cards (agree.py)",
                      SHORT_DECK)
    return load_rules(name)


def known(name: str) -> bool:
    return name in FROZEN_VARIANTS or (name.endswith(SHORT)
                                       and name.removesuffix(SHORT) in FROZEN_VARIANTS)


# ----------------------------------------------------------- action space


def action_space(names: list[str], rules: RuleTable) -> dict[str, list[Action]]:
    """Every well-formed action of these players under this deck, by kind, and malformed
    ones (wrong shapes, unknown players and cards) under ``malformed``."""
    deck = Deck.of(rules)
    codes = [f.code for f in deck.faces]
    colors = [c.value for c in deck.colors]
    wild = {f.code for f in deck.faces if rules.effect(f.kind).chooses_color}
    space: dict[str, list[Action]] = {k: [] for k in [*KINDS, MALFORMED]}
    for name in names:
        for code in codes:
            for color in (colors if code in wild else [None]):
                for uno in (False, True):
                    space["play"].append(Action(name, ActionType.PLAY, code, color, uno=uno))
            space["misplay"].append(Action(name, ActionType.MISPLAY, code))
        for kind in (ActionType.DRAW, ActionType.PASS, ActionType.ACCEPT, ActionType.CHALLENGE,
                     ActionType.UNO, ActionType.ADVISE):
            space[kind.value].append(Action(name, kind))
        for color in colors:
            space["choose_color"].append(Action(name, ActionType.CHOOSE_COLOR, color=color))
        for target in names:
            space["catch"].append(Action(name, ActionType.CATCH, target=target))
        plain = next(c for c in codes if c not in wild)
        space[MALFORMED] += [
            Action(name, ActionType.PLAY, plain, colors[0]),  # a color with a plain card
            Action(name, ActionType.PLAY, next(iter(wild)) if wild else plain),
            Action(name, ActionType.PLAY),  # no card
            Action(name, ActionType.MISPLAY),
            Action(name, ActionType.CATCH),  # no target
            Action(name, ActionType.CATCH, target="Nobody"),
            Action(name, ActionType.DRAW, uno=True),
            Action(name, ActionType.DRAW, card=plain),
            Action(name, ActionType.PASS, color=colors[0]),
            Action(name, ActionType.CHOOSE_COLOR),
            Action(name, ActionType.UNO, target=names[0]),
        ]
        missing = [c.value for c in _ALL_COLORS if c.value not in colors]
        if missing:
            space[MALFORMED].append(Action(name, ActionType.CHOOSE_COLOR, color=missing[0]))
    space[MALFORMED] += [Action("Nobody", ActionType.DRAW),
                         Action(names[0], ActionType.PLAY, "B99")]
    return {k: v for k, v in space.items() if v}


def _all_colors() -> list[Any]:
    from unoformal.rulebook.cards import Color
    return list(Color)


_ALL_COLORS = _all_colors()


# ------------------------------------------------------------------ policy


class Policy:
    """Chooses each step's action: mostly play-first for the player to move (a card when
    one can be played, which ends rounds), sometimes uniform over every legal action, and
    sometimes a kind first, uniform over the kinds legal now (so a challenge, a catch or a
    UNO is taken as often as it is possible, however few actions of its kind there are).
    Each game draws its own shares, so some games are calm and some are rough."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.by_kind = rng.choice((0.02, 0.05, 0.15))
        self.uniform = rng.choice((0.0, 0.02, 0.1))
        self.aside = rng.choice((0.2, 0.5, 0.9))  # a legal UNO or catch taken at once

    def choose(self, legal: list[Action], to_play: str) -> Action:
        rng = self.rng
        r = rng.random()
        if r < self.by_kind:
            kinds = sorted({a.type.value for a in legal})
            kind = rng.choice(kinds)
            return rng.choice([a for a in legal if a.type.value == kind])
        if r < self.by_kind + self.uniform:
            return rng.choice(legal)
        asides = [a for a in legal if a.type is ActionType.UNO or a.type is ActionType.CATCH]
        if asides and rng.random() < self.aside:
            return rng.choice(asides)
        mine = [a for a in legal if a.player == to_play
                and a.type not in (ActionType.MISPLAY, ActionType.ADVISE)]
        plays = [a for a in mine if a.type is ActionType.PLAY]
        if plays:
            return rng.choice(plays)
        return rng.choice(mine or legal)


# ------------------------------------------------------------------- lockstep


def _error(err: BaseException) -> tuple[str, str | None, tuple[str, ...]]:
    if isinstance(err, UnoError):
        return type(err).__name__, err.rule_id, tuple(err.causes)
    return type(err).__name__, None, ()


def _shown(err: BaseException | None) -> str:
    if err is None:
        return "accepted"
    if isinstance(err, UnoError):
        return f"{type(err).__name__} rule={err.rule_id} causes={list(err.causes)}: " \
               f"{err.message}"
    return f"{type(err).__name__}: {err}"


def _attempt(game: Any, action: Action) -> BaseException | None:
    return _call(lambda: game.apply(action))


def _call(fn: Callable[[], object]) -> BaseException | None:
    try:
        fn()
    except Exception as err:  # every error is compared, the engine's own or not
        return err
    return None


class Lockstep:
    """One game in both engines, and the job's tally and generator."""

    def __init__(self, job: Job, tally: Tally, rng: random.Random, rules: RuleTable,
                 space: dict[str, list[Action]], digest: Any) -> None:
        self.job, self.tally, self.rng, self.rules = job, tally, rng, rules
        self.space, self.digest = space, digest
        self.kinds = sorted(space)
        # the filtered legal sets are checked with a generator of their own, so the games
        # played (and the digest) do not depend on it
        self.side = random.Random(job.seed_text + "/filtered")

    def filtered(self, live: Any, frozen: Any, game_seed: int) -> bool:
        """``legal_actions(player, penalties=...)`` alike, for one player or all, with or
        without the penalised actions (bots and the vectors ask for these)."""
        names = [None, *live.names]
        player = names[self.side.randrange(len(names))]
        penalties = self.side.random() < 0.5
        la = sorted(map(str, live.legal_actions(player, penalties=penalties)))
        lf = sorted(map(str, frozen.legal_actions(player, penalties=penalties)))
        self.tally.filtered += 1
        if la != lf:
            what = f"legal_actions({player!r}, penalties={penalties})"
            self.disagree("legal", None, f"{what}: " + (" | ".join(sorted(set(la) - set(lf)))
                                                        or "-"),
                          f"{what}: " + (" | ".join(sorted(set(lf) - set(la))) or "-"),
                          live, game_seed, False)
            return False
        return True

    def disagree(self, what: str, action: Action | None, live: str, frozen: str,
                 game: Any, game_seed: int, appended: bool, step: int | None = None) -> None:
        """Count it; keep it with its record. ``step``: the job's step of the disputed
        action (0 for the first), by default the next one (a refusal, the legal set)."""
        step = self.tally.steps if step is None else step
        self.tally.disagreements += 1
        if len(self.tally.kept) >= KEPT:
            return
        record = _reproducer(game, action if appended else None, self.job, game_seed)
        game_step = len(record["actions"]) - 1 if action is not None else len(
            record["actions"])
        record["meta"] = {"agree": {
            "variant": self.job.variant, "players": self.job.players,
            "seed": self.job.seed_text, "game_seed": game_seed, "step": step,
            "what": what, "action": None if action is None else str(action),
            "disputed": game_step if action is not None else None,
            "live": live, "frozen": frozen,
            "read": "replay the actions in both engines (tests.reference.agree.replay_both); "
                    "'disputed' is the index of the action they disagree on (none: their "
                    "legal actions after the last one differ)"}}
        self.tally.kept.append(Disagreement(
            self.job.variant, self.job.players, self.job.seed_text, game_seed,
            step, game_step, what, None if action is None else str(action),
            live, frozen, record))

    def play(self, game_seed: int) -> bool:
        """One game (all its rounds), until it is over, cut, disagrees or the job's steps
        are done; False when neither engine would set it up (alike)."""
        job, tally = self.job, self.tally
        names = [f"P{i}" for i in range(job.players)]
        made: list[Any] = []
        errors: list[BaseException | None] = []
        for module in (live_game, frozen_game):
            try:
                made.append(module.Game(names, seed=game_seed, rules=self.rules))
                errors.append(None)
            except Exception as err:
                made.append(None)
                errors.append(err)
        if errors[0] is not None or errors[1] is not None:
            ka = None if errors[0] is None else _error(errors[0])
            kf = None if errors[1] is None else _error(errors[1])
            if ka != kf:
                self.disagree("setup", None, _shown(errors[0]), _shown(errors[1]), None,
                              game_seed, False)
                return True
            return False
        live, frozen = made
        tally.games += 1
        tally.rounds += 1
        policy = Policy(self.rng)
        before = live.to_text()
        if before != frozen.to_text():
            self.disagree("setup", None, before, frozen.to_text(), live, game_seed, False)
            return True
        round_steps = 0
        while tally.steps < job.steps:
            if self.side.random() < FILTER_SHARE and not self.filtered(live, frozen, game_seed):
                return True
            la = live.legal_actions()
            lf = frozen.legal_actions()
            if la != lf:
                sa, sf = sorted(map(str, la)), sorted(map(str, lf))
                if sa != sf:
                    self.disagree("legal", None, " | ".join(sorted(set(sa) - set(sf))) or "-",
                                  " | ".join(sorted(set(sf) - set(sa))) or "-", live,
                                  game_seed, False)
                    return True
            if not self.step_refusals(live, frozen, before, set(la), game_seed):
                return True
            if live.round_over or frozen.round_over:
                if not self.round_end(live, frozen, game_seed):
                    return True
                if live.game_over:
                    tally.games_over += 1
                    return True
                before = live.to_text()
                round_steps = 0
                continue
            if not la:  # both stuck alike (EXT-START off: no rule says what to do)
                tally.stuck += 1
                return True
            action = policy.choose(la, live.to_play)
            tally.kinds[action.type.value] += 1
            check_copy = self.rng.random() < COPY_SHARE
            if check_copy:
                live_copy, frozen_copy = live.copy(), frozen.copy()
            shuffles = live.shuffles
            ea, ef = _attempt(live, action), _attempt(frozen, action)
            if live.shuffles != shuffles:
                tally.reshuffles += 1
            step = tally.steps
            tally.steps += 1
            round_steps += 1
            if ea is not None or ef is not None:
                self.disagree("accepted", action, _shown(ea), _shown(ef), live, game_seed,
                              ea is not None, step)
                return True
            after = live.to_text()
            after_f = frozen.to_text()
            if after != after_f:
                self.disagree("state", action, after, after_f, live, game_seed, False, step)
                return True
            self.digest.update(after.encode())
            if check_copy:
                tally.copies += 1
                ca, cf = _attempt(live_copy, action), _attempt(frozen_copy, action)
                ta = live_copy.to_text() if ca is None else _shown(ca)
                tf = frozen_copy.to_text() if cf is None else _shown(cf)
                if ta != after or tf != after:
                    self.disagree("copy", action, ta, tf, live, game_seed, False, step)
                    return True
            before = after
            if round_steps >= MAX_ROUND_STEPS:
                tally.cut += 1
                return True
        return True

    def round_end(self, live: Any, frozen: Any, game_seed: int) -> bool:
        ends = (live.round_over, live.game_over, live.game_winner)
        ends_f = (frozen.round_over, frozen.game_over, frozen.game_winner)
        if ends != ends_f:
            self.disagree("round", None, str(ends), str(ends_f), live, game_seed, False)
            return False
        if live.game_over:
            return True
        ea, eb = _call(live.next_round), _call(frozen.next_round)
        if ea is not None or eb is not None:
            self.disagree("round", None, _shown(ea), _shown(eb), live, game_seed, False)
            return False
        self.tally.rounds += 1
        if live.to_text() != frozen.to_text():
            self.disagree("round", None, live.to_text(), frozen.to_text(), live, game_seed,
                          False)
            return False
        return True

    def step_refusals(self, live: Any, frozen: Any, before: str, legal: set[Action],
                      game_seed: int) -> bool:
        """Illegal candidates, refused alike, leaving both states as they were."""
        rng, tally = self.rng, self.tally
        for _ in range(self.job.refusals):
            kind = rng.choice(self.kinds)
            action = rng.choice(self.space[kind])
            if action in legal:
                continue
            tally.tried[kind] += 1
            tally.refusals += 1
            history = len(live.history), len(frozen.history)
            ea, ef = _attempt(live, action), _attempt(frozen, action)
            if ea is None or ef is None:
                self.disagree("accepted", action, _shown(ea), _shown(ef), live, game_seed,
                              ea is not None)
                return False
            if _error(ea) != _error(ef):
                self.disagree("refusal", action, _shown(ea), _shown(ef), live, game_seed,
                              True)
                return False
            tally.refused_by[f"{_error(ea)[0]} {_error(ea)[1]}"] += 1
            if str(ea) != str(ef):
                tally.word_diffs += 1
                if len(tally.words) < WORDS_SHOWN:
                    tally.words.append(f"{action}\n  live:   {ea}\n  frozen: {ef}")
            now = live.to_text(), frozen.to_text()
            if now != (before, before) or history != (len(live.history),
                                                      len(frozen.history)):
                self.disagree("unchanged", action, now[0], now[1], live, game_seed, True)
                return False
        return True


def _reproducer(game: Any, appended: Action | None, job: Job,
                game_seed: int) -> dict[str, Any]:
    """A version-2 record of the live game's actions so far (and ``appended``, the action
    disputed, if it is not among them); of no action if there is no game (its set-up)."""
    if game is None:
        return {"version": 2, "rules": job.variant,
                "players": [f"P{i}" for i in range(job.players)], "seed": game_seed,
                "actions": []}
    data = live_record.to_record(game)
    if appended is not None:
        data["actions"] = [*data["actions"], appended.to_json()]
    return {"version": 2, **data}


def run_job(job: Job) -> Tally:
    tally = Tally()
    start = time.process_time()
    rng = random.Random(job.seed_text)
    rules = variant_rules(job.variant)
    names = [f"P{i}" for i in range(job.players)]
    digest = hashlib.sha256()
    lock = Lockstep(job, tally, rng, rules, action_space(names, rules), digest)
    while tally.steps < job.steps:
        if not lock.play(rng.randrange(2**63)):
            break  # both engines refuse to set this game up: no step can be taken
    tally.seconds = time.process_time() - start
    tally.digest = digest.hexdigest()
    return tally


def jobs(variants: list[str], players: list[int], steps: int, seed: int,
         chunk: int = CHUNK, refusals: int = 1) -> list[Job]:
    """``steps`` per variant, split evenly among the player counts it seats, then into
    chunks."""
    out = []
    for variant in variants:
        seats = variant_rules(variant).players
        seated = [k for k in players if seats.minimum <= k <= seats.maximum]
        per = -(-steps // len(seated)) if seated else 0  # a short deck seats 2 to 7
        for k in seated:
            left, i = per, 0
            while left > 0:
                n = min(chunk, left)
                out.append(Job(variant, k, i, n, seed, refusals))
                left -= n
                i += 1
    return out


def run(all_jobs: list[Job], workers: int = 1,
        progress: Callable[[str], None] | None = None) -> dict[tuple[str, int], Tally]:
    """Every job, merged per (variant, players) in job order: the same whatever
    ``workers``. ``progress`` is told of each job done (in order)."""
    results: list[Tally] = []
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) if workers > 1 else _Serial() as pool:
        for job, tally in zip(all_jobs, pool.map(run_job, all_jobs), strict=True):
            results.append(tally)
            if progress is not None:
                progress(f"job {len(results)}/{len(all_jobs)} ({job.variant}, {job.players} "
                         f"players, chunk {job.chunk}): {tally.steps:,} steps, "
                         f"{tally.disagreements} disagreements; "
                         f"{time.perf_counter() - start:,.0f} s so far")
    out: dict[tuple[str, int], Tally] = {}
    for job, tally in zip(all_jobs, results, strict=True):
        out.setdefault((job.variant, job.players), Tally()).add(tally)
    return out


class _Serial:
    """The jobs run in this process, one after the other (``--workers 1``)."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: Callable[[Job], Tally], jobs: list[Job]) -> Iterator[Tally]:
        return map(fn, jobs)


# -------------------------------------------------------------- records


Step = tuple[str, str]  # ("state", text) or ("error", class rule causes)


def record_steps(module: ModuleType, data: dict[str, Any]) -> Iterator[Step]:
    """A record replayed by one engine's record module, as :func:`replay` plays it, one
    outcome per action: the state text after it, or its refusal (class, rule, causes);
    the replay stops at the first refusal. The first outcome is the set-up's."""
    data = copy.deepcopy(data)
    try:
        game = module.game_from_record(data)
        actions = module.record_actions(data)
        chance = module._chance(game, data)
    except Exception as err:  # a hostile record may break either engine: compared too
        yield "error", " ".join(map(str, _error(err)))
        return
    yield "state", game.to_text()
    stated_type = module.StatedChance
    for i, action in enumerate(actions):
        stated = chance[i] if chance is not None else None
        try:
            if game.round_over and not game.game_over:
                game.next_round()
            if stated is None or not isinstance(game.chance, stated_type):
                game.apply(action)
            else:
                before = game.copy()
                module._apply_stated(game, action, stated)
        except Exception as err:
            if stated is not None and isinstance(game.chance, stated_type):
                game = before
            yield "error", " ".join(map(str, _error(err))) + " state=" + game.to_text()
            return
        yield "state", game.to_text()


def replay_both(data: dict[str, Any]) -> tuple[int, Step, Step] | None:
    """The first place (0: the set-up, i+1: action i) where the two engines' replays of
    the record differ, with both outcomes; None when they agree all the way, and their
    ``replay()`` results too."""
    live = list(record_steps(live_record, data))
    frozen = list(record_steps(frozen_record, data))
    for i, (a, f) in enumerate(zip(live, frozen, strict=False)):
        if a != f:
            return i, a, f
    if len(live) != len(frozen):
        i = min(len(live), len(frozen))
        end = ("end", "-")
        return i, live[i] if i < len(live) else end, frozen[i] if i < len(frozen) else end
    results: list[Any] = []
    for module in (live_record, frozen_record):
        try:
            r = module.replay(copy.deepcopy(data))
            results.append((r.played, r.error_index, r.game.to_text(),
                            None if r.error is None else _error(r.error)))
        except Exception as err:
            results.append(_error(err))
    if results[0] != results[1] and not _setup_deviation(results[0], results[1]):
        return len(live), ("replay", str(results[0])), ("replay", str(results[1]))
    return None


def _setup_deviation(live: Any, frozen: Any) -> bool:
    """A decided change (issue 41): a record whose set-up the rules contradict (a start
    reshuffle, a start color or a dealer draw they do not cause) was malformed input to
    the frozen engine; the live one replays it as a deviation of the same rule at the
    set-up (no action index), so that ``conform`` counts it under that rule."""
    if not (isinstance(live, tuple) and len(live) == 4 and live[:2] == (0, None)):
        return False
    error = live[3]
    return (isinstance(error, tuple) and isinstance(frozen, tuple) and len(frozen) == 3
            and frozen[0] == "InvalidInputError" and error[1] == frozen[1]
            and error[1] in error[2])


def all_records() -> list[tuple[str, dict[str, Any]]]:
    """Every record file of ``tests/records`` of one round and every record the suite
    builds. A game record (version 3, every round of a game) is left out: the frozen
    engine reads the records it was frozen with, one round each; the game records' own
    tests replay them (tests/engine, tests/records)."""
    out = [(p.name, data) for p in sorted(RECORDS.glob("*.json"))
           if (data := json.loads(p.read_text())).get("version") != 3]
    if SUITE_RECORDS.exists():
        with gzip.open(SUITE_RECORDS, "rt", encoding="utf-8") as lines:
            out += [(f"suite_records[{i}]", json.loads(line))
                    for i, line in enumerate(lines)]
    return out


def records_agree(records: list[tuple[str, dict[str, Any]]] | None = None
                  ) -> tuple[int, list[str]]:
    """How many records were replayed, and each that the engines replay differently."""
    records = all_records() if records is None else records
    bad = []
    for name, data in records:
        found = replay_both(data)
        if found is not None:
            i, a, f = found
            bad.append(f"{name}: at {i}: live {a} / frozen {f}")
    return len(records), bad


# -------------------------------------------------------------- vectors


def _normal(line: dict[str, Any]) -> dict[str, Any]:
    """A vector line with each player's legal actions in order (the order is not part of
    the contract, docs/vectors.md)."""
    return {**line, "legal": {p: sorted(v) for p, v in line["legal"].items()}}


def vectors_agree(seeds: tuple[int, ...] = (0, 1), games: int = 1,
                  players: tuple[int, ...] = (2, 4), variants: list[str] | None = None,
                  presets: tuple[str, ...] = ("micro", "wd4"), max_states: int = 150
                  ) -> tuple[int, list[str]]:
    """``unoformal vectors`` lines from both engines: full-deck games (each engine plays
    its own), and explorer presets (states from the live explorer, each line computed by
    each engine's ``vector()``). How many lines, and those that differ."""
    lines, bad = 0, []
    for variant in variants or list(FROZEN_VARIANTS):
        rules = load_rules(variant)
        for seed in seeds:
            for k in players:
                a = list(live_vectors.game_vectors(rules, games, k, seed))
                f = list(frozen_vectors.game_vectors(rules, games, k, seed))
                lines += len(a)
                if len(a) != len(f):
                    bad.append(f"{variant} seed {seed} players {k}: {len(a)} lines against "
                               f"{len(f)}")
                for i, (x, y) in enumerate(zip(a, f, strict=False)):
                    if _normal(x) != _normal(y):
                        bad.append(f"{variant} seed {seed} players {k} line {i}: "
                                   f"{x['state']}")
                        break
    from unoformal.verification.explore.presets import PRESETS, small_rules

    for name in presets:
        preset = PRESETS[name]
        rules = small_rules(preset.size, None, preset.extra, name)
        for i, line in enumerate(live_vectors.preset_vectors(name, None, max_states)):
            lines += 1
            other = frozen_vectors.vector(line["state"], rules, line["rules"])
            if _normal(line) != _normal(other):
                bad.append(f"preset {name} line {i}: {line['state']}")
                break
    return lines, bad


# ------------------------------------------------------------------ command


def _players(text: str) -> list[int]:
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(p) for p in text.split(",")]


def report(results: dict[tuple[str, int], Tally], wall: float,
           out: Callable[[str], None] = print) -> Tally:
    total = Tally()
    out(f"{'variant':<13} {'players':>7} {'steps':>10} {'games':>6} {'over':>5} "
        f"{'rounds':>6} {'cut':>4} {'refusals':>9} {'disagree':>8} {'words':>6} "
        f"{'steps/s':>8}")
    by_variant: dict[str, Tally] = {}
    for (variant, k), t in results.items():
        rate = t.steps / t.seconds if t.seconds else 0.0
        out(f"{variant:<13} {k:>7} {t.steps:>10,} {t.games:>6} {t.games_over:>5} "
            f"{t.rounds:>6} {t.cut:>4} {t.refusals:>9,} {t.disagreements:>8} "
            f"{t.word_diffs:>6} {rate:>8,.0f}")
        by_variant.setdefault(variant, Tally()).add(t)
        total.add(t)
    out("")
    for variant, t in by_variant.items():
        out(f"{variant}: {t.steps:,} steps, {t.disagreements} disagreements; actions "
            f"taken: " + ", ".join(f"{k} {t.kinds[k]:,}" for k in KINDS))
    out("")
    out("illegal candidates tried, by kind: "
        + ", ".join(f"{k} {total.tried[k]:,}" for k in [*KINDS, MALFORMED]))
    out("their refusals, by error and rule: "
        + ", ".join(f"{k} {n:,}" for k, n in sorted(total.refused_by.items())))
    missing = [k for k in KINDS if not total.kinds[k]]
    out(f"action kinds never taken: {', '.join(missing) or 'none'}")
    rate = total.steps / total.seconds if total.seconds else 0.0
    out(f"total: {total.steps:,} steps, {total.games} games ({total.games_over} to game "
        f"over, {total.cut} cut, {total.stuck} stuck), {total.rounds} rounds, "
        f"{total.reshuffles:,} steps that reshuffled, "
        f"{total.refusals:,} refusals compared, {total.copies:,} copies, "
        f"{total.filtered:,} filtered legal sets, "
        f"{total.disagreements} disagreements, "
        f"{total.word_diffs} refusals in other words; {rate:,.0f} steps per CPU s per "
        f"process, {total.steps / wall if wall else 0:,.0f} steps/s wall ({wall:,.1f} s)")
    out(f"digest (the same for the same --seed and --steps, whatever --workers): "
        f"{total.digest[:16]}")
    for example in total.words:
        out("words differ: " + example)
    for d in total.kept:
        out("DISAGREEMENT " + d.line())
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.reference.agree",
        description="The live engine against the frozen one (tests/reference/engine_v1), "
                    "in lockstep over seeded games of every shipped variant.")
    parser.add_argument("--steps", type=int, default=100_000,
                        help="steps (applied actions) PER VARIANT, in total over the "
                             "player counts, split evenly among them (1000000: at least "
                             "10^6 per variant summed over 2..10 players); default 100000")
    parser.add_argument("--variants", default="all",
                        help="all, or a comma-separated list of shipped variants")
    parser.add_argument("--players", default="2-10", help="a range 2-10 or a list 2,3,10")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="every job's seed derives "
                        "from it (default 0)")
    parser.add_argument("--chunk", type=int, default=CHUNK,
                        help=f"steps per job (default {CHUNK:,}); part of what the seed "
                             "decides")
    parser.add_argument("--refusals", type=int, default=1,
                        help="illegal candidates tried per step (default 1)")
    parser.add_argument("--records", action="store_true",
                        help="also replay every record in both engines, and compare "
                             "vectors")
    parser.add_argument("--short", action="store_true",
                        help="also each variant on a deck of 56 cards, 2 to 7 players "
                             "(<variant>-short, also a name for --variants): the pile runs "
                             "out; --steps is per short variant too, over its 2..7")
    parser.add_argument("--quiet", action="store_true",
                        help="no line on stderr as each job is done")
    parser.add_argument("--out", type=Path, default=None,
                        help="a folder for the records of the disagreements")
    args = parser.parse_args(argv)
    variants = list(FROZEN_VARIANTS) if args.variants == "all" else args.variants.split(",")
    if args.short:
        variants += [v + SHORT for v in variants if not v.endswith(SHORT)]
    unknown = [v for v in variants if not known(v)]
    if unknown:
        parser.error(f"unknown variant(s) {', '.join(unknown)}; shipped: "
                     f"{', '.join(FROZEN_VARIANTS)} (each also as <name>{SHORT})")
    start = time.perf_counter()
    results = run(jobs(variants, _players(args.players), args.steps, args.seed, args.chunk,
                       args.refusals), args.workers,
                  None if args.quiet else lambda line: print(line, file=sys.stderr, flush=True))
    total = report(results, time.perf_counter() - start)
    failed = total.disagreements > 0
    if args.out is not None and total.kept:
        args.out.mkdir(parents=True, exist_ok=True)
        for i, d in enumerate(total.kept):
            (args.out / f"disagreement{i}.json").write_text(json.dumps(d.record, indent=1))
    if args.records:
        n, bad = records_agree()
        print(f"records: {n} replayed in both engines, {len(bad)} differ")
        for line in bad[:10]:
            print("  " + line)
        lines, vbad = vectors_agree()
        print(f"vectors: {lines} lines from both engines, {len(vbad)} differ")
        for line in vbad[:10]:
            print("  " + line)
        failed = failed or bool(bad) or bool(vbad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
