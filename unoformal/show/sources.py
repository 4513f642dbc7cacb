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
from unoformal.inputs import load_rules_arg, parse_json, read_text, show
from unoformal.rulebook.table import RuleTable
from unoformal.show import trace

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
            "table": trace.table_data(game.rules, trace.cited(steps)),
            "meta": record.get("meta")}


def hidden(data: Json, seat: str) -> Json:
    """The page data as ``seat`` may see it (HIDDEN-1): :func:`unoformal.show.seat.page_as`."""
    from unoformal.show.seat import page_as

    return page_as(data, seat)


# ------------------------------------------------------------------ verify


def verify_page(rows: list[Json], source: str, rules: RuleTable | None,
                wanted: str | None) -> Json:
    """The counterexample of one refuted property: its words, the pre-state and the
    post-state side by side, and the record that reaches it stepped through."""
    row = _refuted(rows, source, wanted)
    rules = rules if rules is not None else _rules_of(row, source)
    prop = _property(row)
    pre, post, refused = _post(row, rules, source)
    record = row.get("record")
    if isinstance(record, dict):
        data = record_page(record, source, rules, f"counterexample: {row['property']}")
        data["start"] = len(data["steps"]) - 1
    else:
        data = {"kind": "trace", "title": f"counterexample: {row['property']}",
                "source": source, "players": list(pre.names),
                "steps": [trace.step(pre, None, [])]}
    cites = set(prop["rules"]) | trace.cited(data["steps"])
    data["table"] = trace.table_data(rules, cites)
    data["kind"] = "counterexample"
    data["finding"] = {
        "heading": f"{row['property']}: {prop['title']}",
        "lines": _verify_lines(row), "rules": prop["rules"],
        "sides": [side("pre-state", "pre-state", pre),
                  side("post-state", "post-state after " + "; ".join(
                      map(str, row.get("steps") or [])), post, 0, refused)]}
    return data


def side(key: str, title: str, game: Game | None, against: int | None = None,
         note: str | None = None) -> Json:
    """One of two states shown side by side; ``against``: the other one's index, whose
    differences from this one are highlighted."""
    return {"id": key, "title": title, "state": trace.snapshot(game) if game else None,
            "against": against, "note": note or "no state"}


def _refuted(rows: list[Json], source: str, wanted: str | None) -> Json:
    refuted = [r for r in rows if r.get("verdict") == "refuted" and isinstance(r.get("state"),
                                                                                str)]
    if wanted is not None:
        refuted = [r for r in refuted if r.get("property") == wanted]
    if not refuted:
        what = f"property {show(wanted)}" if wanted else "any property"
        raise InvalidInputError(f"no counterexample of {what} in this verify output "
                                "(no refuted verdict with a state)", source=source)
    return refuted[0]


def _rules_of(row: Json, source: str) -> RuleTable:
    """The rules a counterexample's state names (``rules=NAME``): a shipped variant;
    a file variant is given with ``--rules``."""
    head = str(row["state"]).split(" ", 1)[0]
    name = head.removeprefix("rules=")
    try:
        rules: RuleTable = embedded_rules(name)
    except InvalidInputError:
        raise InvalidInputError(f"the counterexample's rules {show(name)} are not a shipped "
                                "variant: give the variant file with --rules", source=source,
                                key="state") from None
    return rules


def _property(row: Json) -> Json:
    from unoformal.verification.z3.properties import PROPERTIES

    for p in PROPERTIES:
        if p.name == row["property"]:
            return {"title": p.title, "rules": list(p.rule_ids)}
    rules = row.get("rules")
    return {"title": "(a property this version does not know)",
            "rules": [str(r) for r in rules] if isinstance(rules, list) else []}


def _post(row: Json, rules: RuleTable, source: str) -> tuple[Game, Game | None, str | None]:
    """The model's pre-state, and the engine's state after the refuting step(s) (or why
    the engine refuses them)."""
    try:
        pre = Game.from_text(row["state"], rules)
    except InvalidInputError as err:
        raise err.at(source=source, key="state") from None
    post = pre.copy()
    try:
        for text in row.get("steps") or []:
            post.apply(Action.parse(str(text)))
    except UnoError as err:
        return pre, None, f"the engine refuses {show(text, 80)}: {err.message}"
    return pre, post, None


def _verify_lines(row: Json) -> list[str]:
    lines = [f"refuted with {row.get('players')} players at {row.get('action')}; "
             f"expected {row.get('expected')} ({row.get('expected_from')})"]
    if "record" in row:
        lines.append("the record below reaches it from a deal"
                     + ("" if row.get("replayable") else
                        " (not replayable by the engine to the model's state)"))
    return lines


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
