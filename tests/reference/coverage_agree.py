"""The coverage labels the commands count as they run, against the labels the frozen
labeller (``coverage_v1.py``, the explorer's labeller before the labels moved into the
commands) worked out from the states before and after: on every edge of every preset's
complete graph, under every shipped variant.

Where the two differ by decision, the difference is named in :data:`DECIDED` (or
:data:`JUDGED`, on a challenge's edges), with the reason, and nowhere else: any other
difference is a disagreement. Run as a module for the full check
(``python -m tests.reference.coverage_agree``); ``test_coverage_agree.py`` runs a sample.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from tests.reference import FROZEN_VARIANTS
from tests.reference.coverage_v1 import Labeler as OldLabeler
from tests.reference.coverage_v1 import catalogue as old_catalogue
from unoformal.engine.actions import Action, ActionType
from unoformal.rules.state import OVER
from unoformal.verification.explore.chance import (
    ExploreGame,
    deal_outcomes,
    first_outcome,
    outcomes,
)
from unoformal.verification.explore.coverage import Labeler, catalogue
from unoformal.verification.explore.graph import Explorer
from unoformal.verification.explore.presets import PRESETS, small_rules

Label = tuple[str, str]

# Labels whose meaning changed by decision when they moved into the commands, with why.
DECIDED: dict[Label, str] = {
    ("NOSTACK-1", "victim-holds-draw-card"):
        "counted where the victim answers otherwise (accepts or challenges) while holding "
        "a draw card they may not answer with; the frozen labeller counted any move at all "
        "made while such a victim was to answer, a catch or a call by another player too, "
        "and a draw card the victim could answer with",
    ("UNO-1", "window-closes"):
        "counted where a turn begins while another player's window is open: their missed "
        "UNO is safe; the frozen labeller missed it where the move opened the mover's own "
        "window at once (the state after held a window again)",
    ("UNO-1", "window-opens"):
        "a branch the frozen catalogue lacked: where a play leaves its player with one card "
        "and no UNO said, their window opens (the referee names UNO-1 from it, where it "
        "read the window from the state before)",
    ("WD4-2", "victim-draws"):
        "a branch the frozen catalogue lacked: where a Wild Draw Four is not answered "
        "(rlcard: never challenged), its victim draws at once, as a Draw Two's does",
}


# WD4-1's branches are counted again where a challenge judges the card played
# (rules.challenge.legality: the referee names WD4-1 from it); the frozen labeller counted
# them only where the card was played. Set apart on a challenge's edges only, so that a
# play's are still compared.
JUDGED = frozenset({("WD4-1", "legal"), ("WD4-1", "bluff")})


@dataclass
class Tally:
    edges: int = 0
    states: int = 0
    deals: int = 0
    agree: int = 0
    decided: Counter[Label] = field(default_factory=Counter)
    disagreements: list[str] = field(default_factory=list)
    old_covered: set[Label] = field(default_factory=set)
    new_covered: set[Label] = field(default_factory=set)


def _games(explorer: Explorer) -> Iterator[ExploreGame]:
    cfg = explorer.config
    template: ExploreGame | None = None
    for deal in explorer.deals():
        if template is None:
            template = first_outcome(cfg.players, cfg.rules, cfg.dealer, deal.json)
        for _, game in deal_outcomes(template, deal):
            yield game


def compare(preset: str, variant: str, limit: int | None = None) -> Tally:
    """Every edge of ``preset``'s graph under ``variant``, breadth first (up to ``limit``
    states)."""
    size = PRESETS[preset].size
    rules = small_rules(size, base=variant, extra=PRESETS[preset].extra, name=preset)
    from unoformal.verification.explore.graph import Config
    explorer = Explorer(Config(rules, tuple(size.players_list()), preset,
                               penalties=size.penalties))
    tally = Tally()
    seen: set[object] = set()
    frontier = []
    for game in _games(explorer):
        _dealt(tally, game)
        key = explorer.keyer.key(game)
        if key not in seen:
            seen.add(key)
            frontier.append(game)
    old = OldLabeler(frontier[0])
    while frontier and (limit is None or tally.states < limit):
        nxt = []
        for game in frontier:
            tally.states += 1
            for action in game.legal_actions(penalties=size.penalties):
                for _, child in outcomes(game, action, True):
                    _edge(tally, old, game, action, child)
                    key = explorer.keyer.key(child)
                    if key not in seen and child.phase != OVER:
                        seen.add(key)
                        nxt.append(child)
        frontier = nxt
    return tally


def _dealt(tally: Tally, game: ExploreGame) -> None:
    """A deal's labels: the start command's, against the frozen labeller's reading of
    the dealt state and the chance events."""
    tally.deals += 1
    was = set(OldLabeler(game).initial(game, game.events))
    now = set(Labeler(game).initial(game))
    tally.old_covered |= was
    tally.new_covered |= now
    if was != now:
        tally.disagreements.append(f"deal {game.to_text()}: old {sorted(was)} new {sorted(now)}")


def _edge(tally: Tally, old: OldLabeler, game: ExploreGame, action: Action,
          child: ExploreGame) -> None:
    tally.edges += 1
    was = set(old.edge(game, action, child, child.events))
    now = set(child.ran or ())
    if action.type is ActionType.CHALLENGE:
        judged = now & JUDGED
        tally.decided.update(judged)
        now -= judged
    tally.old_covered |= was
    tally.new_covered |= now
    differ = was ^ now
    if not differ:
        tally.agree += 1
        return
    for label in differ:
        if label in DECIDED:
            tally.decided[label] += 1
        else:
            tally.disagreements.append(
                f"{game.to_text()} --{action}--> old {sorted(was)} new {sorted(now)}")
            return


def catalogue_differences(variant: str) -> list[str]:
    """The catalogue of the full table under ``variant``: the same branches as the
    frozen one's, as (rule, branch) pairs."""
    from unoformal.rulebook.variants import load_rules
    rules = load_rules(variant)
    was = [(b.rule, b.name) for b in old_catalogue(rules)]
    now = [(b.rule, b.name) for b in catalogue(rules)]
    return [f"{variant}: only the frozen catalogue has {x}" for x in was if x not in now] + \
        [f"{variant}: only the commands' catalogue has {x}" for x in now
         if x not in was and x not in DECIDED]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # `large` has no complete graph in this machine's memory (docs/explorer.md)
    parser.add_argument("--presets", default=",".join(p for p in PRESETS if p != "large"))
    parser.add_argument("--variants", default=",".join(FROZEN_VARIANTS))
    parser.add_argument("--limit", type=int, default=None, help="states per graph")
    args = parser.parse_args(argv)
    bad = 0
    for variant in args.variants.split(","):
        for line in catalogue_differences(variant):
            print(line)
            bad += 1
        for preset in args.presets.split(","):
            t = compare(preset, variant, args.limit)
            lost = t.old_covered - t.new_covered - set(DECIDED)
            print(f"{variant:10} {preset:10} deals {t.deals:>6,} states {t.states:>7,} "
                  f"edges {t.edges:>8,} "
                  f"agree {t.agree:>8,} decided {dict(t.decided)} "
                  f"disagree {len(t.disagreements)} covered old {len(t.old_covered)} "
                  f"new {len(t.new_covered)}{' LOST ' + str(sorted(lost)) if lost else ''}")
            for line in t.disagreements[:3]:
                print("   ", line)
            bad += len(t.disagreements) + len(lost)
    print("disagreements:", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
