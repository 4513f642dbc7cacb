"""FROZEN COPY of ``unoformal/engine/text.py`` (see ``tests/reference/engine_v1/__init__.py``):
today's engine, kept only to check the new one against. Do not edit it to follow the live
engine; imports of engine modules point at the frozen copies.

The canonical text form of a state, like a FEN for this game.

One line of ``key=value`` fields in a fixed order; lists are comma-separated,
hands are ``/``-separated in seat order, the pile is listed top first and the
discard bottom to top (its last card is the top). ``-`` means none::

    rules=classic players=You,Ada,Bo dealer=Bo round=1 turn=You dir=left color=red
    phase=play hands=R3,G7/B1/Y5 pile=R7,G1 discard=R7 scores=0,0,0 uno=- drawn=-
    pending=0 kind=- offender=- legal=1 prev=- reveal=- winner=- points=0 seed=7 shuffles=2

(all on one line). :func:`state_from_text` reads it back exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from unoformal.errors import InvalidInputError
from unoformal.inputs import MAX_SEED, MAX_STATE_TEXT, ascii_int, show
from unoformal.rulebook.cards import Color, Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable

if TYPE_CHECKING:
    from tests.reference.engine_v1.game import Game

T = TypeVar("T")

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
    """Read a state text back; anything malformed is an :class:`InvalidInputError` naming
    the field (``key``). A text of a variant read without ``rules`` names a shipped
    variant; give the table for one read from a file."""
    try:
        return _read(text, rules)
    except InvalidInputError as err:
        raise err.at(source="state text") from None


def _read(text: str, rules: RuleTable | None) -> Game:
    from tests.reference.engine_v1.game import PHASES, SEEDED, Game, _check_players

    fields = _fields(text)
    if rules is None:
        rules = _named_rules(fields["rules"])
    elif not isinstance(rules, RuleTable):
        raise InvalidInputError(f"rules {show(rules)}: expected a RuleTable")
    g = Game.__new__(Game)
    g.chance = SEEDED
    g.rules = rules
    g.deck = Deck.of(rules)
    g.names = _field("players", lambda v: _check_players(v.split(","), rules), fields)
    g.n = len(g.names)
    g._tables()
    deck = g.deck

    def seat(v: str, key: str) -> int | None:
        if v == "-":
            return None
        if v not in g.names:
            raise InvalidInputError(f"{show(v)}: unknown player; players are "
                                    f"{', '.join(g.names)}", "DECK-2", key=key)
        return g.names.index(v)

    def someone(key: str) -> int:
        found = seat(fields[key], key)
        if found is None:
            raise InvalidInputError("-: name a player", "DECK-2", key=key)
        return found

    def cards(v: str, key: str) -> list[int]:
        if not v:
            return []
        try:
            return [deck.face_id(c) for c in v.split(",")]
        except ValueError as err:
            raise InvalidInputError(str(err), "DECK-1", key=key) from None

    def color(v: str, key: str) -> int | None:
        if v == "-":
            return None
        found = _COLORS.get(v)
        if found is None or found not in deck.color_index:
            raise InvalidInputError(f"{show(v)}: not a color of this deck; expected "
                                    f"{', '.join(c.value for c in deck.colors)} or -",
                                    "DECK-1", key=key)
        return deck.color_index[found]

    def integer(key: str, hi: int = MAX_SEED - 1) -> int:
        try:
            return ascii_int(fields[key], key, 0, hi)
        except InvalidInputError as err:
            raise err.at(key=key) from None

    hands = fields["hands"].split("/")
    if len(hands) != g.n:
        raise InvalidInputError(f"{len(hands)} hands for {g.n} players", "DEAL-2", key="hands")
    g.hands = [cards(h, "hands") for h in hands]
    g.pile = cards(fields["pile"], "pile")[::-1]
    g.discard = cards(fields["discard"], "discard")
    _check_deck(g)
    g.dealer = someone("dealer")
    g.round = integer("round")
    g.turn = someone("turn")
    if fields["dir"] not in ("left", "right"):
        raise InvalidInputError(f"{show(fields['dir'])}: expected left or right", "REV-1",
                                key="dir")
    g.direction = 1 if fields["dir"] == "left" else -1
    g.color = color(fields["color"], "color")
    if fields["phase"] not in PHASES:
        raise InvalidInputError(f"{show(fields['phase'])}: expected one of "
                                f"{', '.join(PHASES)}", key="phase")
    g.phase = fields["phase"]
    scores = fields["scores"].split(",")
    if len(scores) != g.n:
        raise InvalidInputError("expected one score per player", "SCORE-2", key="scores")
    g.scores = [ascii_int(s, "scores", 0, MAX_SEED - 1) for s in scores]
    g.uno_window = seat(fields["uno"], "uno")
    drawn = cards(fields["drawn"], "drawn") if fields["drawn"] != "-" else []
    if len(drawn) != (fields["drawn"] != "-"):
        raise InvalidInputError("at most one card", "DRAW-1", key="drawn")
    g.drawn = drawn[0] if drawn else None
    g.pending = integer("pending", deck.size)
    g.pending_kind = None
    if fields["kind"] != "-":
        if fields["kind"] not in _KINDS:
            raise InvalidInputError(f"{show(fields['kind'])}: expected "
                                    f"{', '.join(_KINDS)} or -", key="kind")
        g.pending_kind = _KINDS[fields["kind"]]
    _check_respond(g.phase, rules, fields["kind"])
    g.offender = seat(fields["offender"], "offender")
    if g.phase == "respond" and g.offender is None:
        raise InvalidInputError("-: a respond phase names who played the draw card", "WD4-2",
                                key="offender")
    _check_nothing_pending(g.phase, fields)
    if fields["legal"] not in ("0", "1"):
        raise InvalidInputError(f"{show(fields['legal'])}: expected 0 or 1", "WD4-1",
                                key="legal")
    g.wd4_legal = fields["legal"] == "1"
    g.prev_color = color(fields["prev"], "prev")
    g.reveal = None
    if fields["reveal"] != "-":
        g.reveal = _reveal(fields["reveal"], seat, cards)
    g.winner = seat(fields["winner"], "winner")
    g.round_points = integer("points")
    g.seed = integer("seed")
    g.shuffles = integer("shuffles")
    g.history = []
    g.dealer_draws = []
    g.origin = {"dealer": None, "deal": None}
    return g


_COLORS = {c.value: c for c in Color}
_KINDS = {k.value: k for k in Kind}


def _named_rules(name: str) -> RuleTable:
    """A state text names its table; only a shipped variant is looked up by name (a text
    never makes the engine open a file)."""
    from unoformal.rulebook.variants import VARIANTS, load_rules

    if name not in VARIANTS:
        raise InvalidInputError(f"{show(name)}: expected one of {', '.join(VARIANTS)} (pass "
                                "the table of a variant read from a file)", key="rules")
    return load_rules(name)


def _field(key: str, read: Callable[[str], T], fields: dict[str, str]) -> T:
    try:
        return read(fields[key])
    except InvalidInputError as err:
        raise err.at(key=key) from None


def _reveal(value: str, seat: Callable[[str, str], int | None],
            cards: Callable[[str, str], list[int]]) -> tuple[int, int, tuple[int, ...]]:
    """CHAL-1: ``challenger:offender:cards``."""
    parts = value.split(":")
    if len(parts) != 3:
        raise InvalidInputError(f"{show(value)}: expected challenger:offender:cards", "CHAL-1",
                                key="reveal")
    a, b = seat(parts[0], "reveal"), seat(parts[1], "reveal")
    if a is None or b is None:
        raise InvalidInputError(f"{show(value)}: expected challenger:offender:cards", "CHAL-1",
                                key="reveal")
    return a, b, tuple(cards(parts[2], "reveal"))


def _fields(text: str) -> dict[str, str]:
    if not isinstance(text, str):
        raise InvalidInputError(f"{show(text)}: a state text is a string")
    if len(text) > MAX_STATE_TEXT:
        raise InvalidInputError(f"{len(text):,} characters: at most {MAX_STATE_TEXT:,} "
                                "are allowed")
    fields: dict[str, str] = {}
    for word in text.split(" "):
        key, sep, value = word.partition("=")
        if not sep or key not in KEYS:
            raise InvalidInputError(f"unexpected {show(word)}; expected key=value for "
                                    f"the keys {' '.join(KEYS)}, one space apart")
        if key in fields:
            raise InvalidInputError("given twice", key=key)
        fields[key] = value
    missing = [k for k in KEYS if k not in fields]
    if missing:
        raise InvalidInputError(f"missing {', '.join(missing)}")
    return fields


def _check_respond(phase: str, rules: RuleTable, kind: str) -> None:
    """WD4-2 / NOSTACK-1: a respond phase answers a draw card, so its pending kind is one
    (the words and the outcome of an accept or a challenge depend on it)."""
    draws = [k.value for k in rules.drawing_kinds()]
    if phase == "respond" and kind not in draws:
        raise InvalidInputError(f"{show(kind)}: a respond phase answers a draw card; "
                                f"expected {' or '.join(draws)}", "WD4-2", key="kind")


def _check_nothing_pending(phase: str, fields: dict[str, str]) -> None:
    """WD4-2 / NOSTACK-1: cards to draw, their kind and who played them are pending only
    while the victim answers; in any other phase a Draw Two or Wild Draw Four would carry
    them on."""
    if phase == "respond":
        return
    for key, none in (("pending", "0"), ("kind", "-"), ("offender", "-")):
        if fields[key] != none:
            raise InvalidInputError(f"{show(fields[key])}: nothing is pending in a {phase} "
                                    f"phase; expected {none}", "WD4-2", key=key)


def _check_deck(g: Game) -> None:
    counts = [0] * len(g.deck.faces)
    for c in [c for h in g.hands for c in h] + g.pile + g.discard:
        counts[c] += 1
    wrong = [f"{g.deck.code(f)}: {have} of {want}"
             for f, (have, want) in enumerate(zip(counts, g.deck.copies, strict=True))
             if have != want]
    if wrong:
        raise InvalidInputError("cards are not exactly the deck: " + ", ".join(wrong),
                                "DECK-1", key="hands")
