"""The live engine agrees with the frozen one (``engine_v1``) on a small budget, and the
agreement check is shown able to fail: bugs planted in the live engine are reported, at
the step where they first show, with a record that reproduces them.

The full-scale run (10^6 steps per variant) is ``python -m tests.reference.agree --steps
1000000 --workers 2`` (see ``agree.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.reference import FROZEN_VARIANTS, agree
from tests.reference.engine_v1 import game as frozen_game
from tests.reference.engine_v1 import record as frozen_record
from unoformal.engine import game as live_game
from unoformal.engine import record as live_record
from unoformal.engine.actions import Action, ActionType
from unoformal.runtime.compiled import compiled

# What each variant can do at all: RLCard's rules have no challenge, no UNO and no
# penalty decision (WD4-2, D2-1 resolve at once), and no color chosen at the start.
RLCARD_NEVER = {"accept", "challenge", "uno", "catch", "choose_color"}
SMALL = 6_000  # steps per variant, over 2, 3 and 10 players


@pytest.fixture
def live_is_patchable() -> Iterator[None]:
    """A planted bug is a method set on the live engine's class; a compiled class takes
    none (the pure-Python setup runs these)."""
    if "unoformal/engine/game.py" in compiled():
        pytest.skip("the live engine is compiled here: a bug cannot be planted in it")
    yield


def _run(variants: list[str], players: list[int], steps: int, seed: int = 0,
         workers: int = 1, chunk: int = agree.CHUNK) -> dict[tuple[str, int], agree.Tally]:
    return agree.run(agree.jobs(variants, players, steps, seed, chunk), workers)


def _total(results: dict[tuple[str, int], agree.Tally]) -> agree.Tally:
    total = agree.Tally()
    for tally in results.values():
        total.add(tally)
    return total


def _first(results: dict[tuple[str, int], agree.Tally]) -> agree.Disagreement:
    total = _total(results)
    assert total.disagreements > 0 and total.kept, "the planted bug was not reported"
    return total.kept[0]


def _reproduced(d: agree.Disagreement) -> None:
    """The disagreement's record replays alike in both engines up to the disputed action
    and differs there: the step reported is the first where the engines part."""
    found = agree.replay_both(d.record)
    assert found is not None, d.line()
    index, live, frozen = found
    assert index == d.game_step + 1, (index, d.line())  # index 0 is the set-up
    assert live != frozen
    assert d.record["meta"]["agree"]["disputed"] == d.game_step
    assert str(Action.from_json(d.record["actions"][d.game_step])) == d.action
    live_record.check_schema(d.record)  # a record of the format, as `unoformal replay` reads


# ------------------------------------------------------------- agreement


def test_engines_agree_on_every_variant_at_2_3_and_10_players() -> None:
    results = _run(list(FROZEN_VARIANTS), [2, 3, 10], SMALL)
    total = _total(results)
    assert total.disagreements == 0, "\n".join(d.line() for d in total.kept)
    assert total.word_diffs == 0, total.words
    assert total.steps >= SMALL * len(FROZEN_VARIANTS)
    assert total.refusals > total.steps // 2
    assert total.rounds > total.games and total.games_over > 0  # next_round and game over
    by_variant: dict[str, agree.Tally] = {}
    for (variant, _), tally in results.items():
        by_variant.setdefault(variant, agree.Tally()).add(tally)
    for variant, tally in by_variant.items():
        never = RLCARD_NEVER if variant == "rlcard" else {"choose_color"}  # rare: a start W
        missing = [k for k in agree.KINDS if k not in never and not tally.kinds[k]]
        assert not missing, f"{variant}: never took {missing}"
    assert total.kinds["choose_color"] > 0
    # every kind of candidate, malformed ones too, was refused alike
    assert all(total.tried[k] for k in [*agree.KINDS, agree.MALFORMED])


def test_engines_agree_on_short_decks_where_the_pile_runs_out() -> None:
    short = [v + agree.SHORT for v in FROZEN_VARIANTS]
    results = _run(short, [2, 3, 7, 10], 3_000)  # 10 is not seated by a short deck
    assert {k for _, k in results} == {2, 3, 7}
    total = _total(results)
    assert total.disagreements == 0, "\n".join(d.line() for d in total.kept)
    assert total.word_diffs == 0, total.words
    assert total.steps >= 3_000 * len(short)
    assert total.reshuffles > total.steps // 50  # RESHUFFLE-1, often


def test_the_result_is_the_same_whatever_the_number_of_workers() -> None:
    one = _total(_run(["classic", "stacking"], [2, 5], 1_200, seed=7, chunk=300))
    two = _total(_run(["classic", "stacking"], [2, 5], 1_200, seed=7, chunk=300, workers=2))
    assert one.digest == two.digest and one.steps == two.steps == 2_400
    assert one.kinds == two.kinds and one.tried == two.tried
    other = _total(_run(["classic", "stacking"], [2, 5], 1_200, seed=8, chunk=300))
    assert other.digest != one.digest


def test_every_record_replays_alike_in_both_engines() -> None:
    records = agree.all_records()
    names = {name for name, _ in records}
    assert {"seed000_s09_challenge_fails.json", "seed000_s09_challenge_wins.json",
            "seed002_whole_game.json", "rlcard_two_1.json"} <= names
    assert len(records) > 1_000  # the suite's records (harvest.py) are there
    n, bad = agree.records_agree(records)
    assert n == len(records) and bad == []


def test_vectors_from_both_engines_agree() -> None:
    lines, bad = agree.vectors_agree()
    assert lines > 500 and bad == []


# ------------------------------------------------------- planted bugs


def test_a_wrong_wd4_1_condition_is_reported_where_a_wild_draw_four_is_played(
        live_is_patchable: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """WD4-1 broken in the live engine: nothing it holds makes a Wild Draw Four illegal."""
    monkeypatch.setattr(live_game.Game, "_wd4_blocks", lambda self, face: False)
    d = _first(_run(["classic"], [3], 6_000))
    assert d.what == "state" and " play W+4 " in f" {d.action} ", d.line()
    assert "legal=1" in d.live and "legal=0" in d.frozen
    _reproduced(d)
    # the first Wild Draw Four played while holding a card that blocks it, and no earlier
    actions = [Action.from_json(a) for a in d.record["actions"]]
    game = frozen_record.game_from_record({**d.record, "actions": []})
    for i, action in enumerate(actions):
        if game.round_over:
            game.next_round()
        if action.card == "W+4":
            p = game.seat(action.player)
            rest = list(game.hands[p])
            rest.remove(game.deck.face_id("W+4"))
            assert (not game._wd4_is_legal(rest)) == (i == d.game_step), i
        game.apply(action)


def test_a_refusal_citing_another_rule_is_reported(
        live_is_patchable: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A catch of someone with no UNO to be caught for cites PLAY-1, not UNO-1."""
    check = live_game._CHECKS[ActionType.CATCH]

    def wrong(game: Any, action: Action, p: int, face: int | None) -> Any:
        refusal = check(game, action, p, face)
        if refusal is not None and "nobody has played" in refusal.reason:
            return live_game.Refusal("PLAY-1", refusal.reason)
        return refusal

    monkeypatch.setitem(live_game._CHECKS, ActionType.CATCH, wrong)
    d = _first(_run(["classic"], [2], 500))
    assert d.what == "refusal" and d.action is not None and " catch " in d.action, d.line()
    assert "rule=PLAY-1" in d.live and "rule=UNO-1" in d.frozen
    _reproduced(d)


