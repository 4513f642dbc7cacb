"""A successor function over packed records, read from the table's commands.

:class:`CommandSuccessor` is a third reading of the guarded commands (beside the engine's
``holds``/``run`` over a game and the Z3 relation's ``encode``): every condition and effect
node of the table's move commands is translated once, when the successor is built, into
a Python closure over the record held as a list of ints (``reading.Reader``), with the
table's values folded in (the match row and WD4-1's row per color and top, the card
effects, the reshuffle's ``keep_top``). A node class it has no reading for is refused by
name when the successor is built, never read some other way.

What is not a command is restated here, each beside the engine code it mirrors:

- the listing (``Game._listed``, ``_on_turn``, ``_cards``): which seats are asked which
  commands, in which order; the guards themselves are the commands';
- the engine primitives the nodes call (``_place``, ``_take``, ``_resolved``,
  ``_round_end_check``, ``_end_round``, ``available``, ``_can_effect``): in the reader;
- chance exactly as the explorer enumerates it (``explore.chance``): a draw of k cards is
  every multiset of the pile's faces, in the lexicographic order of its sorted faces,
  once each; a pile that runs out is drawn whole, then RESHUFFLE-1, then the rest.

The actions are the engine's own objects (its lookups), so the edges read as the
explorer's. ``tests/verification/test_packed_commands.py`` ties this reading to the
engine on every state of the small presets.
"""

from __future__ import annotations

from typing import Any

from unoformal.engine.actions import Action
from unoformal.language.commands import Command, in_phase
from unoformal.language.conditions import Conjunct
from unoformal.language.protocols import Binding
from unoformal.rulebook.table import MercyCards
from unoformal.rules.play import plays as card_plays
from unoformal.rules.state import OVER, PHASES, PLAY, RESPOND, START
from unoformal.verification.explore.chance import ExploreGame
from unoformal.verification.packed.layout import NONE, Layout
from unoformal.verification.packed.reading import PH, TURN, UNO_WINDOW, Guard, Reader, Run
from unoformal.verification.packed.successor import ACTION_INDEX, Edge

_PLAY_CODE = PHASES.index(PLAY)
_RESPOND_CODE = PHASES.index(RESPOND)


class Unsupported(ValueError):
    """The table uses something this reading does not have (named in the message)."""


class _Single:
    """An on-turn move other than a card, as listed in one phase: its command's guard
    reduced for the phase, its effect, and per seat the actions it lists (a color each
    for a color to name)."""

    def __init__(self, guard: Guard, run: Run, each: list[list[Action]],
                 colors: list[list[int | None]], answers: bool, command: Command,
                 parts: tuple[Conjunct, ...]) -> None:
        self.guard, self.run, self.each, self.colors = guard, run, each, colors
        self.answers = answers  # run with the offender bound (``Game._do_accept``)
        # the nodes read (``packed/generated.py`` reads them again, into source)
        self.command, self.parts = command, parts


class _Face:
    """A face's plays: its ``playable`` conjuncts per phase (None: the phase refuses
    it), the rest of its play command's guard (asked per play: UNO said, the color), the
    play's effect, and per seat and UNO-hand the listed plays with their bindings."""

    def __init__(self, playable: list[Guard | None], rest: Guard, run: Run,
                 plays: list[tuple[list[tuple[Action, Binding]], list[tuple[Action, Binding]]]],
                 misplay: list[tuple[Action, Binding]], command: Command,
                 able: list[tuple[Conjunct, ...] | None], rest_parts: tuple[Conjunct, ...]
                 ) -> None:
        self.playable, self.rest, self.run = playable, rest, run
        self.plays, self.misplay = plays, misplay
        # the nodes read (``packed/generated.py`` reads them again, into source)
        self.command, self.able, self.rest_parts = command, able, rest_parts


