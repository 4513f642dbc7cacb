"""RLCard's UNO (``rlcard.games.uno.game.UnoGame``) played with seeded random legal moves
and written down as version-2 records of exactly what it did, its shuffles included.

RLCard is an optional dependency (``pip install 'unoformal[rlcard]'``). Its random
generator is wrapped so every shuffle is seen, and its draw pile so every card taken is
seen; nothing of RLCard's own logic is replaced. How its moves become record actions:

- RLCard's players are ``P0`` … and ``P0`` moves first, so the dealer is the last seat
  (DEAL-3: the player left of the dealer starts).
- A start Wild's color, which RLCard picks at random, is the record's ``start_color``
  where the rules draw it at random (START-WILD ``color_at_random``), else ``P0``'s
  ``choose_color``.
- ``draw`` is a ``draw`` stating the card; RLCard then plays it at once when it is a wild
  or of the current color (``round.py`` ``_perform_draw_action``), else the turn passes:
  a ``play`` of the drawn card, or ``pass``.
- A Wild Draw Four's four cards are the victim's ``accept`` where the rules let the victim
  challenge first (WD4-2 ``victim_may_challenge``), else stated on the play, as a Draw
  Two's (RLCard has no challenge).
- A reshuffle is stated on the action whose draw needed it, as RLCard made it.
"""

from __future__ import annotations

import random
from typing import Any

from unoformal.engine.record import VERSION, rules_json
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import RuleTable

COLORS = {"r": "red", "g": "green", "b": "blue", "y": "yellow"}
TRAITS = {"skip": "S", "reverse": "R", "draw_2": "+2"}
MAX_STEPS = 10_000  # RLCard's games end; a cap keeps a bug there from hanging a run


def available() -> None:
    """Refuse, on one line, when RLCard is not installed."""
    import importlib.util

    from unoformal.errors import InvalidInputError

    if importlib.util.find_spec("rlcard") is None:
        raise InvalidInputError("--engine rlcard needs RLCard: pip install 'unoformal[rlcard]'")


def code(card: Any) -> str:
    """unoformal's code of an RLCard card (``r-7`` → ``R7``, ``g-draw_2`` → ``G+2``)."""
    trait = str(card.trait)
    if trait == "wild":
        return "W"
    if trait == "wild_draw_4":
        return "W+4"
    return str(card.color).upper() + TRAITS.get(trait, trait)


class _Random:
    """RLCard's generator, with every shuffle's result written down (bottom to top)."""

    def __init__(self, seed: int) -> None:
        import numpy as np

        self.rng = np.random.RandomState(seed % 2**32)
        self.shuffles: list[list[str]] = []
        self.pops: list[str] | None = None

    def shuffle(self, cards: list[Any]) -> None:
        self.rng.shuffle(cards)
        self.shuffles.append([code(c) for c in cards])
        if self.pops is not None:
            self.marks.append(len(self.pops))

    def choice(self, options: Any) -> Any:
        return self.rng.choice(options)

    marks: list[int]


class _Pile(list[Any]):
    """RLCard's draw pile, with every card taken written down."""

    log: list[str]

    def pop(self, index: Any = -1) -> Any:
        card = super().pop(index)
        self.log.append(code(card))
        return card


def play(players: int, seed: int, rules: RuleTable) -> dict[str, Any]:
    """One RLCard game at ``players`` players from ``seed``, as a version-2 record."""
    return played(players, seed, rules)[0]


def played(players: int, seed: int, rules: RuleTable) -> tuple[dict[str, Any], Any]:
    """The record of one RLCard game, and RLCard's game object as it ended."""
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    game.num_players = players  # rlcard.make ignores the count for UNO: set it here
    rng = _Random(seed)
    game.np_random = rng
    game.init_game()
    names = [f"P{i}" for i in range(players)]
    record = _start(game, rng, names, rules, seed)
    pile = _Pile(game.dealer.deck)
    pile.log = []
    game.dealer.deck = pile
    rng.pops, rng.marks = pile.log, []
    moves = random.Random(f"rlcard/{seed}")
    for _ in range(MAX_STEPS):
        if game.is_over():
            break
        record["actions"] += _step(game, rng, pile, names, moves, rules)
    return record, game


