"""The packed explorer (unoformal/verification/packed/) against today's explorer: the same
records as keys, the same successors, perft tables, findings and witnesses on the small
presets; and planted wrong effects in the packed backend are caught."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from unoformal.engine.actions import ActionType
from unoformal.rules.state import PLAY
from unoformal.verification.explore import Config, Size, analyse, explore, preset_config
from unoformal.verification.explore.chance import ExploreGame, outcomes
from unoformal.verification.explore.keys import Keyer
from unoformal.verification.explore.perft import compare
from unoformal.verification.explore.presets import small_rules
from unoformal.verification.explore.witness import witness
from unoformal.verification.packed.bridge import to_state_graph
from unoformal.verification.packed.findings import analyse_arrays
from unoformal.verification.packed.layout import Layout
from unoformal.verification.packed.presets import FAR, config
from unoformal.verification.packed.search import PackedGraph, PackedSearch, cleanup, search
from unoformal.verification.packed.successor import EngineSuccessor, Successor

DATA = Path(__file__).parent.parent / "data"
_STATES: dict[str, list[ExploreGame]] = {}


def reachable(name: str) -> list[ExploreGame]:
    """Every state of a preset, as the explorer's successor function reaches them."""
    if name not in _STATES:
        from unoformal.compare.successors import reachable as walk
        _STATES[name] = walk(preset_config(name))[0]
    return _STATES[name]


@pytest.mark.parametrize("name", ["duel", "tiny"])
def test_records_are_keys_and_decode_to_the_same_state(name: str) -> None:
    states = reachable(name)
    layout = Layout(states[0].deck, states[0].n)
    keyer = Keyer(states[0].deck)
    by_record: dict[bytes, bytes] = {}
    for g in states:
        rec = layout.encode(g)
        assert len(rec) == layout.width
        assert by_record.setdefault(rec, keyer.key(g)) == keyer.key(g)
        back = layout.decode(rec, states[0])
        assert layout.encode(back) == rec
        assert keyer.key(back) == keyer.key(g)
    assert len(by_record) == len(states)  # one record per key, one key per record
    fps = layout.fingerprints(layout_rows(layout, list(by_record)))
    assert len(set(fps.tolist())) == len(states)


def layout_rows(layout: Layout, records: list[bytes]) -> Any:
    import numpy as np
    return np.frombuffer(b"".join(records), dtype=np.uint8).reshape(-1, layout.width)


def engine_successors(g: ExploreGame, layout: Layout, penalties: bool) -> list[tuple[str, bytes]]:
    out = set()
    for action in g.legal_actions(penalties=penalties):
        for _, child in outcomes(g, action):
            out.add((str(action), layout.encode(child)))
    return sorted(out)


def mismatches(name: str, succ_class: Callable[[Layout, ExploreGame, bool], Successor]
               = EngineSuccessor) -> int:
    """States of the preset whose packed successors (from the record) differ from the
    engine's (from the game itself), as (action, child) sets."""
    states = reachable(name)
    penalties = preset_config(name).penalties
    layout = Layout(states[0].deck, states[0].n)
    succ = succ_class(layout, states[0], penalties)
    bad = 0
    for g in states:
        mine = sorted({(str(e.action), e.child) for e in succ(layout.encode(g))})
        if mine != engine_successors(g, layout, penalties):
            bad += 1
    return bad


def edge_lists_differ(name: str,
                      succ_class: Callable[[Layout, ExploreGame, bool], Successor]) -> int:
    """States of the preset whose edge lists differ from ``EngineSuccessor``'s, edge for
    edge in order (action, child, labels; SCORE-1's labels of a finished round as a
    multiset: the engine lists them in hand order, a record has none)."""
    states = reachable(name)
    layout = Layout(states[0].deck, states[0].n)
    pen = preset_config(name).penalties
    mine = succ_class(layout, states[0], pen)
    engine = EngineSuccessor(layout, states[0], pen)

    def edges(succ: Successor, rec: bytes) -> list[Any]:
        return [(str(x.action), x.code, x.child, x.labels, sorted(x.ends)) for x in succ(rec)]

    return sum(edges(mine, r) != edges(engine, r) for r in map(layout.encode, states))


@pytest.mark.parametrize("name", ["micro", "duel"])
def test_successors_equal_the_engines_on_every_state(name: str) -> None:
    assert mismatches(name) == 0


@pytest.mark.parametrize("name", ["micro", "duel", "tiny", "wd4"])
def test_perft_tables_unchanged(name: str) -> None:
    g = search(preset_config(name))
    want = json.loads((DATA / f"perft_{name}.json").read_text())
    assert compare(want, g.perft()) is None
    assert g.complete
    assert 0 < g.collision()["birthday"] < 1e-9


def _findings(graph: Any) -> dict[str, Any]:
    f = analyse(graph)
    return {"stuck": f.stuck, "over": f.round_over, "doomed": f.doomed, "traps": f.traps,
            "cycle": f.cycle, "idle": f.idle_loops, "covered": f.covered,
            "dead": [(b.rule, b.name, why) for b, why in f.dead], "unreached": f.unreached}


def short_off() -> Config:
    size = Size(numbers=(1, 1), wilds=0, penalties=False)
    return Config(small_rules(size, extra={"EXT-SHORT": {"enabled": False}}, name="ext"),
                  tuple(size.players_list()), "ext", penalties=False)


@pytest.mark.parametrize("cfg", [preset_config("duel"), preset_config("wd4"), short_off()],
                         ids=["duel", "wd4", "EXT-SHORT-off"])