class CommandSuccessor:
    """The successors of a record, from the table's move commands (see the module)."""

    reader_class: type[Reader] = Reader  # the readings (a test plants a wrong one here)

    def __init__(self, layout: Layout, template: ExploreGame, penalties: bool) -> None:
        rules = template.rules
        _refuse(template)
        self.layout = layout
        self.penalties = penalties
        self.n = layout.n
        t = template.t.counted
        assert t is not None
        self.reader = reader = self.reader_class(layout, template, self._can_play)
        cp = card_plays(rules)
        for command in (*cp.all(), t.turn.misplay):
            if command.branches:
                raise Unsupported(f"a card play with branches ({command.name})")
        self.faces = [self._face(reader, t, cp, f) for f in range(layout.nf)]
        self.misplay_guard = reader.guard(t.turn.misplay, t.turn.misplay.guard)
        self.misplay_run = reader.run(t.turn.misplay)
        oot = t.out_of_turn
        self.advise = (reader.guard(oot.advise, oot.advise.guard), reader.run(oot.advise))
        self.say_uno = (reader.guard(oot.say_uno, oot.say_uno.guard), reader.run(oot.say_uno))
        self.catch = (reader.guard(oot.catch, oot.catch.guard), reader.run(oot.catch))
        self.advise_actions, self.uno_actions, self.catch_actions = t.advise, t.uno, t.catch
        self.menu = self._menu(reader, t, cp)
        self.over_code = PHASES.index(OVER)
        self.no_moves = (self.over_code, PHASES.index(START))

    # ------------------------------------------------------------------ building

    def _face(self, reader: Reader, t: object, cp: object, face: int) -> _Face:
        lk = _lookups(t)
        command: Command = lk.play[face]
        # the play's guard ends with the card's ``playable`` conjuncts (rules.play.play),
        # asked once per card; the rest is asked per play (its color, UNO said)
        able = _playable(cp, lk.kind[face])
        rest = tuple(part for part in command.guard if part not in able)
        playable: list[Guard | None] = []
        able_parts = [in_phase(_playable(cp, lk.kind[face]), phase) for phase in PHASES]
        for parts in able_parts:
            playable.append(None if parts is None else reader.guard(command, parts))
        plays = []
        for p in range(self.n):
            row = []
            for listed in lk.plays[p][face]:
                row.append([(a, _binding(lk, a)) for a in listed])
            plays.append((row[0], row[1]))
        misplay = [(lk.misplay[p][face], Binding(p, card=face)) for p in range(self.n)]
        return _Face(playable, reader.guard(command, rest), reader.run(command), plays,
                     misplay, command, able_parts, rest)

    def _menu(self, reader: Reader, t: object, cp: object) -> list[list[_Single | None]]:
        """Per phase, the on-turn moves its guards leave possible, in the engine's order
        (``engine.game._menu``): accept, challenge, the cards (None), the draw, the pass
        with nothing to draw, the drawn card kept, the color named."""
        lk = _lookups(t)
        moves, answers = lk.turn, lk.responses
        singles = [(answers.accept, [[a] for a in lk.accept]),
                   (answers.challenge, [[a] for a in lk.challenge]),
                   (None, []),
                   (moves.draw, [[a] for a in lk.draw]),
                   (moves.pass_nothing_to_draw, [[a] for a in lk.pass_]),
                   (moves.keep, [[a] for a in lk.pass_]),
                   (moves.choose_color, lk.choose_color)]
        answers_to = (answers.accept, answers.challenge)
        card_guards = [c.guard for c in _all(cp)] + [moves.misplay.guard]
        out: list[list[_Single | None]] = []
        for phase in PHASES:
            listed: list[_Single | None] = []
            for command, each in singles:
                if command is None:
                    if any(in_phase(g, phase) is not None for g in card_guards):
                        listed.append(None)
                    continue
                guard = in_phase(command.guard, phase)
                if guard is not None:
                    colors = [[_color(lk, a) for a in row] for row in each]
                    answers = command is answers_to[0] or command is answers_to[1]
                    listed.append(_Single(reader.guard(command, guard), reader.run(command),
                                          each, colors, answers, command, guard))
            out.append(listed)
        return out

    # ------------------------------------------------------------------ listing

    def _can_play(self, s: list[int], p: int, face: int) -> bool:
        """``Game._can_play``: the face's ``playable`` conjuncts, reduced for the phase."""
        guard = self.faces[face].playable[s[PH]]
        return guard is not None and guard(s, Binding(p, None, None, face))

    def listed(self, s: list[int]) -> list[tuple[Action, Run, Binding]]:
        """``Game._listed``: every legal action with the effect and binding it runs."""
        out: list[tuple[Action, Run, Binding]] = []
        if s[PH] in self.no_moves:  # Game.legal_actions: a round over or not yet begun
            return out
        turn = s[TURN]
        advise = self.penalties and self.advise[0](s, Binding(turn))
        target = None if s[UNO_WINDOW] == NONE else s[UNO_WINDOW]
        if not advise and target is None:
            self._on_turn(s, turn, out)
            return out
        out_at = self.reader.out_at
        for p in range(self.n):
            if out_at is not None and s[out_at + p]:
                continue  # MERCY: a player knocked out has no move (``Game._listed``)
            if advise:
                out.append((self.advise_actions[p], self.advise[1], Binding(p)))
            if target is not None:
                if self.say_uno[0](s, Binding(p)):
                    out.append((self.uno_actions[p], self.say_uno[1], Binding(p)))
                elif self.catch[0](s, Binding(p, target)):
                    out.append((self.catch_actions[p][target], self.catch[1],
                                Binding(p, target)))
            if p == turn:
                self._on_turn(s, p, out)
        return out

    def _on_turn(self, s: list[int], p: int, out: list[tuple[Action, Run, Binding]]) -> None:
        offender = None if s[8] == NONE else s[8]
        b = Binding(p, None, offender)
        for move in self.menu[s[PH]]:
            if move is None:
                self._cards(s, p, out)
            elif move.guard(s, b):
                bound = offender if move.answers else None
                for a, color in zip(move.each[p], move.colors[p], strict=True):
                    out.append((a, move.run, Binding(p, None, bound, None, color)))

    def _cards(self, s: list[int], p: int, out: list[tuple[Action, Run, Binding]]) -> None:
        """``Game._list_plays``: per face held, in face order, its plays where its guard
        holds, else (with penalties, not answering a draw card) its misplay."""
        reader = self.reader
        base = reader.hand_at(p)
        nf = reader.nf
        with_uno = 1 if sum(s[base:base + nf]) == reader.uno_with else 0
        phase = s[PH]
        answering = phase == _RESPOND_CODE
        for face in range(nf):
            if not s[base + face]:
                continue
            f = self.faces[face]
            able = f.playable[phase]
            if able is not None and able(s, Binding(p, None, None, face)):
                for action, b in f.plays[p][with_uno]:
                    if reader.out_at is not None and b.target is not None \
                            and s[reader.out_at + b.target]:
                        continue  # a seat knocked out is nobody's target (``_add_plays``)
                    if f.rest(s, b):
                        out.append((action, f.run, b))
            elif self.penalties and not answering:
                action, b = f.misplay[p]
                if self.misplay_guard(s, b):
                    out.append((action, self.misplay_run, b))

    # ------------------------------------------------------------------ successors

    def __call__(self, rec: bytes) -> list[Edge]:
        reader = self.reader
        s = reader.load(rec)
        out: list[Edge] = []
        for action, run, b in self.listed(s):
            code = ACTION_INDEX[action.type]
            targets: list[bytes] = []
            for child, ran in run(s, b):
                crec = reader.store(child)
                if crec in targets:
                    continue
                targets.append(crec)
                ends = reader.score_labels(child) if child[PH] == self.over_code else ()
                out.append(Edge(action, code, crec, tuple(ran), ends))
        return out


