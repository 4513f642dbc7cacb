"""``unoformal explore``: exhaustive state graphs of small decks (stuck states, dead
rules, traps), with shortest witnesses as game records."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from unoformal.commands import SUMMARY, promela
from unoformal.commands.options import output_dir, output_file, real, whole
from unoformal.errors import InvalidInputError, UnoError, one_line
from unoformal.inputs import (
    MAX_COPIES,
    MAX_MEMORY_GIB,
    MAX_STATES,
    ascii_int,
    show,
)
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import VariantError, load_rules_arg
from unoformal.verification.explore import memory
from unoformal.verification.explore.analysis import Findings, analyse
from unoformal.verification.explore.graph import Config, StateGraph, explore
from unoformal.verification.explore.perft import estimate
from unoformal.verification.explore.picture import PICTURE_LIMIT, check_path, draw
from unoformal.verification.explore.presets import PRESETS, Size, small_rules
from unoformal.verification.explore.render import neighbourhood, to_dot, write
from unoformal.verification.explore.report import summary, text, write_witnesses
from unoformal.verification.explore.witness import path_to
from unoformal.verification.packed import bridge
from unoformal.verification.packed import report as packed_report
from unoformal.verification.packed.commands import Unsupported
from unoformal.verification.packed.presets import FAR, names
from unoformal.verification.packed.reading import Unread
from unoformal.verification.packed.search import PackedGraph, cleanup

SUCCESSORS = ("engine", "c")  # the packed search's, as a user picks them

copies = whole(0, MAX_COPIES, "DECK-1")


EXIT_INTERRUPTED = 130  # as the shell reports a command ended by Ctrl-C (128 + SIGINT)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "explore", help=SUMMARY["explore"],
        description="Explore every state of one round of a small deck (every deal, every "
                    "draw) and report stuck states, dead rules and branches, traps and "
                    "unreachable control states, with shortest witnesses.")
    p.add_argument("--preset", choices=sorted(names()), help="a named small deck")
    p.add_argument("--list", action="store_true", help="list the presets and exit")
    p.add_argument("--promela", choices=sorted(PRESETS), metavar="PRESET",
                   help="print the preset's round as a Promela program for Spin and exit")
    size = p.add_argument_group("size (instead of --preset)")
    size.add_argument("--colors", type=whole(1, 4, "DECK-1"), default=2, help="1-4 (DECK-1)")
    size.add_argument("--numbers", default="1,1",
                      help="copies of rank 0,1,... per color, e.g. 1,2,2 (DECK-1)")
    for flag, what in (("skips", "Skip"), ("reverses", "Reverse"), ("draw-twos", "Draw Two")):
        size.add_argument(f"--{flag}", type=copies, default=0, help=f"{what} cards per color")
    size.add_argument("--wilds", type=copies, default=1)
    size.add_argument("--wild-draw-fours", type=copies, default=1)
    size.add_argument("--players", type=whole(2, 4, "DECK-2"), default=2, help="2-4 (DECK-2)")
    size.add_argument("--hand", type=whole(1, MAX_COPIES, "DEAL-2"), default=1,
                      help="cards dealt to each (DEAL-2)")
    size.add_argument("--no-penalties", action="store_true",
                      help="leave out advise/misplay actions (ADVICE-1, MISPLAY-1)")
    p.add_argument("--rules", default=None, help="base rules: a variant name or .toml file")
    p.add_argument("--off", action="append", default=[], metavar="EXT", type=extension,
                   help=f"switch an extension off: {', '.join(EXTENSIONS)} (repeatable)")
    p.add_argument("--symmetry", action="store_true", help="reduce by color permutations")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--dot", metavar="FILE", type=output_file,
                   help="write the graph (or a witness's neighbourhood) as graphviz DOT")
    p.add_argument("--png", metavar="FILE", type=output_file,
                   help="the same picture as PNG (needs 'dot')")
    p.add_argument("--picture", metavar="FILE", type=picture_file,
                   help="a picture that shows the cards (.svg, .png or .pdf; no graphviz "
                        f"needed): the whole graph up to {PICTURE_LIMIT} states, else the "
                        "witness of the first finding and its neighbours")
    p.add_argument("--witnesses", metavar="DIR", type=output_dir,
                   help="write every witness record to DIR")
    p.add_argument("--memory-budget", type=real(0, MAX_MEMORY_GIB), default=8.0,
                   metavar="GIB", help="refuse or stop beyond this much memory (default 8)")
    p.add_argument("--max-states", type=whole(1, MAX_STATES), default=None,
                   help="stop after this many")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    packed = p.add_argument_group(
        "backend", "graph: the explorer's graph of Python objects (about 500 bytes a "
        "state); packed: fixed-width records and 64-bit fingerprints in arrays (about 50 "
        "bytes a state), for graphs of millions of states, with the same counts, findings "
        "and, up to 2,000,000 states, the same witnesses and pictures")
    packed.add_argument("--backend", choices=("graph", "packed"), default="graph")
    packed.add_argument("--spill", metavar="DIR", type=output_dir,
                        help="packed: keep the records and edges in files under DIR "
                             "(removed at the end)")
    packed.add_argument("--workers", type=whole(1, 64), default=None,
                        help="packed: search on N local Dask worker processes, partitioned "
                             "by fingerprint (the same result as one process)")
    packed.add_argument("--successor", choices=SUCCESSORS, default="engine",
                        help="packed: engine (the explorer's own successor function, "
                             "through the engine) or c (the table's commands written as "
                             "source, translated to C and built once per table into the "
                             "user's cache: the same graph, about ten times the states a "
                             "CPU second)")
    p.set_defaults(run=run)


# Only the extensions: the rulebook's own entries are what is explored, and an entry
# switched off that is not read as off (every one but TWO-1, ADVICE-1 and the start
# rules) would silently change nothing.
EXTENSIONS = tuple(rule.id for _, rule in CLASSIC.entries() if rule.extension)


def extension(text: str) -> str:
    """``--off``: an extension's rule ID."""
    if text in EXTENSIONS:
        return text
    what = "a rulebook rule" if any(r.id == text for _, r in CLASSIC.entries()) else "no rule"
    raise argparse.ArgumentTypeError(
        f"{show(text)} is {what}, not an extension: only {', '.join(EXTENSIONS)} can be "
        "switched off")


