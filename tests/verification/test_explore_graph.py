"""The state-graph explorer on small decks: witnesses replay, symmetry agrees, a
brute-force enumeration with the plain engine agrees, and the perft tables hold."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

from unoformal import catalogue as house_catalogue
from unoformal.engine.actions import ActionType
from unoformal.engine.game import Game
from unoformal.engine.record import replay
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import VARIANTS, load_rules
from unoformal.verification.explore import Config, Size, StateGraph, analyse, explore
from unoformal.verification.explore.analysis import Findings
from unoformal.verification.explore.coverage import OUTSIDE, catalogue
from unoformal.verification.explore.graph import preset_config
from unoformal.verification.explore.perft import compare, table
from unoformal.verification.explore.presets import PRESETS, small_rules
from unoformal.verification.explore.report import witnesses

DATA = Path(__file__).parent.parent / "data"


def config(name: str, symmetry: bool = False) -> Config:
    return preset_config(name, symmetry)


@cache
def explored(name: str, symmetry: bool = False) -> tuple[StateGraph, Findings]:
    graph = explore(config(name, symmetry))
    return graph, analyse(graph)


def test_deck_1_every_table_entry_has_branches_or_a_reason() -> None:
    # EXT-LAST's branch is stated only where a draw card may be answered (stacking);
    # a catalogue rule's entry (SEVERAL) only in the tables of its own readings
    shipped = [load_rules(v) for v in VARIANTS] + [
        load_rules(f"{rule.name}@{reading.name}")
        for rule in house_catalogue.rules() for reading in rule.readings]
    with_branches = {b.rule for table in shipped for b in catalogue(table)}
    for _, rule in CLASSIC.entries():
        assert rule.id in with_branches or rule.id in OUTSIDE, rule.id


def test_deal_2_micro_is_a_few_dozen_states_and_every_round_can_end() -> None:
    graph, found = explored("micro")
    assert graph.complete and 10 <= graph.states <= 100
    assert found.round_over > 0 and not found.stuck and not found.doomed


@pytest.mark.parametrize("name", ["duel", "wd4"])
def test_witnesses_replay_to_their_states(name: str) -> None:
    graph, found = explored(name)
    found_witnesses = witnesses(graph, found)
    assert found_witnesses
    for label, w in found_witnesses.items():
        assert not isinstance(w, str), f"{label}: {w}"
        result = replay(w.record, graph.config.rules)
        assert result.error is None, label
        assert graph.keyer.key(result.game) == graph.keys[w.target], label


def test_end_1_a_challenge_never_sends_cards_back_to_the_player_who_went_out() -> None:
    # END-1's last sentence: a player going out with a Wild Draw Four holds no card, so
    # WD4-1 always finds the card legal and CHAL-3 applies: the branch is dead.
    graph, found = explored("wd4")
    dead = {(b.rule, b.name): why for b, why in found.dead}
    assert dead[("END-1", "challenge-sends-cards-back")] == "never enabled in any reachable state"
    for label in (("CHAL-2", "upheld"), ("CHAL-3", "failed"), ("WD4-1", "bluff"),
                  ("END-1", "last-draw-card-resolved")):
        assert label in graph.covered, label


def test_chal_2_and_chal_3_both_happen_in_the_duel_deck() -> None:
    graph, _ = explored("duel")
    assert ("CHAL-2", "upheld") in graph.covered and ("CHAL-3", "failed") in graph.covered


@pytest.mark.parametrize("name", ["duel", "wd4"])
def test_symmetry_gives_the_same_verdicts_and_orbits_sum_to_the_full_count(name: str) -> None:
    full, found = explored(name)
    reduced, rfound = explored(name, True)
    assert sum(reduced.orbit) == full.states
    assert reduced.states < full.states
    assert set(reduced.covered) == set(full.covered)
    assert [(b.rule, b.name) for b, _ in rfound.dead] == [(b.rule, b.name) for b, _ in found.dead]
    assert bool(rfound.stuck) == bool(found.stuck)
    assert bool(rfound.doomed) == bool(found.doomed)
    assert (rfound.cycle is None) == (found.cycle is None)
    assert sum(reduced.orbit[s] for s in range(reduced.states) if reduced.over(s)) == \
        found.round_over


@pytest.mark.parametrize("name,symmetry", [("micro", False), ("duel", False), ("duel", True),
                                           ("tiny", False), ("wd4", False)])
def test_perft_tables_match_the_pinned_counts(name: str, symmetry: bool) -> None:
    path = DATA / f"perft_{name}{'_sym' if symmetry else ''}.json"
    expected = json.loads(path.read_text())
    problem = compare(expected, table(explored(name, symmetry)[0]))
    assert problem is None, problem


def test_perft_mismatch_names_the_depth_and_the_action() -> None:
    got = table(explored("micro")[0])
    wrong = json.loads(json.dumps(got))
    wrong["layers"][1] += 1
    wrong["by_action"][1]["play"] = wrong["by_action"][1].get("play", 0) + 3
    message = compare(wrong, got)
    assert message is not None and "depth 1" in message and "play" in message


# ---- brute force: the plain engine, every ordering of the deck, every action sequence


BRUTE = Size(colors=2, numbers=(1, 1), wilds=1, wild_draw_fours=0, penalties=False)
BRUTE_DEPTH = 4  # the pile (2 cards) cannot run out within 4 actions: no reshuffle


def _state(game: Game) -> tuple[Any, ...]:
    """An independent canonical form, from the engine's text form: pile as a sorted
    multiset, no seed/shuffles/reveal, phase-only fields blanked outside their phase."""
    fields = dict(item.split("=", 1) for item in game.to_text().split(" "))
    fields["pile"] = ",".join(sorted(fields["pile"].split(",")))
    discard = fields["discard"].split(",")
    fields["discard"] = ",".join([*sorted(discard[:-1]), discard[-1]])
    fields["hands"] = "/".join(",".join(sorted(h.split(","))) for h in
                               fields["hands"].split("/"))
    for key in ("seed", "shuffles", "reveal", "scores", "points"):
        del fields[key]
    phase = fields["phase"]
    if phase != "drawn":
        fields["drawn"] = "-"
    if phase != "respond":
        for key in ("pending", "kind", "offender", "legal", "prev"):
            fields[key] = "-"
    if phase != "over":
        fields["winner"] = "-"
    return tuple(sorted(fields.items()))


def _brute_layers() -> list[int]:
    rules = small_rules(BRUTE, name="brute")
    players = BRUTE.players_list()
    codes = [Deck.of(rules).code(c) for c in Deck.of(rules).cards()]
    seen: set[tuple[Any, ...]] = set()
    layers = [0] * (BRUTE_DEPTH + 1)

    def walk(game: Game, depth: int) -> Iterator[tuple[int, tuple[Any, ...]]]:
        yield depth, _state(game)
        if depth == BRUTE_DEPTH:
            return
        for action in game.legal_actions():
            if action.type in (ActionType.ADVISE, ActionType.MISPLAY):
                continue
            child = game.copy()
            child.apply(action)
            yield from walk(child, depth + 1)

    first: dict[tuple[Any, ...], int] = {}
    for order in set(permutations(codes)):
        deal = {"hands": {p: [order[i]] for i, p in enumerate(players)},
                "draw_pile": list(order[len(players):])}
        for depth, state in walk(Game(players, 0, rules, players[-1], deal), 0):
            if depth < first.get(state, BRUTE_DEPTH + 1):
                first[state] = depth
    for depth in first.values():
        layers[depth] += 1
    seen.update(first)
    return layers


def test_draw_1_brute_force_with_the_plain_engine_agrees_with_the_explorer() -> None:
    cfg = Config(small_rules(BRUTE, name="brute"), tuple(BRUTE.players_list()), "brute",
                 penalties=False)
    graph = explore(cfg)
    assert graph.layer_states[: BRUTE_DEPTH + 1] == _brute_layers()


def test_an_interrupted_run_keeps_what_it_found() -> None:
    def interrupt(graph: StateGraph, depth: int) -> None:
        raise KeyboardInterrupt

    # tiny: layers of more than 512 states, where the search looks up between states
    graph = explore(config("tiny"), interrupt, partial=True)
    found = analyse(graph)
    measured = PRESETS["tiny"].measured
    assert measured is not None
    assert graph.stopped == "interrupted" and 0 < graph.states < measured[0]
    assert found.doomed == [] and found.cycle is None  # no reachability claims when partial


def test_a_run_stops_cleanly_at_the_memory_budget() -> None:
    cfg = config("tiny")
    graph = explore(Config(cfg.rules, cfg.players, "tiny", memory_budget=1 << 20))
    assert graph.stopped is not None and "memory budget" in graph.stopped


def test_a_round_can_go_on_forever_and_the_cycle_witness_goes_round_it() -> None:
    # Nothing forces progress: drawing, passing (EXT-PASS), misplays and advice can bring
    # a round back to a state it was in, so a round can go on for ever.
    graph, found = explored("duel")
    assert found.cycle is not None and found.cycle[0] == found.cycle[-1]
    w = witnesses(graph, found)["cycle"]
    assert not isinstance(w, str)
    result = replay(w.record, graph.config.rules)
    assert result.error is None
    assert graph.keyer.key(result.game) == graph.keys[found.cycle[0]]
    loop = len(found.cycle) - 1
    before = replay(w.record, graph.config.rules, stop_at=len(w.record["actions"]) - loop)
    assert graph.keyer.key(before.game) == graph.keys[found.cycle[0]]


def test_symmetry_with_three_colors_and_three_players() -> None:
    size = Size(colors=3, numbers=(1,), wilds=1, wild_draw_fours=0, players=3,
                penalties=False)
    cfgs = [Config(small_rules(size, name="c3"), tuple(size.players_list()), "c3", sym,
                   penalties=False) for sym in (False, True)]
    full, reduced = explore(cfgs[0]), explore(cfgs[1])
    assert sum(reduced.orbit) == full.states > reduced.states
    assert set(full.covered) == set(reduced.covered)


def test_every_branch_but_one_is_shown_enabled_in_some_small_preset() -> None:
    # The presets between them deal every kind of card to 2 and 3 players; the only
    # branch no reachable state enables is END-1's challenge sending cards back. (The
    # presets are classic, without stacking: its branches are shown in
    # test_explore_extensions.py.)
    covered: set[tuple[str, str]] = set()
    for name in ("duel", "wd4", "skip", "reverse", "circle"):
        covered |= set(explored(name)[0].covered)
    missing = {(b.rule, b.name) for b in catalogue(CLASSIC)} - covered
    assert missing == {("END-1", "challenge-sends-cards-back")}


def test_start_d2_with_nothing_to_draw_still_starts_the_round() -> None:
    # Three cards, one each and a Draw Two start: START-D2 draws from an empty pile
    # (RESHUFFLE-1 finds nothing, EXT-SHORT forgives it); every one of the 3! deals
    # must still give an initial state.
    size = Size(colors=1, numbers=(1, 1), draw_twos=1, wilds=0, wild_draw_fours=0,
                penalties=False)
    graph = explore(Config(small_rules(size, name="d2"), tuple(size.players_list()), "d2",
                           penalties=False))
    assert len(graph.roots) == 6
    assert ("START-D2", "start") in graph.covered
