"""The rule table: every rule of UNO stated once, as frozen data (``docs/rules.md`` is
generated from it: ``unoformal rules --markdown``).

Each entry cites its rule ID and the seed section it comes from, states the
rule in words (a template over its values, :mod:`unoformal.rulebook.words`, so a
variant's words follow its values), and carries the values that the interpreters read: the engine
(:mod:`unoformal.engine`) plays them and the verifier
(:mod:`unoformal.verification`) compiles them to Z3. Neither restates a rule.

Entries marked ``extension=True`` are not in the seeds: they settle situations
the rulebook is silent on, say why, and can be switched off (``enabled``) so
the explorer shows what goes wrong without them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated, Any

from unoformal.rulebook.bounds import Choice, Fixed, Items, Range, Text
from unoformal.rulebook.cards import Color, Kind
from unoformal.rulebook.words import fill

# Bounds that keep the deck finite and every count the engine and the proofs handle
# small: at most 4 x (10 + 3) x COPIES + 2 x WILD_COPIES = 448 cards.
COPIES = 8  # copies of one colored face
RANKS = 10  # number ranks 0 to 9 (DECK-1)
WILD_COPIES = 16
SEATS = 10  # DECK-2's most players: the verifier's manifest covers 2 to 10
DRAWS = 20  # cards one effect or penalty makes a player draw
POINTS = 1000  # SCORE-1: what one card is worth
TARGET = 100_000  # SCORE-2
# A variant's name goes into the one-line state text (``rules=NAME``) and file names:
# no spaces, no markup.
NAME = r"^[A-Za-z0-9][A-Za-z0-9_.:+=#-]*$"
NAME_WHAT = "letters, digits and _ . : + = # - (no spaces)"


class Direction(Enum):
    """Seat order. ``left`` is the next name in the players list (clockwise)."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def step(self) -> int:
        return 1 if self is Direction.LEFT else -1


class Holding(Enum):
    """What the Wild Draw Four legality check looks for in the player's hand."""

    CARD_OF_CURRENT_COLOR = "card-of-current-color"
    PLAYABLE_CARD = "playable-card"


class NextDealer(Enum):
    LEFT = "left"
    WINNER = "winner"
    # letsuno: the player to move when the round ended plays first in the next one, so
    # the dealer role goes to the player DEAL-3's first_seat before them
    MOVER = "mover"


class Leaves(Enum):
    """END-2 (a house rule, letsuno's elimination): who leaves the game when a round ends."""

    NONE = "none"  # nobody: every player plays every round (the rulebook)
    MOST_CARDS = "most-cards"  # the player, the round's winner apart, holding the most cards


class LeaveTies(Enum):
    """END-2 under ``leaves = most-cards``: which of the players tied for the most cards
    leaves (the house rule does not say)."""

    FIRST_SEAT = "first-seat"  # the first of them in seat order (letsuno: its players list)
    WINNER_LEFT = "winner-left"  # the first of them from the round winner's left


class MercyCards(Enum):
    """MERCY (a house rule, No Mercy's): where the hand of a player knocked out goes."""

    DISCARD = "discard"  # under the discard pile (its top card stays on top)
    PILE = "pile"  # under the draw pile


class SwapWith(Enum):
    """SEVEN-O: whose hand a 7 swaps with its player's (the house rule does not say)."""

    CHOSEN = "chosen"  # another player its player chooses
    NEXT = "next"  # always the next player in the direction of play


class JumpedDrawTwo(Enum):
    """JUMP-IN: what a Draw Two played out of turn on a Draw Two does."""

    # Each Draw Two hits the player after its own player: the first one's victim has
    # drawn its 2 (D2-1 draws at once), the jumper's hits the player after the jumper.
    EACH = "each"
    # The first Draw Two waits for its victim to accept; a jumper's adds its 2 to what
    # waits and the player after the jumper draws the total.
    ADDS = "adds"


class SeveralThen(Enum):
    """SEVERAL: what a player who keeps the turn after a number card may play."""

    SAME_NUMBER = "same-number"  # another number card of that number, one at a time
    # letsuno: the turn stays while they hold one, and any card that may be played may be
    ANY_PLAYABLE = "any-playable"


class SeveralExchange(Enum):
    """SEVERAL with SEVEN-O: whether an exchange card (SEVEN-O's 7 or 0) may keep the turn."""

    # letsuno (multi-play.ts): the turn stays when the hand held after the card's effects,
    # the exchanged one, holds a card of its number
    AFTER = "after"
    # the exchange is the card's effect, and the last card played is the one that takes
    # effect: an exchange card ends the turn
    ENDS_TURN = "ends-turn"


class Partners(Enum):
    """SCORE-1: partners seated opposite (a house rule), and what a round won scores."""

    NONE = "none"  # the rulebook: everyone plays for themself
    # letsuno's teamMode: the winner scores every other hand, and the partner as much
    SHARED = "shared"
    # partnership play: the winner scores the opponents' hands only, the partner as much
    OPPONENTS = "opponents"


class CatchUntil(Enum):
    """UNO-1: how long a player who did not say UNO can be caught."""

    NEXT_TURN = "next-turn"  # the rulebook: until the next turn begins
    # A house rule (letsuno, many tables): while they hold the card and have not said it
    ANY_TIME = "any-time"


class Refill(Enum):
    """RESHUFFLE-1: how the draw pile is refilled, as a record may state it."""

    EMPTY = "empty"  # the rulebook: when it is empty, from every discard below the top
    # letsuno: two halves, a draw from either, a half refilled from part of the discards
    SPLIT = "split"


class JumpWindow(Enum):
    """JUMP-IN: whether a jump-in ends the UNO window of the player who played the
    next-to-last card without saying UNO."""

    CLOSES = "closes"  # as a turn that begins (UNO-1)
    STAYS_OPEN = "stays-open"  # until a turn begins in turn


@dataclass(frozen=True)
class Rule:
    """Common head of every entry: its ID, where it comes from, and the rule in words."""

    id: str
    source: str
    text: str
    extension: bool = False
    reason: str = ""
    enabled: bool = True
    # A house rule: not in the rulebook but played by many; switchable, off in classic.
    house: bool = False
    # What switching a rulebook entry off means (every interpreter honours it); empty
    # for an entry that cannot be switched off. Extensions can always be switched off:
    # their reason says what is left unsettled without them.
    when_off: str = ""

    @property
    def switchable(self) -> bool:
        """Whether a variant may set ``enabled = false`` on this entry."""
        return self.extension or self.house or bool(self.when_off)

    def words(self) -> str:
        """The rule in words, with this entry's values filled in."""
        return fill(self.text, {"enabled": self.enabled, **self.values()})

    def values(self) -> dict[str, Any]:
        """The entry's own values (everything but the common head)."""
        head = {f.name for f in dataclasses.fields(Rule)} - {"enabled"}
        return {
            f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in head
        }


# --- Deck and players (000 §01, §08) -------------------------------------------------


@dataclass(frozen=True)
class DeckRule(Rule):
    # At least one color: a Wild's player names one (WILD-1, START-WILD).
    colors: Annotated[tuple[Color, ...], Items(1, 4, unique=True)] = ()
    # Copies of rank i, per color; ranks 0-9 are all a card code can name.
    number_copies: Annotated[tuple[Annotated[int, Range(0, COPIES)], ...], Items(0, RANKS)] = ()
    skip_copies: Annotated[int, Range(0, COPIES)] = 0
    reverse_copies: Annotated[int, Range(0, COPIES)] = 0
    draw_two_copies: Annotated[int, Range(0, COPIES)] = 0
    wild_copies: Annotated[int, Range(0, WILD_COPIES)] = 0
    wild_draw_four_copies: Annotated[int, Range(0, WILD_COPIES)] = 0


@dataclass(frozen=True)
class PlayerCount(Rule):
    minimum: Annotated[int, Range(2, SEATS)] = 2
    maximum: Annotated[int, Range(2, SEATS)] = 10