def picture_file(text: str) -> str:
    """``--picture``: a file to write whose suffix matplotlib can write."""
    try:
        check_path(text)
    except InvalidInputError as err:
        raise argparse.ArgumentTypeError(err.message) from None
    return output_file(text)


def config(args: argparse.Namespace) -> tuple[Config, Size]:
    base: str | None = args.rules
    if args.preset in PRESETS:
        preset = PRESETS[args.preset]
        size, name, extra = preset.size, preset.name, dict(preset.extra)
    elif args.preset:  # one of the packed search's presets that reach further
        far = FAR[args.preset]
        size, name, extra = far.size, far.name, {}
        base = args.rules if args.rules is not None else far.base
    else:
        numbers = _numbers(args.numbers)
        size = Size(args.colors, numbers, args.skips, args.reverses, args.draw_twos,
                    args.wilds, args.wild_draw_fours, args.players, args.hand,
                    not args.no_penalties)
        name, extra = "custom", {}
    if args.no_penalties:
        size = Size(**{**size.__dict__, "penalties": False})
    for rule_id in args.off:
        extra[rule_id] = {"enabled": False}
    if args.rules is not None:
        load_rules_arg(args.rules, "--rules")  # a file checked before it is read
    rules = small_rules(size, base, extra, name)
    return Config(rules, tuple(size.players_list()), name, args.symmetry, size.penalties,
                  int(args.memory_budget * memory.GIB), args.max_states), size


def _numbers(text: str) -> tuple[int, ...]:
    """``--numbers``: copies of rank 0, 1 ... per color, at most ten ranks (DECK-1)."""
    parts = text.split(",")
    try:
        if len(parts) > 10:
            raise InvalidInputError("ranks go from 0 to 9")
        return tuple(ascii_int(x, "--numbers", 0, MAX_COPIES) for x in parts)
    except InvalidInputError:
        raise InvalidInputError(f"--numbers {show(text)}: expected up to ten counts from 0 to "
                                f"{MAX_COPIES} like 1,2,2", "DECK-1") from None


def run(args: argparse.Namespace) -> int:
    if args.list:
        for preset in PRESETS.values():
            print(f"{preset.name:8s} {preset.description}\n         {preset.size.describe()}")
        for far in FAR.values():
            print(f"{far.name:8s} {far.description} (for --backend packed)\n"
                  f"         {far.size.describe()}")
        return 0
    if args.promela:
        return promela.write(args.promela)
    try:
        cfg, size = config(args)
        if args.backend == "packed":
            _packed_options(args)
        else:
            pinned = args.preset if not args.off and args.rules is None else None
            states, how = estimate(size, cfg.rules, pinned, cfg.symmetry)
            memory.check(states, cfg.memory_budget, how)
    except (InvalidInputError, VariantError) as err:
        print(f"error: {_line(err)}", file=sys.stderr)
        return 2
    quiet = args.no_progress or args.json or not sys.stderr.isatty()
    if args.backend == "packed":
        return _run_packed(args, cfg, quiet)
    if args.spill or args.workers or args.successor != "engine":
        print("error: --spill, --workers and --successor are the packed backend's: add "
              "--backend packed", file=sys.stderr)
        return 2
    graph = _explore(cfg, quiet)
    return _report(args, graph, analyse(graph), {})


