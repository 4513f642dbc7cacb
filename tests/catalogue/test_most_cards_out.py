"""most-cards-out (END-2's ``leaves = most-cards``, letsuno's elimination), checked against
worked examples from its own words and its property over whole games, in the rulebook's
numbers: "when a round ends and nobody has reached the target, the player holding the
most cards, the winner apart, leaves the game (the first of them in seat order on a tie);
the players left play on, seat order and the deal skipping the seats out, and the last
one left wins the game."

The rule acts between rounds, where the relation (one round) does not reach: a round of
the seats left is, seat for seat, a round of that many players. So these tests, not
``validate``, are what a wrong leaving, seat order or deal would fail (each shown below
by a plant)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.test_roundtrip import _play
from unoformal.commands.cli import main
from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.engine.game_writer import game_record
from unoformal.engine.games import replay_game
from unoformal.engine.record import replay, to_record
from unoformal.errors import IllegalActionError, InvalidInputError
from unoformal.playing.bots import GreedyBot, RandomBot
from unoformal.playing.simulate import play_game
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import derive, load_rules

RULE = "most-cards-out"


def _position(rules: RuleTable, hands: list[str], *, turn: str = "A", dealer: str | None = None,
              out: str = "-", scores: list[int] | None = None, discard: str = "R3",
              uno: str = "-") -> Game:
    """A round under way: the given hands (seat by seat, A first), the rest of the deck
    the pile, ``out`` the seats that have left (named, in the order they left)."""
    names = "ABCDEF"[:len(hands)]
    deck = Deck.of(rules)
    rest = Counter(deck.code(f) for f in deck.cards())
    rest.subtract(c for part in (*hands, discard) for c in part.split(",") if c)
    scores = scores or [0] * len(names)
    key = f" out={out}" if rules.seats_leave() else ""
    return Game.from_text(
        f"rules={rules.name} players={','.join(names)} dealer={dealer or names[-1]} round=1 "
        f"turn={turn} dir=left color=red phase=play hands={'/'.join(hands)} "
        f"pile={','.join(sorted(rest.elements()))} discard={discard} "
        f"scores={','.join(map(str, scores))}{key} uno={uno} drawn=- pending=0 kind=- "
        "offender=- legal=1 prev=- reveal=- winner=- points=0 seed=0 shuffles=0", rules)


def _apply(game: Game, text: str) -> Game:
    game.apply(Action.parse(text))
    return game


# --------------------------------------------------------------- who leaves


def test_the_player_holding_the_most_cards_leaves_when_the_round_ends() -> None:
    g = _apply(_position(load_rules(RULE), ["R5", "B1", "B2,B3,B4", "G1,G2"]), "A play R5")
    assert g.round_over and g.out == (2,) and g.leaving == 2
    assert not g.game_over and g.scores == [1 + 2 + 3 + 4 + 1 + 2, 0, 0, 0]
    assert " out=C " in g.to_text()


@pytest.mark.parametrize(("reading", "leaver"), [(RULE, 0), (f"{RULE}@winner-left", 3)])
def test_a_tie_for_the_most_cards_is_broken_as_leave_ties_reads(reading: str,
                                                               leaver: int) -> None:
    """C goes out; A and D hold three cards each. In seat order A comes first; from the
    winner's left D does (D, then A)."""
    g = _apply(_position(load_rules(reading), ["B1,B2,B3", "G1", "R5", "Y1,Y2,Y3"],
                         turn="C"), "C play R5")
    assert g.out == (leaver,)


def test_nobody_leaves_once_the_target_ends_the_game() -> None:
    """letsuno scores the round first: a winner who reaches the target ends the game, and
    nobody leaves (SCORE-2 before END-2)."""
    g = _apply(_position(load_rules(RULE), ["R5", "B1", "B2,B3,B4"], scores=[490, 0, 0]),
               "A play R5")
    assert g.game_over and g.game_winner == "A" and g.out == () and g.leaving is None


def test_the_last_player_left_wins_the_game() -> None:
    g = _apply(_position(load_rules(RULE), ["R5", "", "B1,B2"], out="B"), "A play R5")
    assert g.out == (1, 2) and g.game_over and g.game_winner == "A"
    with pytest.raises(IllegalActionError) as info:
        g.next_round()
    assert info.value.rule_id == "SCORE-2"  # next_deal's guard: "the game is over"
    with pytest.raises(IllegalActionError) as refused:
        g.apply(Action.parse("A draw"))
    assert refused.value.rule_id == "END-2"
    assert "A is the last player left in it" in refused.value.message


# --------------------------------------------------------------- the seats left


def test_the_turn_passes_over_a_seat_out() -> None:
    rules = load_rules(RULE)
    assert _apply(_position(rules, ["R7,G1", "", "B1", "G2"], out="B"), "A play R7").to_play == "C"
    # a Skip skips the next player in, not the seat out
    assert _apply(_position(rules, ["RS,G1", "", "B1", "G2"], out="B"), "A play RS").to_play == "D"