def test_findings_and_witnesses_are_the_explorers(cfg: Config) -> None:
    ps = PackedSearch(cfg)
    g = ps.run()
    assert ps.template is not None
    packed = to_state_graph(g, ps.template)
    old = explore(cfg)
    assert packed.keys == old.keys  # the same states, numbered alike
    assert list(packed.parent) == list(old.parent)
    assert _findings(packed) == _findings(old)
    # the packed search's own arrays say the same without the bridge
    assert g.stuck == analyse(old).stuck
    assert g.covered == old.covered
    found = analyse(packed)
    sid = found.stuck[0] if found.stuck else found.cycle[0] if found.cycle else 0
    assert witness(packed, sid).record == witness(old, sid).record
    # reachability over the edge arrays (findings.py, for graphs the bridge cannot hold)
    theirs = analyse(old)
    # read in one slice, and in slices of 7 edges and 5 records (each CSR then built from
    # many slices, as a large graph's is)
    for mine in (analyse_arrays(g), analyse_arrays(g, size=7), analyse_arrays(g, size=5)):
        assert mine.doomed.tolist() == theirs.doomed
        assert mine.traps == theirs.traps and mine.real_traps(g.stuck) == theirs.real_traps()
        assert mine.cycle == theirs.cycle
        assert (mine.round_over, mine.idle_loops) == (theirs.round_over, theirs.idle_loops)
    if cfg.name == "ext":  # not vacuous: this deck has states with no round end
        assert len(mine.doomed) == 568 and mine.traps


def test_short_off_has_stuck_states() -> None:
    """The comparison above is not vacuous: EXT-SHORT off leaves stuck states."""
    assert search(short_off()).stuck


def test_spilled_search_is_the_same(tmp_path: Path) -> None:
    cfg = preset_config("duel")
    g = search(cfg, spill=str(tmp_path), chunk=97)
    try:
        assert g.directory is not None and Path(g.directory, "records").stat().st_size
        mem = search(cfg)
        assert g.perft() == mem.perft()
        assert (g.records.read() == mem.records.read()).all()
        assert g.covered == mem.covered and list(g.parent) == list(mem.parent)
    finally:
        cleanup(g)
    assert not Path(g.directory).exists()


# ---------------------------------------------------------------- planted wrong effects

class ShortAccept(EngineSuccessor):
    """An accepted Wild Draw Four draws one card fewer (WD4-2 wrong)."""

    def plant(self, action: Any, before: ExploreGame, after: ExploreGame) -> None:
        if action.type is ActionType.ACCEPT:
            hand = after.hands[before.turn]
            if len(hand) > len(before.hands[before.turn]):
                after.pile.append(hand.pop())


class ColorStays(EngineSuccessor):
    """A number card played leaves the color as it was (PLAY-1 wrong)."""

    def plant(self, action: Any, before: ExploreGame, after: ExploreGame) -> None:
        if action.type is ActionType.PLAY and action.color is None:
            after.color = before.color


class NoUnoWindow(EngineSuccessor):
    """Going down to one card never opens the UNO window (UNO-1 wrong)."""

    def plant(self, action: Any, before: ExploreGame, after: ExploreGame) -> None:
        if action.type is ActionType.PLAY and after.phase == PLAY:
            after.uno_window = None


@pytest.mark.parametrize("plant", [ShortAccept, ColorStays, NoUnoWindow])
def test_a_planted_wrong_effect_is_caught(plant: type[EngineSuccessor]) -> None:
    assert mismatches("duel", plant) > 0
    cfg = preset_config("duel")
    want = json.loads((DATA / "perft_duel.json").read_text())
    assert compare(want, search(cfg, successor=plant).perft()) is not None


def test_far_presets_build() -> None:
    for name in FAR:
        cfg = config(name, max_states=500)
        g = search(cfg, chunk=64)
        assert g.states >= 500 and g.stopped is not None


# ---------------------------------------------------------------- on Dask workers

def _same_search(g: PackedGraph, want: PackedGraph) -> None:
    """Everything the two searches found, down to the numbering and the edge order."""
    assert g.complete and g.perft() == want.perft()  # states, edges, layers, by action
    assert (g.records.read() == want.records.read()).all()
    assert list(g.parent) == list(want.parent)
    for mine, theirs in ((g.src, want.src), (g.dst, want.dst), (g.act, want.act)):
        assert (mine.read() == theirs.read()).all()
    assert g.stuck == want.stuck and g.generated == want.generated
    assert g.covered == want.covered and g.label_counts == want.label_counts


@pytest.mark.parametrize("workers,partitions", [(1, 1), (2, 3)])
def test_dask_search_is_the_single_process_search(workers: int, partitions: int,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The search partitioned by fingerprint over local worker processes finds what
    search() finds, on a deck with stuck states too; run.py reaches a running cluster."""
    from distributed import Client

    from unoformal.runtime.campaign import local_cluster, shut_down
    from unoformal.verification.packed import run
    from unoformal.verification.packed.partitioned import DaskSearch

    cluster = local_cluster(workers)
    try:
        with Client(cluster) as client:
            for cfg in (preset_config("duel"), short_off()):
                # a cap, so that a search that forgets what it has seen stops (the graphs
                # have cycles) and fails here instead of running on
                cfg = dataclasses.replace(cfg, max_states=50_000)
                _same_search(DaskSearch(cfg, client, partitions).run(), search(cfg))
        assert run.main(["micro", "--scheduler", cluster.scheduler_address]) == 0
    finally:
        shut_down(cluster)
    out = json.loads(capsys.readouterr().out)
    assert (out["states"], out["edges"], out["workers"]) == (24, 48, workers)
