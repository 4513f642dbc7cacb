"""The canonical text form of a state, like a FEN for this game.

One line of ``key=value`` fields in a fixed order; lists are comma-separated,
hands are ``/``-separated in seat order, the pile is listed top first and the
discard bottom to top (its last card is the top). ``-`` means none::

    rules=classic players=You,Ada,Bo dealer=Bo round=1 turn=You dir=left color=red
    phase=play hands=R3,G7/B1/Y5 pile=R7,G1 discard=R7 scores=0,0,0 uno=- drawn=-
    pending=0 kind=- offender=- legal=1 prev=- reveal=- winner=- points=0 seed=7 shuffles=2

(all on one line). :func:`read_state` reads it back exactly, field by field;
``Game.from_text`` builds the game from those fields, so this module needs no ``Game``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from unoformal.engine.actions import check_readable
from unoformal.errors import InvalidInputError
from unoformal.inputs import MAX_SEED, MAX_STATE_TEXT, ascii_int, show
from unoformal.rulebook.cards import Color, Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rules.state import (
    FIELDS,
    KEYS,
    NOTHING_PENDING,
    OVER,
    PHASES,
    RESPOND,
    START,
    Domain,
    Field,
    check_names,
    phases_of,
    text_fields,
)

T = TypeVar("T")
__all__ = ["KEYS", "decode", "encode", "read_state", "state_to_text"]


def state_to_text(g: Any) -> str:
    """The text of anything that holds the schema's fields as attributes (a game)."""
    return encode({f.name: getattr(g, f.name) for f in text_fields(g.rules)}, g.deck)


def encode(values: Mapping[str, Any], deck: Deck) -> str:
    """The canonical text of a state given field by field, each as the engine holds it
    (seats, faces and colors as indices; the pile top last; the discard top last). A
    house rule's field is written only under a table that has it (``out``, END-2)."""
    names: list[str] = values["names"]
    codes = deck.codes

    def cards(cs: Any) -> str:
        return ",".join([codes[c] for c in cs])

    def seat(s: int | None) -> str:
        return names[s] if s is not None else "-"

    def color(c: int | None) -> str:
        return deck.colors[c].value if c is not None else "-"

    def reveal(r: tuple[int, int, tuple[int, ...]] | None) -> str:
        return "-" if r is None else f"{names[r[0]]}:{names[r[1]]}:{cards(r[2])}"

    writers: dict[Domain, Callable[[Any], str]] = {
        Domain.TABLE: lambda v: str(v.name), Domain.NAMES: ",".join,
        Domain.SEAT: lambda v: names[v], Domain.SEAT_OR_NONE: seat,
        Domain.COLOR_OR_NONE: color,
        Domain.FACE_OR_NONE: lambda v: deck.code(v) if v is not None else "-",
        Domain.KIND_OR_NONE: lambda v: v.value if v is not None else "-",
        Domain.DIRECTION: lambda v: "left" if v == 1 else "right",
        Domain.PHASE: str, Domain.COUNT: str, Domain.FLAG: lambda v: "1" if v else "0",
        Domain.HANDS: lambda v: "/".join(cards(sorted(h)) for h in v),
        Domain.PILE: lambda v: cards(v[::-1]), Domain.DISCARD: cards,
        Domain.SCORES: lambda v: ",".join(map(str, v)), Domain.REVEAL: reveal,
        Domain.SEATS: lambda v: ",".join(names[p] for p in v) or "-",
    }
    return " ".join(f"{f.text}={writers[f.domain](values[f.name])}"
                    for f in text_fields(values["rules"]))


def read_state(text: str, rules: RuleTable | None = None) -> tuple[RuleTable, dict[str, Any]]:
    """Read a state text back into its fields (``Game.from_text`` builds the game);
    anything malformed is an :class:`InvalidInputError` naming the field (``key``). A
    text of a variant read without ``rules`` names a shipped variant; give the table for
    one read from a file."""
    try:
        return decode(text, rules)
    except InvalidInputError as err:
        raise err.at(source="state text") from None


