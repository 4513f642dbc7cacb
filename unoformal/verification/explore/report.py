"""The explorer's summary and findings, as text and as JSON, with witness records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from unoformal.engine.record import with_rules
from unoformal.inputs import write_text
from unoformal.rulebook.table import RuleTable
from unoformal.rules.state import PHASES
from unoformal.verification.explore.analysis import Findings
from unoformal.verification.explore.graph import StateGraph
from unoformal.verification.explore.witness import Witness, WitnessError, rules_toml, witness


def witnesses(graph: StateGraph, found: Findings) -> dict[str, Witness | str]:
    """A shortest witness for every finding (or why there is none)."""
    out: dict[str, Witness | str] = {}

    def add(name: str, sid: int, then: Any = None, last: int | None = None,
            more: list[int] | None = None) -> None:
        try:
            out[name] = witness(graph, sid, then, last, more)
        except WitnessError as err:
            out[name] = str(err)

    for i, sid in enumerate(found.stuck[:3]):
        add(f"stuck-{i}", sid)
    for i, members in enumerate(found.traps[:3]):
        if found.more_than_stuck(members):
            add(f"trap-{i}", min(members, key=lambda s: graph.depth[s]))
    if found.cycle:
        add("cycle", found.cycle[0], more=found.cycle[1:])  # goes round once
    for (rule, branch), (src, action, dst) in sorted(found.covered.items()):
        if src < 0:
            add(f"{rule}.{branch}", dst)
        else:
            add(f"{rule}.{branch}", src, action, dst)
    return out


def summary(graph: StateGraph, found: Findings) -> dict[str, Any]:
    cfg = graph.config
    traps = found.real_traps()
    return {
        "preset": cfg.name, "rules": cfg.rules.name, "players": list(cfg.players),
        "symmetry": cfg.symmetry, "penalties": cfg.penalties,
        "extensions_off": extensions_off(cfg.rules),
        "complete": graph.complete, "stopped": graph.stopped,
        "states": graph.states, "edges": graph.edges,
        "unreduced_states": sum(graph.orbit) if cfg.symmetry else graph.states,
        "round_over": found.round_over, "stuck": len(found.stuck),
        "no_round_end": len(found.doomed) if graph.complete else None,
        "traps": len(traps) if graph.complete else None,
        "endless_round": (found.cycle is not None) if graph.complete else None,
        "cycle_length": len(found.cycle) - 1 if found.cycle else None,
        "idle_loops": found.idle_loops,
        "dead": [{"rule": b.rule, "branch": b.name, "text": b.text, "why": why}
                 for b, why in found.dead],
        "unreached": found.unreached,
        "outside_round": found.outside,
        "depth": len(graph.layer_states),
        "perft": graph.layer_states,
        "seconds": round(graph.seconds, 3),
        "states_per_second": round(graph.states / graph.seconds) if graph.seconds else None,
        "peak_memory_mib": round(graph.peak_bytes / (1 << 20), 1),
    }


def extensions_off(rules: RuleTable) -> list[str]:
    """The extension entries switched off: what the findings are found without."""
    return [rule.id for _, rule in rules.entries() if rule.extension and not rule.enabled]


def _count(value: int | None) -> str:
    """A figure, or "unknown" where an incomplete search cannot say."""
    return "unknown" if value is None else f"{value:,}"


def text(graph: StateGraph, found: Findings, data: dict[str, Any]) -> str:
    lines = summary_lines(data)
    traps = [t[0] for t in found.real_traps()][:1]
    for name, sid in (("stuck", found.stuck[:1]), ("trap", traps)):
        for s in sid:
            lines.append(f"  first {name} state #{s} ({PHASES[graph.phase[s]]}, depth "
                         f"{graph.depth[s]})")
    return "\n".join(lines)


def summary_lines(data: dict[str, Any]) -> list[str]:
    """The summary's lines from its keys (:func:`summary`'s, or the packed search's from
    its arrays, which leave unknown what they cannot say: None)."""
    yes = {True: "yes", False: "no", None: "unknown (search incomplete)"}
    off = data["extensions_off"]
    lines = [
        f"explored {data['preset']} under {data['rules']} ({', '.join(data['players'])}"
        f"{', color symmetry' if data['symmetry'] else ''})"
        + (f" with extensions off: {', '.join(off)}" if off else ""),
        f"  states {data['states']:,}  edges {data['edges']:,}  round-over "
        f"{_count(data['round_over'])}  depth {data['depth']}",
    ]
    if data["symmetry"]:
        lines.append(f"  unreduced states (sum of orbits) {data['unreduced_states']:,}")
    if not data["complete"]:
        lines.append(f"  INCOMPLETE: {data['stopped']}; findings so far")
    lines += [
        f"  stuck states {data['stuck']:,}",
        f"  states with no round end reachable {_count(data['no_round_end'])}  traps "
        f"{_count(data['traps'])}",
        f"  a round can go on forever (a cycle of distinct states): "
        f"{yes[data['endless_round']]}"
        + (f" (cycle of {data['cycle_length']})" if data["cycle_length"] else ""),
        f"  idle actions (self-loops: the state does not change) "
        f"{_count(data['idle_loops'])}",
        f"  dead rules/branches {len(data['dead'])}",
    ]
    lines += [f"    {d['rule']} {d['branch']}: {d['why']}" for d in data["dead"]]
    if data["unreached"]:
        lines.append(f"  unreached control states {len(data['unreached'])}")
        lines += [f"    {u}" for u in data["unreached"]]
    lines.append(f"  time {data['seconds']:.2f} s ({data['states_per_second'] or 0:,} states/s)"
                 f"  peak memory {data['peak_memory_mib']:,} MiB")
    return lines


def write_witnesses(graph: StateGraph, found: Findings, folder: str | Path) -> list[Path]:
    """Write every witness as ``NAME.json``, its rules embedded, so ``unoformal replay
    FOLDER/NAME.json`` plays it from anywhere; ``rules.toml`` beside them is the same
    variant as a file, for ``--rules``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    toml = folder / "rules.toml"
    write_text(str(toml), rules_toml(graph.config.rules), "witnesses' rules")
    paths = []
    for name, w in witnesses(graph, found).items():
        if isinstance(w, str):
            continue
        path = folder / f"{name}.json"
        record = with_rules(w.record, graph.config.rules)  # embedded: no path to go stale
        write_text(str(path), json.dumps(record, indent=1) + "\n", "witness")
        paths.append(path)
    return paths
