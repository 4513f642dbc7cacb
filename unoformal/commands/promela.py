"""``unoformal explore --promela PRESET``: the preset's round as a Promela program for
Spin, on standard output (unoformal.verification.promela; docs/explorer.md says how its
count of states is checked against the explorer's)."""

from __future__ import annotations

import sys

from unoformal.errors import UnoError
from unoformal.verification.explore.graph import preset_config
from unoformal.verification.promela.model import program


def write(name: str) -> int:
    """Print the program of preset ``name``; one line on standard error if it cannot be."""
    try:
        text = program(preset_config(name)).text
    except UnoError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0
