"""House-rule moves, fuzzed through the API and through the referee protocol at once: 7s
aimed at anyone (the mover, a stranger, ``uno``, ``red``), plays out of turn that may be
jump-ins, players with odd but allowed names, UNO said or not. Seeded and bounded.

- Every refusal of a move is an ``UnoError`` citing one of the table's rules (the
  referee's error answer likewise, for a text that reads as an action), and leaves the
  state's text as it was.
- Every action listed (``legal_actions``, the referee's ``legal``) reads back from its
  text as itself and is accepted; the referee lists what the API lists.
- The API and the referee agree, move by move, on what they accept and on the state after.
- A game whose players include a word of the action text does not start, in either.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from unoformal.compare.live import Referee
from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.engine.record import embedded_rules
from unoformal.errors import InvalidInputError, UnoError
from unoformal.rulebook.cards import Color
from unoformal.rulebook.table import RuleTable

# The tables with house rules: shipped, and a user's with both on (embedded, as a
# version-2 record and the referee's "new" take it)
TABLES: dict[str, Any] = {
    "seven-o": "seven-o",
    "jump-in": "jump-in",
    "both": {"name": "both", "base": "seven-o", "description": "Seven-O and Jump-In",
             "rules": {"JUMP-IN": {"enabled": True}}},
}
ODD = ["Uno", "UNO", "Red", "r5", "R10", "W4", "Play", "7", "0", "a.b", "Z-9", "uno_",
       "catch-", "B", "G", "x" * 24]
WORDS = ["uno", "red", "blue", "R7", "G0", "W", "play", "catch", "advise"]  # never names
STRANGERS = ["Zed", *WORDS]
CODES = [f"{c}{r}" for c in "RYGB" for r in "0123456789SR"] + ["R+2", "B+2", "W", "W+4"]
COLORS = [c.value for c in Color]
KINDS = list(ActionType)
BRIEF = settings(max_examples=150, deadline=None, database=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])


def _ids(rules: RuleTable) -> set[str]:
    return {rule.id for _, rule in rules.entries()}


def _hostile(rng: random.Random, game: Game) -> Action:
    """A move aimed where the house rules aim: a 7 (or 0, or any card) at anyone, a play
    by someone not to move, a card of the top's face (a jump-in's), any other verb."""
    names = list(game.names)
    player = rng.choice(names) if rng.random() < 0.85 else rng.choice(STRANGERS)
    kind = ActionType.PLAY if rng.random() < 0.7 else rng.choice(KINDS)
    own = game.hand(player) if player in names else []
    top = game.deck.code(game.top) if game.top is not None else "R7"
    card: str | None = rng.choice([*own, top, rng.choice(CODES)])
    if kind not in (ActionType.PLAY, ActionType.MISPLAY) and rng.random() < 0.8:
        card = None
    color = rng.choice(COLORS) if card in ("W", "W+4") or rng.random() < 0.1 else None
    if kind is ActionType.CHOOSE_COLOR:
        color = rng.choice(COLORS)
    target = rng.choice([None, player, rng.choice(names), rng.choice(names),
                         rng.choice(STRANGERS)])
    return Action(player, kind, card, color, target, rng.random() < 0.3)


class Both:
    """One game, played through the API (``api``) and the referee (``referee``)."""

    def __init__(self, table: Any, names: list[str], seed: int) -> None:
        self.rules = embedded_rules(table)
        self.ids = _ids(self.rules)
        self.api = Game(names, seed=seed, rules=self.rules)
        self.referee = Referee()
        answer = self.referee.handle({"cmd": "new", "players": names, "rules": table,
                                      "seed": seed})
        assert answer["ok"], answer
        self.same()

    def same(self) -> str:
        text = self.api.to_text()
        state = self.referee.handle({"cmd": "state"})
        assert state["state"] == text, (state["state"], text)
        return text

    def check_listed(self) -> list[Action]:
        """The legal actions: the referee lists the API's; each reads back from its text
        and is accepted."""
        listed = self.api.legal_actions()
        answer = self.referee.handle({"cmd": "legal"})
        assert answer["actions"] == [str(a) for a in listed]
        for action in listed:
            assert Action.parse(str(action)) == action, action
            self.api.copy().apply(action)
        return listed

    def move(self, action: Action) -> bool:
        """``action`` made both ways: accepted by both or refused by both, citing a rule and
        changing nothing; whether it was accepted."""
        before = self.same()
        text = str(action)
        try:
            self.api.apply(action)
        except UnoError as err:
            assert err.rule_id in self.ids, (text, err.line())
            assert self.api.to_text() == before, text
            accepted = False
        else:
            accepted = True
        answer = self.referee.handle({"cmd": "apply", "action": text})
        try:
            read = Action.parse(text)
        except InvalidInputError:  # a text that is not one action (a wild's color, then
            assert not accepted and not answer["ok"], text  # a target): refused both ways
            assert answer["state"] == before
            return False
        if read != action:
            # the text reads as another action ("Ann play G7 uno": a target "uno" read as
            # the call), so the action was not a well-formed one: the API refused it, and
            # the referee judged the other, which the API then judges alike
            assert not accepted, (text, read)
            event("read as another action")
            accepted = self._accepts(read)
        return self._judged(text, answer, before, accepted)

    def _judged(self, text: str, answer: dict[str, Any], before: str,
                accepted: bool) -> bool:
        """The referee's answer agrees with the API's verdict ``accepted``."""
        assert answer["ok"] == accepted, (text, answer)
        if not accepted:
            assert answer["error"]["rule"] in self.ids, answer
            assert answer["state"] == before
        self.same()
        return accepted

    def _accepts(self, action: Action) -> bool:
        try:
            self.api.apply(action)
        except UnoError:
            return False
        return True


@BRIEF
@given(st.sampled_from(sorted(TABLES)), st.lists(st.sampled_from(["Ann", "Bob", *ODD]),
                                                 min_size=2, max_size=5, unique=True),
       st.integers(0, 2**32), st.integers(0, 2**32))
def test_house_rule_moves_are_refused_citing_a_rule_or_accepted_alike(
        table: str, names: list[str], seed: int, moves: int) -> None:
    both = Both(TABLES[table], names, seed)
    rng = random.Random(moves)
    for _ in range(40):  # bounded: a round's first moves
        if both.api.round_over:
            break
        listed = both.check_listed()
        for _ in range(4):
            event("accepted" if both.move(_hostile(rng, both.api)) else "refused")
        if not both.api.round_over:
            assert both.move(rng.choice(both.api.legal_actions() or listed))


@BRIEF
@given(st.sampled_from(sorted(TABLES)), st.sampled_from(WORDS), st.integers(0, 3))
def test_a_game_with_a_player_named_by_a_word_of_the_text_does_not_start(
        table: str, word: str, seat: int) -> None:
    names = ["Ann", "Bob", "Cy"]
    names.insert(seat % 4, word)
    rules = embedded_rules(TABLES[table])
    try:
        Game(names, seed=1, rules=rules)
    except InvalidInputError as err:
        assert (err.key, err.rule_id) == ("players", "DECK-2"), err.line()
    else:
        raise AssertionError(f"a game started with a player named {word!r}")
    answer = Referee().handle({"cmd": "new", "players": names, "rules": TABLES[table]})
    assert not answer["ok"] and answer["error"]["key"] == "players", answer
    assert answer["error"]["rule"] == "DECK-2"
