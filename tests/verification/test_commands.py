"""The guarded commands (``unoformal.language``, ``unoformal.rules.uno``): every node
read every way, refusals from the first failing conjunct, the words in the rules document,
and, since engine and relation now read one statement, the independent checks that catch
a wrong command in both (the properties, in the rulebook's own numbers)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
import z3

from tests.engine.helpers import afresh, both_house_rules, forget_built, make_game, play
from unoformal.compare.successors import to_sym
from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.errors import IllegalActionError
from unoformal.language.commands import Command
from unoformal.language.conditions import PENDING_RULE, CanPlay, Fixed, GoesOut
from unoformal.language.effects import Effect, EndRound, Mark, NoteOut, OpenWindow, Take, When
from unoformal.language.protocols import Binding, Who
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.document import render
from unoformal.rulebook.table import CLASSIC, RuleTable
from unoformal.rulebook.variants import VARIANTS, derive, load_rules
from unoformal.rules import deal as deal_commands
from unoformal.rules import play as card_play
from unoformal.rules import start as start_commands
from unoformal.rules import turn, uno
from unoformal.rules.book import commands
from unoformal.rules.uno import out_of_turn
from unoformal.verification.z3 import prover
from unoformal.verification.z3.actions import Spec
from unoformal.verification.z3.properties import PROPERTIES
from unoformal.verification.z3.prover import check
from unoformal.verification.z3.state import fresh, ival


@pytest.mark.parametrize("name", VARIANTS)
def test_every_node_of_every_command_reads_every_way(name: str) -> None:
    table = load_rules(name)
    game = Game(["A", "B", "C"], seed=3, rules=table)
    spec = Spec(table, 3)
    s = fresh(3, spec.deck)
    card = game.hands[0][0]
    b = Binding(0, 1, 2, card, 0)
    # B answers A's Wild Draw Four (G2 matches nothing on R7, so it is legal everywhere).
    waiting = play(make_game(["A", "B", "C"], "C", {"A": ["W+4", "G2"], "B": ["Y1", "Y2"],
                                                  "C": ["B1", "B2"]}, ["R7"], rules=table),
                   "A play W+4 blue")
    answers = waiting.phase == "respond"  # else (RLCard's) its victim draws at once
    sb = Binding(0, 1, 2, ival(card), ival(0), z3.BoolVal(False))  # the relation's: terms
    for command in commands(table):
        assert isinstance(command.allows(game, b), bool)
        assert command.encode_guard(spec, s, sb) is not None
        post, cons = command.encode_effect(spec, s, sb, "t")
        assert post is not None and isinstance(cons, list)
        words = command.text()
        assert words[0].startswith(f"`{command.name}` (")
        effect_lines = sum(len(step.lines()) for step in command.effect)
        assert len(words) == 2 + len(command.guard) + effect_lines + sum(
            1 + len(br.guard) + sum(len(step.lines()) for step in br.effect)
            for br in command.branches)
        for step in (e for top in command.effect for e in top.walk()):
            assert step.text() and "{" not in step.text()
            if isinstance(step, When):  # a branch of the effect: its condition, both ways
                assert isinstance(step.cond.holds(game, b), bool)
                assert step.cond.encode(spec, s, sb) is not None
                assert step.cond.text() and all(step.labels)
        for part in command.guard + tuple(p for br in command.branches for p in br.guard):
            # The rule of the card being answered is the state's: read it where one waits.
            on = waiting if part.rule == PENDING_RULE else game
            if on is waiting and not answers:
                continue  # no draw card ever waits under this table: nothing to name
            rule, said = part.refusal(on, Binding(1, 2, 0, card, 0) if on is waiting else b)
            assert rule and said and "{" not in rule + said, (command.name, part)
        for branch in command.branches:
            assert command.encode_branch(spec, s, sb, branch) is not None
            post, _ = command.encode_effect(spec, s, sb, "t", branch)
            assert post is not None
            assert branch.when.text() and isinstance(branch.when.holds(game, b), bool)


def _window() -> Game:
    """A played R5 as their next-to-last card without saying UNO: A's window is open."""
    game = make_game(["A", "B", "C"], "C", {"A": ["R5", "G7"], "B": ["Y1", "Y2", "Y3"],
                                           "C": ["B1", "B2", "B3"]}, ["R1"])
    return play(game, "A play R5")


