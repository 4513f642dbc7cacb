"""Answers the prover already has, kept by the text of the query they answer.

A query's answer is fixed by its terms: two queries with the same text (the same
symbols' names, the same formula) are the same question. The matrix asks the same
questions many times over: a pair of house rules at 2-4 players asks, term for term,
almost every query one of its two rules alone or classic asks (measured, queries about
one pre-state and property: 298 of 308 for catch-later+no-challenge, 428 of 428 for
teams+mover-deals, 372 of 380 for draw-until+force-play), because the symbols of a
table are named from 0 for each table (``Spec.tag``). So a run can be given what
earlier runs answered, and asks the solver only what is new.

Kept: "unsatisfiable" for a query of a proof (a fact, whatever time the solver is
given), and the answer of a vacuity check at one player count (satisfiable or not).
An ``unknown`` is never kept: it is the solver's time, not the query's answer. A key is
a digest of the query's parts (hypothesis, relation, claim, count), each a digest of
its term's structure and names, so answers travel between processes as bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import z3
from z3 import z3core

DIGEST = 16  # bytes of a key: a collision among 10^6 keys has odds of 10^-27


class Answers:
    """What is known (``known``, given by earlier runs) and what this run found
    (``learned``): a key (:meth:`key`) to whether the query is satisfiable."""

    def __init__(self, known: Mapping[bytes, bool] | None = None) -> None:
        self.known: dict[bytes, bool] = dict(known or {})
        self.learned: dict[bytes, bool] = {}
        self.hits = 0  # queries answered from ``known`` or ``learned``, not asked
        # a node's digest by its id; the terms digested are kept, so the ids of their
        # nodes stay theirs (Z3 gives a freed node's id to a new one)
        self._nodes: dict[int, bytes] = {}
        self._roots: list[Any] = []

    def digest(self, term: Any) -> bytes:
        """A digest of ``term``: of each node, its function's name and its arguments'
        digests (a leaf's sort too), so a term of one table and one of another with the
        same symbols' names and the same structure have the same digest. Computed node by
        node over the term's DAG, each node once per run (``_nodes``): measured on the
        classic table at 2-4 players, 36,818 nodes under its 794 query parts in 0.54 s,
        where their text (``sexpr``, printed term by term) took 1.6 s."""
        root = term.as_ast()
        done = self._nodes.get(_id(_ctx, root))
        if done is not None:
            return done
        self._roots.append(term)  # the ids of its nodes stay theirs while it is kept
        todo = [_Node(root)]
        while todo:
            node = todo[-1]
            if node.key in self._nodes:
                todo.pop()
                continue
            missing = [_Node(a) for a, i in zip(node.args, node.ids, strict=True)
                       if i not in self._nodes]
            if missing:  # its arguments first; it is met again after them, read once
                todo.extend(missing)
                continue
            todo.pop()
            h = hashlib.blake2b(node.label(), digest_size=DIGEST)
            for i in node.ids:
                h.update(self._nodes[i])
            self._nodes[node.key] = h.digest()
        return self._nodes[_id(_ctx, root)]

    def key(self, *parts: Any) -> bytes:
        """The key of the conjunction of ``parts`` (terms; an int is a player count)."""
        h = hashlib.blake2b(digest_size=DIGEST)
        for part in parts:
            h.update(f"n{part};".encode() if isinstance(part, int) else self.digest(part))
        return h.digest()

    def get(self, key: bytes) -> bool | None:
        """Whether the query of ``key`` is satisfiable, if known."""
        got = self.learned.get(key)
        if got is None:
            got = self.known.get(key)
        if got is not None:
            self.hits += 1
        return got

    def learn(self, key: bytes, satisfiable: bool) -> None:
        if key not in self.known:
            self.learned[key] = satisfiable


_ctx = z3.main_ctx().ref()
_id = z3core.Z3_get_ast_id


class _Node:
    """A node of a term being digested, read once: its id, kind and arguments."""

    __slots__ = ("args", "ast", "ids", "key", "kind")

    def __init__(self, ast: Any) -> None:
        self.ast = ast
        self.key = _id(_ctx, ast)
        self.kind = z3core.Z3_get_ast_kind(_ctx, ast)
        self.args = [z3core.Z3_get_app_arg(_ctx, ast, i)
                     for i in range(z3core.Z3_get_app_num_args(_ctx, ast))] \
            if self.kind == z3.Z3_APP_AST else []
        self.ids = [_id(_ctx, a) for a in self.args]

    def label(self) -> bytes:
        """What the node is, besides its arguments: a number's value, a function's name,
        and a leaf's sort (every symbol of the prover is an integer or a Boolean, named by
        the part of the state it stands for)."""
        if self.kind == z3.Z3_NUMERAL_AST:
            return f"#{self._sort()}:{z3core.Z3_get_numeral_string(_ctx, self.ast)}".encode()
        if self.kind != z3.Z3_APP_AST:  # a quantifier or bound variable: none in the prover's
            return f"?{z3core.Z3_ast_to_string(_ctx, self.ast)}".encode()
        name = z3core.Z3_get_symbol_string(
            _ctx, z3core.Z3_get_decl_name(_ctx, z3core.Z3_get_app_decl(_ctx, self.ast)))
        return f"{name}(".encode() if self.args else f"{name}:{self._sort()}".encode()

    def _sort(self) -> int:
        return int(z3core.Z3_get_sort_kind(_ctx, z3core.Z3_get_sort(_ctx, self.ast)))


_current: Answers | None = None


def current() -> Answers | None:
    """The answers the prover is given now (None: it asks every query)."""
    return _current


@contextmanager
def using(answers: Answers | None) -> Iterator[Answers | None]:
    """The prover takes ``answers`` for what it is asked inside the block."""
    global _current
    before, _current = _current, answers
    try:
        yield answers
    finally:
        _current = before