@dataclass(frozen=True)
class Scope(Rule):
    excluded: Annotated[tuple[Annotated[str, Text(80)], ...], Items(0, 20)] = ()


# --- Deal and start (000 §02) ------------------------------------------------------


@dataclass(frozen=True)
class DealerDraw(Rule):
    symbol_value: Annotated[int, Range(0, 20)] = 0
    ties_draw_again: bool = True


@dataclass(frozen=True)
class DealRule(Rule):
    hand_size: Annotated[int, Range(1, 50)] = 7


@dataclass(frozen=True)
class FirstTurn(Rule):
    first_seat: Annotated[int, Range(0, SEATS - 1)] = 1  # seats to the left of the dealer
    direction: Direction = Direction.LEFT


@dataclass(frozen=True)
class StartRule(Rule):
    # The start card the rule is for: the entry's identity (its text names the card).
    kind: Annotated[Kind, Fixed()] = Kind.NUMBER
    first_seat: Annotated[int, Range(0, SEATS - 1)] = 1
    direction: Direction = Direction.LEFT
    first_player_draws: Annotated[int, Range(0, DRAWS)] = 0
    first_player_loses_turn: bool = False
    first_player_chooses_color: bool = False
    # The color is decided by chance, each of the deck's colors alike (a record states
    # it: ``start_color``); RLCard's flip_top_card picks a start Wild's color at random.
    color_at_random: bool = False
    turn_another_card: bool = False


# --- Turn (000 §03) ----------------------------------------------------------------


@dataclass(frozen=True)
class Matching(Rule):
    by_color: bool = True
    by_number: bool = True
    by_symbol: bool = True
    wild_any_time: bool = True


@dataclass(frozen=True)
class DrawRule(Rule):
    # At least one: "draw" with nothing drawn would be a free pass, and DRAW-1 speaks of
    # "that drawn card".
    cards: Annotated[int, Range(1, DRAWS)] = 1
    may_play_drawn: bool = True
    may_draw_when_able_to_play: bool = True
    # A drawn card that may be played must be: keeping it is no choice (RLCard).
    must_play_drawn: bool = False


@dataclass(frozen=True)
class Reshuffle(Rule):
    keep_top: bool = True
    refill: Refill = Refill.EMPTY


@dataclass(frozen=True)
class Hidden(Rule):
    hand_sizes_public: bool = True
    challenge_shows_hand_to_challenger: bool = True
    # A house rule (letsuno's handRevealThreshold): a hand of fewer cards is face up to
    # every player (0: none is)
    open_below: Annotated[int, Range(0, 20)] = 0


# --- Card effects and two players (000 §04, §05) -----------------------------------


@dataclass(frozen=True)
class CardEffect(Rule):
    kind: Annotated[Kind, Fixed()] = Kind.NUMBER
    # Players after the next one who lose their turn (at most a whole table round).
    skips: Annotated[int, Range(0, SEATS - 1)] = 0
    reverses: bool = False
    victim_draws: Annotated[int, Range(0, DRAWS)] = 0
    victim_may_challenge: bool = False
    chooses_color: bool = False


@dataclass(frozen=True)
class Stacking(Rule):
    victim_may_answer: bool = False
    answers: Annotated[tuple[Kind, ...], Items(0, len(Kind), unique=True)] = ()
    # the deflection house rule: the cards that pass a waiting draw card on (none in the
    # rulebook), the draw cards they may pass on, and whether they must match the color
    deflect_with: Annotated[tuple[Kind, ...], Items(0, len(Kind), unique=True)] = ()
    deflects: Annotated[tuple[Kind, ...], Items(0, len(Kind), unique=True)] = (
        Kind.DRAW_TWO,)
    deflect_any_color: bool = False


@dataclass(frozen=True)
class TwoPlayer(Rule):
    players: Annotated[int, Range(2, SEATS)] = 2  # the player count the rule is for
    reverse_acts_as_skip: bool = True


@dataclass(frozen=True)
class Penalty(Rule):
    cards: Annotated[int, Range(0, DRAWS)] = 2


@dataclass(frozen=True)
class Misplay(Penalty):
    # An adviser draws out of turn, so only the misplay has a turn to pass: the field
    # lives here, where an interpreter reads it.
    turn_passes: bool = True


@dataclass(frozen=True)
class Wd4Legality(Rule):
    illegal_when_holding: Holding = Holding.CARD_OF_CURRENT_COLOR
    bluff_playable: bool = True
    # The UNO app's room rule: another wild card held makes the Wild Draw Four legal, so
    # a challenge of it fails
    wild_excuses: bool = False


@dataclass(frozen=True)
class ChallengeOutcome(Rule):
    offender_draws: Annotated[int, Range(0, DRAWS)] = 0
    challenger_draws: Annotated[int, Range(0, DRAWS)] = 0
    challenger_keeps_turn: bool = False


@dataclass(frozen=True)
class ChallengeColor(Rule):
    named_color_stays: bool = True


# --- UNO, end of round, scoring (000 §06, §07) -------------------------------------


@dataclass(frozen=True)
class UnoRule(Rule):
    # "next-to-last card": UNO is about the hand of this many cards (none: no call).
    cards_left: Annotated[int, Range(1, 10)] = 1
    penalty: Annotated[int, Range(0, DRAWS)] = 2
    say_with_card: bool = True
    say_before_accusation: bool = True
    catch_only_with_one_card: bool = True
    catch_until: CatchUntil = CatchUntil.NEXT_TURN

    @property
    def says_with(self) -> int:
        """The hand size a card is played from when UNO may be said with it: one more
        than ``cards_left`` (the next-to-last card)."""
        return self.cards_left + 1


@dataclass(frozen=True)
class EndRule(Rule):
    resolve_final_draw: bool = True


@dataclass(frozen=True)
class NextRound(Rule):
    next_dealer: NextDealer = NextDealer.LEFT
    # A house rule (letsuno's elimination): a player leaves the game at a round's end
    leaves: Leaves = Leaves.NONE
    leave_ties: LeaveTies = LeaveTies.FIRST_SEAT


@dataclass(frozen=True)
class Points(Rule):
    number_face_value: bool = True
    action_points: Annotated[int, Range(0, POINTS)] = 20
    wild_points: Annotated[int, Range(0, POINTS)] = 50
    # A house rule's double score (letsuno's doubleScore): each card counts this many times
    multiplier: Annotated[int, Range(1, 4)] = 1
    # A house rule's teams: partners seated opposite, at an even count of 4 or more
    partners: Partners = Partners.NONE


@dataclass(frozen=True)
class Target(Rule):
    score: Annotated[int, Range(1, TARGET)] = 500  # at least 1: a game needs a round


@dataclass(frozen=True)
class SevenO(Rule):
    swap_rank: Annotated[int, Range(0, RANKS - 1)] = 7
    pass_rank: Annotated[int, Range(0, RANKS - 1)] = 0
    swap_with: SwapWith = SwapWith.CHOSEN


@dataclass(frozen=True)
class Several(Rule):
    then: SeveralThen = SeveralThen.SAME_NUMBER
    exchange: SeveralExchange = SeveralExchange.AFTER


@dataclass(frozen=True)
class JumpIn(Rule):
    draw_two: JumpedDrawTwo = JumpedDrawTwo.EACH
    uno_window: JumpWindow = JumpWindow.CLOSES


@dataclass(frozen=True)
class Expect:
    """An expected verdict a variant file states for itself (its ``[[expect]]`` tables),
    as the manifest states them for the shipped variants: ``players`` is ``N`` or
    ``A-B``; ``verdict`` one of proved, refuted, unknown, vacuous."""

    property: Annotated[str, Text(60, r"^[a-z0-9][a-z0-9-]*$", "a property name", 1)]
    players: Annotated[str, Text(5, r"^[0-9]{1,2}(-[0-9]{1,2})?$", "N or A-B", 1)]
    verdict: Annotated[str, Choice(("proved", "refuted", "unknown", "vacuous"))]
    reason: Annotated[str, Text(1000, low=1)]


