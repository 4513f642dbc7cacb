"""mercy (MERCY, UNO Show 'Em No Mercy's mercy rule), checked against worked examples from
its own words and against its property over whole games, in the rule's numbers: "a player
who holds 25 cards or more, at any moment of a round, is knocked out of the round at once:
their cards go under the discard pile, play passes them by, and if it was their turn the
next player in plays. When one player is left in the round, they win it; the round scores
nothing. Everyone is dealt in again at the next deal."

The engine (``Game._mercy``) and the relation (``Spec.knocked_out``) each state the rule
once, apart, so ``validate`` compares two readings of it; the checks below read neither:
worked examples for the engine, the ``mercy`` property (stated from a step's pre- and
post-state alone) for the relation. Each is shown able to fail by a plant."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import z3

from tests.test_roundtrip import _play
from unoformal.commands.cli import main
from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.engine.record import Record, replay, with_rules
from unoformal.errors import IllegalActionError, InvalidInputError, VariantError
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import derive, load_rules
from unoformal.verification.explore import analyse, explore
from unoformal.verification.explore.graph import Config, Explorer
from unoformal.verification.explore.keys import Keyer
from unoformal.verification.explore.presets import Size, small_rules
from unoformal.verification.explore.witness import witness
from unoformal.verification.z3 import actions as z3_actions
from unoformal.verification.z3 import prover
from unoformal.verification.z3.properties import property_named
from unoformal.verification.z3.prover import check
from unoformal.verification.z3.solver import make_solver

RULE = "mercy"
TWENTY_FOUR = ("R1,R1,R2,R2,R3,R3,R4,R4,R5,R5,R6,R6,R7,R7,R8,R8,R9,R9,Y1,Y1,Y2,Y2,Y3,Y3")


def _position(rules: RuleTable, hands: list[str], *, turn: str = "A", out: str = "-",
              discard: str = "G3", pile: list[str] | None = None, color: str = "green",
              phase: str = "play", extra: str = "drawn=- pending=0 kind=- offender=-") -> Game:
    """A round under way: the given hands (seat by seat, A first), ``pile`` the draw pile
    from its bottom (the rest of the deck, in code order, when not given)."""
    names = "ABCDEF"[:len(hands)]
    deck = Deck.of(rules)
    rest = Counter(deck.code(f) for f in deck.cards())
    rest.subtract(c for part in (*hands, discard) for c in part.split(",") if c)
    if pile is None:
        pile = sorted(rest.elements())
    return Game.from_text(
        f"rules={rules.name} players={','.join(names)} dealer={names[-1]} round=1 "
        f"turn={turn} dir=left color={color} phase={phase} hands={'/'.join(hands)} "
        f"pile={','.join(pile)} discard={discard} scores={','.join('0' * len(names))} "
        f"out={out} uno=- {extra} legal=1 prev=- reveal=- winner=- points=0 seed=0 "
        "shuffles=0", rules)


def _pile_ending(rules: RuleTable, hands: list[str], top: list[str], discard: str = "G3"
                 ) -> list[str]:
    """The draw pile, as the text lists it (its top first): ``top``, then the rest of the
    deck."""
    deck = Deck.of(rules)
    rest = Counter(deck.code(f) for f in deck.cards())
    rest.subtract(c for part in (*hands, discard, *top) for c in part.split(",") if c)
    return top + sorted(rest.elements())


def _apply(game: Game, text: str) -> Game:
    game.apply(Action.parse(text))
    return game


# --------------------------------------------------------------- knocked out


def test_a_draw_to_the_limit_knocks_the_drawer_out_and_play_passes_them_by() -> None:
    """A holds 24 and draws the 25th: A is out at once, the 25 cards under the discard pile
    (its top, G3, stays), and B, the next player in, plays."""
    rules = load_rules(RULE)
    hands = [TWENTY_FOUR, "B1,B2", "B3,B4"]
    g = _position(rules, hands, pile=_pile_ending(rules, hands, ["R0"]))
    _apply(g, "A draw")
    assert g.out == (0,) and g.hands[0] == [] and g.turn == 1 and g.phase == "play"
    assert g.drawn is None and not g.round_over
    assert len(g.discard) == 26 and g.deck.code(g.discard[-1]) == "G3"
    assert " out=A " in g.to_text()
    assert Game.from_text(g.to_text(), rules).to_text() == g.to_text()
    _apply(g, "B draw")  # B keeps a card that cannot be played: C is next, A passed by
    _apply(g, "B pass")
    assert g.turn == 2
    _apply(g, "C draw")
    _apply(g, "C pass")
    assert g.turn == 1  # from C, over A, to B


def test_twenty_four_cards_are_not_yet_the_limit() -> None:
    rules = load_rules(RULE)
    hands = ["R1,R1,R2,R2,R3,R3,R4,R4,R5,R5,R6,R6,R7,R7,R8,R8,R9,R9,Y1,Y1,Y2,Y2,Y3",
             "B1,B2", "B3,B4"]
    g = _position(rules, hands, pile=_pile_ending(rules, hands, ["R0"]))
    _apply(g, "A draw")
    assert g.out == () and len(g.hands[0]) == 24 and g.phase == "drawn"


def test_a_draw_two_that_takes_its_victim_to_the_limit_knocks_them_out() -> None:
    """A plays G+2 on B, who holds 23: B draws 2, holds 25, is out; C plays next (B lost
    the turn anyway)."""
    rules = load_rules(RULE)
    hands = ["G+2,B9", TWENTY_FOUR[:-3], "B3,B4"]
    g = _position(rules, hands, pile=_pile_ending(rules, hands, ["R0", "Y0"]))
    _apply(g, "A play G+2")
    assert g.out == (1,) and g.hands[1] == [] and g.turn == 2


def test_the_last_player_in_wins_the_round_and_it_scores_nothing() -> None:
    """Two players: A is knocked out, so B wins the round holding cards, which score
    nothing; the next deal brings A back, and the deal passes to the dealer's left."""
    rules = load_rules(RULE)
    hands = [TWENTY_FOUR, "B1,B2,Y9"]
    g = _position(rules, hands, pile=_pile_ending(rules, hands, ["R0"]))
    _apply(g, "A draw")
    assert g.round_over and g.winner == 1 and g.round_points == 0 and g.scores == [0, 0]
    assert g.out == (0,) and not g.game_over and g.drawn is None
    with pytest.raises(IllegalActionError):
        _apply(g, "B draw")
    g.next_round()
    assert g.out == () and [len(h) for h in g.hands] == [7, 7] and g.dealer == 0


