"""``unoformal show INPUT``: a record, a verify counterexample, a validate mismatch or a
small state graph as one self-contained HTML page to step through (docs/show.md)."""

from __future__ import annotations

import argparse
import os
import sys
import webbrowser
from pathlib import Path
from typing import Any

from unoformal.commands import SUMMARY
from unoformal.commands.options import output_file, whole
from unoformal.errors import InvalidInputError
from unoformal.inputs import MAX_PAGE_STATES, check_output, write_text

GRAPH_LIMIT = 400


def register(sub: Any) -> None:
    from unoformal.verification.explore.presets import PRESETS

    p = sub.add_parser(
        "show", help=SUMMARY["show"],
        description="Write one HTML file (data and script inline: no network, no server) "
                    "that steps through INPUT: a game record or explorer witness, the JSON "
                    "of 'unoformal verify --json' (its counterexample), a validate mismatch "
                    "folder, or, with --preset, a small state graph explored here.")
    p.add_argument("input", nargs="?", help="a record, a verify --json output, or a "
                                             "validate mismatch folder")
    p.add_argument("--preset", choices=sorted(PRESETS),
                   help="explore this small deck and show its state graph")
    p.add_argument("--out", type=output_file, default=None,
                   help="the page to write (default: INPUT's name with .html, or "
                        "PRESET-graph.html)")
    p.add_argument("--open", action="store_true", help="open the page in the browser")
    p.add_argument("--rules", default=None,
                   help="the variant (name or .toml file) of a record or counterexample")
    p.add_argument("--property", default=None,
                   help="of a verify output: this property's counterexample (default the "
                        "first refuted)")
    p.add_argument("--as", dest="seat", default=None, metavar="PLAYER",
                   help="write only what PLAYER may see (HIDDEN-1, CHAL-1's look)")
    p.add_argument("--limit", type=whole(1, MAX_PAGE_STATES), default=GRAPH_LIMIT,
                   help=f"most states of a graph page (default {GRAPH_LIMIT}); a larger "
                        "graph shows the witness and its neighbours")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from unoformal.show.page import render

    try:
        out = _target(args)
        data = _data(args)
        # whole or not at all (a temporary file renamed into place), /dev/null directly
        write_text(out, render(data), "page")
    except InvalidInputError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    print(f"wrote {out} ({len(data['steps']) or len(data['graph']['nodes'])} "
          f"{'steps' if data['steps'] else 'states'})")
    if args.open:
        webbrowser.open(Path(out).resolve().as_uri())
    return 0


def _target(args: argparse.Namespace) -> str:
    """The page's path, checked before any work: ``--out`` (argparse checked it), else
    ``PRESET-graph.html`` or the input's name with ``.html`` in the working folder."""
    if (args.input is None) == (args.preset is None):
        raise InvalidInputError("name one INPUT (a record, a verify --json output, a "
                                "mismatch folder) or --preset, not both or neither")
    if args.out is not None:
        return str(args.out)
    if args.preset is not None:
        name = f"{args.preset}-graph"
    else:
        source = Path(args.input)
        name = (source.name if source.is_dir() else source.stem) or "show"
    # checked here, not by argparse: an error of ours, not argparse's ArgumentTypeError
    return check_output(os.path.join(_working_folder(), f"{name}.html"), "output file")


def _working_folder() -> str:
    try:
        return os.getcwd()
    except OSError as err:  # the working folder was removed
        raise InvalidInputError(f"no working folder to write the page in ({err.strerror}); "
                                "name the page with --out") from None


def _data(args: argparse.Namespace) -> dict[str, Any]:
    from unoformal.show import sources

    if args.preset is not None:
        from unoformal.show.graph import preset_page

        data = preset_page(args.preset, args.limit)
    else:
        kind, value = sources.load(args.input)
        rules = sources.load_rules(args.rules)
        try:
            data = _page(kind, value, args, rules)
        except InvalidInputError as err:
            raise err.at(source=args.input) from None
    if args.seat is not None:
        data = sources.hidden(data, args.seat)
    return data


def _page(kind: str, value: Any, args: argparse.Namespace, rules: Any) -> dict[str, Any]:
    from unoformal.show import sources

    if kind == "record":
        return sources.record_page(value, args.input, rules)
    if kind == "verify":
        return sources.verify_page(value, args.input, rules, args.property)
    return sources.mismatch_page(value)