def test_a_refusal_is_the_first_failing_conjunct() -> None:
    game = _window()
    catch = out_of_turn(game.rules).catch
    # B catching B fails three conjuncts (themself, not B's window, hand size): the first
    # decides the rule and the words.
    assert catch.refusal(game, Binding(1, 1)) == ("UNO-1", "a player cannot catch themself")
    assert catch.refusal(game, Binding(1, 2)) == (
        "UNO-1", "C cannot be caught now: only A can, who played their next-to-last card "
        "without saying UNO")
    assert catch.refusal(game, Binding(1, 0)) is None
    before = game.to_text()
    with pytest.raises(IllegalActionError, match="cannot catch themself") as info:
        game.apply(Action.parse("B catch B"))
    assert info.value.rule_id == "UNO-1" and game.to_text() == before


def test_the_rules_document_shows_each_command_under_its_rules() -> None:
    text = render(CLASSIC)
    section = text[text.index("\n## UNO-1\n"):text.index("\n## ", text.index("\n## UNO-1\n") + 1)]
    for line in out_of_turn(CLASSIC).catch.text():
        assert line in section
    advice = text[text.index("\n## ADVICE-1\n"):]
    assert "`advise` (ADVICE-1)" in advice.split("\n## ")[1]


def _property(name: str) -> Any:
    return next(p for p in PROPERTIES if p.name == name)


def _planted(monkeypatch: pytest.MonkeyPatch, name: str,
             change: Callable[[Command], Command], section: Any = uno) -> None:
    build = getattr(section, name)
    monkeypatch.setattr(section, name, lambda *args, **kwargs: change(build(*args, **kwargs)))
    forget_built()  # built again with the planted command, and again after the test


@pytest.fixture(autouse=True)
def _fresh_relations() -> Iterator[None]:
    yield
    forget_built()


def test_the_properties_catch_a_catch_with_the_wrong_penalty(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A wrong number in the command is wrong in the engine and the relation alike; the
    # property states UNO-1's penalty in the rulebook's own number (2) and refutes it.
    assert check(CLASSIC, _property("penalties"), 2).verdict == "proved"

    def heavier(command: Command) -> Command:
        take = next(e for e in command.effect if isinstance(e, Take))
        effect = tuple(dataclasses.replace(e, cards=take.cards + 1) if e is take else e
                       for e in command.effect)
        return dataclasses.replace(command, effect=effect)

    _planted(monkeypatch, "catch", heavier)
    result = check(CLASSIC, _property("penalties"), 2)
    assert result.verdict == "refuted" and "catch" in (result.label or "")


def test_the_properties_catch_a_catch_without_its_hand_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def any_hand(command: Command) -> Command:
        guard = tuple(p for p in command.guard if type(p.cond).__name__ != "HandIs")
        assert len(guard) == len(command.guard) - 1
        return dataclasses.replace(command, guard=guard)

    _planted(monkeypatch, "catch", any_hand)
    result = check(CLASSIC, _property("uno"), 2)
    assert result.verdict == "refuted" and "catch" in (result.label or "")


def _changed(node: str, only: str | None = None, **values: Any) -> Callable[[Command], Command]:
    """A plant: every effect of class ``node`` in the command (inside a branch of its
    effect too) gets ``values``; ``only``: in the command of that name alone."""
    def one(step: Effect) -> Effect:
        return dataclasses.replace(cast(Any, step), **values) \
            if type(step).__name__ == node else step

    def change(command: Command) -> Command:
        if only is not None and command.name != only:
            return command
        assert any(type(e).__name__ == node for top in command.effect for e in top.walk()), \
            f"no {node} in {command.name}"
        return dataclasses.replace(command,
                                   effect=tuple(e.replaced(one) for e in command.effect))
    return change


def test_the_properties_catch_a_draw_of_two_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    # DRAW-1's one card, wrong in the command (so in the engine and the relation): the
    # after-draw property states it in the rulebook's number and refutes it.
    assert check(CLASSIC, _property("after-draw"), 2).verdict == "proved"

    _planted(monkeypatch, "draw", _changed("Take", cards=2), turn)
    result = check(CLASSIC, _property("after-draw"), 2)
    assert result.verdict == "refuted" and "draw" in (result.label or "")


def test_the_properties_catch_a_misplay_that_keeps_the_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def stays(command: Command) -> Command:
        effect = tuple(e for e in command.effect if type(e).__name__ != "PassTurn")
        assert len(effect) == len(command.effect) - 1
        return dataclasses.replace(command, effect=effect)

    _planted(monkeypatch, "misplay", stays, turn)
    result = check(CLASSIC, _property("penalties"), 2)
    assert result.verdict == "refuted" and "misplay" in (result.label or "")


def _refused(game: Game, text: str) -> tuple[str, str]:
    before = game.to_text()
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action.parse(text))
    assert game.to_text() == before
    rule = str(info.value.rule_id)
    return rule, str(info.value).split(f" (breaks {rule})")[0]


