"""The rule table's schema: every field's type and range, and the cross-field checks.

Every table :func:`~unoformal.rulebook.variants.derive` builds is validated against the
JSON Schema generated from the annotations in ``unoformal/rulebook/table.py`` and
against the table's named checks (``CHECKS``); a refusal is one ``VariantError``
line naming the key path, the value, what is allowed and the rule ID it breaks.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unoformal.engine.game import Game
from unoformal.errors import InvalidInputError, VariantError
from unoformal.rulebook import schema, table
from unoformal.rulebook.cards import Color, Kind
from unoformal.rulebook.schema import (
    HEAD,
    check_table,
    file_schema,
    rules_schema,
    settable,
    table_document,
    validate,
)
from unoformal.rulebook.table import CLASSIC, RuleTable, breaches, deck_size
from unoformal.rulebook.variants import VARIANTS, derive, load_rules

ENTRIES = rules_schema()["properties"]


def refusal(overrides: dict[str, Any], **extra: Any) -> VariantError:
    with pytest.raises(VariantError) as info:
        derive(CLASSIC, extra.pop("name", "v"), extra.pop("description", ""), overrides,
               **extra)
    return info.value


def assert_refused(overrides: dict[str, Any], rule_id: str | None, *words: str) -> None:
    """The refusal is one line, names the rule ID it breaks and says each of ``words``."""
    try:
        derive(CLASSIC, "v", "", overrides)
    except VariantError as err:
        text = str(err)
        assert "\n" not in text, text
        assert err.rule_id == rule_id, text
        for word in words:
            assert word in text, text
        return
    raise AssertionError(f"accepted {overrides}")


# ------------------------------------------------------------ the schema itself


def test_every_shipped_variant_is_within_the_schema() -> None:
    for name in VARIANTS:
        rules = load_rules(name)
        validate(table_document(rules), name)  # every value, not only the overrides
        assert list(breaches(rules)) == [], name


def test_every_field_of_every_entry_states_a_type_and_a_range() -> None:
    for _, entry in CLASSIC.entries():
        fields = {f.name for f in dataclasses.fields(entry)}
        types = schema.hints(type(entry))
        fixed = {n for n in fields
                 if any(isinstance(m, table.Fixed) for m in getattr(types[n], "__metadata__", ()))}
        # Every field is either the common head, a fixed label, or settable with a schema.
        assert fields - HEAD - fixed - {"enabled"} <= set(settable(entry)), entry.id
        for key in settable(entry):
            _assert_bounded(schema.value_schema(types[key]), f"{entry.id}.{key}")


def _assert_bounded(part: dict[str, Any], where: str) -> None:
    kind = part.get("type")
    if kind == "integer":
        assert {"minimum", "maximum"} <= set(part), where
    elif kind == "array":
        assert {"minItems", "maxItems"} <= set(part), where
        _assert_bounded(part["items"], where)
    elif kind == "string":
        assert "maxLength" in part, where
    else:
        assert kind == "boolean" or "enum" in part, where


def test_the_generated_schema_is_a_valid_json_schema() -> None:
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(file_schema())


def test_unknown_keys_are_refused_everywhere_in_the_schema() -> None:
    def objects(node: Any) -> Iterator[dict[str, Any]]:
        if isinstance(node, dict):
            if node.get("type") == "object":
                yield node
            for value in node.values():
                yield from objects(value)

    found = list(objects(file_schema()))
    assert len(found) > len(ENTRIES)
    assert all(node["additionalProperties"] is False for node in found)


# --------------------------------------------------------- each range, each field


def _int_fields() -> list[tuple[str, str, int, int]]:
    return [(rule_id, key, part["minimum"], part["maximum"])
            for rule_id, entry in ENTRIES.items()
            for key, part in entry["properties"].items() if part.get("type") == "integer"]


@pytest.mark.parametrize(("rule_id", "key", "low", "high"), _int_fields(),
                         ids=[f"{r}.{k}" for r, k, _, _ in _int_fields()])
def test_every_integer_field_is_refused_outside_its_range(
        rule_id: str, key: str, low: int, high: int) -> None:
    assert low >= 0  # counts, draws, penalties, seats, points: never negative
    for bad in (low - 1, high + 1, 10**9):
        assert_refused({rule_id: {key: bad}}, rule_id, f"rules.{rule_id}.{key} = {bad}",
                       f"allowed {low} to {high}")
    assert_refused({rule_id: {key: True}}, rule_id, "expected an integer")
    assert_refused({rule_id: {key: 1.0}}, rule_id, "expected an integer")


# The reviewer's list: each was accepted, and `verify` proved every property on it.
REVIEWED = [
    ({"UNO-1": {"penalty": -1}}, "UNO-1", "rules.UNO-1.penalty = -1", "allowed 0 to 20"),
    ({"WD4-2": {"victim_draws": 10**9}}, "WD4-2", "victim_draws = 1000000000", "0 to 20"),
    ({"MISPLAY-1": {"cards": -1}}, "MISPLAY-1", "cards = -1", "allowed 0 to 20"),
    ({"CHAL-3": {"challenger_draws": -1}}, "CHAL-3", "challenger_draws = -1", "0 to 20"),
    ({"DEAL-2": {"hand_size": 0}}, "DEAL-2", "hand_size = 0", "allowed 1 to 50"),
    ({"SCORE-2": {"score": 0}}, "SCORE-2", "score = 0", "allowed 1 to 100000"),
    ({"SCORE-2": {"score": -500}}, "SCORE-2", "score = -500", "allowed 1 to 100000"),
    ({"DECK-2": {"minimum": 1}}, "DECK-2", "minimum = 1", "allowed 2 to 10"),
    ({"DECK-2": {"minimum": 6, "maximum": 4}}, "DECK-2", "minimum = 6",
     "at most the maximum, 4", "players-ordered"),
    ({"DECK-2": {"maximum": 11}}, "DECK-2", "maximum = 11", "allowed 2 to 10"),
    ({"PLAY-1": {"enabled": False}}, "PLAY-1", "rules.PLAY-1.enabled",
     "PLAY-1 cannot be switched off"),
    ({"DECK-1": {"colors": ["red", "red"]}}, "DECK-1", 'colors = ["red", "red"]',
     "must be distinct"),
    ({"DECK-1": {"colors": []}}, "DECK-1", "colors = []", "allowed 1 to 4 items"),
    ({"DECK-1": {"number_copies": [1]}}, "DEAL-2", "hand_size = 7", "at most 3",
     "hands-leave-a-start-card"),
    ({"DECK-1": {"number_copies": [1]}, "DEAL-2": {"hand_size": 1}}, "DEAL-1",
     "rules.DEAL-1.ties_draw_again = true", "9 cards below the highest dealer value 0",
     "dealer-draw-ends"),
    ({"DECK-1": {"number_copies": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}}, "DECK-1",
     "number_copies", "allowed 0 to 10 items"),
    ({"UNO-1": 5}, "UNO-1", "rules.UNO-1 = 5", "expected a table"),
    ({"DECK-1": {"colors": [1]}}, "DECK-1", "colors[0] = 1", 'expected one of "red"'),
    ({"END-2": {"next_dealer": "random"}}, "END-2", 'next_dealer = "random"',
     'expected one of "left", "winner"'),
    ({"NOSTACK-1": {"answers": ["+2", "+2"]}}, "NOSTACK-1", "must be distinct"),
    ({"NOSTACK-1": {"victim_may_answer": True, "answers": ["+2", "S"]}}, "NOSTACK-1",
     'rules.NOSTACK-1.answers = "S"',
     'answers[1]: a card whose victim draws (this table: "+2", "W+4")', "answers-draw"),
    ({"D2-1": {"victim_draws": 0}, "WD4-2": {"victim_draws": 0},
      "NOSTACK-1": {"victim_may_answer": True, "answers": ["+2"]}}, "NOSTACK-1",
     'rules.NOSTACK-1.answers = "+2": allowed answers[0]: a card whose victim draws (this '
     'table: none) [check answers-draw]'),
    ({"UNO-X": {"penalty": 1}}, None, 'no rule "UNO-X" in the table'),
    ({"UNO-1": {"penalti": 1}}, "UNO-1", "rules.UNO-1.penalti: unknown key",
     "allowed: enabled, cards_left, penalty"),
    ({"D2-1": {"kind": "+2"}}, "D2-1", "rules.D2-1.kind: unknown key"),  # a label
    ({"START-D2": {"kind": "S"}}, "START-D2", "rules.START-D2.kind: unknown key"),
    ({"UNO-1": {"id": "X"}}, "UNO-1", "rules.UNO-1.id: unknown key"),
    ({"UNO-1": {"penalty": [[[[[[[[[[1]]]]]]]]]]}}, None, "nested more than 8 levels"),
]


@pytest.mark.parametrize("case", REVIEWED, ids=[str(c[0])[:60] for c in REVIEWED])
def test_the_reviewers_tables_are_refused_naming_rule_field_value_and_range(
        case: tuple[Any, ...]) -> None:
    overrides, rule_id, *words = case
    assert_refused(overrides, rule_id, *words)


@pytest.mark.parametrize("attr", [a for a, _ in CLASSIC.entries()])
def test_only_switchable_entries_can_be_switched_off(attr: str) -> None:
    entry = getattr(CLASSIC, attr)
    if CLASSIC.entry(entry.id) is not entry:
        pytest.skip("a second entry of the same ID (a variant changes the first)")
    if entry.switchable:
        assert entry.extension or entry.when_off  # off means something stated
        off = derive(CLASSIC, "off", "", {entry.id: {"enabled": False}})
        assert not getattr(off, attr).enabled
    else:
        assert_refused({entry.id: {"enabled": False}}, entry.id, "cannot be switched off")


def test_the_rulebook_entries_that_can_be_switched_off_say_what_off_means() -> None:
    off = {rule.id for _, rule in CLASSIC.entries() if rule.switchable and not rule.extension}
    assert off == {"TWO-1", "ADVICE-1", "UNO-1", "START-D2", "START-SKIP", "START-REV", "SEVEN-O",
                   "JUMP-IN", "SEVERAL", "MERCY"}
    assert all(rule.when_off for _, rule in CLASSIC.entries() if rule.house)


@pytest.mark.parametrize(("name", "description", "words"), [
    ("[bold red]x[/]", "", "name = \"[bold red]x[/]\": expected letters, digits"),
    ("two words", "", "expected letters, digits and _ . : + = # - (no spaces)"),
    ("", "", "name: 0 characters; allowed 1 to 80"),
    ("ok", "line\nbreak", "expected one line of text"),
    ("ok", "x" * 1001, "description: 1001 characters; allowed 0 to 1000"),
])
def test_a_name_or_description_out_of_the_schema_is_refused(
        name: str, description: str, words: str) -> None:
    err = refusal({}, name=name, description=description)
    assert words in str(err) and "\n" not in str(err)


# ---------------------------------------------------------- cross-field checks


def test_deal_1_the_dealer_draw_check_is_exactly_the_boundary() -> None:
    """8 cards, 4 of rank 0 and 4 of rank 1: with 5 players a draw can give one player
    the only 1 and the others a 0 each (4 lower cards); with 6 it cannot."""
    deck = {"colors": ["red", "yellow", "green", "blue"], "number_copies": [1, 1],
            "skip_copies": 0, "reverse_copies": 0, "draw_two_copies": 0,
            "wild_copies": 0, "wild_draw_four_copies": 0}
    five = derive(CLASSIC, "five", "", {"DECK-1": deck, "DECK-2": {"maximum": 5},
                                        "DEAL-2": {"hand_size": 1}})
    assert deck_size(five.deck) == 8
    names = ["A", "B", "C", "D", "E"]
    dealers = {Game(names, seed=seed, rules=five).dealer for seed in range(40)}
    assert len(dealers) > 1  # every draw ended, and not always the same way
    assert_refused({"DECK-1": deck, "DECK-2": {"maximum": 6}, "DEAL-2": {"hand_size": 1}},
                   "DEAL-1", "5 cards below the highest dealer value 1 (this one has 4")
    # Without ties drawing again the first contender deals: any deck will do.
    derive(CLASSIC, "six", "", {"DECK-1": deck, "DECK-2": {"maximum": 6},
                                "DEAL-2": {"hand_size": 1},
                                "DEAL-1": {"ties_draw_again": False}})


def test_deal_1_symbol_value_counts_in_the_dealer_draw() -> None:
    # Ranks 0 only, but symbols worth 5: four 0s below the many symbols, need 9.
    base = {"DECK-1": {"number_copies": [1]}, "DEAL-2": {"hand_size": 1}}
    assert_refused({**base, "DEAL-1": {"symbol_value": 5}}, "DEAL-1", "has 4")
    two_ranks = {"DECK-1": {"number_copies": [3]}, "DEAL-2": {"hand_size": 1},
                 "DEAL-1": {"symbol_value": 5}}
    derive(CLASSIC, "ok", "", two_ranks)  # twelve 0s below the symbols' 5


def test_deal_2_hands_must_leave_a_start_card_for_the_most_players() -> None:
    assert_refused({"DEAL-2": {"hand_size": 11}}, "DEAL-2", "hand_size = 11",
                   "at most 10", "deck's 108 cards")
    assert derive(CLASSIC, "ten", "", {"DEAL-2": {"hand_size": 10}}).deal.hand_size == 10
    # Fewer seats allow bigger hands: the product is what counts.
    derive(CLASSIC, "duel", "", {"DECK-2": {"maximum": 2}, "DEAL-2": {"hand_size": 50}})


def test_start_kinds_are_distinct_in_a_table_built_by_hand() -> None:
    # A variant cannot change a start rule's kind (a label); a table built by hand could.
    twice = dataclasses.replace(CLASSIC, start_skip=dataclasses.replace(
        CLASSIC.start_skip, kind=Kind.DRAW_TWO))
    with pytest.raises(VariantError, match="start-kinds-distinct") as info:
        check_table(twice, "by hand")
    assert info.value.rule_id == "START-SKIP"
    switched = dataclasses.replace(twice, start_skip=dataclasses.replace(
        twice.start_skip, enabled=False))
    check_table(switched, "by hand")  # a switched-off duplicate is never looked up


def test_a_rulebook_entry_switched_off_by_hand_is_refused() -> None:
    hand = dataclasses.replace(CLASSIC, matching=dataclasses.replace(CLASSIC.matching,
                                                                      enabled=False))
    with pytest.raises(VariantError, match="switched-only-where-meant"):
        check_table(hand, "by hand")


# ---------------------------------------------------------- expect (verdicts)


def test_expect_is_validated_and_kept_on_the_table() -> None:
    want = table.Expect("penalties", "2-10", "refuted", "one penalty card")
    rules = derive(CLASSIC, "e", "", {"UNO-1": {"penalty": 1}}, expect=(want,))
    assert rules.expect == (want,)
    assert derive(rules, "child", "", {}).expect == ()  # a base's verdicts are its own


@pytest.mark.parametrize(("item", "rule_id", "words"), [
    ({"verdict": "maybe"}, None, 'expect[0].verdict = "maybe": expected one of "proved"'),
    ({"players": "1-3"}, "DECK-2", "expect[0].players = \"1-3\": allowed N or A-B with 2"),
    ({"players": "5-3"}, "DECK-2", "expect-players"),
    ({"players": "two"}, None, 'expect[0].players = "two": expected N or A-B'),
    ({"property": "Penalties!"}, None, "expected a property name"),
    ({"reason": ""}, None, "expect[0].reason: 0 characters; allowed 1 to 1000"),
])
def test_a_bad_expect_is_refused(item: dict[str, str], rule_id: str | None,
                                 words: str) -> None:
    data = {"property": "penalties", "players": "2", "verdict": "refuted", "reason": "r",
            **item}
    err = refusal({}, expect=(table.Expect(**data),))
    assert words in str(err) and err.rule_id == rule_id


# ----------------------------------------------------------- the checks can fail


def test_a_widened_range_is_noticed() -> None:
    """Plant the bug: widen UNO-1.penalty to allow -1, and the reviewer's table loads,
    so the refusal test above fails."""
    widened = copy.deepcopy(file_schema())
    penalty = widened["properties"]["rules"]["properties"]["UNO-1"]["properties"]["penalty"]
    penalty["minimum"] = -5
    original = schema.file_schema
    schema._validator.cache_clear()
    schema.file_schema = lambda: widened  # type: ignore[assignment]
    try:
        with pytest.raises(AssertionError, match="accepted"):
            assert_refused({"UNO-1": {"penalty": -1}}, "UNO-1", "allowed 0 to 20")
    finally:
        schema.file_schema = original  # type: ignore[assignment]
        schema._validator.cache_clear()
    assert_refused({"UNO-1": {"penalty": -1}}, "UNO-1", "allowed 0 to 20")


def test_a_missing_cross_field_check_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    endless = {"DECK-1": {"number_copies": [1]}, "DEAL-2": {"hand_size": 1}}
    monkeypatch.setattr(table, "CHECKS", tuple(c for c in table.CHECKS
                                               if c.name != "dealer-draw-ends"))
    with pytest.raises(AssertionError, match="accepted"):
        assert_refused(endless, "DEAL-1", "dealer-draw-ends")


# ------------------------------------------------------ any overrides at all


def _mostly(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``good`` nine times in ten: most examples should load, so that the loaded table is
    checked too."""
    return st.integers(0, 9).flatmap(lambda i: bad if i == 0 else good)


