"""The manifest of expected verdicts (``manifest.toml``, shipped with the package)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from unoformal.verification.z3.prover import PROVED

PATH = Path(__file__).with_name("manifest.toml")


@dataclass(frozen=True)
class Expectation:
    verdict: str
    reason: str


def _players(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


@cache
def load() -> dict[str, Any]:
    return tomllib.loads(PATH.read_text())


def variants_of(entry: dict[str, Any]) -> list[str]:
    """An entry's ``rules``: one variant name, or a list of them."""
    rules = entry["rules"]
    return [rules] if isinstance(rules, str) else list(rules)


def expected(rules: str, prop: str, n: int) -> Expectation:
    """The verdict the manifest expects (proved unless listed)."""
    for entry in load().get("expect", []):
        if rules in variants_of(entry) and entry["property"] == prop and n in _players(
                entry["players"]):
            return Expectation(entry["verdict"], entry["reason"])
    return Expectation(PROVED, "")


def mutants() -> list[dict[str, Any]]:
    return list(load().get("mutant", []))


def equivalents() -> dict[str, str]:
    return {e["rule"]: e["reason"] for e in load().get("equivalent", [])}
