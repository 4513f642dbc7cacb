"""A game in the terminal: one human seat against the bots.

The human sees only that seat's view (HIDDEN-1, through :class:`~unoformal.playing.bots.Seat`)
and the actions everyone takes; moves are chosen by number from the legal ones, or
typed in the canonical text form without the player's name (``play R5``, ``draw``,
``uno``, ``catch Ada``). Out of turn, when the seat may say UNO or catch a player who
forgot it (UNO-1), the game asks before anyone else moves; an empty line lets play go
on. The bots react and move as in ``unoformal simulate``: the greedy bot says UNO and
catches. Whatever the engine refuses is explained on one line, with the rule it
breaks, and play goes on. ``quit`` or the end of input stops; the record is saved
either way, replayable with ``unoformal replay``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from unoformal.engine.actions import Action
from unoformal.engine.game import Game, PlayerView
from unoformal.errors import InvalidInputError, UnoError
from unoformal.inputs import JSON_WHITESPACE, is_empty, show
from unoformal.playing.bots import Bot, Seat, make_bot
from unoformal.playing.simulate import derived_seed

QUIT = "quit"
# An empty line (JSON white space only, as everywhere: inputs.is_empty), out of turn,
# lets play go on.
MAX_MOVE_DIGITS = 6  # a move's number: far more than any list of legal moves holds


class Stop(Exception):
    """The human typed ``quit`` or the input ended."""


@dataclass
class Table:
    """A game, the human's seat, the bots at the other seats, and the terminal."""

    game: Game
    human: str
    bots: dict[str, Bot]
    ask: Callable[[str], str | None]  # a prompt -> the line typed, None at end of input
    say: Callable[[str], None]

    @property
    def seat(self) -> Seat:
        return Seat(self.game, self.human)


def sit(game: Game, human: str, bot_names: Sequence[str], seed: int,
        ask: Callable[[str], str | None], say: Callable[[str], None]) -> Table:
    """The table: the human at ``human``, the others each a bot (``bot_names`` in turn),
    every bot's random choices derived from ``seed``."""
    others = [name for name in game.names if name != human]
    bots = {name: make_bot(bot_names[i % len(bot_names)],
                           random.Random(derived_seed(seed, i, f"bot{i}")))
            for i, name in enumerate(others)}
    return Table(game, human, bots, ask, say)


def play(table: Table) -> bool:
    """Play until the game is over (True) or the human stops (False)."""
    game = table.game
    try:
        while not game.game_over:
            if game.round_over:
                _round_over(table)
                game.next_round()  # END-2
            _step(table)
    except Stop:
        return False
    _round_over(table)
    if game.won_by_elimination:  # END-2: one player left
        table.say(f"Game over: {game.game_winner} wins, the last player left (END-2).")
    else:
        table.say(f"Game over: {game.game_winner} wins (SCORE-2).")
    return True


def _step(table: Table) -> None:
    """The human's out-of-turn chance, the bots' reactions, then the mover's action."""
    game = table.game
    if game.to_play != table.human and _options(table, table.human):
        _human(table, in_turn=False)
        if game.round_over:
            return
    for name, bot in table.bots.items():
        options = _options(table, name)
        if name != game.to_play and options:
            reaction = bot.react(Seat(game, name), name, options)
            if reaction is not None:
                _apply(table, reaction)
                if game.round_over:
                    return
    mover = game.to_play
    if mover == table.human:
        _human(table, in_turn=True)
    else:
        _apply(table, table.bots[mover].choose(Seat(game, mover), mover,
                                               _options(table, mover)))


def _options(table: Table, player: str) -> list[Action]:
    # The penalty actions (MISPLAY-1, ADVICE-1) are not offered, but may be typed.
    return table.game.legal_actions(player, penalties=False)


def _apply(table: Table, action: Action) -> None:
    game = table.game
    before = game.out
    game.apply(action)
    table.say(f"  {action}")
    if game.rules.mercy.enabled:
        for p in game.out[len(before):]:  # MERCY: in the order they were knocked out
            table.say(f"{game.names[p]} holds {game.rules.mercy.at} cards or more and is "
                      "knocked out of the round (MERCY).")