_JUNK = st.one_of(st.integers(-3, 60), st.booleans(), st.text(max_size=4), st.none(),
                  st.sampled_from([c.value for c in Color] + [k.value for k in Kind]),
                  st.lists(st.integers(), max_size=2), st.dictionaries(st.text(), st.none()))


def _values_for(part: dict[str, Any]) -> st.SearchStrategy[Any]:
    if "enum" in part:
        return _mostly(st.sampled_from(part["enum"]), _JUNK)
    if part.get("type") == "array":
        lists = st.lists(_values_for(part["items"]), max_size=part.get("maxItems", 3) + 1)
        return _mostly(lists, _JUNK)
    if part.get("type") == "integer":
        near = st.integers(part["minimum"], min(part["maximum"], part["minimum"] + 12))
        edges = st.sampled_from([part["minimum"] - 1, part["maximum"], part["maximum"] + 1])
        return _mostly(near, st.one_of(edges, _JUNK))
    if part.get("type") == "boolean":
        return _mostly(st.booleans(), _JUNK)
    return _JUNK


def _entry_overrides(rule_id: str) -> st.SearchStrategy[Any]:
    props = ENTRIES.get(rule_id, {"properties": {}})["properties"]
    key = _mostly(st.sampled_from(list(props) or ["none"]),
                  st.sampled_from(["junk", "enabled", "id"]))
    keys = st.lists(key, max_size=3, unique=True)
    table = keys.flatmap(lambda ks: st.fixed_dictionaries(
        {k: _values_for(props.get(k, {})) for k in ks}))
    return _mostly(table, _JUNK)


