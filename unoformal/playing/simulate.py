"""Whole games between bots, deterministic from one seed.

Game ``i`` of a run with seed ``S`` uses a game seed and bot generators derived
from ``(S, i)`` alone, so any single game can be played again on its own
(:func:`play_one`). A game runs to the target score (SCORE-2), each finished
round followed by the next deal (END-2).

One step of the loop: first every player other than the one to move, in seat
order after the mover, may act out of turn once (UNO-1: say UNO, catch); then
the player to move acts. The referee (this loop) checks that each bot returns
one of the actions it was offered, and the engine validates it again.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.errors import InvalidInputError, UnoError
from unoformal.playing.bots import Bot, Seat, make_bot
from unoformal.rulebook.table import CLASSIC, RuleTable

# A cap on actions per game, far above what play needs (tens of thousands at most, with
# random bots), so a bug that stalls a game fails loudly instead of hanging.
MAX_ACTIONS = 1_000_000


class SimulationError(UnoError):
    """A game that could not be played to its end (no action offered, or the cap hit)."""


@dataclass(frozen=True)
class Config:
    games: int
    players: int
    seed: int
    rules: RuleTable = CLASSIC
    bots: tuple[str, ...] = ("random", "greedy")
    penalties: bool = False
    max_actions: int = MAX_ACTIONS

    def seat_bots(self) -> list[str]:
        """The bot of each seat: ``bots`` cycled over the seats."""
        return [self.bots[i % len(self.bots)] for i in range(self.players)]

    def names(self) -> list[str]:
        return [f"P{i + 1}" for i in range(self.players)]


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    winner: int  # seat
    actions: int
    rounds: int
    scores: tuple[int, ...]
    round_lengths: tuple[int, ...] = ()  # actions in each round, in order


@dataclass(frozen=True)
class Summary:
    config: Config
    results: tuple[GameResult, ...] = field(default=())

    @property
    def moves(self) -> int:
        return sum(r.actions for r in self.results)

    @property
    def rounds(self) -> int:
        return sum(r.rounds for r in self.results)

    def wins(self) -> list[int]:
        counts = [0] * self.config.players
        for r in self.results:
            counts[r.winner] += 1
        return counts

    def win_rates(self) -> list[float]:
        return [w / len(self.results) for w in self.wins()]

    def to_json(self) -> dict[str, Any]:
        c = self.config
        actions = [r.actions for r in self.results]
        rounds = [r.rounds for r in self.results]
        seats = [{"seat": i + 1, "name": name, "bot": bot, "wins": wins, "win_rate": rate}
                 for i, (name, bot, wins, rate) in enumerate(zip(
                     c.names(), c.seat_bots(), self.wins(), self.win_rates(), strict=True))]
        return {
            "rules": c.rules.name, "games": len(self.results), "players": c.players,
            "seed": c.seed, "bots": c.seat_bots(), "penalties": c.penalties,
            "target": c.rules.target.score,
            "moves": self.moves, "rounds": self.rounds,
            "actions_per_game": {"mean": statistics.fmean(actions), "min": min(actions),
                                 "max": max(actions)},
            "rounds_per_game": {"mean": statistics.fmean(rounds), "min": min(rounds),
                                "max": max(rounds)},
            "seats": seats,
        }


def check(config: Config) -> None:
    """Refuse a run that cannot be played, naming the argument and the rule."""
    lo, hi = config.rules.players.minimum, config.rules.players.maximum
    if not lo <= config.players <= hi:
        raise InvalidInputError(f"--players {config.players}: the rules "
                                f"{config.rules.name!r} allow {lo} to {hi} players", "DECK-2")
    if config.games < 1:
        raise InvalidInputError(f"--games {config.games}: play at least 1 game")
    if not config.bots:
        raise InvalidInputError("--bots: name at least one bot")
    if config.max_actions < 1:
        raise InvalidInputError(f"max_actions {config.max_actions}: must be at least 1")
    for i, name in enumerate(config.bots):
        make_bot(name, random.Random(i))  # raises for an unknown name
    Game(config.names(), seed=config.seed, rules=config.rules)  # DEAL-2: hands fit the deck


def derived_seed(seed: int, index: int, what: str) -> int:
    """A seed for one part (``game``, ``bot3`` ...) of game ``index``; string seeding
    hashes with SHA-512, so it is the same on every run and platform."""
    return random.Random(f"unoformal-simulate/{seed}/{index}/{what}").getrandbits(63)


def simulate(config: Config,
             progress: Callable[[GameResult], None] | None = None,
             results: list[GameResult] | None = None) -> Summary:
    """Every game of the run; ``results``, when given, fills as games end (what an
    interrupted run has to report)."""
    check(config)
    results = [] if results is None else results
    for index in range(config.games):
        result = play_one(config, index)
        results.append(result)
        if progress is not None:
            progress(result)
    return Summary(config, tuple(results))


# Games per campaign task (unoformal.runtime.campaign): fixed by the number of games alone, so the
# same run splits the same way on any number of workers; a task of 100 games of 4 players
# takes about a quarter of a second, far above Dask's few milliseconds per task. A huge run
# gets larger tasks rather than more than MAX_TASKS of them: releasing 10,000 futures on
# Ctrl-C took 4 to 8 s, 1,000 under a second (measured, 1,000,000 games).
CHUNK = 100
MAX_TASKS = 1_000
# Below this many games a run stays in this process unless workers are asked for: a local
# cluster takes about 2 s of wall time (and 2-3 CPU s) to start, what some 800 games of 4
# players take on one core; from 2,000 games (about 5 s) on, two cores win it back.
SMALL = 2_000


def chunks(games: int) -> list[range]:
    """The game indices of each task, in order: fixed before any starts."""
    size = max(CHUNK, -(-games // MAX_TASKS))
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


def play_games(job: tuple[Config, range]) -> list[GameResult]:
    """A campaign task: the games of ``indices``, each from its own derived seeds."""
    config, indices = job
    return [play_one(config, index) for index in indices]


def play_one(config: Config, index: int) -> GameResult:
    """Game ``index`` of the run, from its derived seeds alone."""
    game, actions, lengths = played(config, index)
    seed = game.seed
    assert game.game_winner is not None
    return GameResult(index=index, seed=seed, winner=game.seat(game.game_winner),
                      actions=actions, rounds=game.round, scores=tuple(game.scores),
                      round_lengths=tuple(lengths))


def played(config: Config, index: int) -> tuple[Game, int, list[int]]:
    """Game ``index`` of the run played to its end: the game, its number of actions and
    each round's (the same game every time: its seeds are derived from (seed, index))."""
    seed = derived_seed(config.seed, index, "game")
    game = Game(config.names(), seed=seed, rules=config.rules)
    bots = [make_bot(name, random.Random(derived_seed(config.seed, index, f"bot{i}")))
            for i, name in enumerate(config.seat_bots())]
    lengths: list[int] = []
    actions = play_game(game, bots, penalties=config.penalties,
                        max_actions=config.max_actions, label=f"game {index} (seed {seed})",
                        round_lengths=lengths)
    return game, actions, lengths


