"""The rulebook's silences: every extension entry, switched off, makes the explorer
report the stuck state it resolves, with a witness that replays to it."""

from __future__ import annotations

from typing import Any

import pytest

from unoformal.engine.actions import ActionType
from unoformal.engine.record import replay
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import load_rules
from unoformal.rules.state import START
from unoformal.verification.explore import Config, Size, analyse, explore
from unoformal.verification.explore.coverage import catalogue
from unoformal.verification.explore.presets import small_rules
from unoformal.verification.explore.witness import witness

NO_PENALTIES = {"penalties": False}
CASES: dict[str, Size] = {
    # two colors, no wilds: a player holding the other color, with the pile and the
    # discard below the top empty, can neither play nor draw (DRAW-1, RESHUFFLE-1)
    "EXT-PASS": Size(numbers=(1, 1), wilds=0, wild_draw_fours=0, **NO_PENALTIES),
    # the victim of a Wild Draw Four with fewer than 4 cards left (WD4-2, CHAL-2/3)
    "EXT-SHORT": Size(numbers=(1, 1), wilds=0, **NO_PENALTIES),
    # a Wild Draw Four start card with only Wild Draw Fours left (START-WD4)
    "EXT-START": Size(colors=1, numbers=(1, 1), wilds=0, wild_draw_fours=2, **NO_PENALTIES),
}


def run(size: Size, extra: dict[str, dict[str, Any]] | None = None) -> Any:
    cfg = Config(small_rules(size, extra=extra, name="ext"), tuple(size.players_list()),
                 "ext", penalties=size.penalties)
    graph = explore(cfg)
    return graph, analyse(graph)


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_ext_with_the_extension_on_every_round_can_end(rule_id: str) -> None:
    graph, found = run(CASES[rule_id])
    assert graph.complete
    assert not found.stuck and not found.doomed


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_ext_switched_off_the_explorer_reports_a_stuck_state_with_a_witness(rule_id: str) -> None:
    graph, found = run(CASES[rule_id], {rule_id: {"enabled": False}})
    assert found.stuck, rule_id
    assert set(found.stuck) <= set(found.doomed)
    w = witness(graph, found.stuck[0])
    result = replay(w.record, graph.config.rules)
    assert result.error is None
    game = result.game
    assert not game.round_over
    assert [a for a in game.legal_actions()
            if a.type not in (ActionType.ADVISE, ActionType.MISPLAY)] == []


def test_ext_pass_off_the_stuck_player_can_neither_play_nor_draw() -> None:
    graph, found = run(CASES["EXT-PASS"], {"EXT-PASS": {"enabled": False}})
    game = replay(witness(graph, found.stuck[0]).record, graph.config.rules).game
    assert game.available() == 0
    assert game.phase == "play"


def test_ext_short_off_the_wild_draw_four_victim_is_stuck_in_respond() -> None:
    graph, found = run(CASES["EXT-SHORT"], {"EXT-SHORT": {"enabled": False}})
    phases = {replay(witness(graph, s).record, graph.config.rules).game.phase
              for s in found.stuck[:5]}
    assert "respond" in phases


def test_ext_start_off_the_deal_stops_in_the_start_phase() -> None:
    graph, found = run(CASES["EXT-START"], {"EXT-START": {"enabled": False}})
    game = replay(witness(graph, found.stuck[0]).record, graph.config.rules).game
    assert game.phase == START
    assert ("START-WD4", "turned-again") in graph.covered


def test_ext_start_on_the_wild_draw_four_start_stays_as_a_wild() -> None:
    graph, _ = run(CASES["EXT-START"])
    assert ("EXT-START", "wd4-stays") in graph.covered


def test_ext_pass_off_with_penalties_a_misplay_is_the_only_way_on() -> None:
    # With MISPLAY-1 explored, a player who can neither play nor draw may still take
    # back an incorrect card (it draws nothing and the turn passes): no stuck state,
    # but at the state the penalty-free graph is stuck in, only penalties remain.
    size = Size(numbers=(1, 1), wilds=0, wild_draw_fours=0)
    graph, found = run(size, {"EXT-PASS": {"enabled": False}})
    assert not found.stuck and not found.doomed
    bare, bare_found = run(CASES["EXT-PASS"], {"EXT-PASS": {"enabled": False}})
    game = replay(witness(bare, bare_found.stuck[0]).record, graph.config.rules).game
    kinds = {a.type for a in game.legal_actions()}
    assert ActionType.MISPLAY in kinds
    assert kinds <= {ActionType.MISPLAY, ActionType.ADVISE}


def test_ext_short_off_networkx_agrees_on_which_states_cannot_end_the_round() -> None:
    import networkx as nx

    graph, found = run(CASES["EXT-SHORT"], {"EXT-SHORT": {"enabled": False}})
    g = graph.to_networkx()
    assert g.number_of_nodes() == graph.states and g.number_of_edges() == graph.edges
    ends = {s for s in g if graph.over(s)}
    can_end = set(ends).union(*(nx.ancestors(g, s) for s in ends))
    assert set(found.doomed) == set(g) - can_end


# Stacking on a deck of Draw Twos: hands of one card, so the first Draw Two played is a
# last card (EXT-LAST's case), and the next player holds one to answer with.
STACK = {"NOSTACK-1": {"victim_may_answer": True, "answers": ["+2"]}}
LAST = Size(numbers=(1,), draw_twos=1, wilds=0, wild_draw_fours=0, **NO_PENALTIES)


def test_ext_last_under_stacking_a_last_draw_two_is_drawn_and_the_round_ends() -> None:
    graph, found = run(LAST, STACK)
    assert graph.complete and not found.stuck and not found.doomed
    assert ("EXT-LAST", "drawn-not-answered") in graph.covered


def test_ext_last_off_a_last_draw_two_ends_the_round_with_nobody_drawing() -> None:
    graph, found = run(LAST, {**STACK, "EXT-LAST": {"enabled": False}})
    assert graph.complete and not found.stuck and not found.doomed
    assert ("EXT-LAST", "drawn-not-answered") not in graph.covered
    assert ("END-1", "last-card") in graph.covered


def test_ext_last_is_no_branch_of_a_table_without_stacking() -> None:
    assert "EXT-LAST" not in {b.rule for b in catalogue(CLASSIC)}
    assert "EXT-LAST" in {b.rule for b in catalogue(load_rules("stacking"))}