def test_the_properties_catch_a_uno_window_opened_a_card_early(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # UNO-1's window, wrong in the play command: it opens with two cards left.
    _planted(monkeypatch, "play", _changed("OpenWindow", cards_left=2), card_play)
    result = check(CLASSIC, _property("uno"), 2)
    assert result.verdict == "refuted" and "play" in (result.label or "")


def test_the_properties_catch_a_wild_draw_four_never_judged(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # WD4-1's verdict, left out of the play command: a challenge then reads whatever the
    # state held before.
    _planted(monkeypatch, "play", _changed("PlaceCard", judges=False), card_play)
    result = check(CLASSIC, _property("wd4-legality"), 2)
    assert result.verdict == "refuted" and "play_wild_draw_four" in (result.label or "")


def test_the_properties_catch_a_skip_that_skips_nobody(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # SKIP-1, wrong in the card's effect (unoformal.rules.effects): the turn goes one seat
    # on, not two.
    assert check(CLASSIC, _property("card-effects"), 3).verdict == "proved"
    _planted(monkeypatch, "play", _changed("PassTurn", "play_skip", steps=1), card_play)
    result = check(CLASSIC, _property("card-effects"), 3)
    assert result.verdict == "refuted" and "play_skip" in (result.label or "")


def test_the_properties_catch_a_draw_two_of_three_cards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # D2-1's victim draws one card too many.
    _planted(monkeypatch, "play", _changed("Take", "play_draw_two", cards=3), card_play)
    result = check(CLASSIC, _property("penalties"), 3)
    assert result.verdict == "refuted" and "play_draw_two" in (result.label or "")


def test_the_properties_catch_a_reverse_that_skips_at_every_count(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # TWO-1's branch, its condition made always true: a Reverse skips at three players.
    _planted(monkeypatch, "play",
             _changed("When", "play_reverse", cond=Fixed(True, "always")), card_play)
    result = check(CLASSIC, _property("card-effects"), 3)
    assert result.verdict == "refuted" and "play_reverse" in (result.label or "")


def test_the_properties_catch_a_last_card_that_ends_the_round_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # END-1: a player who goes out with a Draw Two wins only after its victim draws. The
    # plant ends the round before the draw, in classic, where the final draw is on.
    assert check(CLASSIC, _property("end-of-round"), 3).verdict == "proved"
    build = card_play.play

    def at_once(table: RuleTable, kind: Kind, *able: Any) -> Command:
        command = build(table, kind, *able)
        if kind is not Kind.DRAW_TWO:
            return command
        common = tuple(e for e in command.effect if not isinstance(e, NoteOut))
        cut = 1 + next(i for i, e in enumerate(common) if isinstance(e, OpenWindow))
        rest = common[cut:]  # after the card is placed and the UNO window opened
        return dataclasses.replace(command, effect=(
            *common[:cut], When(GoesOut(), (EndRound(),), rest,
                                ("goes_out", "takes_effect"))))

    monkeypatch.setattr(card_play, "play", at_once)
    prover._setup.cache_clear()
    result = check(CLASSIC, _property("end-of-round"), 3)
    assert result.verdict == "refuted" and "play_draw_two" in (result.label or "")


def test_the_properties_catch_a_last_draw_two_passed_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # EXT-LAST, left out of the play commands under stacking: the victim of a Draw Two
    # its player went out with answers it, passing the penalty on.
    stacking = load_rules("stacking")
    assert check(stacking, _property("end-of-round"), 2).verdict == "proved"
    build = card_play.playable
    monkeypatch.setattr(card_play, "playable", lambda table, kind: tuple(
        part for part in build(table, kind) if part.rule != "EXT-LAST"))
    prover._setup.cache_clear()
    result = check(stacking, _property("end-of-round"), 2)
    assert result.verdict == "refuted" and "play_draw_two" in (result.label or "")


def test_a_play_is_refused_by_its_command_in_the_words_of_the_variant() -> None:
    # RLCard's reading of WD4-1 names the card that could be played (B7 matches R7 by
    # number); classic's names a card of the current color.
    rlcard = make_game(["A", "B"], "B", {"A": ["G5", "B7", "W+4"], "B": ["Y1", "Y2"]},
                       ["R7"], rules=load_rules("rlcard"))
    assert _refused(rlcard, "A play W+4 yellow") == (
        "WD4-1", "A play W+4 yellow: Wild Draw Four while holding B7, which could be played "
        "on R7 / red")
    game = make_game(["A", "B"], "B", {"A": ["R5", "G7", "G8"], "B": ["Y1", "Y2"]},
                     ["R1", "B9"])
    assert _refused(game, "A play G7") == ("PLAY-1", "A play G7: G7 does not match R1 / red")
    assert _refused(game, "A play Y1") == ("PLAY-1", "A play Y1: Y1 is not in A's hand")
    assert _refused(game, "A play R5 uno") == (
        "UNO-1", "A play R5 uno: UNO is said with the next-to-last card")
    game.apply(Action.parse("A draw"))
    assert _refused(game, "A play R5") == (
        "DRAW-1", "A play R5: after drawing only the drawn card may be played: A drew and "
        "may play only the drawn card or pass (DRAW-1)")


def test_a_turn_move_is_refused_by_its_command_in_its_words() -> None:
    game = make_game(["A", "B"], "B", {"A": ["R5", "G7"], "B": ["Y1", "Y2"]}, ["R1", "B9"])
    assert _refused(game, "A misplay R5") == (
        "MISPLAY-1", "A misplay R5: R5 is a legal play, not a misplay")
    assert _refused(game, "A misplay Y1") == ("MISPLAY-1", "A misplay Y1: Y1 is not in A's hand")
    assert _refused(game, "A pass") == (
        "DRAW-1", "A pass: pass only after drawing (keep the drawn card)")
    game.apply(Action.parse("A draw"))
    # DRAW-1 again after a draw names the draw as the cause.
    assert _refused(game, "A draw") == (
        "DRAW-1", "A draw: one draw per turn: A drew and may play only the drawn card or "
        "pass (DRAW-1)")
    assert _refused(game, "A choose_color red") == (
        "START-WILD", "A choose_color red: nothing to choose_color now")
    game.apply(Action.parse("A pass"))
    assert game.to_play == "B" and game.cause is None


def test_a_command_built_for_another_table_folds_its_values() -> None:
    table: RuleTable = load_rules("rlcard")
    catch = out_of_turn(table).catch
    # RLCard has no UNO call: the first conjunct is a fixed false, and its words say so.
    assert not catch.allows(_window(), Binding(1, 0)) or table.uno.enabled
    if not table.uno.enabled:
        assert catch.guard[0].words == "nobody calls UNO in these rules"
    assert all(isinstance(w, Who) for w in catch.choices)


def test_a_node_written_without_a_reading_is_refused_by_name() -> None:
    from unoformal.language.conditions import Cond
    from unoformal.language.effects import Effect

    class OnlyWords(Cond):
        def text(self) -> str:
            return "a condition with words only"

    class Nothing(Effect):
        pass

    game = _window()
    with pytest.raises(TypeError, match=r"OnlyWords has no reading for the engine: define its "
                                        r"holds\(\)"):
        OnlyWords().holds(game, Binding(0))
    with pytest.raises(TypeError, match=r"Nothing has no reading for the Z3 relation"):
        Nothing().encode(Spec(CLASSIC, 3), fresh(3, Spec(CLASSIC, 3).deck), Binding(0), "t")
    assert OnlyWords().text() == "a condition with words only"


def _concrete_methods() -> dict[str, list[Any]]:
    """Concrete's methods, each with arguments of its parameters' types, read from the
    source beside the module (compiled, a method shows no signature; under mutmut, a
    method is a trampoline to the original, a function of the module named for it)."""
    import ast
    from pathlib import Path

    from unoformal.language import protocols as module

    sample = {"str": "R", "bool": False, "CardEffect": CLASSIC.effect(Kind.NUMBER)}
    tree = ast.parse(Path(module.__file__ or "").with_name("protocols.py").read_text("utf-8"))
    concrete = next(node for node in tree.body
                    if isinstance(node, ast.ClassDef) and node.name == "Concrete")
    functions = {node.name: node for node in (*tree.body, *concrete.body)
                 if isinstance(node, ast.FunctionDef)}
    out = {}
    for name, node in functions.items():
        if node in concrete.body and "\u01c1" not in name:
            node = functions.get(f"x\u01c1Concrete\u01c1{name}__mutmut_orig", node)
            out[name] = [sample.get(ast.unparse(a.annotation) if a.annotation else "", 0)
                         for a in node.args.args[1:]]
    return out


def test_the_engine_defines_everything_a_command_calls_of_a_game() -> None:
    """The engine's Game defines every method of Concrete, the commands' view of a game;
    a game that leaves one out is refused by the method's name when a command calls it."""
    from unoformal.language.protocols import Concrete

    methods = _concrete_methods()
    assert {"_take", "_place", "_can_play_any", "_wd4_legal_without", "top"} <= set(methods)
    bare = Concrete()
    for name, arguments in methods.items():
        assert getattr(Game, name) is not getattr(Concrete, name), name
        with pytest.raises(TypeError, match=rf"^Concrete has no reading for the engine: "
                                            rf"define its {name}\(\)$"):
            found = getattr(bare, name)  # a property's reading raises here
            found(*arguments)


def test_the_properties_catch_a_start_draw_two_that_draws_three(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # START-D2's first player draws 2 (the rulebook's number in the property): the plant
    # in the start command makes both backends draw 3, and the property refutes it.
    # Unplanted it holds; "vacuous" is the manifest's verdict (a start Draw Two never
    # needs the reshuffle: its variant of the step is never enabled).
    assert check(CLASSIC, _property("start-card"), 3).verdict == "vacuous"
    _planted(monkeypatch, "start", _changed("Take", only="start_draw_two", cards=3),
             start_commands)
    result = check(CLASSIC, _property("start-card"), 3)
    assert result.verdict == "refuted" and "start_draw_two" in (result.label or "")


def test_the_properties_catch_a_start_skip_that_skips_nobody(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # START-SKIP: the first player loses the turn. Planted: the start command's PassOn
    # goes no seat on.
    _planted(monkeypatch, "start", _changed("PassOn", only="start_skip", steps=0),
             start_commands)
    result = check(CLASSIC, _property("start-card"), 3)
    assert result.verdict == "refuted" and "start_skip" in (result.label or "")


def test_the_start_commands_are_the_engine_s_start() -> None:
    # The engine turns its start card through the same commands (a Draw Two start card:
    # the first player, left of the dealer, draws 2 and loses the turn; START-D2 is the
    # cause the first refusal names).
    game = make_game(["A", "B", "C"], "C", {"A": ["R1"], "B": ["B1"]}, ["G+2"])
    assert len(game.hands[0]) == 3 and game.to_play == "B"
    assert game.started == (("START-D2", "start"),)
    with pytest.raises(IllegalActionError, match="START-D2"):
        game.apply(Action.parse("A play R1"))


def test_the_properties_catch_a_next_deal_of_eight_cards_to_the_winner(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # END-2 and DEAL-2 in the rulebook's numbers: 7 cards each, the dealer passes left.
    # Planted in the next_deal command, each is refuted.
    assert check(CLASSIC, _property("next-deal"), 3).verdict == "proved"
    _planted(monkeypatch, "next_deal", _changed("Deal", cards=8), deal_commands)
    assert check(CLASSIC, _property("next-deal"), 3).verdict == "refuted"
    monkeypatch.undo()
    _planted(monkeypatch, "next_deal", _changed("PassDeal", to_winner=True), deal_commands)
    assert check(CLASSIC, _property("next-deal"), 3).verdict == "refuted"


def test_the_next_deal_is_refused_by_its_command_in_the_table_s_words() -> None:
    game = make_game(["A", "B", "C"], "C", {"A": ["R1"], "B": ["B1"]}, ["R5"])
    before = game.to_text()
    with pytest.raises(IllegalActionError, match="the round is not over") as info:
        game.next_round()
    assert info.value.rule_id == "END-2" and game.to_text() == before
    play(game, "A play R1")  # A goes out
    dealer = game.dealer
    game.next_round()
    assert game.dealer == (dealer + 1) % 3 and all(len(h) == 7 for h in game.hands)


def test_the_rules_document_lists_what_coverage_counts_under_each_rule() -> None:
    # The words of the branches the commands state, under their rule: the names the
    # explorer's coverage report and the step-by-step page use.
    text = render(CLASSIC)
    play = text[text.index("\n## PLAY-1\n"):text.index("\n## ", text.index("\n## PLAY-1\n") + 1)]
    assert "  - `by-color`: a card played on the current color" in play
    chal = text[text.index("\n## CHAL-2\n"):text.index("\n## ", text.index("\n## CHAL-2\n") + 1)]
    assert "  - `upheld`: challenge upheld: the offender draws, the challenger keeps the turn" \
        in chal


def test_can_play_reads_alike_in_both_backends_and_its_words_either_way() -> None:
    """DRAW-1's CanPlay (``rlcard``: a draw only with nothing to play), with either value,
    on a turn where the actor holds a playable card and on one where they hold none: the
    engine's reading, the relation's encoding of the very same state and the words agree.
    No shipped command asks CanPlay to hold, yet the language offers it."""
    table = load_rules("rlcard")
    spec = Spec(table, 3)
    others = {"B": ["Y1", "Y2"], "C": ["B1", "B2"]}
    for hand, able in ((["R5", "G7"], True), (["G5", "G7"], False)):
        game = make_game(["A", "B", "C"], "C", {"A": hand, **others}, ["R1"], rules=table)
        assert game.phase == "play" and game.turn == 0
        s = to_sym(game)
        for value in (True, False):
            cond = CanPlay(Who.ACTOR, value)
            assert cond.holds(game, Binding(0)) is (able is value), (hand, value)
            said = z3.simplify(cond.encode(spec, s, Binding(0)))
            assert z3.is_true(said) if able is value else z3.is_false(said), (hand, value)
    assert CanPlay(Who.ACTOR, True).text() == "the actor holds a card they may play"
    assert CanPlay(Who.ACTOR, False).text() == "the actor holds no card they may play"


@pytest.mark.parametrize("who", [Who.ACTOR, Who.TARGET, Who.NEXT, Who.TO_MOVE])
def test_mark_reads_alike_in_both_backends_for_every_seat_it_can_name(who: Who) -> None:
    """``Mark`` (JUMP-IN's turn taken by the jumper) sets a seat field to the seat ``who``
    names: run on the engine and encoded for the relation over the same state, the field
    ends on the same seat, for every seat a move can name (the shipped commands mark the
    actor and the offender only)."""
    table = load_rules("jump-in")
    game = make_game(["A", "B", "C", "D"], "A",
                     {"A": ["R1"] * 2, "B": ["R2"] * 2, "C": ["R3"] * 2, "D": ["R4"] * 2}, ["R7"],
                     rules=table)
    assert game.turn == 1
    b = Binding(2, 3)  # C acts, with D as the move's target
    before = to_sym(game)
    Mark("turn", who).run(game, b)
    post, side = Mark("turn", who).encode(Spec(table, 4), before, b, "t")
    assert side == [] and game.turn == {Who.ACTOR: 2, Who.TARGET: 3, Who.NEXT: 3,
                                        Who.TO_MOVE: 1}[who]
    assert z3.simplify(ival(0) + post.turn).as_long() == game.turn  # a seat: an int or a term


# JUMP-IN's settlement: a wild's color is named, not the card's, so no wild has a twin.
JUMPS = {"jump-in": {"jump_number", "jump_skip", "jump_reverse", "jump_draw_two"},
         "both-house-rules": {"jump_number", "jump_skip", "jump_reverse", "jump_draw_two",
                              "jump_swap_hands", "jump_pass_hands"}}


@pytest.mark.parametrize("name", [*VARIANTS, "both-house-rules"])
def test_a_play_command_built_anew_is_the_one_the_engine_runs(name: str) -> None:
    """The relation builds each play command anew by its name (``rules.play.command``, not
    from the cache); it is the very command of the table's plays, jumps included. The
    table is derived afresh: a shipped table's plays are built once per process."""
    base = both_house_rules() if name == "both-house-rules" else load_rules(name)
    table = afresh(base)
    built = card_play.plays(table)
    assert {c.name for c in built.jumps.values()} == JUMPS.get(name, set())
    for command in (*built.all(), *built.jumps.values()):
        assert card_play.command(table, command.name) == command, command.name
    with pytest.raises(KeyError, match="no play command 'play_nothing'"):
        card_play.command(table, "play_nothing")
    with pytest.raises(KeyError, match="no play command 'play_nothing'"):
        built.kind("play_nothing")


@pytest.mark.parametrize("ext_start", [True, False])
def test_start_the_relation_turns_the_start_card_out_of_the_pile(ext_start: bool) -> None:
    """DEAL-2 in the relation's start steps (a table met for the first time, so that its
    start commands are built now): every start step that leaves the pile's new order to
    no later step takes exactly the turned card out of the pile; START-WD4's turning again
    puts it back. With EXT-START off, only Wild Draw Fours left, the round stays stuck
    with the card turned."""
    base = CLASSIC if ext_start else derive(CLASSIC, "ext-start-off", "",
                                            {"EXT-START": {"enabled": False}})
    spec = Spec(afresh(base), 2)
    s = fresh(2, spec.deck)
    for kind in (Kind.NUMBER, Kind.WILD_DRAW_FOUR):
        for step in spec.start_card(s, kind, 0):
            again = step.name == "start_wild_draw_four"  # back in the pile
            taken = z3.Sum(*s.pile) - z3.Sum(*step.post.pile)
            solver = z3.Solver()
            solver.add(step.guard, step.draws, taken != (0 if again else 1))
            assert solver.check() == z3.unsat, step.name


def test_either_is_the_languages_or_in_every_reading() -> None:
    """Either: holds when one part does, in the engine and in Z3, and reduces for a
    known phase (a part the phase decides drops out, or decides the whole)."""
    from unoformal.language.conditions import Both, Either, Fixed, PhaseIs, Unless
    from unoformal.rules.state import PLAY, RESPOND
    from unoformal.verification.z3.actions import Spec

    game = Game(["A", "B"], seed=1)
    b = Binding(game.turn)
    yes, no = Fixed(True, "yes"), Fixed(False, "no")
    for parts, want in [((yes, no), True), ((no, no), False), ((no, yes), True), ((), False)]:
        assert Either(parts).holds(game, b) is want
    spec, s = Spec(CLASSIC, 2), to_sym(game)
    for parts, want in [((yes, no), True), ((no, no), False)]:
        assert z3.is_true(z3.simplify(Either(parts).encode(spec, s, b))) is want
    assert Either((PhaseIs(RESPOND), no)).in_phase(PLAY) is False
    assert Either((PhaseIs(RESPOND), no)).in_phase(RESPOND) is True
    assert Either((PhaseIs(PLAY), Unless(PhaseIs(RESPOND)))).in_phase(RESPOND) is False
    assert Both((PhaseIs(RESPOND), yes)).in_phase(PLAY) is False
    assert Either((yes, no)).text() == "yes or no"