def _human(table: Table, in_turn: bool) -> None:
    """Ask until the human makes a move the engine accepts (or, out of turn, passes)."""
    table.say(describe(table.seat.view(table.human), table.game.rules.mercy.enabled))
    while True:
        options = _options(table, table.human)
        table.say(menu(options, in_turn))
        try:
            line = table.ask("> ")  # a line that cannot be read is refused like a move
            if line is None or line.strip(JSON_WHITESPACE) == QUIT:
                raise Stop
            if not in_turn and is_empty(line):
                return
            action = parse(line, options, table.human, list(table.bots))
            _apply(table, action)
            return
        except UnoError as err:
            table.say(explain(err))


def parse(line: str, options: Sequence[Action], human: str,
          others: Sequence[str] = ()) -> Action:
    """A move: the number of a listed move, or its text with or without the name (not
    another player's, ``others``)."""
    text = line.strip(JSON_WHITESPACE)
    if text.isdecimal():
        # never int() of thousands of digits (Python's limit) or of another script's
        number = int(text) if text.isascii() and len(text) <= MAX_MOVE_DIGITS else 0
        if not 1 <= number <= len(options):
            shown = text if len(text) <= MAX_MOVE_DIGITS else show(text)
            raise InvalidInputError(f"no move {shown}: choose 1 to {len(options)}")
        return options[number - 1]
    if not text:
        raise InvalidInputError("type the number of a move, a move such as 'draw', or quit")
    first, _, rest = text.partition(" ")
    if first in others and rest:
        raise InvalidInputError(f"{show(text)}: you play as {human}, not {first}: type "
                                "your own moves, without a name")
    return Action.parse(text if first == human and rest else f"{human} {text}")


def explain(err: UnoError) -> str:
    """One line: what was wrong and the rule it breaks."""
    rule = f" (breaks {err.rule_id})" if err.rule_id else ""
    message = err.message.replace("\n", " ")
    return f"not allowed: {message}{rule}; play goes on"


def describe(view: PlayerView, knocked: bool = False) -> str:
    """The seat's view (HIDDEN-1): the table, hand sizes, scores and the own hand;
    ``knocked``: a player out is knocked out of the round (MERCY), not out of the game."""
    others = ", ".join(f"{name} {size}" for name, size in view.hand_sizes.items()
                       if name != view.player)
    scores = ", ".join(f"{name} {score}" for name, score in view.scores.items())
    lines = [f"Top {view.top or '-'}, color {view.color or '-'}; {view.to_play} to play "
             f"({view.phase}); direction {view.direction}; draw pile {view.draw_pile}",
             f"Cards held: {others}; scores: {scores}",
             f"Your hand ({view.player}): {' '.join(view.hand) or '-'}"]
    for name, hand in view.shown.items():  # HIDDEN-1's house rule: hands face up
        lines.append(f"{name}'s hand, face up: {' '.join(hand)}")
    if view.revealed is not None:  # CHAL-1: the challenger's look at the hand
        offender, hand = view.revealed
        lines.append(f"{offender} showed you: {' '.join(hand)}")
    if view.out:  # END-2's elimination, MERCY's knock-outs: in the order they left
        what = "Knocked out of the round" if knocked else "Left the game"
        lines.append(f"{what}: {', '.join(view.out)}")
    return "\n".join(lines)


def menu(options: Sequence[Action], in_turn: bool) -> str:
    moves = [f"  {i}  {' '.join(str(a).split()[1:])}" for i, a in enumerate(options, 1)]
    tail = "or type a move, or quit" if in_turn else \
        "or press Enter to let play go on, or quit"
    return "\n".join(["Your moves:", *moves, f"  ({tail})"])


def _round_over(table: Table) -> None:
    game = table.game
    if game.winner is not None:
        table.say(f"Round {game.round} over: {game.names[game.winner]} scores "
                  f"{game.round_points} (SCORE-1).")
    if game.leaving is not None:
        table.say(f"{game.names[game.leaving]} holds the most cards and leaves the game "
                  f"(END-2).")