@dataclass(frozen=True)
class Change:
    """A change a house rule makes to one move's command, as data a rule file states
    (``[[house.change]]``; docs/how-a-rule-is-written.md). ``command`` names the move.
    With ``conjunct`` (the words of one of its guard's conjuncts, as docs/rules.md lists
    them) the change replaces that conjunct's condition by ``when``, or drops it
    (``drop``); with ``require`` it adds a conjunct, refused in ``words`` under the house
    rule's ID. A condition is an expression of the rule language's conditions
    (``unoformal.rules.house``: ``phase(play) or (phase(drawn) and drawn-playable(false))``),
    parsed where the commands are built. With ``then`` the move makes more steps after its
    own (effects of the rule language, ``take(next, 1)``, separated by ``;``), where
    ``then_if`` holds, if it is given. With ``step`` (the words of one of the move's own
    steps, as docs/rules.md lists them after "then") the move makes ``instead``'s effects
    in that step's place, or nothing there with ``drop``, where ``then_if`` holds."""

    command: Annotated[str, Text(40, r"^[a-z_]+$", "a move's command name", 1)]
    conjunct: Annotated[str, Text(300)] = ""
    when: Annotated[str, Text(4000)] = ""
    drop: bool = False
    require: Annotated[str, Text(4000)] = ""
    words: Annotated[str, Text(300)] = ""
    # steps the move makes after its own (``take(next, 1); pass-turn(2)``), where
    # ``then_if`` holds when they are reached (a condition, as ``when``)
    then: Annotated[str, Text(4000)] = ""
    then_if: Annotated[str, Text(4000)] = ""
    step: Annotated[str, Text(300)] = ""
    instead: Annotated[str, Text(4000)] = ""


# The actions a rule file's move of its own is made by: those that name no card and no
# seat, so that a record of it is written in the action text records v1 and v2 know.
MOVE_ACTIONS = ("draw", "pass")


@dataclass(frozen=True)
class HouseMove:
    """A move of a house rule's own (``[[house.move]]``), made by the action ``action``
    (``draw`` or ``pass``) where the rulebook's move of that action is refused and
    ``require`` holds: it makes ``then``'s steps (effects of the rule language, as a
    change's ``then``) in its place. ``name`` names it in the words and in coverage;
    ``text`` says what it is. A state allows the rulebook's move or this one, never
    both, so one action text names one move for every reader."""

    name: Annotated[str, Text(40, r"^[a-z][a-z0-9-]*$", "a move name", 1)]
    action: Annotated[str, Choice(MOVE_ACTIONS)]
    require: Annotated[str, Text(4000, low=1)]
    then: Annotated[str, Text(4000, low=1)]
    text: Annotated[str, Text(300)] = ""


@dataclass(frozen=True)
class HouseProperty:
    """A property a rule file states of its house rule, in the rule's own terms and apart
    from the commands it changes (``[[house.property]]``): every step of the move
    ``command`` happens only from a state where ``before`` holds, and leads to one where
    ``after`` holds (either may be empty). ``unoformal verify`` proves or refutes it at
    every player count, as the shipped properties; where its rule is off it is vacuous."""

    name: Annotated[str, Text(60, r"^[a-z0-9][a-z0-9-]*$", "a property name", 1)]
    says: Annotated[str, Text(300, low=1)]
    command: Annotated[str, Text(40, r"^[a-z_]+$", "a move's command name", 1)]
    before: Annotated[str, Text(1000)] = ""
    after: Annotated[str, Text(1000)] = ""


@dataclass(frozen=True)
class HouseRule(Rule):
    """A house rule a user's rule file adds to the table: an entry like any other (its ID,
    its words, why, switchable and off where a file says so) with the changes it makes to
    the moves' commands, which apply while it is enabled, and the properties it states."""

    changes: tuple[Change, ...] = ()
    properties: tuple[HouseProperty, ...] = ()
    moves: tuple[HouseMove, ...] = ()  # moves of its own, made by an action's verb


HOUSE_FILE = "house rule file"  # the seed of a rule file's house rule (``[[house]]``)


@dataclass(frozen=True)
class OwnCondition:
    """A condition, or with ``effect`` an effect, a rule file's Python module adds to the
    rule language (``module = "my_conditions.py"``; :mod:`unoformal.rulebook.modules`):
    the name its expressions call it by, what builds its node from the arguments written
    after the name (a node of ``unoformal.language``, with its three readings), its words,
    and the module as the file names it (a record names it; it never runs it)."""

    name: str
    build: Callable[[list[Any]], Any]
    says: str
    module: str
    source: str = ""  # the module's resolved path, where a worker process loads it again
    effect: bool = False  # an effect (the module's EFFECTS), not a condition (CONDITIONS)
    # How one is pickled (for a campaign's worker) is registered by rulebook.modules, the
    # only module that makes one: the table's layer does not use the loader above it.


@dataclass(frozen=True)
class Mercy(Rule):
    at: Annotated[int, Range(2, 200)] = 25
    cards: MercyCards = MercyCards.DISCARD

    def too_many(self, cards: int) -> str | None:
        """Why no hand of ``cards`` is held in a round under this table (the words of
        every reader that checks one: a deal, a state text); None where one may be."""
        if not self.enabled or cards < self.at:
            return None
        return f"{cards} cards: {self.id} knocks out a hand of {self.at} cards or more"


@dataclass(frozen=True)
class RuleTable:
    """The whole rulebook as data. ``name`` is the variant's name; ``expect`` the expected
    verdicts a variant file states for itself (none for the shipped variants, whose
    verdicts are in the verifier's manifest)."""

    name: Annotated[str, Text(80, NAME, NAME_WHAT, 1)]
    description: Annotated[str, Text(1000)]
    deck: DeckRule
    players: PlayerCount
    scope: Scope
    dealer_draw: DealerDraw
    deal: DealRule
    first_turn: FirstTurn
    start_draw_two: StartRule
    start_skip: StartRule
    start_reverse: StartRule
    start_wild: StartRule
    start_wild_draw_four: StartRule
    matching: Matching
    draw: DrawRule
    reshuffle: Reshuffle
    hidden: Hidden
    number: CardEffect
    skip: CardEffect
    reverse: CardEffect
    draw_two: CardEffect
    wild: CardEffect
    wild_draw_four: CardEffect
    no_stacking: Stacking
    two_players: TwoPlayer
    misplay: Misplay
    advice: Penalty
    wd4_legality: Wd4Legality
    challenge_upheld: ChallengeOutcome
    challenge_failed: ChallengeOutcome
    challenge_color: ChallengeColor
    uno: UnoRule
    end_of_round: EndRule
    next_round: NextRound
    points: Points
    target: Target
    pass_when_nothing_to_draw: Rule
    draw_what_is_left: Rule
    start_with_only_wd4_left: Rule
    last_draw_card_drawn: Rule
    seven_o: SevenO
    jump_in: JumpIn
    several: Several
    mercy: Mercy
    overrides: tuple[tuple[str, str, Any], ...] = field(default=())
    expect: Annotated[tuple[Expect, ...], Items(0, 200)] = field(default=())
    # the house rules a user's rule file adds, after the rulebook's entries
    house: tuple[HouseRule, ...] = field(default=())
    # the conditions a rule file's Python module adds (its own, then its base file's)
    own: tuple[OwnCondition, ...] = field(default=())

    def entries(self) -> Iterator[tuple[str, Rule]]:
        """Every entry, in rulebook order, with its attribute name, then the house rules
        a rule file adds (``house:ID``)."""
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Rule):
                yield f.name, value
        for rule in self.house:
            yield f"house:{rule.id}", rule

    def rulebook_entries(self) -> Iterator[tuple[str, Rule]]:
        """The entries every table has, in rulebook order: :meth:`entries` without the
        house rules a rule file adds (two tables are compared entry by entry on these)."""
        return ((attr, rule) for attr, rule in self.entries() if not attr.startswith("house:"))

    def house_changed(self, base: RuleTable) -> list[str]:
        """The IDs of this table's house rules that ``base`` does not have as they are."""
        had = {rule.id: rule for rule in base.house}
        return [rule.id for rule in self.house if had.get(rule.id) != rule]

    def entry(self, rule_id: str) -> Rule:
        """The entry with this rule ID (the first, if sub-entries share an ID)."""
        for _, rule in self.entries():
            if rule.id == rule_id:
                return rule
        raise KeyError(f"no rule {rule_id!r} in table {self.name!r}")

    def effect(self, kind: Kind) -> CardEffect:
        effect: CardEffect = getattr(self, _EFFECTS[kind])
        return effect

    def drawing_kinds(self) -> list[Kind]:
        """The kinds whose card makes its victim draw (D2-1, WD4-2): what a respond phase
        answers and what NOSTACK-1 may answer with."""
        return [k for k in Kind if self.effect(k).victim_draws]

    def seats_leave(self) -> bool:
        """END-2's elimination or MERCY: whether a seat can be out, of the game or of a
        round (the state then has ``out``)."""
        return self.next_round.leaves is not Leaves.NONE or self.mercy.enabled

    def knocks_out(self) -> bool:
        """MERCY: whether a player can be knocked out of a round (the relation and the
        explorer's key then hold ``out``)."""
        return self.mercy.enabled

    def reverse_is_skip(self, players: int) -> bool:
        """TWO-1: whether, with this many players, a Reverse acts as a Skip."""
        two = self.two_players
        return two.enabled and two.reverse_acts_as_skip and players == two.players

    def start_rule(self, kind: Kind) -> StartRule | None:
        for name in ("start_draw_two", "start_skip", "start_reverse", "start_wild",
                     "start_wild_draw_four"):
            rule: StartRule = getattr(self, name)
            if rule.kind is kind and rule.enabled:
                return rule
        return None


