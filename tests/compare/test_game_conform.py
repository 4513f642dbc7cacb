"""conform and replay across the rounds of a game record (version 3), on a record of an
outside engine's shape: two rounds of letsuno's records (tests/data/outside/) joined, each
with its stated deal, and the ends a careless engine would state."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from unoformal.compare.deviations import every_deviation
from unoformal.compare.listing import Listing
from unoformal.compare.records import conform
from unoformal.engine.record import replay

OUTSIDE = Path(__file__).resolve().parent.parent / "data" / "outside"
GAME = Path(__file__).resolve().parent.parent / "records" / "game_to_100.json"
# round 1 dealt by P1, round 2 by P0: END-2 passes the deal to the left
FIRST, SECOND = "uno_said_late.json", "catch_during_penalty.json"
CARELESS = {"action": 10, "wild": 40}  # an engine whose point table is wrong


def _round(name: str) -> dict[str, Any]:
    data = json.loads((OUTSIDE / name).read_text())
    return {k: data[k] for k in ("dealer", "deal", "start_reshuffles", "actions") if k in data}


def _careless_points(hands: dict[str, list[str]]) -> int:
    """SCORE-1 miscounted: actions 10, wilds 40 (not 20 and 50)."""
    total = 0
    for card in (c for hand in hands.values() for c in hand):
        if card.startswith("W"):
            total += CARELESS["wild"]
        elif card[1:].isdigit():
            total += int(card[1:])
        else:
            total += CARELESS["action"]
    return total


def _joined() -> dict[str, Any]:
    """The two rounds, their ends stated as the careless engine states them: each round's
    winner and cards left right, its points miscounted, its scores not added up."""
    game = {"version": 3, "rules": "classic", "players": ["P0", "P1"],
            "rounds": [_round(FIRST), _round(SECOND)], "meta": {"engine": "joined"}}
    walk = every_deviation(game)  # no ends stated yet: only the moves deviate
    assert all(d.kind != "end" for d in walk.deviations) and walk.stopped is None
    for r, end in enumerate(_ends(game)):
        game["rounds"][r]["end"] = end
    return game


def _ends(game: dict[str, Any]) -> list[dict[str, Any]]:
    """Each round's winner and hands as the rules end it (forced moves and all), with the
    careless points and scores."""
    from unoformal.engine.games import start_game

    ends = []
    for r in (0, 1):
        cut = {**game, "rounds": game["rounds"][:r + 1]}
        played = _forced_end(cut)
        hands = {n: cards for n, cards in played.items() if n != "winner" and cards}
        points = _careless_points(hands)
        ends.append({"winner": played["winner"], "points": points, "hands": hands,
                     "scores": {n: points if n == played["winner"] else 0
                                for n in game["players"]}})
    assert start_game(game)[0].names == ["P0", "P1"]
    return ends


def _forced_end(game: dict[str, Any]) -> dict[str, Any]:
    """The winner and hands at the end of the record's last round, as the walk that goes
    past each deviation reaches it (the stated scores not asked for)."""
    from unoformal.compare import deviations

    seen: dict[str, Any] = {}
    real = deviations.end_deviations

    def spy(g: Any, rnd: Any) -> Any:
        seen["winner"] = g.names[g.winner]
        seen.update({n: [g.deck.code(c) for c in h] for n, h in zip(g.names, g.hands,
                                                                     strict=True)})
        return real(g, rnd)

    deviations.end_deviations = spy
    try:
        every_deviation(game)
    finally:
        deviations.end_deviations = real
    return seen


def test_a_careless_engine_s_points_and_scores_are_deviations_naming_their_rules() -> None:
    game = _joined()
    walk = every_deviation(game)
    ends = [(d.error.key, d.error.rule_id) for d in walk.deviations if d.kind == "end"]
    # round 1: a Skip left miscounted (SCORE-1), so its score too (SCORE-2); round 2
    # (numbers left: its points right) judged from round 1's stated scores: P1's 10 not
    # carried over (SCORE-2)
    assert ends == [("rounds[0].end.points", "SCORE-1"), ("rounds[0].end.scores", "SCORE-2"),
                    ("rounds[1].end.scores", "SCORE-2")]
    carried = next(d.error for d in walk.deviations if d.error.key == "rounds[1].end.scores")
    assert "P1 0 (by the rules 10)" in carried.message
    assert walk.stopped is None
    moves = [d for d in walk.deviations if d.kind not in ("end", "deal")]
    assert {d.round for d in moves} == {1, 2}  # across both rounds
    keys = [d.error.key for d in moves]
    assert keys[0] == "rounds[0].actions[18]" and keys[1] == "rounds[1].actions[10]"
    first = len(game["rounds"][0]["actions"])
    assert moves[1].index == first + 10  # the flat index
    message = next(d.error.message for d in walk.deviations
                   if d.error.key == "rounds[0].end.points")
    assert "SCORE-1 counts" in message and "wilds 50" in message


def test_replay_stops_at_the_first_and_conform_lists_every_one(tmp_path: Path) -> None:
    game = _joined()
    first = replay(game).error
    assert first is not None and first.key == "rounds[0].actions[18]"
    path = tmp_path / "joined.json"
    path.write_text(json.dumps(game))
    (tmp_path / "clean.json").write_text(GAME.read_text())
    tally = conform([str(tmp_path)], every=True)
    assert (tally.games, tally.clean) == (2, 1)
    out = tally.to_json()
    listed = out["listed"][0]
    assert listed["source"] == str(path)
    assert [d["key"] for d in listed["deviations"]][:4] == [
        "rounds[0].actions[18]", "rounds[0].end.points", "rounds[0].end.scores",
        "rounds[1].actions[10]"]
    assert out["per_rule"]["SCORE-2"]["rounds"] == 2
    assert out["every_deviation"]["rounds"] == 2
    text = Listing(tally.listing.records if tally.listing else []).text()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "rounds[0].end.points" in line)
    # a round's end is listed after its last move and before the next round's first
    assert "rounds[0].actions[18]" in "".join(lines[:at])
    assert "rounds[1].actions[10]" in "".join(lines[at:])
    example = out["examples"]["UNO-1"]
    assert replay(example).error is not None  # a cut game record that replays to it


def test_a_clean_game_record_conforms() -> None:
    tally = conform([str(GAME)], every=True)
    assert (tally.games, tally.clean, tally.malformed) == (1, 1, 0)


def test_the_shipped_joined_record_is_the_one_built_here() -> None:
    """tests/data/games/letsuno_two_rounds.json (docs/records.md runs conform on it) is
    these two rounds and these careless ends, nothing else."""
    shipped = json.loads((OUTSIDE.parent / "games" / "letsuno_two_rounds.json").read_text())
    built = _joined()
    assert {k: v for k, v in shipped.items() if k != "meta"} == \
        {k: v for k, v in built.items() if k != "meta"}


def test_docs_records_shows_conform_s_own_words_on_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    from unoformal.commands.cli import main

    docs = (OUTSIDE.parents[2] / "docs" / "records.md").read_text()
    command = "$ unoformal conform tests/data/games/letsuno_two_rounds.json\n"
    shown = docs.split(command)[1].split("```")[0].splitlines()
    main(["conform", str(OUTSIDE.parent / "games" / "letsuno_two_rounds.json")])
    out = capsys.readouterr().out.replace(str(OUTSIDE.parent / "games"),
                                          "tests/data/games")
    assert len([line for line in shown if line.strip() not in ("", "...")]) == 5
    for line in shown:
        assert line in ("", "...") or line in out.splitlines(), line