def test_two_players_left_make_a_reverse_a_skip() -> None:
    """TWO-1 counts the players in the game: with two left a Reverse acts as a Skip."""
    rules = load_rules(RULE)
    assert _apply(_position(rules, ["RR,G1", "", "B1"], out="B"), "A play RR").to_play == "A"
    # three in the game: the direction turns and the player to the right moves
    assert _apply(_position(rules, ["RR,G1", "B2", "B1"]), "A play RR").to_play == "C"


def test_a_seat_out_has_no_move_and_is_refused_leaving_the_state_as_it_was() -> None:
    g = _position(load_rules(RULE), ["R7,G1", "", "B1", "G2"], out="B", uno="C")
    assert g.legal_actions("B") == []
    assert all(a.player != "B" for a in g.legal_actions())
    before = g.to_text()
    for text in ("B draw", "B catch C", "B advise"):
        with pytest.raises(IllegalActionError) as info:
            g.apply(Action.parse(text))
        assert info.value.rule_id == "END-2" and "B has left the game" in info.value.message
        assert g.to_text() == before
    _apply(g, "A catch C")  # a player in may still catch


def test_seven_o_swaps_and_passes_among_the_players_in() -> None:
    rules = load_rules(f"{RULE}+seven-o")
    g = _position(rules, ["R7,G1", "", "B1,B2", "G2"], out="B")
    assert {a.target for a in g.legal_actions("A") if a.card == "R7"} == {"C", "D"}
    with pytest.raises(IllegalActionError) as info:
        g.apply(Action.parse("A play R7 B"))
    assert info.value.rule_id == "END-2" and "cannot be named" in info.value.message
    g = _apply(_position(rules, ["R0,G1", "", "B1,B2", "G2"], out="B"), "A play R0")
    assert [g.hand(p) for p in "ABCD"] == [["G2"], [], ["G1"], ["B1", "B2"]]


def test_the_next_deal_skips_the_seats_out_and_passes_the_deal_over_them() -> None:
    g = _apply(_position(load_rules(RULE), ["R5", "B1", "B2,B3,B4", "G1,G2"], dealer="B"),
               "A play R5")
    assert g.out == (2,)
    g.next_round()
    assert g.names[g.dealer] == "D"  # the dealer's left is C, who has left
    assert [len(h) for h in g.hands] == [7, 7, 0, 7] and g.to_play == "A"
    deck = Deck.of(g.rules)
    assert len(g.pile) + len(g.discard) + 21 == deck.size


# --------------------------------------------------------------- the state text


def test_the_text_has_out_exactly_under_a_table_where_seats_leave() -> None:
    g = _position(load_rules(RULE), ["R7", "", "B1"], out="B")
    assert Game.from_text(g.to_text(), g.rules).to_text() == g.to_text()
    classic = Game(["A", "B"], seed=1)
    assert " out=" not in classic.to_text()
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(classic.to_text().replace(" uno=", " out=- uno="))
    assert info.value.key == "out" and info.value.rule_id == "END-2"
    with pytest.raises(InvalidInputError) as missing:
        Game.from_text(g.to_text().replace(" out=B", ""), g.rules)
    assert "missing out" in missing.value.message
    with pytest.raises(InvalidInputError) as everyone:
        Game.from_text(g.to_text().replace(" out=B", " out=A,B,C"), g.rules)
    assert everyone.value.key == "out"


# --------------------------------------------------------------- whole games


def _whole_game(players: int, seed: int, rules: RuleTable | None = None) -> Game:
    rules = rules or load_rules(RULE)
    game = Game([f"P{i}" for i in range(players)], seed=seed, rules=rules)
    bots = [GreedyBot(random.Random(seed + i)) if i % 2 else RandomBot(random.Random(seed + i))
            for i in range(players)]
    play_game(game, bots, max_actions=20_000)
    return game


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_property_in_whole_games_the_seats_out_never_move_and_the_deck_stays_whole(
        players: int) -> None:
    """Over seeded whole games: a seat out is never offered a move and is dealt no card;
    the cards are the deck's at every step; each round that does not reach the target
    ends with exactly one player leaving; the game ends with one player left or the
    target reached, its winner the one left."""
    for seed in range(3):
        # every other game to the end by elimination alone (SCORE-2's largest target)
        rules = load_rules(RULE) if seed % 2 else derive(
            load_rules(RULE), "most-cards-out-long", "elimination alone",
            {"SCORE-2": {"score": 100_000}})
        game = Game([f"P{i}" for i in range(players)], seed=seed, rules=rules)
        rng = random.Random(seed)
        size = Deck.of(rules).size
        left_before = 0
        for _ in range(20_000):  # a game that never ends fails, it does not hang
            held = sum(len(h) for h in game.hands) + len(game.pile) + len(game.discard)
            assert held == size
            if game.round_over:
                reached = max(game.scores) >= rules.target.score
                assert len(game.out) == left_before + (0 if reached else 1)
                left_before = len(game.out)
                if game.game_over:
                    break
                game.next_round()
                assert all(not game.hands[p] for p in game.out)
                # seven each (a start Draw Two or Wild Draw Four adds to the first's)
                assert all(len(game.hands[p]) >= 7 for p in game.seated_from(0))
                continue
            listed = game.legal_actions(penalties=True)
            assert not {a.player for a in listed} & {game.names[p] for p in game.out}
            mover = [a for a in listed if a.player == game.to_play] or listed
            plays = [a for a in mover if a.type is ActionType.PLAY]
            game.apply(rng.choice(plays or mover) if rng.random() < 0.9 else rng.choice(listed))
        else:
            raise AssertionError(f"not over after 20,000 steps: {game.to_text()[:300]}")
        if max(game.scores) < rules.target.score:
            assert len(game.out) == players - 1
            assert game.game_winner == game.names[game.seated_from(0)[0]]