def play_game(game: Game, bots: Sequence[Bot], penalties: bool = False,
              max_actions: int = MAX_ACTIONS, label: str = "game",
              round_lengths: list[int] | None = None) -> int:
    """Play ``game`` to its end (SCORE-2); return the number of actions applied, and
    append each round's to ``round_lengths`` if given."""
    if len(bots) != game.n:
        raise InvalidInputError(f"{len(bots)} bots for {game.n} players", "DECK-2")
    seats = [Seat(game, name) for name in game.names]
    seat_of = {name: p for p, name in enumerate(game.names)}
    actions = started = 0
    while not game.game_over:
        if game.round_over:
            _ended(round_lengths, actions - started)
            started = actions
            game.next_round()  # END-2
        actions += _step(game, bots, seats, seat_of, penalties, label)
        if actions > max_actions:
            raise SimulationError(f"{label}: still not over after {max_actions} actions "
                                  f"(round {game.round}, scores {game.scores}); replay it "
                                  "with the same seed to investigate", None,
                                  game.to_text())
    _ended(round_lengths, actions - started)
    return actions


def _ended(round_lengths: list[int] | None, length: int) -> None:
    if round_lengths is not None:
        round_lengths.append(length)


def _step(game: Game, bots: Sequence[Bot], seats: Sequence[Seat], seat_of: dict[str, int],
          penalties: bool, label: str) -> int:
    """Out-of-turn reactions in seat order after the mover, then the mover's action."""
    applied = 0
    mover = game.turn
    options = _options(game, seat_of, penalties)
    for k in range(1, game.n):
        p = (mover + k) % game.n
        if not options[p]:
            continue
        reaction = bots[p].react(seats[p], game.names[p], options[p])
        if reaction is None:
            continue
        _apply(game, reaction, options[p], label)
        applied += 1
        if game.round_over:
            return applied
        options = _options(game, seat_of, penalties)
    mover = game.turn
    if not options[mover]:
        raise SimulationError(f"{label}: {game.to_play} has no action in phase "
                              f"{game.phase!r}", None, game.to_text())
    _apply(game, bots[mover].choose(seats[mover], game.names[mover], options[mover]),
           options[mover], label)
    return applied + 1


def _options(game: Game, seat_of: dict[str, int], penalties: bool) -> list[list[Action]]:
    """Each seat's offered actions, from one call for all players."""
    out: list[list[Action]] = [[] for _ in range(game.n)]
    for action in game.legal_actions(penalties=penalties):
        out[seat_of[action.player]].append(action)
    return out


def _apply(game: Game, action: Action, options: Sequence[Action], label: str) -> None:
    if action not in options:
        raise SimulationError(f"{label}: a bot chose {action}, which it was not offered",
                              None, game.to_text())
    game.apply(action)
