"""What one seat may see of a trace: its information set, as one function of the page data.

A trace step holds everything (the referee's view). :func:`step_as` keeps of it what the
seat ``seat`` may know (HIDDEN-1), and nothing else:

* its own hand, and of every other hand its size (its cards too where HIDDEN-1's house
  rule shows a hand of fewer than ``open_below`` cards), to the end of the round: the table says
  the winner scores the cards left (SCORE-1), not that their faces are shown, so a seat
  learns the round's points and not which kinds of card made them (SCORE-1's labels of
  the kinds left are the referee's alone);
* the card just drawn, only to its drawer (DRAW-1);
* CHAL-1's one look at the offender's hand, only to the challenger;
* of the rules a move ran, the labels the commands mark ``secret`` (what the mover's own
  hidden cards decided: a Wild Draw Four's legality when it is played, the victim's
  unanswerable draw card) only to the mover: a challenge exists to find the first out,
  and what it judges is public once it is decided;
* of a refused move, the ruling (the rule it breaks) to everyone, and its words and
  causes only to the mover: they may name a card the mover holds.

A seat's page (``unoformal show --as``) is built with :func:`page_as` and holds no more
than this; the page's own "view as" control selects the same parts of a referee page
(page.js, ``stepAs``), from the marks this module reads (a label's fourth element, a
refusal's ``public`` words). Two games the seat cannot tell apart give it the same bytes
(tests/show/test_seat_views.py).
"""

from __future__ import annotations

from typing import Any

from unoformal.errors import InvalidInputError
from unoformal.inputs import show

Json = dict[str, Any]
HIDDEN = "?"  # a card the seat may not see, as the page data holds it
REFEREE = ""  # a label no seat may see (no player is named ""): the referee's alone


def page_as(data: Json, seat: str) -> Json:
    """The page data as ``seat`` may see it: each step by :func:`step_as`, the table's
    words of the rules those steps cite, and nothing that shows whole states."""
    if "graph" in data:
        raise InvalidInputError("--as: a graph page shows whole states (every hand); "
                                "show one of its witnesses as a record for a seat's view",
                                "HIDDEN-1")
    if seat not in data["players"]:
        raise InvalidInputError(f"--as {show(seat)}: not a player of this trace "
                                f"({', '.join(data['players'])})", "HIDDEN-1")
    table = data.get("table")
    below = table.get("open_below", 0) if isinstance(table, dict) else 0
    steps = [step_as(s, seat, below) for s in data["steps"]]
    out = {**data, "steps": steps, "view_as": seat}
    # a finding shows whole states (the referee's view); a record's free-form meta may
    # hold anything, a seed among them, which decides every hidden card
    out.pop("finding", None)
    out.pop("meta", None)
    if isinstance(table, dict):
        out["table"] = {**table, "words": {rule: words for rule, words in table["words"].items()
                                           if rule in cited(steps)}}
    return out


def step_as(step: Json, seat: str, open_below: int = 0) -> Json:
    """One step of a trace as ``seat`` may see it (``open_below``: HIDDEN-1's open hands)."""
    reveal = step.get("reveal")
    return {**step, "state": state_as(step["state"], seat, open_below),
            "labels": [lab for lab in step["labels"] if known(lab, seat)],
            "reveal": reveal if reveal and reveal["to"] == seat else None,
            "refused": refusal_as(step.get("refused"), step.get("actor"), seat)}


def state_as(state: Json, seat: str, open_below: int = 0) -> Json:
    """A state as ``seat`` sees it: the other hands as card backs (face up below
    ``open_below`` cards, HIDDEN-1's house rule), the drawn card only to its drawer."""
    hands = {name: hand if name == seat or len(hand) < open_below else [HIDDEN] * len(hand)
             for name, hand in state["hands"].items()}
    drawn = state.get("drawn") if state.get("to_play") == seat else None
    return {**state, "hands": hands, "drawn": drawn}


def known(label: list[Any], seat: str) -> bool:
    """Whether ``seat`` may see ``label`` (``[rule, branch, words, only]``: ``only`` names
    the one seat that may, is None for everyone, or :data:`REFEREE` for no seat)."""
    return len(label) < 4 or label[3] is None or label[3] == seat


def refusal_as(refused: Json | None, actor: str | None, seat: str) -> Json | None:
    """A refusal as ``seat`` sees it: the mover's own words, or the ruling alone."""
    if refused is None:
        return None
    mine = {key: value for key, value in refused.items() if key != "public"}
    if actor == seat:
        return mine
    return dict(refused["public"]) if "public" in refused else public_refusal(mine, actor)


def public_refusal(refused: Json, actor: str | None) -> Json:
    """What everyone may know of a refusal: whose move, and the rule it breaks."""
    rule = refused.get("rule")
    who = f"{actor}'s move" if actor else "the move"
    return {"rule": rule, "causes": [],
            "message": f"{who} is refused" + (f": it breaks {rule}" if rule else "")}


def cited(steps: list[Json]) -> set[str]:
    """The rule IDs a trace's steps cite (labels and refusals)."""
    out = {lab[0] for s in steps for lab in s["labels"]}
    out |= {s["refused"]["rule"] for s in steps if s["refused"] and s["refused"]["rule"]}
    out |= {c for s in steps if s["refused"] for c in s["refused"]["causes"]}
    out.add("HIDDEN-1")  # the "view as" control's rule
    return out
