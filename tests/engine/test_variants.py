"""Each shipped variant changes what it names: the same record diverges from classic.

Variants are data (``unoformal.rulebook.variants``); a TOML file loaded by path is one
too, and a bad one is refused with a message naming what is wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from unoformal.commands.cli import main
from unoformal.engine.record import replay
from unoformal.errors import IllegalActionError
from unoformal.rulebook.table import CLASSIC, NextDealer
from unoformal.rulebook.variants import VARIANTS, VariantError, derive, load_rules

from .helpers import make_record, sorted_codes

ABC = ("A", "B", "C")


def _with_rules(record: dict[str, Any], rules: str) -> dict[str, Any]:
    return {**record, "rules": rules}


def test_deck_3_every_shipped_variant_loads_and_records_its_overrides() -> None:
    assert set(VARIANTS) >= {"classic", "seed004", "winner-deals", "stacking"}
    for name in VARIANTS:
        table = load_rules(name)
        assert table.name == name
        assert bool(table.overrides) == (name != "classic")
        for rule_id, key, value in table.overrides:
            assert getattr(table.entry(rule_id), key) == value
            assert getattr(CLASSIC.entry(rule_id), key) != value


def test_deck_3_classic_by_name_is_the_table_that_deriving_it_gives() -> None:
    # load_rules("classic") skips deriving (and the jsonschema import): it must be the
    # same table, schema-checked, that deriving it gives
    description, overrides = VARIANTS["classic"]
    assert load_rules("classic") == derive(CLASSIC, "classic", description, overrides,
                                              shipped=True)
    assert load_rules("classic") is CLASSIC


# ---------------------------------------------------------------------- seed004


def test_uno_1_seed004_a_missed_uno_costs_one_card_not_two() -> None:
    record = make_record(ABC, "C", {"A": ["R1", "G5"], "B": ["B1"], "C": ["G2"]},
                         ("R7", "Y1", "Y2"), ["A play R1", "B catch A"])
    classic = replay(record).game
    variant = replay(_with_rules(record, "seed004")).game
    assert classic.hand("A") == sorted_codes(["G5", "Y1", "Y2"])
    assert variant.hand("A") == sorted_codes(["G5", "Y1"])


def test_misplay_1_seed004_an_incorrect_card_costs_one_card_not_two() -> None:
    record = make_record(ABC, "C", {"A": ["B5", "G5"], "B": ["B1"], "C": ["G2"]},
                         ("R7", "Y1", "Y2"), ["A misplay B5"])
    classic = replay(record).game
    variant = replay(_with_rules(record, "seed004")).game
    assert classic.hand("A") == sorted_codes(["B5", "G5", "Y1", "Y2"])
    assert variant.hand("A") == sorted_codes(["B5", "G5", "Y1"])
    assert classic.to_play == variant.to_play == "B"


# ----------------------------------------------------------------- winner-deals


def test_end_2_winner_deals_the_round_winner_deals_next_not_the_left_neighbour() -> None:
    # Round 1: B goes out. Round 2 is dealt from the seed; its start card (the same under
    # both tables) has no start rule, so the dealer's left neighbour plays first (DEAL-3).
    record = make_record(ABC, "C", {"A": ["R1", "G5"], "B": ["R2"], "C": ["G3", "G4"]},
                         ("R7",), ["A play R1 uno", "B play R2", "B draw"], seed=0)
    classic = replay(record)
    variant = replay(_with_rules(record, "winner-deals"))
    top = classic.game.deck.faces[classic.game.top or 0]
    assert CLASSIC.start_rule(top.kind) is None
    assert classic.error is None and classic.game.round == 2
    assert classic.game.names[classic.game.dealer] == "A"  # left of C (END-2)
    assert variant.error is not None and variant.error_index == 2
    assert variant.error.rule_id == "PLAY-1"
    assert variant.game.names[variant.game.dealer] == "B" and variant.game.to_play == "C"
    assert load_rules("winner-deals").next_round.next_dealer is NextDealer.WINNER


# --------------------------------------------------------------------- stacking


def test_nostack_1_stacking_a_draw_two_answers_a_draw_two_and_penalties_add_up() -> None:
    record = make_record(ABC, "C", {"A": ["R+2", "G5"], "B": ["B+2", "B1"], "C": ["G2"]},
                         ("R7", "Y1", "Y2", "Y3", "Y4"),
                         ["A play R+2", "B play B+2", "C accept"])
    classic = replay(record)
    assert classic.error_index == 1 and classic.error is not None
    assert classic.error.rule_id == "PLAY-1"  # B already drew and lost the turn
    assert classic.game.hand("B") == sorted_codes(["B+2", "B1", "Y1", "Y2"])
    stacked = replay(_with_rules(record, "stacking"))
    assert stacked.error is None
    assert stacked.game.hand("C") == sorted_codes(["G2", "Y1", "Y2", "Y3", "Y4"])
    assert stacked.game.hand("B") == ["B1"] and stacked.game.to_play == "A"


def test_nostack_1_stacking_still_refuses_a_wild_draw_four_answer() -> None:
    record = make_record(ABC, "C", {"A": ["R+2", "G5"], "B": ["W+4", "B1"], "C": ["G2"]},
                         ("R7",), ["A play R+2", "B play W+4 red"])
    stacked = replay(_with_rules(record, "stacking"))
    assert stacked.error is not None and stacked.error.rule_id == "NOSTACK-1"


# ------------------------------------------------------------ a variant by hand


def test_chal_4_a_variant_where_the_color_goes_back_after_a_caught_bluff() -> None:
    seed001 = derive(CLASSIC, "seed001-color", "test", {"CHAL-4": {"named_color_stays": False}})
    record = make_record(ABC, "C", {"A": ["R2", "G5", "W+4"], "B": ["G8"], "C": ["G9"]},
                         ("R7",), ["A play W+4 blue", "B challenge"])
    assert replay(record).game.view("B").color == "blue"
    assert replay(record, rules=seed001).game.view("B").color == "red"


# ------------------------------------------------------------------- TOML files


def _toml(tmp_path: Path, body: str, name: str = "variant.toml") -> Path:
    path = tmp_path / name
    path.write_text(body)
    return path


def test_uno_1_a_toml_variant_loaded_by_path_changes_the_penalty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _toml(tmp_path, 'name = "harsh"\nbase = "seed004"\ndescription = "x"\n'
                           '[rules."UNO-1"]\npenalty = 3\n')
    table = load_rules(str(path))
    assert table.name == "harsh" and table.uno.penalty == 3
    assert table.misplay.cards == 1  # inherited from its base, seed004
    record = make_record(ABC, "C", {"A": ["R1", "G5"], "B": ["B1"], "C": ["G2"]},
                         ("R7", "Y1", "Y2", "Y3"), ["A play R1", "B catch A"])
    game = replay(_with_rules(record, str(path))).game
    assert game.hand("A") == sorted_codes(["G5", "Y1", "Y2", "Y3"])
    assert main(["rules", "--rules", str(path), "--markdown"]) == 0
    assert "UNO-1.penalty = 3" in capsys.readouterr().out


@pytest.mark.parametrize(("body", "words"), [
    ('name = "x"\n[rules\n', "not valid TOML"),
    ('[rules."NOPE-1"]\npenalty = 1\n', 'no rule "NOPE-1"'),
    ('[rules."UNO-1"]\nfine = 1\n', "rules.UNO-1.fine: unknown key"),
    ('[rules."UNO-1"]\npenalty = "two"\n', "UNO-1.penalty"),
    ('[rules."UNO-1"]\nsay_with_card = 1\n', "expected true or false"),
    ('[rules."END-2"]\nnext_dealer = "random"\n', "END-2.next_dealer"),
    ('[rules."UNO-1"]\nid = "X"\n', "rules.UNO-1.id: unknown key"),
    ('base = "nonesuch"\n', 'base = "nonesuch": expected one of classic'),
    ('rules = 5\n', "rules = 5: expected a table"),
])
def test_deck_1_a_bad_toml_variant_is_refused_with_a_clear_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, words: str) -> None:
    path = _toml(tmp_path, body)
    with pytest.raises(VariantError) as info:
        load_rules(str(path))
    assert words in str(info.value)
    assert main(["rules", "--rules", str(path)]) == 2
    assert words in capsys.readouterr().err


def test_deck_1_an_unknown_variant_name_or_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match="unknown rules"):
        load_rules("nonesuch")
    with pytest.raises(VariantError, match=r"missing\.toml: no such file"):
        load_rules(str(tmp_path / "missing.toml"))


def test_deck_1_rules_that_are_not_a_name_or_a_path_are_refused_in_words() -> None:
    # The Python API takes a variant name or a .toml path; anything else is named back.
    for wrong, shown in ((5, "5"), (["classic"], '["classic"]')):
        with pytest.raises(VariantError) as info:
            load_rules(wrong)
        assert str(info.value) == (f"rules = {shown}: expected a variant name or the path "
                                   "of a .toml variant file")


def _last_draw_two(rules: Any, actions: list[str]) -> Any:
    """C goes out with a Draw Two under stacking; A holds only another Draw Two."""
    record = make_record(["A", "B", "C"], "B", {"A": ["B+2"], "B": ["G2", "G3"], "C": ["R+2"]},
                         ["R7", "Y1", "Y2", "Y3", "Y4"], rules="classic", rest_to="B",
                         actions=actions)
    return replay({**record, "version": 2, "rules": rules})


def test_ext_last_a_last_draw_two_is_not_answered_under_stacking() -> None:
    # C went out: A may not pass the penalty on, so nobody else can go out with it
    result = _last_draw_two("stacking", ["C play R+2", "A play B+2"])
    err = result.error
    assert isinstance(err, IllegalActionError) and result.error_index == 1
    assert (err.rule_id, err.message) == (
        "EXT-LAST", "A play B+2: C went out with the card that waits, so it is not "
        "answered: A draws its cards (END-1)")
    assert [str(a) for a in result.game.legal_actions("A")] == ["A advise", "A accept"]


def test_ext_last_the_next_player_draws_and_the_first_out_wins() -> None:
    result = _last_draw_two("stacking", ["C play R+2", "A accept"])
    assert result.error is None, result.error
    game = result.game
    assert game.round_over and game.names[game.winner or 0] == "C"
    assert game.hand("A") == ["Y1", "Y2", "B+2"]  # D2-1's two cards drawn first (END-1)


def test_ext_last_two_players_the_stack_never_comes_back_to_who_went_out() -> None:
    # Switched off, passing it back made A draw four and the round go on with B out
    # of cards and nobody the winner; now B draws and A wins.
    record = make_record(["A", "B"], "B", {"A": ["R+2"], "B": ["B+2", "G3"]},
                         ["R7", "Y1", "Y2", "Y3", "Y4"], rules="stacking", rest_to="B",
                         actions=["A play R+2", "B accept"])
    result = replay(record)
    assert result.error is None, result.error
    assert result.game.round_over and result.game.winner == 0


def test_ext_last_off_a_last_draw_two_that_may_be_answered_ends_the_round_at_once() -> None:
    off = {"name": "stacking-last-off", "base": "stacking",
           "rules": {"EXT-LAST": {"enabled": False}}}
    result = _last_draw_two(off, ["C play R+2"])
    assert result.error is None, result.error
    game = result.game
    assert game.round_over and game.names[game.winner or 0] == "C"
    assert game.hand("A") == ["B+2"]  # nobody drew for it