def _packed_options(args: argparse.Namespace) -> None:
    """What the packed backend cannot do, refused before the search starts."""
    if args.symmetry:
        raise InvalidInputError("--symmetry: the packed backend has no color symmetry; "
                                "use --backend graph")
    if args.successor != "engine" and args.workers:
        raise InvalidInputError(f"--successor {args.successor} with --workers: the Dask "
                                "workers run the engine's successor; leave one out")


def _run_packed(args: argparse.Namespace, cfg: Config, quiet: bool) -> int:
    """The packed search, reported as the explorer's own where it can hold the graph."""
    try:
        g = _packed_search(args, cfg, quiet)
    except KeyboardInterrupt:  # Ctrl-C while the Dask cluster starts: nothing found yet
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (Unread, Unsupported) as err:  # a table the generated source cannot read
        print(f"error: --successor {args.successor}: {err}; --successor engine reads "
              "every table", file=sys.stderr)
        return 2
    try:
        rebuilt = packed_report.as_explorer(g)
        extra = packed_report.extra(g)
        if rebuilt is not None:
            return _report(args, rebuilt[0], rebuilt[1], extra)
        data = {**packed_report.summary(g), **extra}
        print(json.dumps(data, indent=2) if args.json else
              packed_report.text(data) + "\n" + packed_report.footer(data))
        asked = [flag for flag, value in (("--witnesses", args.witnesses), ("--dot", args.dot),
                                          ("--png", args.png), ("--picture", args.picture))
                 if value]
        if asked:
            print(f"error: {', '.join(asked)}: not written: {g.states:,} states are more than "
                  f"the explorer's graph holds ({bridge.LIMIT:,}); the "
                  "witnesses and pictures need it", file=sys.stderr)
            return 2
        if g.stopped == "interrupted":
            print("interrupted (the partial results above)", file=sys.stderr)
            return EXIT_INTERRUPTED
        return 0 if g.complete else 1
    finally:
        cleanup(g)


def _packed_search(args: argparse.Namespace, cfg: Config, quiet: bool) -> PackedGraph:
    if quiet:
        return packed_report.run(cfg, args.workers, args.spill, None, args.successor)
    with _bar("exploring (packed)") as say:
        def tick(g: PackedGraph, depth: int) -> None:
            say(f"depth {depth}  states {g.states:,}  edges {g.edges:,}")

        return packed_report.run(cfg, args.workers, args.spill, tick, args.successor)


@contextlib.contextmanager
def _bar(label: str) -> Iterator[Callable[[str], None]]:
    """A transient spinner on standard error; the function it yields sets its words."""
    columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, transient=True) as bar:
        task = bar.add_task(label)
        yield lambda words: bar.update(task, description=words)


def _report(args: argparse.Namespace, graph: StateGraph, found: Findings,
            extra: dict[str, Any]) -> int:
    """The explorer's summary and outputs of ``graph`` (``extra``: the packed backend's
    own figures, with a line of their own)."""
    data = {**summary(graph, found), **extra}
    shown = text(graph, found, data) + ("\n" + packed_report.footer(data) if extra else "")
    print(json.dumps(data, indent=2) if args.json else shown)
    try:
        _outputs(args, graph, found)
    except InvalidInputError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    except OSError as err:  # the folder checked at the start went away, or a full disk
        print(f"error: cannot write: {err.strerror}: {err.filename}", file=sys.stderr)
        return 2
    if graph.stopped == "interrupted":
        print("interrupted (the partial results above)", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0 if graph.complete else 1


def _line(err: Exception) -> str:
    return err.line() if isinstance(err, UnoError) else one_line(str(err))


def _explore(cfg: Config, quiet: bool) -> StateGraph:
    if quiet:
        return explore(cfg, partial=True)  # Ctrl-C: the partial results are reported
    with _bar("exploring") as say:
        def tick(graph: StateGraph, depth: int) -> None:
            rate = graph.states / max(graph.seconds_so_far(), 1e-9)
            say(f"depth {depth}  states {graph.states:,}  edges {graph.edges:,}  "
                f"{rate:,.0f}/s")

        return explore(cfg, tick, partial=True)


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
    if args.picture:
        drawn = draw(graph, found, args.picture)
        cut = f"; {drawn.note}" if drawn.note else f"; {len(drawn.nodes)} states"
        print(f"wrote {args.picture}{cut}")