_EFFECTS = {
    Kind.NUMBER: "number", Kind.SKIP: "skip", Kind.REVERSE: "reverse",
    Kind.DRAW_TWO: "draw_two", Kind.WILD: "wild", Kind.WILD_DRAW_FOUR: "wild_draw_four",
}

_ALL_COLORS = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)

# START-WILD and START-WD4 cannot be switched off: the start card would leave no color
# current, which no rule gives a meaning.
# Every start rule and every card effect states all its values in the same words.
_START = ("Start card: {kind}. {first_seat?The player {first_seat:seat} left of the dealer|"
          "The dealer} plays first and play goes {direction}{first_player_draws?; that player "
          "draws {first_player_draws:card}|}{first_player_loses_turn?; that player loses the "
          "turn|}{first_player_chooses_color?; that player first chooses the color|}"
          "{color_at_random?; the color is drawn at random, each color alike|}"
          "{turn_another_card?; the card goes back into the deck and another card is turned|}.")
_EFFECT = ("{chooses_color?; its player names any color (the current one included)|}"
           "{reverses?; the direction of play flips|}"
           "{victim_draws?; the next player draws {victim_draws:card}|}"
           "{victim_may_challenge?; the next player may challenge before drawing (WD4-1)|}"
           "{skips?; the turn skips {skips:player}|}.")
_OUTCOME = ("{offender_draws?, the offender draws {offender_draws:card}|}{challenger_draws?, the "
            "challenger draws {challenger_draws:card}|}, and the challenger "
            "{challenger_keeps_turn?keeps|loses} the turn.")
_PLAIN_START = ("The start card has no effect, like a number: DEAL-3 says who plays first "
                "and in which direction, on the card's color.")