def decode(text: str, rules: RuleTable | None) -> tuple[RuleTable, dict[str, Any]]:
    fields = _fields(text)
    if rules is None:
        rules = _named_rules(fields["rules"])
    elif not isinstance(rules, RuleTable):
        raise InvalidInputError(f"rules {show(rules)}: expected a RuleTable")
    _check_keys(fields, rules)
    deck = Deck.of(rules)
    names = _field("players", lambda v: check_readable(check_names(v.split(","), rules)),
                   fields)
    reader = _Reader(fields, rules, deck, names)
    values: dict[str, Any] = {"rules": rules, "names": names}
    # The zones first: the deck check comes before any field that names a card's owner.
    order = sorted((f for f in FIELDS if f.domain not in (Domain.TABLE, Domain.NAMES)),
                   key=lambda f: f.domain not in _ZONES)
    for f in order:
        # a house rule's field its table does not have: empty (only ``out`` can be)
        values[f.name] = reader.read(f) if f.text in fields else ()
        if f.domain is Domain.DISCARD:
            _check_deck(deck, values["hands"], values["pile"], values["discard"])
    _check_respond(values["phase"], rules, fields["kind"])
    if values["phase"] == RESPOND and values["offender"] is None:
        raise InvalidInputError("-: a respond phase names who played the draw card", "WD4-2",
                                key="offender")
    _check_nothing_pending(values["phase"], fields)
    if rules.mercy.enabled:
        _check_mercy(rules, values)
    return rules, values


def _check_mercy(rules: RuleTable, values: dict[str, Any]) -> None:
    """MERCY: a player out holds no card, and in a round every player in holds fewer
    than the limit (they would have been knocked out)."""
    names, out = values["names"], values["out"]
    for p, hand in enumerate(values["hands"]):
        if p in out and hand:
            raise InvalidInputError(f"{names[p]} holds {len(hand)} card(s) but is out: a "
                                    "player knocked out holds none", rules.mercy.id,
                                    key="hands")
        why = rules.mercy.too_many(len(hand))
        if p not in out and why is not None and values["phase"] not in (OVER, START):
            raise InvalidInputError(f"{names[p]} holds {why}, so no round goes on with one",
                                    rules.mercy.id, key="hands")


_ZONES = (Domain.HANDS, Domain.PILE, Domain.DISCARD)


class _Reader:
    """Reads one field of a text by its domain."""

    def __init__(self, fields: dict[str, str], rules: RuleTable, deck: Deck,
                 names: list[str]) -> None:
        self.fields, self.rules, self.deck, self.names = fields, rules, deck, names

    def read(self, f: Field) -> Any:
        assert f.text is not None
        value = self.fields[f.text]
        return getattr(self, "_" + f.domain.name.lower())(value, f.text, f)

    def _seat_or_none(self, v: str, key: str, f: Field | None = None) -> int | None:
        if v == "-":
            return None
        if v not in self.names:
            raise InvalidInputError(f"{show(v)}: unknown player; players are "
                                    f"{', '.join(self.names)}", "DECK-2", key=key)
        return self.names.index(v)

    def _seat(self, v: str, key: str, f: Field) -> int:
        found = self._seat_or_none(v, key)
        if found is None:
            raise InvalidInputError("-: name a player", "DECK-2", key=key)
        return found

    def _cards(self, v: str, key: str) -> list[int]:
        if not v:
            return []
        try:
            return [self.deck.face_id(c) for c in v.split(",")]
        except ValueError as err:
            raise InvalidInputError(str(err), "DECK-1", key=key) from None

    def _color_or_none(self, v: str, key: str, f: Field) -> int | None:
        if v == "-":
            return None
        deck = self.deck
        found = _COLORS.get(v)
        if found is None or found not in deck.color_index:
            raise InvalidInputError(f"{show(v)}: not a color of this deck; expected "
                                    f"{', '.join(c.value for c in deck.colors)} or -",
                                    "DECK-1", key=key)
        return deck.color_index[found]

    def _count(self, v: str, key: str, f: Field) -> int:
        # A count of cards is at most the deck; any other count fits the seed's range.
        hi = self.deck.size if f.name == "pending" else MAX_SEED - 1
        try:
            return ascii_int(v, key, 0, hi)
        except InvalidInputError as err:
            raise err.at(key=key) from None

    def _hands(self, v: str, key: str, f: Field) -> list[list[int]]:
        hands = v.split("/")
        if len(hands) != len(self.names):
            raise InvalidInputError(f"{len(hands)} hands for {len(self.names)} players",
                                    f.rule, key=key)
        return [self._cards(h, key) for h in hands]

    def _pile(self, v: str, key: str, f: Field) -> list[int]:
        return self._cards(v, key)[::-1]

    def _discard(self, v: str, key: str, f: Field) -> list[int]:
        return self._cards(v, key)

    def _direction(self, v: str, key: str, f: Field) -> int:
        if v not in ("left", "right"):
            raise InvalidInputError(f"{show(v)}: expected left or right", f.rule, key=key)
        return 1 if v == "left" else -1

    def _phase(self, v: str, key: str, f: Field) -> str:
        phases = phases_of(self.rules)
        if v not in phases:
            rule = self.rules.several.id if v in PHASES else None  # "more", SEVERAL off
            raise InvalidInputError(f"{show(v)}: expected one of {', '.join(phases)}",
                                    rule, key=key)
        return v

    def _scores(self, v: str, key: str, f: Field) -> list[int]:
        scores = v.split(",")
        if len(scores) != len(self.names):
            raise InvalidInputError("expected one score per player", f.rule, key=key)
        return [ascii_int(s, key, 0, MAX_SEED - 1) for s in scores]

    def _face_or_none(self, v: str, key: str, f: Field) -> int | None:
        drawn = self._cards(v, key) if v != "-" else []
        if len(drawn) != (v != "-"):
            raise InvalidInputError("at most one card", f.rule, key=key)
        return drawn[0] if drawn else None

    def _kind_or_none(self, v: str, key: str, f: Field) -> Kind | None:
        if v == "-":
            return None
        if v not in _KINDS:
            raise InvalidInputError(f"{show(v)}: expected {', '.join(_KINDS)} or -", key=key)
        return _KINDS[v]

    def _flag(self, v: str, key: str, f: Field) -> bool:
        if v not in ("0", "1"):
            raise InvalidInputError(f"{show(v)}: expected 0 or 1", f.rule, key=key)
        return v == "1"

    def _seats(self, v: str, key: str, f: Field) -> tuple[int, ...]:
        """END-2's seats out, in the order they left: names, comma-separated, or ``-``;
        at least one seat stays."""
        if v == "-":
            return ()
        seats = [self._seat(name, key, f) for name in v.split(",")]  # in leaving order
        if len(set(seats)) != len(seats):
            raise InvalidInputError(f"{show(v)}: a player named twice", f.rule, key=key)
        if len(seats) >= len(self.names):
            raise InvalidInputError(f"{show(v)}: at least one player stays in the game",
                                    f.rule, key=key)
        return tuple(seats)

    def _reveal(self, v: str, key: str, f: Field) -> tuple[int, int, tuple[int, ...]] | None:
        """CHAL-1: ``challenger:offender:cards``."""
        if v == "-":
            return None
        parts = v.split(":")
        wrong = InvalidInputError(f"{show(v)}: expected challenger:offender:cards", f.rule,
                                  key=key)
        if len(parts) != 3:
            raise wrong
        a, b = self._seat_or_none(parts[0], key), self._seat_or_none(parts[1], key)
        if a is None or b is None:
            raise wrong
        return a, b, tuple(self._cards(parts[2], key))


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
                                    f"the keys {' '.join(_BOOK_KEYS)}, one space apart"
                                    f"{_HOUSE_KEYS}")
        if key in fields:
            raise InvalidInputError("given twice", key=key)
        fields[key] = value
    missing = [k for k in _BOOK_KEYS if k not in fields]
    if missing:
        raise InvalidInputError(f"missing {', '.join(missing)}")
    return fields


