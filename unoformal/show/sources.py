"""The five inputs of ``unoformal show`` as page data.

* a record (a game log, a seed's worked example, a test record, an explorer witness);
* a ``verify --json`` output: its counterexample (the first refutation, or ``property``);
* a ``validate`` mismatch folder (``record.json`` and ``mismatch.txt``, as validate
  writes them);
* a small state graph, explored here from a preset (``explore --preset micro``).

Each function returns the JSON data :func:`unoformal.show.page.render` embeds. Bad input
raises :class:`~unoformal.errors.InvalidInputError` naming what and where.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.engine.record import embedded_rules, load_record
from unoformal.errors import InvalidInputError, UnoError
from unoformal.inputs import MAX_VERIFY_STEPS, parse_json, read_text, show
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules_arg
from unoformal.show import trace
from unoformal.show.seat import cited

Json = dict[str, Any]
GRAPH_LIMIT = 400  # states a page draws; a larger graph shows its witness and neighbours


def load(path: str) -> tuple[str, Any]:
    """What ``path`` holds: ``("record", data)``, ``("verify", rows)`` or
    ``("mismatch", folder)``; anything else is refused in one line."""
    where = Path(path)
    if where.is_dir():
        if _mismatch_folder(where):
            return "mismatch", where
        raise InvalidInputError("a folder, but not a validate mismatch (record.json and "
                                "mismatch.txt); name a record or a verify --json output",
                                source=path)
    data = parse_json(read_text(path, "input"), path)
    if isinstance(data, dict) and "players" in data:
        if where.name == "record.json" and _mismatch_folder(where.parent):
            return "mismatch", where.parent
        return "record", data
    if isinstance(data, list) and data and all(isinstance(r, dict) and "property" in r
                                                for r in data):
        return "verify", data
    raise InvalidInputError("not a game record (an object with \"players\"), a verify "
                            "--json output (a list of verdicts) or a validate mismatch",
                            source=path)


def _mismatch_folder(folder: Path) -> bool:
    """Whether ``folder`` holds validate's two files by name, whatever they are: a pipe
    or a device among them is then refused unopened, by name, when it is read."""
    return all(os.path.lexists(folder / name) for name in ("record.json", "mismatch.txt"))


def record_page(record: Json, source: str, rules: RuleTable | None = None,
                title: str | None = None) -> Json:
    """A record's page: every step, stepping from the deal to the end (or the refusal)."""
    game, steps = trace.record_steps(record, rules)
    return {"kind": "trace", "title": title or f"game record {Path(source).name}",
            "source": source, "players": list(game.names), "steps": steps,
            "table": trace.table_data(game.rules, cited(steps)),
            "meta": record.get("meta")}


def hidden(data: Json, seat: str) -> Json:
    """The page data as ``seat`` may see it (HIDDEN-1): :func:`unoformal.show.seat.page_as`."""
    from unoformal.show.seat import page_as

    return page_as(data, seat)


# ------------------------------------------------------------------ verify


# What show reads from a verify --json row, and the JSON type each must have where it is
# given (absent and null are alike: verify leaves out what a verdict does not have).
ROW_TYPES: dict[str, type] = {
    "property": str, "verdict": str, "state": str, "steps": list, "record": dict,
    "replayable": bool, "players": int, "action": str, "expected": str,
    "expected_from": str, "rules": list, "conclusion": str, "reach": dict}
TYPE_NAMES = {str: "a string", list: "a list", dict: "an object", bool: "true or false",
              int: "a whole number"}


def verify_page(rows: list[Json], source: str, rules: RuleTable | None,
                wanted: str | None) -> Json:
    """The counterexample of one refuted property: its words, the pre-state and the
    post-state side by side, and the record that reaches it stepped through."""
    for i, each in enumerate(rows):
        _check_row(each, i)
    at, row = _refuted(rows, source, wanted)
    rules = rules if rules is not None else _rules_of(row, source, at)
    prop = _property(row)
    pre, post, refused = _post(row, rules, source, at)
    data = _trace(row, pre, rules, source, at)
    cites = set(prop["rules"]) | cited(data["steps"])
    data["table"] = trace.table_data(rules, cites)
    data["kind"] = "counterexample"
    data["finding"] = {
        "heading": f"{row['property']}: {prop['title']}",
        "lines": _verify_lines(row), "rules": prop["rules"],
        "sides": [side("pre-state", _pre_title(row), pre),
                  side("post-state", "post-state after " + "; ".join(
                      row.get("steps") or []), post, 0, refused)]}
    return data