CLASSIC = RuleTable(
    name="classic",
    description="The classic 108-card manual, as decided from the seeds (seed 000 governs; "
                "docs/rules.md).",
    deck=DeckRule(
        "DECK-1", "000 §01",
        "The deck: in each color ({colors}), copies of the numbers from 0 up "
        "({number_copies}), {draw_two_copies} of Draw Two, {skip_copies} of Skip and "
        "{reverse_copies} of Reverse; plus {wild_copies} Wild and {wild_draw_four_copies} "
        "Wild Draw Four cards.",
        colors=_ALL_COLORS, number_copies=(1, 2, 2, 2, 2, 2, 2, 2, 2, 2),
        skip_copies=2, reverse_copies=2, draw_two_copies=2,
        wild_copies=4, wild_draw_four_copies=4),
    players=PlayerCount("DECK-2", "000 §01", "{minimum} to {maximum} players.",
                        minimum=2, maximum=10),
    scope=Scope(
        "DECK-3", "000 §08",
        "Nothing from later editions: {excluded}.",
        excluded=("112-card extras", "stacking", "hand swapping", "7-0", "edition cards")),
    dealer_draw=DealerDraw(
        "DEAL-1", "000 §02",
        "Every player draws a card; the highest number deals; action and wild cards count "
        "as {symbol_value}; {ties_draw_again?players tied for highest draw again among "
        "themselves|of players tied for highest, the first in seat order deals}.",
        symbol_value=0, ties_draw_again=True),
    deal=DealRule(
        "DEAL-2", "000 §02",
        "Shuffle, deal {hand_size:card} to each player; the rest is the draw pile; turn its "
        "top card face up to start the discard pile.", hand_size=7),
    first_turn=FirstTurn(
        "DEAL-3", "000 §02",
        "{first_seat?The player {first_seat:seat} left of the dealer|The dealer} plays "
        "first; play goes {direction}.",
        first_seat=1, direction=Direction.LEFT),
    start_draw_two=StartRule(
        "START-D2", "000 §02", _START,
        kind=Kind.DRAW_TWO, first_player_draws=2, first_player_loses_turn=True,
        when_off=_PLAIN_START),
    start_skip=StartRule(
        "START-SKIP", "000 §02", _START,
        kind=Kind.SKIP, first_player_loses_turn=True, when_off=_PLAIN_START),
    start_reverse=StartRule(
        "START-REV", "000 §02", _START,
        kind=Kind.REVERSE, first_seat=0, direction=Direction.RIGHT, when_off=_PLAIN_START),
    start_wild=StartRule(
        "START-WILD", "000 §02", _START,
        kind=Kind.WILD, first_player_chooses_color=True),
    start_wild_draw_four=StartRule(
        "START-WD4", "000 §02", _START,
        kind=Kind.WILD_DRAW_FOUR, turn_another_card=True),
    matching=Matching(
        "PLAY-1", "000 §03",
        "On your turn play exactly one card matching the discard's current "
        "{by_color?color|(not color)}, {by_number?number|(not number)} or "
        "{by_symbol?symbol|(not symbol)}{wild_any_time?, or a Wild / Wild Draw Four|}; never "
        "more than one, never out of turn.",
        by_color=True, by_number=True, by_symbol=True, wild_any_time=True),
    draw=DrawRule(
        "DRAW-1", "000 §03",
        "If you {may_draw_when_able_to_play?cannot or will not|cannot} play, draw "
        "{cards:card}. {may_play_drawn?You may play a drawn card at once if it is legal, or "
        "keep it and end your turn|You keep what you drew and your turn ends}; no other "
        "card after drawing.{must_play_drawn? But a drawn card that is legal must be played at "
        "once: it is kept only when it cannot be played.|}",
        cards=1, may_play_drawn=True, may_draw_when_able_to_play=True, must_play_drawn=False),
    reshuffle=Reshuffle(
        "RESHUFFLE-1", "000 §03",
        "When the draw pile is empty, {keep_top?keep the top discard and shuffle the rest|"
        "shuffle the whole discard pile} into a new draw pile.{refill=split? A record may "
        "state a split draw pile (our reading of letsuno's): two halves, each draw taking "
        "the top card of either, and a half that runs out refilled from part of the "
        "discards below the top card while the other half still holds cards. Only stated "
        "chance reads it: the game's own chance refills as above, so play, explore and "
        "verify see one pile.|}",
        keep_top=True, refill=Refill.EMPTY,
        reason="How the pile is refilled is a value, refill: \"empty\" (the default: seed "
               "000 §03) or \"split\" (an engine that splits its pile in two halves and "
               "refills one from part of the discards, as letsuno does; a referee's "
               "reading, for records that state their chance)."),
    hidden=Hidden(
        "HIDDEN-1", "000 §03, §05",
        "Faces of hands are hidden; hand sizes are {hand_sizes_public?public|hidden}. A "
        "challenged player's hand is {challenge_shows_hand_to_challenger?shown to the "
        "challenger only|checked without being shown} (CHAL-1).{open_below=0?| A hand of "
        "fewer than {open_below} cards is shown to every player.}",
        hand_sizes_public=True, challenge_shows_hand_to_challenger=True, open_below=0),
    number=CardEffect(
        "PLAY-1", "000 §03", "A number card: no effect beyond matching" + _EFFECT,
        kind=Kind.NUMBER),
    skip=CardEffect(
        "SKIP-1", "000 §04", "Skip:" + _EFFECT, kind=Kind.SKIP, skips=1),
    reverse=CardEffect(
        "REV-1", "000 §04", "Reverse:" + _EFFECT,
        kind=Kind.REVERSE, reverses=True),
    draw_two=CardEffect(
        "D2-1", "000 §04", "Draw Two:" + _EFFECT,
        kind=Kind.DRAW_TWO, skips=1, victim_draws=2),
    wild=CardEffect(
        "WILD-1", "000 §04",
        "A Wild is legal even when other cards are playable" + _EFFECT, kind=Kind.WILD,
        chooses_color=True),
    wild_draw_four=CardEffect(
        "WD4-2", "000 §05",
        "Wild Draw Four:" + _EFFECT,
        kind=Kind.WILD_DRAW_FOUR, skips=1, victim_draws=4, victim_may_challenge=True,
        chooses_color=True),
    no_stacking=Stacking(
        "NOSTACK-1", "000 §04",
        "{victim_may_answer?The victim of {answers} may answer it with {answers}: penalties "
        "add up, and the first player who does not answer draws them all|The victim of a "
        "Draw Two or Wild Draw Four cannot answer it with another draw card: penalties never "
        "accumulate. A Draw Two on a Draw Two only on a normal turn}."
        "{deflect_with? House rule (deflection): the victim of {deflects} may instead pass "
        "it on with one of these cards: {deflect_with}, {deflect_any_color?of any color|of "
        "the current color (our reading: the card must still match)}. It waits again, its count "
        "unchanged: after a Skip the next player is its victim, after a Reverse the "
        "direction flips and the next player in the new direction (the player who played "
        "it, or who passed it on) is; with two players a Reverse acts as a Skip (TWO-1), "
        "and either card gives it to the other player. A player who passes it on with "
        "their last card ends the round at once, and nobody draws it.|}",
        reason="Deflection is a house rule, off in the rulebook (deflect_with = none). Its "
               "readings are values: deflect_with names the cards that deflect (a Skip, a "
               "Reverse or both); deflects the draw cards that may be deflected (the Draw "
               "Two by default: a Wild Draw Four whose victim may challenge it cannot be "
               "deflected, since the challenge judges the hand of the player who played "
               "it); deflect_any_color whether the deflecting card must match the current "
               "color (false, the default: PLAY-1's match still holds, as tables that "
               "deflect say \"of the same color\") or not. A deflection with the last "
               "card ends the round at once (END-1: the player has gone out; the waiting "
               "draw is nobody's any more), as a Skip played as a last card does.",
        victim_may_answer=False, answers=()),
    two_players=TwoPlayer(
        "TWO-1", "000 §04",
        "With {players} players, Reverse {reverse_acts_as_skip?acts as Skip: the turn comes "
        "back to whoever played it|only reverses}. (Skip, Draw Two and Wild Draw Four give "
        "the turn back by their own effect.)",
        players=2, reverse_acts_as_skip=True,
        when_off="A Reverse only reverses (REV-1), with any number of players."),
    misplay=Misplay(
        "MISPLAY-1", "000 §04",
        "An incorrect card, when detected, is taken back; its player draws {cards:card} and "
        "{turn_passes?the turn passes|plays again}.", cards=2, turn_passes=True),
    advice=Penalty(
        "ADVICE-1", "000 §04", "A player who advises another draws {cards:card}.", cards=2,
        when_off="Advising is no action: nobody advises, so nobody draws for it."),
    wd4_legality=Wd4Legality(
        "WD4-1", "000 §05, §09",
        "A Wild Draw Four is legal only when its player holds no "
        "{illegal_when_holding=playable-card?other card they could play (another Wild Draw "
        "Four does not count: this rule restricts it too)|card of the current "
        "color; same number or symbol in another color does not count}. {bluff_playable?It "
        "may still be played illegally, as a bluff: that is what the challenge is for|It "
        "cannot be played illegally}.{wild_excuses? Holding another wild card (a Wild or "
        "a Wild Draw Four) makes it legal whatever else is held, so a challenge of it "
        "fails (a house rule).|}",
        illegal_when_holding=Holding.CARD_OF_CURRENT_COLOR, bluff_playable=True,
        wild_excuses=False),
    challenge_upheld=ChallengeOutcome(
        "CHAL-2", "000 §05",
        "If the challenged player held a card of the color current when the card was played"
        + _OUTCOME,
        offender_draws=4, challenger_draws=0, challenger_keeps_turn=True),
    challenge_failed=ChallengeOutcome(
        "CHAL-3", "000 §05",
        "If the card was legal" + _OUTCOME,
        offender_draws=0, challenger_draws=6, challenger_keeps_turn=False),
    challenge_color=ChallengeColor(
        "CHAL-4", "000 §05",
        "In both cases {named_color_stays?the named color stays|the color current before the "
        "Wild Draw Four comes back}.", named_color_stays=True),
    uno=UnoRule(
        "UNO-1", "000 §06",
        "Say UNO {say_with_card?when playing|after playing} the card that leaves you "
        "with {cards_left:card}{say_before_accusation?, or afterwards before an accusation|}. "
        "{catch_until=any-time?Caught at any later time while still holding "
        "{cards_left:card} and not having said UNO (a house rule: the window stays open "
        "across turns; the state keeps one window, so a later forgotten UNO takes the place "
        "of the one open)|Caught before the next turn begins (its player draws or plays)}, "
        "draw {penalty:card}. "
        "{catch_only_with_one_card?A catch needs the accused to still hold {cards_left:card} "
        "(our reading: the call is about the last card)|A catch stands whatever the accused "
        "holds by then}.",
        cards_left=1, penalty=2, say_with_card=True, say_before_accusation=True,
        catch_only_with_one_card=True, catch_until=CatchUntil.NEXT_TURN,
        reason="How long a forgotten UNO can be caught is a value, catch_until: "
               "\"next-turn\" (the default: seed 000 §06, the next player draws or plays "
               "and the chance is gone) or \"any-time\" (the house rule of letsuno and of "
               "many tables: the player can be caught, or may still say UNO, for as long as "
               "they hold the one card).",
        when_off="Nobody calls UNO: a player's next-to-last card opens no window, nobody "
                 "says UNO or is caught, and nobody draws for it."),
    end_of_round=EndRule(
        "END-1", "000 §06",
        "Playing your last card ends the round{resolve_final_draw?; a final Draw Two or Wild "
        "Draw Four is resolved first (draw and any challenge), and those cards count. If the "
        "challenge sends cards back to the player who went out, the round goes on| at once; "
        "a final Draw Two or Wild Draw Four is not resolved}.", resolve_final_draw=True),
    next_round=NextRound(
        "END-2", "000 §06",
        "Count the hands; if nobody reached the target, shuffle everything and deal again; "
        "the dealer role {next_dealer=winner?goes to the round winner|}{next_dealer=left?"
        "passes to the left|}{next_dealer=mover?goes to whoever makes the player to move "
        "when the round ended (after its last card's effect on the turn) play first in the "
        "next one|}.{leaves=most-cards? House rule (elimination): when a round ends and "
        "nobody has reached the target, the player holding the most cards, the winner "
        "apart, leaves the game{leave_ties=first-seat?, the first of them in seat order "
        "on a tie|}{leave_ties=winner-left?, the first of them from the winner's left on "
        "a tie|}; the players left play on, seat order and the deal skipping the seats "
        "out, and the last one left wins the game.|}",
        next_dealer=NextDealer.LEFT, leaves=Leaves.NONE, leave_ties=LeaveTies.FIRST_SEAT,
        reason="Who deals next is a value, next_dealer: \"left\" (the default: seed 000 "
               "§06), \"winner\" (seed 004: the round's winner) or \"mover\" (letsuno: "
               "the player to move when the round ended plays first in the next round; "
               "our reading takes the turn after the last card's effect, where letsuno "
               "ends a round on a Wild before the turn moves on). Elimination is a house "
               "rule, off in the rulebook (leaves = none); \"most-cards\" is letsuno's "
               "elimination. Its wording leaves two things open. Who leaves on a tie is "
               "a value, leave_ties: \"first-seat\" (letsuno: the first in its players "
               "list) or \"winner-left\". Whether the target still ends the game: "
               "letsuno scores the round first and ends the game at the target before "
               "anyone leaves, and so do we; a table that wants the game ended by "
               "elimination alone sets SCORE-2's score to its maximum. A round is always "
               "played by the seats left: seat for seat, a round of that many players."),
    points=Points(
        "SCORE-1", "000 §07",
        "The round winner scores the cards left in the other hands: numbers "
        "{number_face_value?at face value|0}, Draw Two / Skip / Reverse {action_points}, any "
        "wild {wild_points}{multiplier=1?|, each counted {multiplier} times}. "
        "{partners=none?Everyone else scores 0.|House rule (teams): with an even number of "
        "players, 4 or more, partners sit opposite (a seat and the seat half the table "
        "on); {partners=opponents?the winner scores only the opponents' hands (our reading "
        "of partnership play: a partner's cards are their own side's)|the winner scores "
        "every other hand, the partner's too (letsuno's teamMode)}, and the winner's "
        "partner scores the same points, so two players score a round where SCORE-2 says "
        "one. With 2 players or an odd number everyone plays for themself.}",
        reason="Teams are a house rule, off in the rulebook (partners = none). Its "
               "readings are values of partners: \"shared\" (letsuno's teamMode, which "
               "credits the winner's points to the partner as well, the points counted from "
               "every other hand) or \"opponents\" (the winner's own partner's cards are "
               "not counted against the opponents). Only partners seated opposite at an "
               "even number of players, 4 or more, are a team: at 2 players the one other "
               "player would be the partner, and nobody would lose.",
        number_face_value=True, action_points=20, wild_points=50, multiplier=1),
    target=Target(
        "SCORE-2", "000 §07",
        "Scores accumulate; the first to reach {score} points or more wins the game. Exactly "
        "one player scores per round.", score=500),
    pass_when_nothing_to_draw=Rule(
        "EXT-PASS", "extension",
        "A player to move who must draw when the draw pile and the discard pile below the top "
        "are both empty passes the turn instead.",
        extension=True,
        reason="DRAW-1 and RESHUFFLE-1 assume a card is left to draw; with many cards held "
               "nothing may be, and a player who cannot play would have no move."),
    draw_what_is_left=Rule(
        "EXT-SHORT", "extension",
        "A penalty or effect that makes a player draw more cards than are left (after the "
        "reshuffle) draws what is left; the rest is forgiven.",
        extension=True,
        reason="D2-1, WD4-2, CHAL-2/3, UNO-1, MISPLAY-1 and ADVICE-1 name a number of cards; "
               "the rulebook does not say what happens when fewer are left."),
    start_with_only_wd4_left=Rule(
        "EXT-START", "extension",
        "If a Wild Draw Four is turned as start card and only Wild Draw Fours are left in the "
        "draw pile (only wild cards, where a start Wild goes back too), it stays and is "
        "treated like a Wild start card (START-WILD) whose color the first player names.",
        extension=True,
        reason="START-WD4 turns another card; when every card left is a Wild Draw Four it "
               "would turn cards forever."),
    last_draw_card_drawn=Rule(
        "EXT-LAST", "extension",
        "Where a draw card may be answered with another (NOSTACK-1's stacking), one that is "
        "its player's last card cannot be: the next player draws its cards (END-1) and the "
        "round ends.",
        extension=True,
        reason="END-1 makes the next player draw the cards of a last Draw Two or Wild Draw "
               "Four, and the rulebook has no stacking, so it does not say whether that "
               "penalty may be passed on. Passed on, it comes back to a player who has gone "
               "out, and the round has no winner.",
        when_off="A draw card that may be answered and is its player's last card ends the "
                 "round at once: nobody draws for it (as END-1 without its final draw)."),
    seven_o=SevenO(
        "SEVEN-O", "house rule",
        "A {swap_rank} played swaps its player's hand with the hand of {swap_with=next?the "
        "next player in the direction of play (our reading: \"swap with the next player\")|"
        "another player they choose (our reading: any other player)}; a {pass_rank} played "
        "passes every hand to the next player in the direction of play. A {swap_rank} or "
        "{pass_rank} that is its player's last card ends the round and exchanges nothing. "
        "After an exchange the UNO window stays open only while its player still holds one "
        "card.",
        house=True, enabled=False,
        reason="The rulebook has no Seven-O; the last two sentences settle what the house "
               "rule leaves open. An exchange after the last card would hand the winner "
               "cards (END-1), and a window left open on a hand that has grown would let a "
               "player be caught who holds more than one card (UNO-1). Whose hand a 7 swaps "
               "with is a value, swap_with: \"chosen\" (the default: any other player its "
               "player chooses, as the house rule is usually told, and as this table has "
               "always played it, so its verdicts and records stay) or \"next\" (always the "
               "next player, as letsuno's label says: \"swap with the next player\").",
        when_off="Sevens and zeros are number cards like any other.",
        swap_rank=7, pass_rank=0, swap_with=SwapWith.CHOSEN),
    jump_in=JumpIn(
        "JUMP-IN", "house rule",
        "A player holding a card identical to the top of the discard pile (the same color "
        "and face) may play it out of turn, while the player to move has yet to play or "
        "draw; play then goes on from them as if it had been their turn, and the players "
        "between lose their turn. A wild card is never identical to another: its color is "
        "named. The player who has just played may jump in too. "
        "{draw_two=adds?A Draw Two's victim does not draw at once but accepts it first "
        "(draws what waits); while it waits, a player other than the victim may jump in "
        "with an identical Draw Two, which adds its 2 cards to those waiting: the player "
        "after the jumper draws the total and the first victim draws nothing (our reading: "
        "a jump adds to a Draw Two)|A Draw Two jumped in on a Draw Two hits the player "
        "after the jumper, who draws 2 and loses the turn; the first Draw Two's victim has "
        "drawn its own 2 already (D2-1: the victim draws at once) and keeps them (our "
        "reading: each Draw Two hits the player after its own)}. "
        "{uno_window=closes?A jump-in begins the jumper's turn, so it closes the UNO window "
        "of a player who did not say UNO (UNO-1: the next turn begins)|A jump-in leaves the "
        "UNO window of a player who did not say UNO open until a turn begins in turn (our "
        "reading: a turn taken out of turn is not the next turn); where the jumper's own "
        "card opens their window it takes the place of the one open}.",
        house=True, enabled=False,
        reason="The rulebook has no Jump-In; the sentences after the first settle what the "
               "house rule leaves open. A wild's color is the player's choice, not the "
               "card's, so no wild is identical to the top (WILD-1); nothing in the house "
               "rule keeps the player who has just played from holding the same card again. "
               "Two readings are values. draw_two: \"each\" (the default: D2-1 as the "
               "rulebook states it, the victim drawing at once, so a Draw Two jumped in on "
               "comes after that draw and hits the player after the jumper; the table has "
               "always played it so, and its verdicts, records and perft tables stay) or "
               "\"adds\" (the stacking house rule, NOSTACK-1's variant, applied to a jump: "
               "a Draw Two waits and an identical one jumped in on it adds up). uno_window: "
               "\"closes\" (the default: UNO-1 closes the window when the next turn "
               "begins, and a jump begins the jumper's turn; as always played) or "
               "\"stays-open\" (a turn out of turn is not the next one; the state has one "
               "window, so a jumper's own window takes its place).",
        when_off="Only the player to move plays a card (PLAY-1)."),
    several=Several(
        "SEVERAL", "house rule",
        "A player who plays a number card and still holds a number card of the same "
        "number keeps the turn: "
        "{then=any-playable?they may play any card that may be played (our reading of "
        "letsuno's engine, which keeps the turn and then checks a card as on any turn)|"
        "they may play one of those cards, of any color (it matches by number), and so on "
        "while they hold one (our reading: \"several cards of one number\", one at a "
        "time)}, or pass to end the turn. They may not draw then. The last card played "
        "takes effect as on any turn; one that leaves no card of its number in the hand "
        "ends the turn, and going out ends the round. Under SEVEN-O, "
        "{exchange=ends-turn?a card that exchanges hands ends the turn: the exchange is "
        "that card's effect, so it is the last card played|a card that exchanges hands "
        "does so as it is played, and the hand then held decides whether the turn stays "
        "(letsuno's reading)}.",
        house=True, enabled=False,
        reason="The rulebook plays one card a turn (PLAY-1). The house rule (\"several "
               "cards of one number at once\") is stated here one card at a time, so that "
               "every card is matched, counted for UNO-1 and refused on its own. What may "
               "follow is a value, then: \"same-number\" (the default: only the cards of "
               "that number, which is what the house rule names) or \"any-playable\" "
               "(letsuno's multiplePlaySameNumber: the turn stays while such a card is "
               "held, and the next card is checked as on any turn). With SEVEN-O the "
               "wording is silent on an exchange card, whose effect changes the very hand the "
               "rule asks about; the matrix of pairs found it (a 7 swapped for a hand "
               "holding another 7 keeps the turn, which refutes SEVEN-O's own property). "
               "exchange: "
               "\"after\" (the default: the hand held after the exchange decides, as "
               "letsuno's multi-play rule reads the state after the card's effects; the "
               "table has always played it so, and its records stay) or \"ends-turn\" (\"the "
               "last card played takes effect\": an exchange card is an effect, so it is "
               "the last card of the turn).",
        when_off="A player plays one card a turn (PLAY-1)."),
    mercy=Mercy(
        "MERCY", "house rule",
        "A player who holds {at} cards or more, at any moment of a round (after drawing, "
        "being made to draw, or being handed a hand), is knocked out of the round at once: "
        "{cards=pile?their cards go under the draw pile|their cards go under the discard "
        "pile, its top card staying on top}, play passes them by, and if it was their "
        "turn, the next player in plays, or names the start card's color (a draw card "
        "waiting for them is drawn by nobody, and if its player went out with it, that "
        "player wins); a card they still owe (a Wild Draw Four of theirs found illegal) "
        "follows their hand. When one player is left in the round, they win it (END-1); "
        "the players knocked out hold no cards, so the round scores nothing (SCORE-1). "
        "Everyone is dealt in again at the next deal. A round that ends when a player goes "
        "out checks nobody's hand after that card.",
        house=True, enabled=False,
        reason="The rulebook has no limit on a hand. UNO Show 'Em No Mercy's mercy rule "
               "knocks out a player who ever holds 25 cards or more, and the last one left "
               "wins; its game is one round, so here a player is out for the round and "
               "dealt in again at the next one (a table that wants one round sets "
               "SCORE-2's score to 1). Where the cards go is a value, because the "
               "accounts differ: \"discard\" (the default: under the discard pile, as "
               "the box's rule is usually told) or \"pile\" (under the draw pile, where "
               "they come back without a reshuffle). A third account sets them aside, out "
               "of play; that is no value, because the state has no such pile and the "
               "deck would not stay whole (DECK-1). An account that checks only at the end "
               "of a player's turn is no value either: the box says \"ever\", so the "
               "check is at once. What the players knocked out held is gone from the "
               "score: the wording is silent, and those cards are no longer in a hand.",
        when_off="A hand has no limit.",
        at=25, cards=MercyCards.DISCARD),
)


