"""A perft table, like python-chess's: distinct states by depth from the deals.

``layers[d]`` is the number of distinct states first reached after ``d`` actions;
``edges[d]`` splits the edges out of those states by action type, so a mismatch with a
pinned table points at the rule (action) that went wrong and the depth where it did.
"""

from __future__ import annotations

from typing import Any

from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.verification.explore import memory
from unoformal.verification.explore.graph import StateGraph
from unoformal.verification.explore.presets import PRESETS, Size, small_rules


def table(graph: StateGraph) -> dict[str, Any]:
    return {"preset": graph.config.name, "symmetry": graph.config.symmetry,
            "states": graph.states, "edges": graph.edges,
            "layers": list(graph.layer_states), "by_action": list(graph.layer_edges)}


def compare(expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
    """None when equal, else a report naming the first depth that differs and the split
    of its edges by action."""
    if expected == actual:
        return None
    lines = [f"perft mismatch for {expected.get('preset')}: states "
             f"{expected.get('states')} -> {actual.get('states')}, edges "
             f"{expected.get('edges')} -> {actual.get('edges')}"]
    want, got = expected.get("layers", []), actual.get("layers", [])
    for d in range(max(len(want), len(got))):
        w = want[d] if d < len(want) else None
        g = got[d] if d < len(got) else None
        ew = expected["by_action"][d] if d < len(expected.get("by_action", [])) else {}
        eg = actual["by_action"][d] if d < len(actual.get("by_action", [])) else {}
        if w != g or ew != eg:
            lines.append(f"  depth {d}: states {w} -> {g}")
            for act in sorted(set(ew) | set(eg)):
                if ew.get(act) != eg.get(act):
                    lines.append(f"    {act}: {ew.get(act, 0)} -> {eg.get(act, 0)}")
            break
    return "\n".join(lines)


def pinned_states(preset: str, symmetry: bool) -> int | None:
    """The measured state count of a preset (for the memory estimate)."""
    p = PRESETS.get(preset)
    if p is None or p.measured is None:
        return None
    return p.measured[0] if not symmetry or p.measured[1] is None else p.measured[1]


def estimate(size: Size, rules: RuleTable, preset: str | None, symmetry: bool) -> tuple[int, str]:
    """States a run will find, and how that number was obtained: measured for a pinned
    preset, else the combinatorial bound scaled by the largest measured/bound ratio of
    the pinned presets (the bound alone overstates small decks a thousandfold)."""
    if preset is not None:
        known = pinned_states(preset, symmetry)
        if known is not None:
            return known, "measured"
    bound = memory.state_bound(Deck.of(rules), size.players)
    ratios = [p.measured[0] / memory.state_bound(Deck.of(small_rules(p.size)), p.size.players)
              for p in PRESETS.values() if p.measured is not None]
    if not ratios:
        return bound, "upper bound"
    return max(1, int(bound * max(ratios))), "estimate from the bound and the presets"
