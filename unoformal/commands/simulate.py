"""``unoformal simulate``: not yet built (see the project's open issues)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("simulate", help="(not yet available)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    print("unoformal simulate is not available yet")
    return 2