def partner_of(table: RuleTable, players: int, seat: int) -> int | None:
    """SCORE-1's teams: the seat opposite ``seat`` at an even count of 4 or more, where the
    table has partners; else None (the engine and the relation read it alike)."""
    if table.points.partners is Partners.NONE or players % 2 or players < 4:
        return None
    return (seat + players // 2) % players


def kind_copies(deck: DeckRule) -> dict[Kind, int]:
    """Copies per color of each colored action kind."""
    return {Kind.SKIP: deck.skip_copies, Kind.REVERSE: deck.reverse_copies,
            Kind.DRAW_TWO: deck.draw_two_copies}


# --- Cross-field checks: what no single field's range can say -------------------------
#
# The ranges beside the fields bound each value alone; these checks bound values
# together. Each cites the rule it keeps total, and names the field to change.


@dataclass(frozen=True)
class Breach:
    """A check that fails: the key path of the field it blames (``("rules", ID, field)``
    or ``("expect", i, "players")``), that field's value, and what is allowed."""

    path: tuple[str | int, ...]
    rule_id: str
    value: Any
    allowed: str


@dataclass(frozen=True)
class Check:
    name: str
    rule_id: str
    test: Callable[[RuleTable], Breach | None]


def deck_size(deck: DeckRule) -> int:
    """DECK-1: the number of cards the entry describes."""
    per_color = sum(deck.number_copies) + sum(kind_copies(deck).values())
    return len(deck.colors) * per_color + deck.wild_copies + deck.wild_draw_four_copies


def dealer_values(table: RuleTable) -> list[int]:
    """DEAL-1: the value of every card of the deck in the dealer draw."""
    deck, symbol = table.deck, table.dealer_draw.symbol_value
    colors = len(deck.colors)
    values = [rank for rank, n in enumerate(deck.number_copies) for _ in range(n * colors)]
    symbols = colors * sum(kind_copies(deck).values()) + deck.wild_copies
    return values + [symbol] * (symbols + deck.wild_draw_four_copies)


def _players_ordered(table: RuleTable) -> Breach | None:
    p = table.players
    if p.minimum <= p.maximum:
        return None
    return Breach(("rules", p.id, "minimum"), p.id, p.minimum,
                  f"at most the maximum, {p.maximum}")


def _hands_leave_a_start_card(table: RuleTable) -> Breach | None:
    """DEAL-2 deals every hand and turns a start card from what is left: the most
    players' hands must leave at least one card of the deck."""
    size, most = deck_size(table.deck), table.players.maximum
    fits = (size - 1) // most
    if table.deal.hand_size <= fits:
        return None
    return Breach(("rules", table.deal.id, "hand_size"), table.deal.id, table.deal.hand_size,
                  f"at most {fits}: {most} hands (DECK-2 maximum) must leave a start card "
                  f"of the deck's {size} cards (DECK-1)")


def _dealer_draw_ends(table: RuleTable) -> Breach | None:
    """DEAL-1 with ties drawing again ends only if some draw gives one contender the
    highest value alone: a card of the highest value and, for each of the other
    contenders (up to DECK-2's maximum), a lower card. The engine draws from the whole
    deck again when it runs out, so such a draw then keeps a chance every time, and the
    draw ends with probability 1. Without it (one rank, symbols valued like it, ...)
    every draw ties and the engine loops for ever."""
    rule = table.dealer_draw
    values = dealer_values(table)
    if not rule.ties_draw_again or not values:
        return None  # an empty deck is refused by DEAL-2's check
    top = max(values)
    lower, need = sum(v < top for v in values), table.players.maximum - 1
    if lower >= need:
        return None
    return Breach(("rules", rule.id, "ties_draw_again"), rule.id, True,
                  f"false, or a deck with {need} cards below the highest dealer value "
                  f"{top} (this one has {lower}; symbol_value = {rule.symbol_value}): "
                  "otherwise every dealer draw can tie, for ever")


def _start_kinds_distinct(table: RuleTable) -> Breach | None:
    """START-*: a start rule is found by the kind of the start card; a second enabled
    rule for the same kind would never apply."""
    seen: dict[Kind, str] = {}
    for _, rule in table.entries():
        if not isinstance(rule, StartRule) or not rule.enabled:
            continue
        if rule.kind in seen:
            return Breach(("rules", rule.id, "kind"), rule.id, rule.kind.value,
                          f"a kind no other start rule has ({seen[rule.kind]} is for it)")
        seen[rule.kind] = rule.id
    return None


def _start_color_once(table: RuleTable) -> Breach | None:
    """START-*: the start card's color is either named by the first player or drawn at
    random; both at once would throw the random color away."""
    for _, rule in table.entries():
        if isinstance(rule, StartRule) and rule.first_player_chooses_color \
                and rule.color_at_random:
            return Breach(("rules", rule.id, "color_at_random"), rule.id, True,
                          "false while first_player_chooses_color is true (one of the two "
                          "decides the color)")
    return None


def _drawn_card_playable(table: RuleTable) -> Breach | None:
    """DRAW-1: a drawn card that must be played has to be one that may be played."""
    draw = table.draw
    if draw.must_play_drawn and not draw.may_play_drawn:
        return Breach(("rules", draw.id, "must_play_drawn"), draw.id, True,
                      "false while may_play_drawn is false (a drawn card that may not be "
                      "played cannot have to be)")
    return None


def _answers_draw(table: RuleTable) -> Breach | None:
    """NOSTACK-1: a penalty is answered only with a card that passes a penalty on (one
    whose victim draws); any other card would drop the penalty it answers."""
    stack = table.no_stacking
    for i, kind in enumerate(stack.answers):
        if table.effect(kind).victim_draws == 0:
            return Breach(("rules", stack.id, "answers"), stack.id, kind.value,
                          f"answers[{i}]: a card whose victim draws (this table: "
                          f"{_drawing_kinds(table)})")
    return None


def _deflection(table: RuleTable) -> Breach | None:
    """NOSTACK-1's deflection: a card deflects only if it makes nobody draw (a Skip or a
    Reverse: it passes a draw on, it does not add one), and only a draw card is deflected,
    one whose victim may not challenge it (a challenge judges the hand of the player who
    played it, who is no longer the one the waiting draw comes from)."""
    stack = table.no_stacking
    for i, kind in enumerate(stack.deflect_with):
        effect = table.effect(kind)
        if effect.victim_draws or not (effect.skips or effect.reverses):
            return Breach(("rules", stack.id, "deflect_with"), stack.id, kind.value,
                          f"deflect_with[{i}]: a card that skips or reverses and makes "
                          'nobody draw ("S", "R")')
    if not stack.deflect_with:
        return None  # off: what it would deflect is not read
    for i, kind in enumerate(stack.deflects):
        effect = table.effect(kind)
        if not effect.victim_draws or effect.victim_may_challenge:
            return Breach(("rules", stack.id, "deflects"), stack.id, kind.value,
                          f"deflects[{i}]: a card whose victim draws and may not challenge "
                          f"it (this table: {_drawing_kinds(table)}; a Wild Draw Four only "
                          "with WD4-2's challenge off)")
    return None


def _drawing_kinds(table: RuleTable) -> str:
    return ", ".join(f'"{k.value}"' for k in table.drawing_kinds()) or "none"


def _switched_only_where_meant(table: RuleTable) -> Breach | None:
    """Only an entry whose switch every interpreter reads may be off: an extension, or a
    rulebook entry that states what off means (``when_off``)."""
    for _, rule in table.entries():
        if not rule.enabled and not rule.switchable:
            return Breach(("rules", rule.id, "enabled"), rule.id, False,
                          f"true: only {switchable_ids(table)} can be switched off")
    return None


def switchable_ids(table: RuleTable) -> str:
    ids = dict.fromkeys(rule.id for _, rule in table.entries() if rule.switchable)
    return ", ".join(ids)


def _expect_players(table: RuleTable) -> Breach | None:
    """An expected verdict is about player counts the table allows (DECK-2)."""
    lo, hi = table.players.minimum, table.players.maximum
    for i, expect in enumerate(table.expect):
        first, _, last = expect.players.partition("-")
        a, b = int(first), int(last or first)
        if not lo <= a <= b <= hi:
            return Breach(("expect", i, "players"), table.players.id, expect.players,
                          f"N or A-B with {lo} <= A <= B <= {hi}")
    return None


def _exchange_ranks_differ(table: RuleTable) -> Breach | None:
    """SEVEN-O: the rank that swaps hands and the rank that passes them are two ranks; one
    card cannot do both."""
    rule = table.seven_o
    if rule.swap_rank != rule.pass_rank:
        return None
    return Breach(("rules", rule.id, "pass_rank"), rule.id, rule.pass_rank,
                  f"a rank other than swap_rank ({rule.swap_rank})")


def _leaves_without_partners(table: RuleTable) -> Breach | None:
    """END-2's elimination and SCORE-1's teams: a seat opposite one that left would have
    no partner, and neither house rule says what becomes of a team then."""
    rule = table.next_round
    if rule.leaves is Leaves.NONE or table.points.partners is Partners.NONE:
        return None
    return Breach(("rules", rule.id, "leaves"), rule.id, rule.leaves.value,
                  "\"none\" while SCORE-1's partners are on (teams say nothing of a "
                  "partner who leaves the game)")


def _mercy_alone(table: RuleTable) -> Breach | None:
    """MERCY with END-2's elimination or SCORE-1's teams: a player knocked out of a round
    comes back at the next deal, one who leaves the game does not, and a team with a
    partner knocked out is a case neither house rule states."""
    if not table.mercy.enabled:
        return None
    if table.next_round.leaves is not Leaves.NONE:
        return Breach(("rules", table.mercy.id, "enabled"), table.mercy.id, True,
                      "false while END-2's leaves is on (the two say different things of "
                      "a player who is out)")
    if table.points.partners is not Partners.NONE:
        return Breach(("rules", table.mercy.id, "enabled"), table.mercy.id, True,
                      "false while SCORE-1's partners are on (teams say nothing of a "
                      "partner knocked out)")
    return None


def _mercy_above_deal(table: RuleTable) -> Breach | None:
    """MERCY's limit above DEAL-2's hand: a limit a deal reaches would knock every player
    out before anyone moves."""
    rule = table.mercy
    if not rule.enabled or rule.at > table.deal.hand_size:
        return None
    return Breach(("rules", rule.id, "at"), rule.id, rule.at,
                  f"more than DEAL-2's hand_size ({table.deal.hand_size}): a deal would "
                  "knock every player out")


CHECKS = (
    Check("switched-only-where-meant", "every entry", _switched_only_where_meant),
    Check("exchange-ranks-differ", "SEVEN-O", _exchange_ranks_differ),
    Check("players-ordered", "DECK-2", _players_ordered),
    Check("hands-leave-a-start-card", "DEAL-2", _hands_leave_a_start_card),
    Check("dealer-draw-ends", "DEAL-1", _dealer_draw_ends),
    Check("start-kinds-distinct", "START-*", _start_kinds_distinct),
    Check("start-color-once", "START-*", _start_color_once),
    Check("drawn-card-playable", "DRAW-1", _drawn_card_playable),
    Check("answers-draw", "NOSTACK-1", _answers_draw),
    Check("deflection", "NOSTACK-1", _deflection),
    Check("expect-players", "DECK-2", _expect_players),
    Check("leaves-without-partners", "END-2", _leaves_without_partners),
    Check("mercy-alone", "MERCY", _mercy_alone),
    Check("mercy-above-deal", "MERCY", _mercy_above_deal),
)


def breaches(table: RuleTable) -> Iterator[tuple[Check, Breach]]:
    """Every cross-field check the table fails, in the order of ``CHECKS``."""
    for check in CHECKS:
        breach = check.test(table)
        if breach is not None:
            yield check, breach