def _check_row(row: Json, at: int) -> None:
    """Every field show reads of a row: of its JSON type (or absent, or null); the steps
    action texts, at most ``MAX_VERIFY_STEPS`` of them; the rules, rule IDs."""
    for key, kind in ROW_TYPES.items():
        value = row.get(key)
        if value is not None and (not isinstance(value, kind) or
                                  (kind is int and isinstance(value, bool))):
            raise InvalidInputError(f"{show(value)}: expected {TYPE_NAMES[kind]}",
                                    key=f"[{at}].{key}")
    steps = row.get("steps") or []
    if len(steps) > MAX_VERIFY_STEPS:
        raise InvalidInputError(f"{len(steps):,} steps: a counterexample has at most "
                                f"{MAX_VERIFY_STEPS}", key=f"[{at}].steps")
    for key in ("steps", "rules"):
        for j, item in enumerate(row.get(key) or []):
            if not isinstance(item, str):
                raise InvalidInputError(f"{show(item)}: expected a string",
                                        key=f"[{at}].{key}[{j}]")


def _trace(row: Json, pre: Game, rules: RuleTable, source: str, at: int) -> Json:
    """The row's record stepped through (it must be a game of the state's players), or
    the pre-state alone when the row has none."""
    record = row.get("record")
    title = f"counterexample: {row['property']}"
    if record is None:
        return {"kind": "trace", "title": title, "source": source,
                "players": list(pre.names), "steps": [trace.step(pre, None, [])]}
    key = f"[{at}].record"
    try:
        data = record_page(record, source, rules, title)
    except InvalidInputError as err:
        raise InvalidInputError(err.message, err.rule_id, err.state, source=source,
                                key=f"{key}.{err.key}" if err.key else key,
                                action=err.action, index=err.index) from None
    if data["players"] != list(pre.names):
        # the page draws the record's seats beside the state's: they must be the same
        raise InvalidInputError(
            f"a record of another game: its players {show(data['players'], 80)} are not "
            f"the state's {show(list(pre.names), 80)}", source=source, key=key)
    data["start"] = len(data["steps"]) - 1
    return data


def side(key: str, title: str, game: Game | None, against: int | None = None,
         note: str | None = None) -> Json:
    """One of two states shown side by side; ``against``: the other one's index, whose
    differences from this one are highlighted."""
    return {"id": key, "title": title, "state": trace.snapshot(game) if game else None,
            "against": against, "note": note or "no state"}


def _refuted(rows: list[Json], source: str, wanted: str | None) -> tuple[int, Json]:
    """The first refuted row with a state (of ``wanted``), and its index."""
    refuted = [(i, r) for i, r in enumerate(rows)
               if r.get("verdict") == "refuted" and r.get("state") is not None]
    if wanted is not None:
        refuted = [(i, r) for i, r in refuted if r.get("property") == wanted]
    if not refuted:
        what = f"property {show(wanted)}" if wanted else "any property"
        raise InvalidInputError(f"no counterexample of {what} in this verify output "
                                "(no refuted verdict with a state)", source=source)
    return refuted[0]


def _rules_of(row: Json, source: str, at: int) -> RuleTable:
    """The rules a counterexample's state names (``rules=NAME``): a shipped variant;
    a file variant is given with ``--rules``."""
    head = str(row["state"]).split(" ", 1)[0]
    name = head.removeprefix("rules=")
    try:
        rules: RuleTable = embedded_rules(name)
    except InvalidInputError:
        raise InvalidInputError(f"the counterexample's rules {show(name)} are not a shipped "
                                "variant: give the variant file with --rules", source=source,
                                key=f"[{at}].state") from None
    return rules


def _property(row: Json) -> Json:
    from unoformal.verification.z3.properties import PROPERTIES

    for p in PROPERTIES:
        if p.name == row["property"]:
            return {"title": p.title, "rules": list(p.rule_ids)}
    return {"title": "(a property this version does not know)",
            "rules": list(row.get("rules") or [])}