# The keys of every table's text, and those a house rule adds (named in a refusal).
_BOOK_KEYS = tuple(f.text for f in FIELDS if f.text is not None and f.only is None)
_HOUSE_KEYS = "".join(f" ({f.text} too under {f.rule}'s house rule)" for f in FIELDS
                      if f.text is not None and f.only is not None)


def _check_keys(fields: dict[str, str], rules: RuleTable) -> None:
    """A house rule's key (``out``) is in the text exactly under a table that has the
    rule (every other key is, :func:`_fields`)."""
    for f in FIELDS:
        if f.only is None or f.text is None:
            continue
        if f.in_text(rules) and f.text not in fields:
            raise InvalidInputError(f"missing {f.text}")
        if f.text in fields and not f.in_text(rules):
            raise InvalidInputError(f"{f.text}= is a key of {f.rule}'s house rule, which "
                                    f"{rules.name} does not have", f.rule, key=f.text)


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
    for key, none in NOTHING_PENDING:
        if fields[key] != none:
            raise InvalidInputError(f"{show(fields[key])}: nothing is pending in a {phase} "
                                    f"phase; expected {none}", "WD4-2", key=key)


def _check_deck(deck: Deck, hands: list[list[int]], pile: list[int],
                discard: list[int]) -> None:
    counts = [0] * len(deck.faces)
    for c in [c for h in hands for c in h] + pile + discard:
        counts[c] += 1
    wrong = [f"{deck.code(f)}: {have} of {want}"
             for f, (have, want) in enumerate(zip(counts, deck.copies, strict=True))
             if have != want]
    if wrong:
        raise InvalidInputError("cards are not exactly the deck: " + ", ".join(wrong),
                                "DECK-1", key="hands")
