"""The canonical text form of a state, like a FEN for this game.

One line of ``key=value`` fields in a fixed order; lists are comma-separated,
hands are ``/``-separated in seat order, the pile is listed top first and the
discard bottom to top (its last card is the top). ``-`` means none::

    rules=classic players=You,Ada,Bo dealer=Bo round=1 turn=You dir=left color=red
    phase=play hands=R3,G7/B1/Y5 pile=R7,G1 discard=R7 scores=0,0,0 uno=- drawn=-
    pending=0 kind=- offender=- legal=1 prev=- reveal=- winner=- points=0 seed=7 shuffles=2

(all on one line). :func:`state_from_text` reads it back exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from unoformal.errors import InvalidInputError
from unoformal.spec.cards import Color, Kind
from unoformal.spec.deck import Deck
from unoformal.spec.table import RuleTable

if TYPE_CHECKING:
    from unoformal.engine.game import Game

KEYS = ("rules", "players", "dealer", "round", "turn", "dir", "color", "phase", "hands", "pile",
        "discard", "scores", "uno", "drawn", "pending", "kind", "offender", "legal", "prev",
        "reveal", "winner", "points", "seed", "shuffles")


def state_to_text(g: Game) -> str:
    codes = g.deck.codes
    code = g.deck.code

    def cards(cs: list[int]) -> str:
        return ",".join([codes[c] for c in cs])

    def seat(s: int | None) -> str:
        return g.names[s] if s is not None else "-"

    def color(c: int | None) -> str:
        return g.deck.colors[c].value if c is not None else "-"

    reveal = "-"
    if g.reveal is not None:
        a, b, hand = g.reveal
        reveal = f"{g.names[a]}:{g.names[b]}:{cards(list(hand))}"
    fields = {
        "rules": g.rules.name, "players": ",".join(g.names), "dealer": g.names[g.dealer],
        "round": str(g.round), "turn": g.names[g.turn],
        "dir": "left" if g.direction == 1 else "right", "color": color(g.color),
        "phase": g.phase, "hands": "/".join(cards(sorted(h)) for h in g.hands),
        "pile": cards(g.pile[::-1]), "discard": cards(g.discard),
        "scores": ",".join(map(str, g.scores)), "uno": seat(g.uno_window),
        "drawn": code(g.drawn) if g.drawn is not None else "-", "pending": str(g.pending),
        "kind": g.pending_kind.value if g.pending_kind is not None else "-",
        "offender": seat(g.offender), "legal": "1" if g.wd4_legal else "0",
        "prev": color(g.prev_color), "reveal": reveal, "winner": seat(g.winner),
        "points": str(g.round_points), "seed": str(g.seed), "shuffles": str(g.shuffles),
    }
    return " ".join(f"{k}={fields[k]}" for k in KEYS)


def state_from_text(text: str, rules: RuleTable | None = None) -> Game:
    from unoformal.engine.game import PHASES, Game, _check_players
    from unoformal.spec.variants import load_rules

    fields = _fields(text)
    if rules is None:
        rules = load_rules(fields["rules"])
    g = object.__new__(Game)
    g.rules = rules
    g.deck = Deck.of(rules)
    g.names = _check_players(fields["players"].split(","), rules)
    g.n = len(g.names)
    g._tables()
    deck = g.deck

    def seat(v: str, key: str) -> int | None:
        if v == "-":
            return None
        try:
            return g.names.index(v)
        except ValueError:
            raise InvalidInputError(f"state text: {key}={v}: unknown player", "DECK-2") from None

    def cards(v: str, key: str) -> list[int]:
        try:
            return [deck.face_id(c) for c in v.split(",") if c]
        except ValueError as err:
            raise InvalidInputError(f"state text: {key}: {err}", "DECK-1") from None

    def color(v: str, key: str) -> int | None:
        if v == "-":
            return None
        try:
            return deck.color_index[Color.parse(v)]
        except (ValueError, KeyError):
            raise InvalidInputError(f"state text: {key}={v}: unknown color", "DECK-1") from None

    def integer(key: str) -> int:
        try:
            return int(fields[key])
        except ValueError:
            raise InvalidInputError(f"state text: {key} must be an integer") from None

    hands = fields["hands"].split("/")
    if len(hands) != g.n:
        raise InvalidInputError(f"state text: {len(hands)} hands for {g.n} players", "DEAL-2")
    g.hands = [cards(h, "hands") for h in hands]
    g.pile = cards(fields["pile"], "pile")[::-1]
    g.discard = cards(fields["discard"], "discard")
    _check_deck(g)
    g.dealer = seat(fields["dealer"], "dealer") or 0
    g.round = integer("round")
    g.turn = seat(fields["turn"], "turn") or 0
    if fields["dir"] not in ("left", "right"):
        raise InvalidInputError("state text: dir must be left or right", "REV-1")
    g.direction = 1 if fields["dir"] == "left" else -1
    g.color = color(fields["color"], "color")
    if fields["phase"] not in PHASES:
        raise InvalidInputError(f"state text: phase={fields['phase']}: expected one of "
                                f"{', '.join(PHASES)}")
    g.phase = fields["phase"]
    scores = fields["scores"].split(",")
    if len(scores) != g.n or not all(s.isdigit() for s in scores):
        raise InvalidInputError("state text: scores must be one integer per player", "SCORE-2")
    g.scores = [int(s) for s in scores]
    g.uno_window = seat(fields["uno"], "uno")
    drawn = cards(fields["drawn"], "drawn") if fields["drawn"] != "-" else []
    g.drawn = drawn[0] if drawn else None
    g.pending = integer("pending")
    g.pending_kind = Kind(fields["kind"]) if fields["kind"] != "-" else None
    g.offender = seat(fields["offender"], "offender")
    g.wd4_legal = fields["legal"] == "1"
    g.prev_color = color(fields["prev"], "prev")
    g.reveal = None
    if fields["reveal"] != "-":
        a, b, hand = [*fields["reveal"].split(":"), "", ""][:3]
        ra, rb = seat(a, "reveal"), seat(b, "reveal")
        if ra is None or rb is None:
            raise InvalidInputError("state text: reveal must be challenger:offender:cards")
        g.reveal = (ra, rb, tuple(cards(hand, "reveal")))
    g.winner = seat(fields["winner"], "winner")
    g.round_points = integer("points")
    g.seed = integer("seed")
    g.shuffles = integer("shuffles")
    g.history = []
    g.dealer_draws = []
    g.origin = {"dealer": None, "deal": None}
    return g


def _fields(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for word in text.split():
        key, sep, value = word.partition("=")
        if not sep or key not in KEYS:
            raise InvalidInputError(f"state text: unexpected {word!r}")
        fields[key] = value
    missing = [k for k in KEYS if k not in fields]
    if missing:
        raise InvalidInputError(f"state text: missing {', '.join(missing)}")
    return fields


def _check_deck(g: Game) -> None:
    counts = [0] * len(g.deck.faces)
    for c in [c for h in g.hands for c in h] + g.pile + g.discard:
        counts[c] += 1
    wrong = [f"{g.deck.code(f)}: {have} of {want}"
             for f, (have, want) in enumerate(zip(counts, g.deck.copies, strict=True))
             if have != want]
    if wrong:
        raise InvalidInputError("state text: cards are not exactly the deck: "
                                + ", ".join(wrong), "DECK-1")