def _start(game: Any, rng: _Random, names: list[str], rules: RuleTable,
           seed: int) -> dict[str, Any]:
    """The deal as RLCard made it: its first shuffle dealt 7 cards to each player in turn
    from the top; later shuffles before play are its start Wild Draw Four reshuffles."""
    import rlcard

    deck = list(rng.shuffles[0])
    hands = {name: [deck.pop() for _ in range(7)] for name in names}
    record: dict[str, Any] = {
        "version": VERSION, "rules": rules_json(rules), "players": names,
        "dealer": names[-1], "seed": seed,
        "deal": {"hands": hands, "draw_pile": deck[::-1]},
        "actions": [],
        "meta": {"engine": "rlcard", "engine_version": rlcard.__version__,
                 "players": len(names), "seed": seed}}
    if len(rng.shuffles) > 1:
        record["start_reshuffles"] = [pile[::-1] for pile in rng.shuffles[1:]]
    top = game.round.target
    if top.trait == "wild":
        start = rules.start_rule(Kind.WILD)
        if start is not None and start.color_at_random:
            record["start_color"] = COLORS[top.color]
        else:
            record["actions"].append({"player": names[0], "action": "choose_color",
                                      "color": COLORS[top.color]})
    return record


def _step(game: Any, rng: _Random, pile: _Pile, names: list[str],
          moves: random.Random, rules: RuleTable) -> list[dict[str, Any]]:
    """One RLCard step (a random legal action) as record actions, chance stated."""
    player = game.round.current_player
    name = names[player]
    legal = sorted(game.get_legal_actions())
    action = moves.choice(legal)
    sizes = [len(p.hand) for p in game.players]
    start, first = len(rng.shuffles), len(pile.log)
    rng.marks = []
    game.step(action)
    taken = pile.log[first:]
    shuffles = rng.shuffles[start:]
    marks = [m - first for m in rng.marks]
    responds = rules.effect(Kind.WILD_DRAW_FOUR).victim_may_challenge
    if action == "draw":
        return _drawn(game, names, player, taken, shuffles, marks, sizes, responds)
    color, trait = action.split("-", 1)
    card = {"player": name, "action": "play",
            "card": code(type("C", (), {"color": color, "trait": trait})())}
    if trait in ("wild", "wild_draw_4"):
        card["color"] = COLORS[color]
    return _effect(card, names, player, game, taken, shuffles, trait, responds)


def _stated(action: dict[str, Any], who: str, cards: list[str],
            shuffles: list[list[str]]) -> dict[str, Any]:
    if cards:
        action["draws"] = {who: list(cards)}
    if shuffles:
        action["reshuffles"] = [s[::-1] for s in shuffles]
    return action


def _effect(card: dict[str, Any], names: list[str], player: int, game: Any,
            taken: list[str], shuffles: list[list[str]], trait: str,
            responds: bool) -> list[dict[str, Any]]:
    """A played card and the cards its victim took (D2-1 on the play; WD4-2 on an accept
    when its victim may challenge first, else on the play too)."""
    if not taken and not shuffles:
        return [card]
    victim = names[_victim(game, player)]
    if trait == "wild_draw_4" and responds:
        return [card, _stated({"player": victim, "action": "accept"}, victim, taken,
                              shuffles)]
    return [_stated(card, victim, taken, shuffles)]


def _victim(game: Any, player: int) -> int:
    """The next player in RLCard's direction after the card's effect."""
    return int((player + game.round.direction) % game.num_players)


def _drawn(game: Any, names: list[str], player: int, taken: list[str],
           shuffles: list[list[str]], marks: list[int],
           sizes: list[int], responds: bool) -> list[dict[str, Any]]:
    """RLCard's draw: the card drawn, then played at once (a wild, or the current color)
    or kept (the turn passes)."""
    name = names[player]
    first, rest = taken[:1], taken[1:]
    before = [s for s, m in zip(shuffles, marks, strict=True) if m <= 0]
    after = [s for s, m in zip(shuffles, marks, strict=True) if m > 0]
    draw = _stated({"player": name, "action": "draw"}, name, first, before)
    if len(game.players[player].hand) > sizes[player]:
        return [draw, {"player": name, "action": "pass"}]
    card = game.round.target  # what RLCard played at once: the drawn card
    play: dict[str, Any] = {"player": name, "action": "play", "card": first[0]}
    if card.trait in ("wild", "wild_draw_4"):
        play["color"] = COLORS[card.color]
    return [draw, *_effect(play, names, player, game, rest, after, card.trait, responds)]
