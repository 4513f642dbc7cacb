"""The fuzz suite, briefly: every family of hostile input is refused cleanly (one
``InvalidInputError``; on the command line exit 2 and one line, never a traceback) or
accepted and consistent (texts and records read back). ``benchmarks/fuzz.py`` runs the
same families long; ``test_the_fuzz_finds_a_removed_check`` shows they can fail."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from unoformal.errors import InvalidInputError

from .families import (
    BASE_GAMES,
    action_texts,
    api_actions,
    apply_checked,
    check_action_text,
    check_api_game,
    check_cli,
    check_record,
    check_record_file,
    check_state_text,
    cli_vectors,
    game_arguments,
    mutated_records,
    play_hostile,
    random_action,
    record_bytes,
    scratch,
    state_texts,
)
from .surfaces import (
    check_conform,
    check_play,
    check_referee,
    conform_folders,
    conform_options,
    play_runs,
    referee_sessions,
)

BRIEF = settings(max_examples=60, deadline=None, database=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FOLDER = scratch()


@BRIEF
@given(record_bytes(), st.booleans())
def test_deck_1_a_record_file_is_refused_in_one_line_or_replayed(data: bytes,
                                                                  as_json: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        event(check_record_file(data, Path(folder), as_json))


@BRIEF
@given(mutated_records())
def test_deck_1_a_record_is_refused_or_replays_to_the_same_state(record: Any) -> None:
    event(check_record(record))


@BRIEF
@given(state_texts())
def test_deck_1_a_state_text_is_refused_or_reads_back(text: Any) -> None:
    event(check_state_text(text))


@BRIEF
@given(action_texts())
def test_play_1_an_action_text_is_refused_or_reads_back_and_applies_atomically(
        text: str) -> None:
    event(check_action_text(text))


@BRIEF
@given(api_actions(), st.integers(0, len(BASE_GAMES) - 1))
def test_play_1_a_hand_built_action_is_refused_atomically(action: Any, which: int) -> None:
    event(apply_checked(BASE_GAMES[which].copy(), action))


@BRIEF
@given(game_arguments())
def test_deck_2_game_arguments_are_refused_or_give_a_game_that_reads_back(
        args: tuple[Any, Any, Any, Any]) -> None:
    event(check_api_game(*args))


@BRIEF
@given(cli_vectors(FOLDER))
def test_cli_any_argument_vector_exits_0_1_or_2_without_a_traceback(argv: list[str]) -> None:
    event(check_cli(argv, FOLDER))


@pytest.mark.parametrize("seed", range(4))
def test_hidden_1_hostile_play_keeps_refusals_atomic_and_hands_hidden(seed: int) -> None:
    outcomes = play_hostile(seed, 150, random_action)
    assert outcomes["illegal"] > 0 and outcomes["legal"] > 0


def _lenient_players(players: Any, lo: int, hi: int) -> list[str]:
    """The name check as it was: any distinct non-empty strings, no character set."""
    if not isinstance(players, (list, tuple)) or not lo <= len(players) <= hi \
            or not all(isinstance(n, str) and n for n in players) \
            or len(set(players)) != len(players):
        raise InvalidInputError("players")
    return list(players)


PLANTED = settings(BRIEF, max_examples=600)


@pytest.mark.parametrize("plant", ["names", "depth"])
def test_the_fuzz_finds_a_removed_check(monkeypatch: pytest.MonkeyPatch, plant: str) -> None:
    """Each planted hole is one the issue reported: names the text form cannot carry (the
    state text then does not read back), and JSON nested deeper than Python's recursion
    limit (an exception out of ``unoformal replay``). The fuzz must find both."""
    if plant == "names":
        # The game's own check only: the state text still reads names strictly.
        monkeypatch.setattr("unoformal.engine.game.check_names", lambda players, rules:
                            _lenient_players(players, rules.players.minimum,
                                             rules.players.maximum))
        expected: type[Exception] = InvalidInputError  # the text does not read back

        @PLANTED
        @given(game_arguments())
        def prop(args: tuple[Any, Any, Any, Any]) -> None:
            check_api_game(*args)
    else:
        monkeypatch.setattr("unoformal.inputs._check_depth", lambda text, where: None)
        expected = RecursionError

        @PLANTED
        @given(record_bytes(), st.booleans())
        def prop(data: bytes, as_json: bool) -> None:
            with tempfile.TemporaryDirectory() as folder:
                check_record_file(data, Path(folder), as_json)

    with pytest.raises(Exception) as found:
        prop()
    # Hypothesis raises the one failure, or a group of the distinct ones it found.
    errors = getattr(found.value, "exceptions", (found.value,))
    assert any(isinstance(error, expected) for error in errors), errors


# ------------------------------------------------------------ the newer surfaces

SURFACES = settings(BRIEF, max_examples=100)


@SURFACES
@given(referee_sessions())
def test_the_referee_answers_every_line_once_and_its_records_replay(
        lines: list[bytes]) -> None:
    event(check_referee(lines))


@settings(BRIEF, max_examples=40)
@given(play_runs())
def test_play_input_and_options_exit_0_or_2_and_a_game_played_is_saved(
        run: tuple[list[str], bytes]) -> None:
    event(check_play(*run, FOLDER))


@settings(BRIEF, max_examples=40)
@given(conform_folders(), conform_options())
def test_conform_counts_every_record_of_a_folder_once(files: list[tuple[str, bytes]],
                                                      extra: list[str]) -> None:
    event(check_conform(files, extra, FOLDER))
