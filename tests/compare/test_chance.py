"""Records that carry chance (version 2): stated draws (DRAW-1), reshuffles (RESHUFFLE-1),
start reshuffles (START-WD4) and the dealer draw (DEAL-1), each checked against the state."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.compare.helpers import record
from unoformal.engine.chance import ChanceError
from unoformal.engine.game import Game
from unoformal.engine.record import replay, to_record
from unoformal.errors import InvalidInputError
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import derive

P0, P1 = "P0", "P1"


def _reshuffling(stated_pile: list[str], draws: list[str]) -> dict[str, Any]:
    """P0 and P1 play on the start card R5; P0 draws the last card; P1's draw empties
    the pile, so RESHUFFLE-1 shuffles R5 and R7 (below the top R8) into a new pile."""
    return record({P0: ["R7"], P1: ["R8"]}, ["R5", "G1"], [
        {"player": P0, "action": "play", "card": "R7"},
        {"player": P1, "action": "play", "card": "R8"},
        {"player": P0, "action": "draw", "draws": {P0: ["G1"]}},
        {"player": P0, "action": "pass"},
        {"player": P1, "action": "draw", "draws": {P1: draws}, "reshuffles": [stated_pile]},
        {"player": P1, "action": "pass"},
    ])


def test_a_stated_reshuffle_of_the_discards_below_the_top_is_taken() -> None:
    result = replay(_reshuffling(["R7", "R5"], ["R7"]))
    assert result.error is None
    assert "R7" in result.game.hand(P1)
    assert result.game.pile == [result.game.deck.face_id("R5")]


def test_a_new_pile_holding_the_top_card_is_refused_naming_reshuffle_1() -> None:
    result = replay(_reshuffling(["R7", "R5", "R8"], ["R7"]))
    assert result.error is not None and isinstance(result.error, ChanceError)
    assert result.error.rule_id == "RESHUFFLE-1"
    assert result.error_index == 4
    assert "top discard R8" in result.error.message
    # The state the error carries is the one before the action.
    assert result.game.phase == "play" and result.game.to_play == P1


def test_a_new_pile_that_is_not_the_discards_is_refused() -> None:
    result = replay(_reshuffling(["R7"], ["R7"]))
    assert result.error is not None and result.error.rule_id == "RESHUFFLE-1"
    assert "missing R5" in result.error.message


def test_a_drawn_card_must_be_the_piles_top_card() -> None:
    data = _reshuffling(["R7", "R5"], ["R7"])
    data["actions"][2]["draws"] = {P0: ["G2"]}
    result = replay(data)
    assert result.error is not None and result.error.rule_id == "DRAW-1"
    assert result.error_index == 2 and "top card is G1" in result.error.message
    # After a stated reshuffle, the card drawn is the new pile's top.
    result = replay(_reshuffling(["R7", "R5"], ["R5"]))
    assert result.error is not None and result.error.rule_id == "DRAW-1"
    assert result.error_index == 4


def test_stated_draws_must_be_all_the_rules_draw() -> None:
    data = _reshuffling(["R7", "R5"], ["R7"])
    data["actions"][2]["draws"] = {P0: ["G1", "R7"]}
    result = replay(data)
    assert result.error is not None and result.error.rule_id == "DRAW-1"
    assert "1 more card" in result.error.message
    data["actions"][2]["draws"] = {P0: []}
    assert replay(data).error is not None


def test_a_reshuffle_stated_where_none_happens_is_refused() -> None:
    data = _reshuffling(["R7", "R5"], ["R7"])
    data["actions"][2]["reshuffles"] = [["R5"]]
    result = replay(data)
    assert result.error is not None and result.error.rule_id == "RESHUFFLE-1"
    assert result.error_index == 2


def test_unstated_chance_keeps_the_seeded_shuffle() -> None:
    data = _reshuffling(["R7", "R5"], ["R7"])
    for action in data["actions"]:
        action.pop("draws", None)
        action.pop("reshuffles", None)
    v1 = copy.deepcopy(data)
    del v1["version"]
    a, b = replay(data), replay(v1)
    assert a.error is None and b.error is None
    assert a.game.to_text() == b.game.to_text()


def test_start_reshuffles_are_checked() -> None:
    # W+4 turned first goes back into the pile (START-WD4); the stated pile is the
    # pile with it back, in any order.
    base = record({P0: [], P1: []}, ["W+4", "R3", "G4"], [])
    pile = ["R3", "W+4", "G4"]
    ok = replay({**base, "start_reshuffles": [pile]})
    assert ok.error is None and ok.game.deck.code(ok.game.top) == "R3"
    # a pile stated wrong, or not stated, deviates at the set-up (START-WD4)
    for piles in ([["R3", "G4"]], []):
        bad = replay({**base, "start_reshuffles": piles})
        assert bad.error is not None and bad.error_index is None
        assert (bad.error.rule_id, bad.error.key) == ("START-WD4", "start_reshuffles")


def test_the_dealer_draw_decides_the_dealer() -> None:
    data = record({P0: [], P1: []}, ["R3"], [])
    del data["dealer"]
    data["dealer_draws"] = [{P0: "R5", P1: "G5"}, {P0: "B2", P1: "Y9"}]
    game = replay(data).game
    assert game.names[game.dealer] == P1 and game.to_play == P0
    with pytest.raises(InvalidInputError, match="DEAL-1"):
        replay({**data, "dealer": P0})
    tied = replay({**data, "dealer_draws": [{P0: "R5", P1: "G5"}]}).error
    assert tied is not None and (tied.rule_id, tied.key) == ("DEAL-1", "dealer_draws")
    assert "tie" in tied.message


def test_version_2_takes_meta_version_1_refuses_it() -> None:
    data = _reshuffling(["R7", "R5"], ["R7"])
    assert replay({**data, "meta": {"engine": "x"}}).error is None
    v1 = {k: v for k, v in data.items() if k != "version"}
    with pytest.raises(InvalidInputError, match="unknown field"):
        replay({**v1, "meta": {}})
    with pytest.raises(InvalidInputError) as err:
        replay(v1)  # draws and reshuffles are version 2
    assert err.value.key is not None and err.value.key.startswith("actions[")
    assert "draws" in err.value.message or "reshuffles" in err.value.message
    assert err.value.index is not None


def test_the_schema_refuses_with_the_place() -> None:
    data = _reshuffling(["R7", "R5"], ["R7"])
    data["actions"][4]["reshuffles"] = "R7"
    with pytest.raises(InvalidInputError) as err:
        replay(data)
    assert err.value.key == "actions[4].reshuffles"
    data["actions"][4]["reshuffles"] = [["X9"]]
    with pytest.raises(InvalidInputError, match="DECK-1") as err:
        replay(data)
    assert err.value.key == "actions[4].reshuffles[0][0]" and err.value.index == 4


def test_a_version_2_record_embeds_its_variant_never_a_path(tmp_path: Any) -> None:
    table = derive(CLASSIC, "mine", "one penalty card", {"UNO-1": {"penalty": 1}})
    game = Game([P0, P1], seed=3, rules=table)
    for _ in range(5):
        game.apply(game.legal_actions(game.to_play, penalties=False)[0])
    data = json.loads(json.dumps(to_record(game)))
    assert data["version"] == 2 and data["rules"]["rules"] == {"UNO-1": {"penalty": 1}}
    again = replay(data)
    assert again.error is None and again.game.rules.uno.penalty == 1
    assert again.game.to_text() == game.to_text()
    path = tmp_path / "v.toml"
    path.write_text('name = "v"\n')
    with pytest.raises(InvalidInputError, match="never a path"):
        replay({**data, "rules": str(path)})
    with pytest.raises(InvalidInputError, match="never a path"):
        replay({**data, "rules": {**data["rules"], "base": str(path)}})
    with pytest.raises(InvalidInputError, match="UNO-1"):
        replay({**data, "rules": {**data["rules"], "rules": {"UNO-1": {"penalty": -1}}}})


def test_shipped_variants_stay_named() -> None:
    assert to_record(Game([P0, P1], seed=1))["rules"] == "classic"
    assert "version" not in to_record(Game([P0, P1], seed=1))


def test_the_record_schema_is_a_valid_json_schema_shipped_in_the_package() -> None:
    from importlib import resources

    from jsonschema import Draft202012Validator

    text = resources.files("unoformal.engine").joinpath("record.schema.json").read_text()
    Draft202012Validator.check_schema(json.loads(text))