def test_a_player_out_has_no_move_and_is_named_by_none() -> None:
    rules = load_rules("mercy+seven-o")
    g = _position(rules, ["B7,B1", "", "B3,B4"], out="B", discard="B5", color="blue")
    with pytest.raises(IllegalActionError, match=r"B is knocked out of the round \(MERCY: "
                                                 r"25 cards or more\) and cannot be named"):
        _apply(g, "A play B7 B")
    with pytest.raises(IllegalActionError, match="has no move"):
        _apply(g, "B draw")
    assert all(a.player != "B" and a.target != "B" for a in g.legal_actions())
    before = g.to_text()
    with pytest.raises(IllegalActionError):
        _apply(g, "A play B7 B")
    assert g.to_text() == before  # a refused move leaves the state as it was


def test_seven_o_passes_hands_over_the_players_in() -> None:
    """A plays the 0: every hand in moves one seat on, over B, who is out."""
    rules = load_rules("mercy+seven-o")
    g = _position(rules, ["B0,B1", "", "B3,B4", "R5"], out="B", discard="B5", color="blue")
    _apply(g, "A play B0")
    codes = [[g.deck.code(c) for c in h] for h in g.hands]
    assert codes == [["R5"], [], ["B1"], ["B3", "B4"]]


def test_the_pile_reading_puts_the_hand_under_the_draw_pile() -> None:
    rules = load_rules(f"{RULE}@pile")
    hands = [TWENTY_FOUR, "B1,B2", "B3,B4"]
    pile = _pile_ending(rules, hands, ["R0"])
    g = _position(rules, hands, pile=pile)
    _apply(g, "A draw")
    assert g.out == (0,) and len(g.discard) == 1
    assert [g.deck.code(c) for c in g.pile[:25]] == [*TWENTY_FOUR.split(","), "R0"]