def _post(row: Json, rules: RuleTable, source: str,
          at: int) -> tuple[Game, Game | None, str | None]:
    """The model's pre-state, and the engine's state after the refuting step(s) (or why
    the engine refuses them)."""
    try:
        pre = Game.from_text(row["state"], rules)
    except InvalidInputError as err:
        # the text's own place ("state text") gives way to the file's and the row's
        raise InvalidInputError(err.message, err.rule_id, source=source,
                                key=f"[{at}].state") from None
    post = pre.copy()
    for text in row.get("steps") or []:
        try:
            post.apply(Action.parse(text))
        except UnoError as err:
            # the rule that refuses it named: which rule takes away what the property
            # says is allowed is the point of such a counterexample
            under = f" (breaks {err.rule_id})" if err.rule_id else ""
            return pre, None, f"the engine refuses {show(text, 80)}: {err.message}{under}"
    return pre, post, None


def _verify_lines(row: Json) -> list[str]:
    reach = row.get("reach")
    if isinstance(reach, dict) and "reached" in reach:
        return _reach_lines(row, reach)
    # a row of a verify that did not search a game from a deal (an older one)
    lines = [f"refuted with {row.get('players')} players at {row.get('action')}; "
             f"expected {row.get('expected')} ({row.get('expected_from')})"]
    if row.get("record") is not None:
        # verify searches the record apart from the pre-state: it ends in a refutation
        # of its own, at the same action, not in the pre-state shown above
        lines.append("the record below reaches a refutation of it at this action from a "
                     "deal" + ("" if row.get("replayable") else
                               " (not replayable by the engine to its model's state)"))
    return lines


# verify's words for a refutation no game reached (unoformal.verification.z3.reach's, kept
# equal by a test: reach loads the relation's search, which drawing a page does not need)
NOT_PROVED = "not proved at this strength"


def _reach_lines(row: Json, reach: Json) -> list[str]:
    """What the search from a deal found: the game below, or that nothing was found and
    so the verdict is "not proved at this strength" (the states above may be no game's)."""
    n, action, bound = row.get("players"), row.get("action"), reach.get("bound")
    verdict = NOT_PROVED if row.get("expected_reached") is False else row.get("expected")
    expected = f"expected {verdict} ({row.get('expected_from')})"
    if reach["reached"]:
        at = reach.get("at")
        where = (f"its action {at + 1} ({reach.get('action')})" if isinstance(at, int)
                 and not reach.get("refused_action") else
                 f"its end, where the rules refuse {reach.get('refused_action')}"
                 + (f" ({reach['refusal']})" if isinstance(reach.get("refusal"), str) else ""))
        return [f"refuted with {n} players: the game below, from a deal, breaks it at "
                f"{where}, replayed by the engine; {expected}",
                "the states side by side are the prover's own counterexample (at "
                f"{action}), a state satisfying the invariant, not the game's"]
    searched = (f"no game from a deal of at most {bound} step(s) breaks it"
                if reach.get("complete") else f"no game from a deal found ({reach.get('why')})")
    return [f"{NOT_PROVED} with {n} players (not refuted): {searched}; {expected}",
            f"the states side by side are the prover's counterexample at {action}: a state "
            "satisfying the invariant that may be unreachable from any deal"]


def _pre_title(row: Json) -> str:
    reach = row.get("reach")
    if isinstance(reach, dict) and reach.get("reached") is False:
        return "pre-state (the prover's model: maybe no game reaches it)"
    return "pre-state"


# ------------------------------------------------------------------ validate


def mismatch_page(folder: Path) -> Json:
    """A validate mismatch: what differs (``mismatch.txt``) and its record stepped through
    to the mismatching step."""
    record_path = folder / "record.json"
    record = load_record(record_path)
    text = read_text(folder / "mismatch.txt", "mismatch description")
    data = record_page(record, str(record_path), title=f"validate mismatch {folder.name}")
    lines = [line for line in text.splitlines() if line.strip()][:20]
    data["kind"] = "mismatch"
    data["finding"] = {"heading": "the engine and the Z3 relation disagree", "lines": lines,
                       "rules": []}
    data["start"] = len(data["steps"]) - 1
    return data


def load_rules(value: str | None) -> RuleTable | None:
    """``--rules``: a variant name or file, checked as every command checks it."""
    return None if value is None else load_rules_arg(value, "--rules")