@pytest.mark.parametrize("players", [3, 6])
def test_a_whole_game_round_trips_through_both_record_formats(players: int) -> None:
    game = _whole_game(players, seed=players)
    assert game.game_over
    again = replay(to_record(game))  # version 2: the next rounds dealt from the seed
    assert again.error is None and again.game.to_text() == game.to_text()
    whole = game_record(to_record(game))  # version 3: every deal and end stated
    rounds = whole["rounds"]
    leavers = [r["end"].get("leaves") for r in rounds]
    assert [game.names[p] for p in game.out] == [n for n in leavers if n]
    for r, data in enumerate(rounds[1:], 1):
        gone = [n for n in leavers[:r] if n]
        assert not set(data["deal"]["hands"]) & set(gone)  # a player out is dealt no hand
    result = replay_game(json.loads(json.dumps(whole)))
    # a game record states every deal, so the seed's count of shuffles is not the game's
    assert result.error is None
    assert re.sub(r" shuffles=\d+", "", result.game.to_text()) == \
        re.sub(r" shuffles=\d+", "", game.to_text())


def test_the_referee_finds_a_wrong_leaver_a_deal_to_a_seat_out_and_a_wrong_winner() -> None:
    game = _whole_game(4, seed=11)
    whole = game_record(to_record(game))
    leaver = whole["rounds"][0]["end"]["leaves"]
    other = next(n for n in game.names if n not in (leaver, whole["rounds"][0]["end"]["winner"]))

    def deviation(change: Any) -> IllegalActionError:
        record = json.loads(json.dumps(whole))
        change(record)
        error = replay_game(record).error
        assert isinstance(error, IllegalActionError)
        return error

    wrong = deviation(lambda r: r["rounds"][0]["end"].update(leaves=other))
    assert wrong.key == "rounds[0].end.leaves" and wrong.rule_id == "END-2"
    assert f"{leaver} does, holding the most cards" in wrong.message
    silent = deviation(lambda r: r["rounds"][0]["end"].pop("leaves"))
    assert silent.key == "rounds[0].end.leaves" and "nobody leave" in silent.message

    def deal_to_the_leaver(r: dict[str, Any]) -> None:
        hands = r["rounds"][1]["deal"]["hands"]
        taker = next(iter(hands))
        hands[leaver] = hands.pop(taker)

    dealt = deviation(deal_to_the_leaver)
    assert dealt.key == "rounds[1].deal" and dealt.rule_id == "END-2"
    winner = whole["end"]["winner"]
    loser = next(n for n in game.names if n != winner)
    crowned = deviation(lambda r: r["end"].update(winner=loser))
    assert crowned.key == "end.winner" and "last player left" in crowned.message


def test_play_saves_a_game_under_the_rule_that_replay_reads_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.json"
    game = _play(monkeypatch, out, RULE, seed=2, players=4)
    said = capsys.readouterr().out
    for p in game.out:  # each player who left is told of, the game's end by its rule
        assert f"{game.names[p]} holds the most cards and leaves the game (END-2)." in said
    assert game.game_over and game.out
    assert (f"Game over: {game.game_winner} wins, the last player left (END-2)." in said) \
        == (max(game.scores) < game.rules.target.score)
    assert main(["replay", str(out), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["text"] == game.to_text()
    assert state["out"] == [game.names[p] for p in game.out]


def test_conform_takes_a_wrong_leaver_as_stated_and_judges_the_next_deal_by_it() -> None:
    """Every deviation (conform): a record that has another player leave is a deviation at
    that round's end, and the game goes on with the record's seats: so the next deal,
    which still gives that player a hand, is judged a deal to a player who has left."""
    from unoformal.compare.deviations import every_deviation

    game = _whole_game(4, seed=11)
    whole = game_record(to_record(game))
    end = whole["rounds"][0]["end"]
    other = next(n for n in game.names if n not in (end["leaves"], end["winner"]))
    end["leaves"] = other
    walk = every_deviation(json.loads(json.dumps(whole)))
    found = [(d.error.key, d.error.rule_id) for d in walk.deviations]
    assert found[0] == ("rounds[0].end.leaves", "END-2")
    # the next round's set-up is then judged with the record's seats: its dealer passes
    # over the player the record has leave, and its deal gives that player a hand
    assert found[1][0].startswith("rounds[1].deal") and found[1][1] == "END-2"
    assert any("who leaves the game taken as the record states it" in words
               for _, words in walk.resynchronised)