def test_a_waiting_draw_card_dies_with_a_victim_knocked_out_meanwhile() -> None:
    """B, the victim of A's Wild Draw Four, holds 23 and is caught advising badly (ADVICE-1:
    2 cards): B is out; nobody draws the 4; C plays."""
    rules = load_rules(RULE)
    hands = ["B9", TWENTY_FOUR[:-3], "B3,B4"]
    g = _position(rules, hands, turn="B", phase="respond", color="blue", discard="W+4",
                  pile=_pile_ending(rules, hands, ["R0", "Y0"], discard="W+4"),
                  extra="drawn=- pending=4 kind=W+4 offender=A")
    _apply(g, "B advise")
    assert g.out == (1,) and g.turn == 2 and g.phase == "play" and g.pending == 0


def test_a_deal_with_a_hand_at_the_limit_is_refused() -> None:
    rules = load_rules(RULE)
    deck = Deck.of(rules)
    cards = [deck.code(c) for c in deck.cards()]
    with pytest.raises(InvalidInputError, match=r"deal.hands.A: 25 cards: MERCY knocks out "
                       r"a hand of 25 cards or more, so no deal gives one"):
        Game(["A", "B"], rules=rules, dealer="B",
             deal={"hands": {"A": cards[:25], "B": cards[25:32]}, "draw_pile": cards[32:]})


def test_a_state_text_with_a_hand_at_the_limit_or_a_player_out_holding_cards_is_refused(
        ) -> None:
    """A state text says the same as a deal of a hand MERCY knocks out; a player out holds
    no card. In the over phase a hand may be at the limit: no check after the last card."""
    rules = load_rules(RULE)
    deck = Deck.of(rules)
    many = ",".join(sorted(deck.code(f) for f in deck.cards() if f not in ("G3", "R1"))[:25])
    with pytest.raises(InvalidInputError, match=r"^state text: hands: A holds 25 cards: "
                       r"MERCY knocks out a hand of 25 cards or more, so no round goes on "
                       r"with one") as held:
        _position(rules, [many, "R1"])
    assert held.value.rule_id == "MERCY"
    with pytest.raises(InvalidInputError,
                       match=r"^state text: hands: B holds 1 card\(s\) but is out"):
        _position(rules, ["R1,R2", "R3"], out="B")


@pytest.mark.parametrize(("combined", "check"), [
    ("mercy+most-cards-out", "leaves is on"), ("mercy+teams", "partners are on")])
def test_mercy_with_leaving_or_teams_is_refused(combined: str, check: str) -> None:
    with pytest.raises(VariantError, match=check):
        load_rules(combined)


def test_a_limit_a_deal_reaches_is_refused() -> None:
    with pytest.raises(VariantError, match="DEAL-2's hand_size"):
        derive(load_rules(RULE), "low", "", {"MERCY": {"at": 7}})


# --------------------------------------------------------------- whole games


@pytest.mark.parametrize("players", [2, 3, 5])
def test_whole_games_keep_the_rule_at_every_step(players: int) -> None:
    """Seeded random games with a limit of 12: at every step a player out holds nothing,
    every player in holds fewer than 12 in a round, the player to move is in, the deck is
    whole, and the text reads back; a round that leaves one player in is theirs."""
    rules = derive(load_rules(RULE), "mercy-12", "", {"MERCY": {"at": 12}})
    rng = random.Random(players)
    knocked = won = 0
    for seed in range(3):
        g = Game([f"P{i}" for i in range(players)], seed=seed, rules=rules)
        for _ in range(1500):
            if g.round_over:
                if len(g.out) == players - 1:
                    won += 1
                    assert g.winner not in g.out and g.round_points == 0
                g.next_round()
                assert g.out == ()
                continue
            before = len(g.out)
            g.apply(rng.choice(g.legal_actions()))
            knocked += len(g.out) > before
            assert all(not g.hands[p] for p in g.out)
            assert sum(map(len, g.hands)) + len(g.pile) + len(g.discard) == 108
            if not g.round_over:
                assert g.turn not in g.out and len(g.out) < players - 1
                assert all(len(g.hands[p]) < 12 for p in range(players) if p not in g.out)
            assert Game.from_text(g.to_text(), rules).to_text() == g.to_text()
    assert knocked and won


