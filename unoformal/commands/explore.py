"""``unoformal explore``: exhaustive state graphs of small decks (stuck states, dead
rules, traps), with shortest witnesses as game records."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from unoformal.errors import InvalidInputError
from unoformal.verification.explore import memory
from unoformal.verification.explore.analysis import analyse
from unoformal.verification.explore.graph import Config, StateGraph, explore
from unoformal.verification.explore.perft import estimate
from unoformal.verification.explore.presets import PRESETS, Size, small_rules
from unoformal.verification.explore.render import neighbourhood, to_dot, write
from unoformal.verification.explore.report import summary, text, write_witnesses
from unoformal.verification.explore.witness import path_to


def register(sub: Any) -> None:
    p = sub.add_parser(
        "explore", help="explore the whole state graph of a small deck",
        description="Explore every state of one round of a small deck (every deal, every "
                    "draw) and report stuck states, dead rules and branches, traps and "
                    "unreachable control states, with shortest witnesses.")
    p.add_argument("--preset", choices=sorted(PRESETS), help="a named small deck")
    p.add_argument("--list", action="store_true", help="list the presets and exit")
    size = p.add_argument_group("size (instead of --preset)")
    size.add_argument("--colors", type=int, default=2, help="1-4 (DECK-1)")
    size.add_argument("--numbers", default="1,1",
                      help="copies of rank 0,1,... per color, e.g. 1,2,2 (DECK-1)")
    for flag, what in (("skips", "Skip"), ("reverses", "Reverse"), ("draw-twos", "Draw Two")):
        size.add_argument(f"--{flag}", type=int, default=0, help=f"{what} cards per color")
    size.add_argument("--wilds", type=int, default=1)
    size.add_argument("--wild-draw-fours", type=int, default=1)
    size.add_argument("--players", type=int, default=2, help="2-4 (DECK-2)")
    size.add_argument("--hand", type=int, default=1, help="cards dealt to each (DEAL-2)")
    size.add_argument("--no-penalties", action="store_true",
                      help="leave out advise/misplay actions (ADVICE-1, MISPLAY-1)")
    p.add_argument("--rules", default=None, help="base rules: a variant name or .toml file")
    p.add_argument("--off", action="append", default=[], metavar="RULE",
                   help="switch an extension entry off, e.g. --off EXT-PASS (repeatable)")
    p.add_argument("--symmetry", action="store_true", help="reduce by color permutations")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--dot", metavar="FILE", help="write the graph (or a witness's "
                   "neighbourhood) as graphviz DOT")
    p.add_argument("--png", metavar="FILE", help="the same picture as PNG (needs 'dot')")
    p.add_argument("--witnesses", metavar="DIR", help="write every witness record to DIR")
    p.add_argument("--memory-budget", type=float, default=8.0, metavar="GIB",
                   help="refuse or stop beyond this much memory (default 8)")
    p.add_argument("--max-states", type=int, default=None, help="stop after this many")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def config(args: argparse.Namespace) -> tuple[Config, Size]:
    if args.preset:
        preset = PRESETS[args.preset]
        size, name, extra = preset.size, preset.name, dict(preset.extra)
    else:
        try:
            numbers = tuple(int(x) for x in args.numbers.split(","))
        except ValueError:
            raise InvalidInputError(f"--numbers {args.numbers!r}: expected counts like "
                                    "1,2,2", "DECK-1") from None
        size = Size(args.colors, numbers, args.skips, args.reverses, args.draw_twos,
                    args.wilds, args.wild_draw_fours, args.players, args.hand,
                    not args.no_penalties)
        name, extra = "custom", {}
    if args.no_penalties:
        size = Size(**{**size.__dict__, "penalties": False})
    for rule_id in args.off:
        extra[rule_id] = {"enabled": False}
    rules = small_rules(size, args.rules, extra, name)
    return Config(rules, tuple(size.players_list()), name, args.symmetry, size.penalties,
                  int(args.memory_budget * memory.GIB), args.max_states), size


def run(args: argparse.Namespace) -> int:
    if args.list:
        for preset in PRESETS.values():
            print(f"{preset.name:8s} {preset.description}\n         {preset.size.describe()}")
        return 0
    try:
        cfg, size = config(args)
        pinned = args.preset if not args.off and args.rules is None else None
        states, how = estimate(size, cfg.rules, pinned, cfg.symmetry)
        memory.check(states, cfg.memory_budget, how)
    except InvalidInputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    graph = _explore(cfg, args.no_progress or args.json or not sys.stderr.isatty())
    found = analyse(graph)
    data = summary(graph, found)
    print(json.dumps(data, indent=2) if args.json else text(graph, found, data))
    try:
        _outputs(args, graph, found)
    except InvalidInputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0 if graph.complete else 1


def _explore(cfg: Config, quiet: bool) -> StateGraph:
    if quiet:
        return explore(cfg)
    columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, transient=True) as bar:
        task = bar.add_task("exploring")

        def tick(graph: StateGraph, depth: int) -> None:
            rate = graph.states / max(graph.seconds_so_far(), 1e-9)
            bar.update(task, description=f"depth {depth}  states {graph.states:,}  "
                                         f"edges {graph.edges:,}  {rate:,.0f}/s")

        return explore(cfg, tick)


def _outputs(args: argparse.Namespace, graph: StateGraph, found: Any) -> None:
    if args.witnesses:
        paths = write_witnesses(graph, found, args.witnesses)
        print(f"wrote {len(paths)} witness records to {args.witnesses}")
    for path, png in ((args.dot, False), (args.png, True)):
        if not path:
            continue
        nodes = None
        marked: set[int] = set()
        if graph.states > 300:
            focus = (found.stuck[:1] or [t[0] for t in found.traps[:1]]
                     or (found.cycle or [])[:1] or [graph.states - 1])
            marked = set(focus)
            nodes = neighbourhood(graph, path_to(graph, focus[0]))
        write(to_dot(graph, nodes, marked), path, png)
        print(f"wrote {path}")