def _lookups(t: object) -> Any:
    """The engine's lookups of the table (its actions and its commands as stated)."""
    return t


def _playable(cp: object, kind: object) -> tuple[Conjunct, ...]:
    return cp.playable[kind]  # type: ignore[attr-defined,no-any-return]


def _all(cp: object) -> tuple[Command, ...]:
    return cp.all()  # type: ignore[attr-defined,no-any-return]


def _binding(lk: object, action: Action) -> Binding:
    """A play's binding, as ``Game._do_play`` makes it."""
    p, face, color, target = lk.own[id(action)][1]  # type: ignore[attr-defined]
    return Binding(p, target, None, face, color, action.uno)


def _color(lk: object, action: Action) -> int | None:
    return lk.own[id(action)][1][2]  # type: ignore[attr-defined,no-any-return]


def _refuse(template: ExploreGame) -> None:
    """The table features this reading leaves out, refused by name."""
    rules = template.rules
    # A rule file's house rules are changes to the commands read here: a node of theirs
    # without a reading (a module's own) is refused by its name where it is read.
    if rules.draw.cards != 1:
        raise Unsupported("DRAW-1 drawing more than one card (the explorer then "
                          "enumerates draws as sequences)")
    if template.t.jumps:
        raise Unsupported("JUMP-IN (a play out of turn)")
    if rules.knocks_out() and rules.mercy.cards is MercyCards.DISCARD \
            and not rules.reshuffle.keep_top:
        # the discard can then be empty (RESHUFFLE-1 took the top too), and a hand knocked
        # out under it gives it a top: the last card of the engine's hand, an order the
        # record does not hold
        raise Unsupported("MERCY's hand under the discard pile with RESHUFFLE-1 not "
                          "keeping the top")