OVERRIDES = st.lists(_mostly(st.sampled_from(list(ENTRIES)), st.just("NOPE-1")), max_size=3,
                     unique=True).flatmap(
    lambda ids: st.fixed_dictionaries({rid: _entry_overrides(rid) for rid in ids}))


@settings(max_examples=300, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(OVERRIDES)
def test_any_overrides_load_within_the_schema_or_are_refused(overrides: Any) -> None:
    try:
        rules = derive(CLASSIC, "any", "", overrides)
    except InvalidInputError as err:
        assert "\n" not in str(err)
        return
    validate(table_document(rules), "loaded")
    assert list(breaches(rules)) == []
    _assert_applied(rules, overrides)


def _assert_applied(rules: RuleTable, overrides: dict[str, dict[str, Any]]) -> None:
    for rule_id, values in overrides.items():
        for key, value in values.items():
            assert schema.plain(getattr(rules.entry(rule_id), key)) == value


def test_expect_may_be_given_as_a_file_states_it() -> None:
    item = {"property": "penalties", "players": "2", "verdict": "refuted", "reason": "r"}
    rules = derive(CLASSIC, "e", "", {}, expect=[item])
    assert rules.expect == (table.Expect(**item),)
    err = refusal({}, expect=[{**item, "extra": "x"}])
    assert "expect[0].extra: unknown key" in str(err)


# ------------------------------------------------ each cross-field check, word for word

WHOLE = [
    ({"START-WILD": {"color_at_random": True}}, "START-WILD",
     'variant "v": rules.START-WILD.color_at_random = true: allowed false while '
     "first_player_chooses_color is true (one of the two decides the color) "
     "[check start-color-once] (breaks START-WILD)"),
    ({"START-D2": {"first_player_chooses_color": True, "color_at_random": True}}, "START-D2",
     'variant "v": rules.START-D2.color_at_random = true: allowed false while '
     "first_player_chooses_color is true (one of the two decides the color) "
     "[check start-color-once] (breaks START-D2)"),
    ({"DRAW-1": {"must_play_drawn": True, "may_play_drawn": False}}, "DRAW-1",
     'variant "v": rules.DRAW-1.must_play_drawn = true: allowed false while may_play_drawn '
     "is false (a drawn card that may not be played cannot have to be) "
     "[check drawn-card-playable] (breaks DRAW-1)"),
]


@pytest.mark.parametrize("case", WHOLE, ids=[c[1] for c in WHOLE])
def test_a_cross_field_refusal_reads_word_for_word(
        case: tuple[dict[str, Any], str, str]) -> None:
    overrides, rule_id, message = case
    with pytest.raises(VariantError) as refused:
        derive(CLASSIC, "v", "", overrides)
    assert (refused.value.rule_id, str(refused.value)) == (rule_id, message)


@pytest.mark.parametrize("accepted", [
    {"DRAW-1": {"must_play_drawn": True}},
    {"START-WILD": {"first_player_chooses_color": False, "color_at_random": True}},
    {"START-D2": {"color_at_random": True}},
], ids=str)
def test_either_of_two_values_alone_is_accepted(accepted: dict[str, Any]) -> None:
    """The other side of each check: one value without the other it excludes."""
    assert list(breaches(derive(CLASSIC, "v", "", accepted))) == []


def test_start_kinds_distinct_names_the_rule_already_for_that_kind() -> None:
    """START-*: a start rule's kind is a label no variant file changes, so only a table
    built in code can give two enabled rules one kind; a switched-off one does not count."""
    twice = replace(CLASSIC, start_reverse=replace(CLASSIC.start_reverse, kind=Kind.SKIP))
    found = [(check.name, breach) for check, breach in breaches(twice)]
    assert found == [("start-kinds-distinct", table.Breach(
        ("rules", "START-REV", "kind"), "START-REV", "S",
        "a kind no other start rule has (START-SKIP is for it)"))]
    wd4 = replace(CLASSIC, start_wild_draw_four=replace(CLASSIC.start_wild_draw_four,
                                                        kind=Kind.WILD))
    assert [b.allowed for _, b in breaches(wd4)] == [
        "a kind no other start rule has (START-WILD is for it)"]
    off = replace(twice, start_reverse=replace(twice.start_reverse, enabled=False))
    assert list(breaches(off)) == []


def _changed(entry: str, **values: Any) -> RuleTable:
    """CLASSIC with one entry's values changed in code (past the file schema)."""
    return replace(CLASSIC, **{entry: replace(getattr(CLASSIC, entry), **values)})


SWITCHABLE = ("START-D2, START-SKIP, START-REV, TWO-1, ADVICE-1, UNO-1, EXT-PASS, EXT-SHORT, "
              "EXT-START, EXT-LAST, SEVEN-O, JUMP-IN, SEVERAL, MERCY")
BREACHES = [
    (_changed("players", minimum=6, maximum=4), "players-ordered",
     table.Breach(("rules", "DECK-2", "minimum"), "DECK-2", 6, "at most the maximum, 4")),
    (replace(_changed("players", maximum=4), deal=replace(CLASSIC.deal, hand_size=27)),
     "hands-leave-a-start-card",
     table.Breach(("rules", "DEAL-2", "hand_size"), "DEAL-2", 27,
                  "at most 26: 4 hands (DECK-2 maximum) must leave a start card of the "
                  "deck's 108 cards (DECK-1)")),
    (replace(_changed("deck", number_copies=(1,)), deal=replace(CLASSIC.deal, hand_size=1)),
     "dealer-draw-ends",
     table.Breach(("rules", "DEAL-1", "ties_draw_again"), "DEAL-1", True,
                  "false, or a deck with 9 cards below the highest dealer value 0 (this one "
                  "has 0; symbol_value = 0): otherwise every dealer draw can tie, for ever")),
    (_changed("seven_o", pass_rank=7), "exchange-ranks-differ",
     table.Breach(("rules", "SEVEN-O", "pass_rank"), "SEVEN-O", 7,
                  "a rank other than swap_rank (7)")),
    (_changed("matching", enabled=False), "switched-only-where-meant",
     table.Breach(("rules", "PLAY-1", "enabled"), "PLAY-1", False,
                  f"true: only {SWITCHABLE} can be switched off")),
]


@pytest.mark.parametrize("case", BREACHES, ids=[c[1] for c in BREACHES])
def test_each_cross_field_check_blames_one_field_in_whole_words(
        case: tuple[RuleTable, str, table.Breach]) -> None:
    """The path, rule, value and words of each check's breach, for a table built in code
    (4 players: 107 // 4 = 26 cards a hand at most, where 109 // 4 or 107 / 4 differ)."""
    built, name, breach = case
    assert [(check.name, found) for check, found in breaches(built)] == [(name, breach)]


def test_deal_1_dealer_values_are_one_per_card_symbols_and_wilds_alike() -> None:
    """DEAL-1: every card of the deck has a dealer value; symbol cards (action cards,
    Wilds and Wild Draw Fours) all take symbol_value."""
    values = table.dealer_values(CLASSIC)
    assert len(values) == deck_size(CLASSIC.deck) == 108
    numbers, symbols = values[:76], values[76:]  # 4 zeros and 72 others; 24 + 4 + 4
    assert sorted(numbers) == sorted([0] * 4 + list(range(1, 10)) * 8)
    assert symbols == [CLASSIC.dealer_draw.symbol_value] * 32