def test_the_command_fails_and_writes_the_record_of_a_planted_bug(
        live_is_patchable: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(live_game.Game, "_do_uno", lambda self, p: None)
    code = agree.main(["--steps", "3000", "--variants", "classic", "--players", "3",
                       "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1 and "DISAGREEMENT classic players=3" in out
    assert "uno=P" in out and "(other fields alike)" in out  # the fields that differ
    written = live_record.Record.load(tmp_path / "disagreement0.json")
    assert written.data["meta"]["agree"]["what"] == "state"
    found = agree.replay_both(written.data)
    assert found is not None and found[0] == written.data["meta"]["agree"]["disputed"] + 1
    monkeypatch.undo()
    assert agree.main(["--steps", "300", "--variants", "classic", "--players", "3"]) == 0


def test_a_refusal_in_other_words_is_counted_apart_not_a_disagreement(
        live_is_patchable: None, monkeypatch: pytest.MonkeyPatch) -> None:
    check = live_game._CHECKS[ActionType.UNO]

    def reworded(game: Any, action: Action, p: int, face: int | None) -> Any:
        refusal = check(game, action, p, face)
        if refusal is not None:
            return live_game.Refusal(refusal.rule_id, "no UNO to say, in other words")
        return refusal

    monkeypatch.setitem(live_game._CHECKS, ActionType.UNO, reworded)
    total = _total(_run(["classic"], [3], 600))
    assert total.disagreements == 0
    assert total.word_diffs > 0 and "in other words" in total.words[0]


def test_a_successor_that_differs_is_reported(
        live_is_patchable: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """UNO said out loud no longer closes the window for a catch (UNO-1)."""
    monkeypatch.setattr(live_game.Game, "_do_uno", lambda self, p: None)
    d = _first(_run(["classic"], [3], 6_000))
    assert d.what == "state" and d.action is not None and d.action.endswith(" uno"), d.line()
    assert " uno=-" in d.frozen and " uno=-" not in d.live
    _reproduced(d)


def test_a_missing_legal_action_is_reported(
        live_is_patchable: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody can ever be caught: the catch goes missing from the legal actions."""
    listed = live_game.Game._out_of_turn

    def no_catch(self: Any, p: int, out: list[Any], advise: bool, moves: Any) -> None:
        before = len(out)
        listed(self, p, out, advise, moves)
        out[before:] = [a for a in out[before:] if a.type is not ActionType.CATCH]

    monkeypatch.setattr(live_game.Game, "_out_of_turn", no_catch)
    d = _first(_run(["classic"], [3], 6_000))
    assert d.what == "legal" and d.action is None, d.line()
    assert d.live == "-" and " catch " in f" {d.frozen}"
    # the record replays alike all the way; the legal actions after it are what differ
    assert agree.replay_both(d.record) is None
    after = []
    for module in (live_record, frozen_record):
        game = module.replay(d.record).game
        after.append(sorted(map(str, game.legal_actions())))
    assert after[0] != after[1]
    assert set(after[1]) - set(after[0]) == set(d.frozen.split(" | "))


def test_a_wrong_legal_set_for_one_player_is_reported(
        live_is_patchable: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked for one player's actions, the live engine forgets their advice (ADVICE-1)."""
    legal_actions = live_game.Game.legal_actions

    def forgetful(self: Any, player: Any = None, *, penalties: bool = True) -> Any:
        out = legal_actions(self, player, penalties=penalties)
        if player is None:
            return out
        return [a for a in out if a.type is not ActionType.ADVISE]

    monkeypatch.setattr(live_game.Game, "legal_actions", forgetful)
    d = _first(_run(["classic"], [3], 2_000))
    assert d.what == "legal" and "penalties=True" in d.live and " advise" in d.frozen, d.line()
    assert d.live.endswith(": -")


def test_a_refusal_that_changes_the_state_is_reported(
        live_is_patchable: None, monkeypatch: pytest.MonkeyPatch) -> None:
    refusal = live_game.Game.refusal

    def leaky(self: Any, action: Action, p: int, face: int | None) -> Any:
        found = refusal(self, action, p, face)
        if found is not None:
            self.shuffles += 1  # a refused action that leaves a trace
        return found

    monkeypatch.setattr(live_game.Game, "refusal", leaky)
    d = _first(_run(["stacking"], [2], 300))
    assert d.what == "unchanged", d.line()
    _reproduced(d)


def test_records_and_vectors_report_a_planted_bug(
        live_is_patchable: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_game.Game, "_wd4_blocks", lambda self, face: False)
    records = [(n, r) for n, r in agree.all_records() if n.startswith("seed000_s09")]
    n, bad = agree.records_agree(records)
    # the challenge that wins does so because A holds R2 (WD4-1): the W+4 (action 0)
    # already leaves another state; the one that fails is the same either way
    assert n == 2 and len(bad) == 1 and bad[0].startswith("seed000_s09_challenge_wins.json: at 1:")
    monkeypatch.undo()

    def wrong_pass(self: Any, p: int) -> None:
        self.cause, self.drawn, self.phase = None, None, live_game.PLAY
        self.turn = self._next(p, 2)  # a pass that skips the next player

    monkeypatch.setattr(live_game.Game, "_do_pass", wrong_pass)
    lines, vbad = agree.vectors_agree(seeds=(0,), players=(3,), variants=["classic"],
                                      presets=())
    assert lines > 0 and vbad
    assert frozen_game.Game._do_pass is not wrong_pass  # the frozen copy was not patched
