"""A packed graph as the explorer's :class:`StateGraph`, built from the arrays on request.

For graphs that fit as Python objects (the small presets, a witness's neighbourhood):
every record decoded once to get its canonical key and control state, so the explorer's
analysis (:func:`..explore.analysis.analyse`: stuck states, traps, endless rounds, idle
loops, dead branches, unreached control states), its witnesses (:mod:`..explore.witness`)
and its pictures read the packed search's result unchanged. The packed search's own
findings (stuck states, branch counts, first witnesses) are kept as arrays and need
none of this; the tests compare the two.
"""

from __future__ import annotations

from array import array

from unoformal.verification.explore.chance import ExploreGame
from unoformal.verification.explore.graph import StateGraph, control
from unoformal.verification.explore.keys import Keyer
from unoformal.verification.packed.layout import OVER_CODE, PHASE_INDEX
from unoformal.verification.packed.search import PackedGraph

LIMIT = 2_000_000  # states: beyond this, read the arrays instead


def to_state_graph(g: PackedGraph, template: ExploreGame) -> StateGraph:
    """The explorer's graph of a packed search (``template``: any game of its table)."""
    if g.states > LIMIT:
        raise ValueError(f"{g.states:,} states: too many to hold as the explorer's graph")
    if g.edges and g.dst.rows == 0:
        raise ValueError("the packed search kept no edges (edges=False)")
    keyer = Keyer(g.layout.deck, seats_out=g.layout.seats_out)
    sg = StateGraph(g.config, keyer)
    records = g.records.read()
    for sid in range(g.states):
        game = g.layout.decode(bytes(records[sid]), template)
        key = keyer.key(game)
        sg.keys.append(key)
        sg.index[key] = sid
        sg.phase.append(PHASE_INDEX[game.phase])
        sg.controls.add(control(game))
    sg.parent = array("i", g.parent)
    sg.depth = array("i", [d for d, n in enumerate(g.layer_states) for _ in range(n)])
    # The explorer expands every state of a complete search (and marks the finished
    # rounds expanded); a stopped one only up to where it stopped, which may be inside
    # a layer.
    done = g.states if g.complete else g.expanded
    sg.expanded = bytearray(1 if sid < done or records[sid][0] == OVER_CODE else 0
                            for sid in range(g.states))
    sg.src = array("i", g.src.read().tolist())
    sg.dst = array("i", g.dst.read().tolist())
    sg.act = bytearray(g.act.read().tobytes())
    sg.roots = dict(g.roots)
    sg.covered = dict(g.covered)
    sg.layer_states = g.layer_states
    sg.layer_edges = list(g.layer_edges)
    sg.stopped = g.stopped
    sg.seconds = g.seconds
    sg.peak_bytes = g.peak_bytes
    return sg