def test_play_saves_a_game_under_the_preset_that_replay_reads_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.json"
    game = _play(monkeypatch, out, "no-mercy", seed=2, players=4)
    said = capsys.readouterr().out
    assert said.count("knocked out of the round (MERCY).") >= 1
    assert main(["replay", str(out), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["text"] == game.to_text()
    assert state["out"] == [game.names[p] for p in game.out]


# --------------------------------------------------------------- the relation


def test_the_mercy_property_is_proved() -> None:
    result = check(load_rules(RULE), property_named("mercy"), 2)
    assert result.verdict == "proved"


def test_a_limit_read_one_too_low_in_the_relation_is_refuted_by_the_property(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A plant in the relation's reading of the rule (knocked out at 24): the ``mercy``
    property, stated from the step's states alone, refutes it; ``validate`` would find it
    only against the engine."""
    real = z3_actions.Spec.knocked_out

    def planted(self: Any, t: Any, at: int, to_pile: bool) -> Any:
        return real(self, t, at - 1, to_pile)

    monkeypatch.setattr(z3_actions.Spec, "knocked_out", planted)
    prover._setup.cache_clear()  # the compiled relation, built once per table and count
    try:
        result = check(load_rules(RULE), property_named("mercy"), 2)
    finally:
        prover._setup.cache_clear()  # no planted relation for the tests after this one
    assert result.verdict == "refuted"


def _draw_two(counts: int | tuple[int, ...], direction: int) -> tuple[Any, Any, list[Any]]:
    """The Draw Two's steps from the symmetric pre-state whose player to move is seat 0
    (``prover._setup``), in ``direction``: the spec, the pre-state and its instances."""
    spec, states = prover._setup(load_rules(RULE), counts, True)
    pre = next(p.state for p in states
               if p.state.anchor == "turn" and str(p.state.direction) == str(direction))
    return spec, pre, [st for st in spec.steps(pre) if st.name == "play_draw_two"
                       and st.drawn_from == "pile"]


@pytest.mark.parametrize("counts", [4, (2, 3, 4), 10], ids=["4", "2-4", "10"])
def test_the_draw_two_is_forked_by_its_victim_and_every_victim_has_an_instance(
        counts: int | tuple[int, ...], direction: int = 1) -> None:
    """``Spec.variants``: the victim of a Draw Two, the next seat in, is a choice among
    seats under MERCY; the prover forks the step by it. Each instance draws into one
    known hand (the others are the very same terms), and the instances' seats are every
    value the choice can take: a seat left out would leave the states where it is the
    victim with no Draw Two, and every proof about it vacuous there. (A play is asked
    to the left alone: the symmetry reduction mirrors it.)"""
    import z3
    spec, pre, steps = _draw_two(counts, direction)
    seats = [int(st.variant.rsplit(" ", 1)[1]) for st in steps]
    assert seats == spec._candidates(pre, 0, direction)
    for step, seat in zip(steps, seats, strict=True):
        grown = [p for p in range(spec.n) if step.post.hands[p] is not pre.hands[p]]
        assert set(grown) <= {0, seat}, (step.label, grown)  # the mover's and the victim's
    choice = spec._next_in(pre, z3.IntVal(0), z3.IntVal(direction))
    solver = z3.Solver()
    solver.add(z3.Not(z3.Or([choice == seat for seat in seats])))
    assert solver.check() == z3.unsat


def test_seven_o_s_swap_is_forked_by_its_target_under_mercy() -> None:
    """A play that chooses a seat (SEVEN-O's swap) is forked by it: one instance per
    seat, the target a number in each, and only the mover's and that seat's hands
    change."""
    spec, states = prover._setup(load_rules("mercy+seven-o"), 4, True)
    pre = next(p.state for p in states if p.state.anchor == "turn")
    swaps = [st for st in spec.steps(pre) if st.name == "play_swap_hands"]
    assert [int(str(st.choices["target"])) for st in swaps] == list(range(4))
    for step in swaps:
        seat = int(str(step.choices["target"]))
        changed = {p for p in range(4) if step.post.hands[p] is not pre.hands[p]}
        assert changed <= {0, seat}, (step.label, changed)


def test_a_fork_that_leaves_a_victim_out_fails_the_check_above(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above, shown able to fail: a plant that forgets the last seat."""
    real = z3_actions.Spec._candidates
    monkeypatch.setattr(z3_actions.Spec, "_candidates",
                        lambda self, s, p, d: real(self, s, p, d)[:-2] + real(self, s, p, d)[-1:])
    prover._setup.cache_clear()
    try:
        with pytest.raises(AssertionError):
            test_the_draw_two_is_forked_by_its_victim_and_every_victim_has_an_instance(4, 1)
    finally:
        prover._setup.cache_clear()


# --------------------------------------------------------------- the tools


LOW = ('name = "low"\nbase = "classic"\n[rules.MERCY]\nenabled = true\nat = {at}\n'
       '[rules."DEAL-2"]\nhand_size = 1\n')
# tiny's deck (two colors, ranks 0 and 1, a Wild, a Wild Draw Four) at three players, one
# card each: a player knocked out at 2 cards leaves a round that goes on
THREE = Size(players=3)


def _graph(base: RuleTable) -> Any:
    table = small_rules(THREE, base=base, name="three-numbers")
    return explore(Config(table, tuple(THREE.players_list()), "three-numbers", False,
                          THREE.penalties))


def test_the_explorer_holds_who_is_knocked_out(tmp_path: Path) -> None:
    """A limit of 2 on a deck of 6 cards at 3 players: the explorer's key holds the seats
    out (3,100 states). A state where a player is out and the round goes on comes with a
    record from a deal that ``replay`` reads back to that very state."""
    low = tmp_path / "low.toml"
    low.write_text(LOW.format(at=2))
    graph = _graph(load_rules(str(low)))
    assert graph.states == 3_100
    found = next(w for w in (witness(graph, sid) for sid in range(graph.states))
                 if w.game.out and w.game.phase != "over")
    game = found.game
    assert all(not game.hands[p] for p in game.out) and game.turn not in game.out
    record = tmp_path / "knocked.json"
    record.write_text(json.dumps(with_rules(found.record, graph.config.rules)))
    assert main(["replay", str(record)]) == 0  # the command reads it back
    result = replay(Record.load(str(record)))
    assert result.error is None and result.game.to_text() == game.to_text()


FOUR = Size(players=4)  # the same deck at four players: a key needs the seats out there


def _low_config(tmp_path: Path, at: int, size: Size = FOUR) -> Config:
    low = tmp_path / "low.toml"
    low.write_text(LOW.format(at=at))
    table = small_rules(size, base=load_rules(str(low)), name="three-numbers")
    return Config(table, tuple(size.players_list()), "three-numbers", False, size.penalties)


def test_a_key_without_the_seats_out_merges_states(tmp_path: Path) -> None:
    """The seats out are part of the key: at four players a key without them (a plant,
    set on the explorer itself: the compiled build's classes take no patch) finds 10,076
    states where the graph has 10,236, taking a state with a player out for one with
    everybody in. (At three players the other fields tell them apart.)"""
    cfg = _low_config(tmp_path, 2)
    assert Explorer(cfg).run(False).states == 10_236
    explorer = Explorer(cfg)
    explorer.keyer = Keyer(explorer.deck, False, False)
    assert explorer.run(False).states == 10_076


def test_a_player_knocked_out_is_not_the_winner_to_be(tmp_path: Path) -> None:
    """END-1 with MERCY: Ann goes out with a Wild Draw Four, then advises (ADVICE-1's
    two cards reach the limit of 2) and is knocked out. The knock-out empties her hand,
    but she did not play it out: when Bob takes the four cards he is knocked out too, and
    Cy, the last player in, wins. (The engine had kept Ann as the winner-to-be, and she
    won the round out of it; the packed search found it, its record not holding a
    winner-to-be, as the relation's ``goes_out`` does not count a seat out.)"""
    cfg = _low_config(tmp_path, 2, THREE)
    record = with_rules({
        "rules": cfg.rules.name, "players": ["Ann", "Bob", "Cy"], "dealer": "Cy", "seed": 0,
        "deal": {"hands": {"Ann": ["W+4"], "Bob": ["R0"], "Cy": ["R1"]},
                 "draw_pile": ["B0", "B1", "W"]},
        "actions": [{"player": "Ann", "action": "play", "card": "W+4", "color": "red"},
                    {"player": "Ann", "action": "advise"},
                    {"player": "Bob", "action": "accept"}]}, cfg.rules)
    result = replay(record)
    assert result.error is None
    game = result.game
    assert game.phase == "over" and game.names[game.winner] == "Cy"
    assert {game.names[p] for p in game.out} == {"Ann", "Bob"}


def test_the_packed_backend_holds_who_is_knocked_out(tmp_path: Path) -> None:
    """Its record holds a byte per seat under MERCY: on the deck where the limit of 2 is
    reached, the packed search finds the explorer's graph state for state, numbered
    alike, with its findings; a record decodes to a state that encodes to it again."""
    from unoformal.verification.packed.bridge import to_state_graph
    from unoformal.verification.packed.search import PackedSearch

    cfg = _low_config(tmp_path, 2)
    ps = PackedSearch(cfg)
    g = ps.run()
    assert ps.template is not None and g.layout.seats_out
    packed, old = to_state_graph(g, ps.template), explore(cfg)
    assert g.states == packed.states == old.states == 10_236
    assert packed.keys == old.keys and list(packed.parent) == list(old.parent)
    assert analyse(packed).stuck == analyse(old).stuck
    records = g.records.read()
    games = [ps.layout.decode(bytes(r), ps.template) for r in records]
    assert any(game.out for game in games)
    assert all(ps.layout.encode(game) == bytes(r) for game, r in zip(games, records, strict=True))
    # every other table's records are as they were: no byte for who is out
    plain = PackedSearch(dataclasses.replace(cfg, rules=small_rules(
        FOUR, base=load_rules("classic"), name="three-numbers")))
    assert not plain.layout.seats_out


def test_a_record_without_the_seats_out_is_another_graph(tmp_path: Path) -> None:
    """The count above, shown able to fail: a layout with no byte for who is out."""
    from unoformal.verification.packed.layout import Layout
    from unoformal.verification.packed.search import PackedSearch

    ps = PackedSearch(_low_config(tmp_path, 2))
    ps.layout = Layout(ps.deck, ps.layout.n, False)
    assert ps.run().states != 10_236


def test_explore_takes_a_mercy_table_on_the_packed_backend(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Where the limit can be reached, the command explores it (it refused it while its
    record did not hold who is out)."""
    low = tmp_path / "low.toml"
    low.write_text(LOW.format(at=3))
    found = []
    for backend in ("graph", "packed"):
        assert main(["explore", "--preset", "tiny", "--rules", str(low), "--backend",
                     backend, "--no-progress", "--json"]) == 0
        found.append(json.loads(capsys.readouterr().out))
    graph, packed = found
    assert graph["states"] == packed["states"] and graph["edges"] == packed["edges"]


def test_the_rule_reads_in_the_rules_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--rules", RULE]) == 0
    out = capsys.readouterr().out
    assert "knocked out" in out and "MERCY" in out and "25 cards or more" in out


def test_the_no_mercy_preset_is_the_box_rules_the_classic_deck_can_play() -> None:
    """Stacking up (+2 on +2, +4 on +2 or +4), draw until you can play and play it, 7-0,
    no challenge, and the mercy rule."""
    table = load_rules("no-mercy")
    assert table.mercy.enabled and table.seven_o.enabled and table.draw.must_play_drawn
    assert not table.effect(Kind.WILD_DRAW_FOUR).victim_may_challenge
    assert set(table.no_stacking.answers) == {Kind.DRAW_TWO, Kind.WILD_DRAW_FOUR}
    assert {r.id for r in table.house} == {"HOUSE-DRAW-UNTIL", "HOUSE-STACK-UP"}


def _pass_queries(counts: int) -> tuple[Any, dict[str, Any]]:
    """SEVEN-O's 0 under MERCY, which passes every hand over the players in: the
    conservation property's queries about it, by label, with their pre-state."""
    spec, states = prover._setup(load_rules("seven-o+mercy"), counts, True)
    for pre in states:
        found = {q.label: q for q in property_named("conservation").queries(spec, pre.state)
                 if "play_pass_hands" in q.label and prover._asked(pre.state, q)}
        if found:
            return pre, found
    raise AssertionError("no pass of the hands was asked")


def _answers(counts: int) -> dict[str, Any]:
    pre, queries = _pass_queries(counts)
    out = {}
    for label, query in queries.items():
        solver = make_solver(120_000)  # a generous time: a time-out here is no verdict
        solver.add(pre.invariant, query.formula)
        out[label] = solver.check()
    return out


PASSED = "play_pass_hands"
LEMMA = "play_pass_hands: each face's count over the hands passed"
SIGNED = "play_pass_hands: the hands given to the pass of the hands"


def test_the_pass_over_the_players_in_keeps_every_count() -> None:
    """DECK-1 across SEVEN-O's 0 under MERCY, at 5 players (`verify` asks 2-10; the
    solver decided no count past 4 before the pass was read through its lemma,
    ``PassKept``): the play with the hands it gave replaced by fresh counts, the lemma
    about one column, and the hands the pass was given are each unsatisfiable."""
    assert _answers(5) == {PASSED: z3.unsat, LEMMA: z3.unsat, SIGNED: z3.unsat}
    prover._setup.cache_clear()


def test_a_pass_that_ignores_who_is_out_is_refuted_by_the_lemma(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A plant in the pass: a seat in gets the hand of the seat before it, in or out, and
    a seat out keeps its own, so the hand of the seat before one out is given twice. The
    lemma about one column is then satisfiable: conservation cannot be proved."""
    def planted(self: Any, s: Any, before: list[Any], column: list[Any]) -> list[Any]:
        n = self.n
        return [z3.If(s.out[p], column[p], column[(p - 1) % n]) for p in range(n)]

    monkeypatch.setattr(z3_actions.Spec, "_pass_column", planted)
    prover._setup.cache_clear()
    try:
        assert _answers(3)[LEMMA] == z3.sat
    finally:
        prover._setup.cache_clear()


def test_a_knock_out_that_loses_the_cards_is_refuted_across_the_pass(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A plant after the pass: the cards of a player knocked out go nowhere. The play's
    query, with the hands the pass gave as fresh counts, is satisfiable: what the
    abstraction keeps of the pass does not hide what the rest of the play does."""
    real = z3_actions.Spec.knocked_out

    def planted(self: Any, t: Any, at: int, to_pile: bool) -> Any:
        u = real(self, t, at, to_pile)
        return u.evolve(disc=t.disc, pile=t.pile)

    monkeypatch.setattr(z3_actions.Spec, "knocked_out", planted)
    prover._setup.cache_clear()
    try:
        found = _answers(3)
    finally:
        prover._setup.cache_clear()
    assert found[PASSED] == z3.sat and found[LEMMA] == z3.unsat


def test_every_move_of_a_round_ends_with_the_knock_out() -> None:
    """MERCY is a step of the rule language (``KnockOut``), the last of every move of a
    round, the start card's included, after the branch a move takes; the next deal has
    none (no round is under way), and no other table has it anywhere."""
    from unoformal.language.effects import KnockOut
    from unoformal.rules.book import commands

    def ends(command: Any) -> list[Any]:
        if command.branches:
            return [b.effect[-1] if b.effect else None for b in command.branches]
        return [command.effect[-1] if command.effect else None]

    for name in (RULE, "no-mercy"):
        table = load_rules(name)
        knock = KnockOut(table.mercy.at, False, "MERCY")
        for command in commands(table):
            wanted = [] if command.name == "next_deal" else [knock]
            assert [e for e in ends(command) if e == knock] == wanted * len(ends(command)), \
                (name, command.name)
    for name in ("classic", "stacking", "seven-o"):
        assert not any(isinstance(node, KnockOut) for command in commands(load_rules(name))
                       for step in command.steps()
                       for node in step.walk()), name


def test_the_packed_readings_take_the_knock_out_and_promela_refuses_it(
        tmp_path: Path) -> None:
    """The packed command successors (read and generated) read ``KnockOut``: the engine's
    10,236 states (``tests/verification/test_packed_mercy.py`` compares them edge for
    edge). Before the knock-out was a step they read such a table as if nobody were ever
    knocked out (60,936 states), then refused it by the node's name. The Promela model
    has no reading of it (its state has no seats out), so it refuses a MERCY table by
    the node's name."""
    from unoformal.verification.packed.search import search
    from unoformal.verification.promela import model
    from unoformal.verification.promela.context import PromelaError

    cfg = _low_config(tmp_path, 2)
    for successor in ("commands", "generated"):
        assert search(cfg, successor=successor).states == 10_236
    with pytest.raises(PromelaError, match="KnockOut has no Promela reading"):
        model.program(cfg)
