"""RLCard as the first engine under test: its games written down as version-2 records of
exactly what it did, and refereed (first deviations by cause)."""

from __future__ import annotations

from collections import Counter

import pytest

from unoformal.compare.records import Tally
from unoformal.engine.record import replay
from unoformal.rulebook.variants import load_rules

pytest.importorskip("rlcard")

from unoformal.adapters.rlcard import code, played

CLASSIC = load_rules(None)


def _final_hands_match(players: int, seed: int) -> bool | None:
    """For a clean record, whether replaying it ends with RLCard's hands (None: deviates)."""
    record, game = played(players, seed, CLASSIC)
    result = replay(record)
    if result.error is not None:
        return None
    ours = {name: Counter(result.game.hand(name)) for name in record["players"]}
    theirs = {f"P{i}": Counter(code(c) for c in p.hand) for i, p in enumerate(game.players)}
    return ours == theirs


def test_clean_records_end_where_rlcard_ended() -> None:
    # The stated draws and reshuffles make the replay hold exactly RLCard's cards.
    checked = [_final_hands_match(n, s) for n in (2, 4) for s in range(40)]
    assert sum(1 for c in checked if c is not None) >= 10
    assert all(c for c in checked if c is not None)


def test_player_count_is_set_directly() -> None:
    record, game = played(4, 3, CLASSIC)
    assert game.num_players == 4 and len(record["players"]) == 4
    assert record["meta"]["engine"] == "rlcard" and record["version"] == 2


def test_rlcard_deviations_are_attributed_to_their_causes() -> None:
    tally = Tally()
    for players in (2, 4):
        for seed in range(60):
            tally.add(played(players, seed, CLASSIC)[0], f"{players}:{seed}")
    assert tally.malformed == 0 and tally.clean > 0
    # RLCard's 2-player Reverse passes the turn; its start Draw Two does not skip; a drawn
    # Wild Draw Four is played with no effect. None of these surfaces as PLAY-1.
    assert {"TWO-1", "START-D2", "WD4-2"} <= set(tally.deviations)
    assert "PLAY-1" not in tally.deviations
    example = tally.examples["TWO-1"]
    assert "Reverse acted as a Skip (TWO-1)" in example.error.message
    assert replay(example.record).error_index == example.length - 1


def test_a_planted_wrong_draw_is_caught() -> None:
    # A record whose stated draw is changed no longer matches the pile: DRAW-1.
    for seed in range(40):
        record, _ = played(4, seed, CLASSIC)
        draws = [i for i, a in enumerate(record["actions"]) if a["action"] == "draw"]
        if replay(record).error is None and draws:
            action = record["actions"][draws[0]]
            (_who, cards), = action["draws"].items()
            cards[0] = "R0" if cards[0] != "R0" else "G0"
            result = replay(record)
            assert result.error is not None and result.error.rule_id == "DRAW-1"
            assert result.error_index == draws[0]
            return
    pytest.fail("no clean record with a draw among 40 seeds")


def test_under_the_rlcard_variant_only_its_bugs_remain() -> None:
    # The rlcard variant states RLCard's rule choices as table data (DRAW-1, TWO-1,
    # START-D2, START-WILD, WD4-1, WD4-2, UNO-1); what is left are its bugs: a drawn Wild
    # Draw Four played with no effect (WD4-2), and a drawn card that matches only by
    # number or symbol kept although it is playable (DRAW-1).
    rules = load_rules("rlcard")
    tally = Tally()
    for players in (2, 4):
        for seed in range(40):
            tally.add(played(players, seed, rules)[0], f"{players}:{seed}", rules)
    assert tally.malformed == 0 and tally.clean > 0
    assert set(tally.deviations) == {"WD4-2", "DRAW-1"}
    kept = tally.examples["DRAW-1"].record["actions"][-1]
    assert kept["action"] == "pass"


def test_rlcard_records_state_the_start_color_under_its_rules() -> None:
    # RLCard draws a start Wild's color at random: under the rlcard variant a chance
    # outcome (start_color), under classic the first player's choose_color.
    rules = load_rules("rlcard")
    for seed in range(200):
        record, game = played(2, seed, rules)
        if game.round.played_cards[0].trait == "wild":
            assert "start_color" in record
            assert record["actions"][0]["action"] != "choose_color"
            assert replay(record, rules).game.color is not None
            classic, _ = played(2, seed, CLASSIC)
            assert "start_color" not in classic
            assert classic["actions"][0]["action"] == "choose_color"
            return
    pytest.fail("no start Wild among 200 seeds")
