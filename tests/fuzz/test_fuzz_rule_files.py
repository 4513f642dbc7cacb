"""Hostile rule files (issue 40: a broken rule file gets an error that names the file, the
entry and the field, never a traceback): house rules of every shape, conditions spliced
from the language's words and stray characters, changes naming anything. Each file is
refused with one VariantError naming the file, or read into a table whose games play."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from unoformal.engine.game import Game
from unoformal.errors import VariantError
from unoformal.rulebook.variants import load_rules
from unoformal.rules.house import CHANGEABLE, CONDITIONS

from .families import hostile_text, json_values

WORDS = [*CONDITIONS, "and", "or", "not", "(", ")", ",", "play", "drawn", "respond", "true",
         "false", "0", "1", "7", "draw_two", "wild_draw_four", "nowhere", "(", "))", ";", "'"]
CONJUNCTS = ["one draw per turn", "nothing is left to draw", "pass only after drawing (keep "
             "the drawn card)", "the first player must choose the color first", "nope"]


# Conditions that read, so that some files play: a change that is allowed where it was not
VALID = ["phase(play)", "drawn-playable(true) or fewer-cards-left-than(1)",
         "not phase(drawn)", "phase-in(play, drawn) and can-play(false)", "hand-size(1)",
         "holds-kind(draw_two) or pending-in(wild_draw_four)"]


@st.composite
def conditions(draw: st.DrawFn) -> str:
    """A condition: one that reads now and then, else the language's words and stray
    characters in any order."""
    if draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from(VALID))
    parts = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12))
    if draw(st.booleans()):
        parts.insert(draw(st.integers(0, len(parts))), draw(hostile_text(8)))
    return " ".join(parts)


@st.composite
def changes(draw: st.DrawFn) -> dict[str, Any]:
    """A well-formed change, so that its conditions are parsed (where the hostile part
    is), now and then with one part spoiled."""
    change: dict[str, Any] = {"command": draw(st.sampled_from(CHANGEABLE))}
    if draw(st.booleans()):
        change["conjunct"] = draw(st.sampled_from(CONJUNCTS))
        change["when"] = draw(conditions())
    else:
        change["require"] = draw(conditions())
        change["words"] = "{actor} may not"
    spoil = draw(st.integers(0, 11))
    if spoil == 1:
        change[draw(st.sampled_from(["when", "drop", "words", "extra"]))] = draw(json_values)
    elif spoil == 2:
        change["command"] = draw(st.sampled_from(["play_number", "Draw", ""]))
    elif spoil == 3:
        change.pop("words", None)
    return change


@st.composite
def rule_files(draw: st.DrawFn) -> dict[str, Any]:
    """A rule file with one house rule, well-formed but for its conditions most of the
    time, its head spoiled now and then."""
    house: dict[str, Any] = {"id": "HOUSE-X", "text": "A house rule.",
                             "change": draw(st.lists(changes(), min_size=1, max_size=3))}
    spoil = draw(st.integers(0, 11))
    if spoil == 1:
        house["id"] = draw(st.sampled_from(["x", "DRAW-1", "HOUSE-", ""]))
    elif spoil == 2:
        house["text"] = ""
    if draw(st.booleans()):
        house["enabled"] = draw(st.booleans())
    if draw(st.booleans()):
        side = draw(st.sampled_from(["before", "after"]))
        house["property"] = [{"name": "after-draw" if spoil == 3 else "mine", "says": "says",
                              side: draw(conditions()),
                              "command": draw(st.sampled_from(["keep", "draw", "nowhere"]))}]
    return {"name": "hostile", "base": "classic", "house": [house]}


def _clean(value: Any) -> Any:
    """TOML has no null: drop what it cannot write."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_clean(v) for v in value if v is not None]
    return value


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(rule_files())
def test_a_hostile_rule_file_is_refused_naming_the_file_or_plays(data: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hostile.toml"
        try:
            path.write_text(tomli_w.dumps(_clean(data)), encoding="utf-8")
        except (TypeError, ValueError):
            event("not TOML")
            return
        try:
            rules = load_rules(str(path))
        except VariantError as err:
            assert "hostile.toml" in err.message and "\n" not in err.message, err.message
            event("refused")
            return
    event("read")
    game, rng = Game(["A", "B"], seed=1, rules=rules), random.Random(1)
    for _ in range(60):
        if game.round_over:
            break
        game.apply(rng.choice(game.legal_actions()))
