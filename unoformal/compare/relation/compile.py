"""Z3 terms compiled once into Python functions, so a ground instance is evaluated
without a solver call.

Validation asks the same guards and updates of the compiled relation for every
step of every game: substituting the concrete state and simplifying costs tens of
microseconds per term, a solver call far more. Instead each term is walked once and
written out as Python source (shared subterms become locals, so a DAG stays a DAG),
and ``exec`` turns it into a function of an environment that maps each Z3
constant's name to its value. Only the operators the relation uses are accepted;
any other raises :class:`UnsupportedTerm` when compiling, never a wrong answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import z3

Env = dict[str, int]
Compiled = Callable[[Env], tuple[int, ...]]

# Nesting depth of one Python expression past which a subterm becomes a local: the
# parser refuses expressions nested about 200 deep, and an ite-chain over 54 faces
# inside a sum inside a comparison comes near that.
_MAX_DEPTH = 40

_INFIX = {
    z3.Z3_OP_LE: "<=", z3.Z3_OP_GE: ">=", z3.Z3_OP_LT: "<", z3.Z3_OP_GT: ">",
    z3.Z3_OP_ADD: "+", z3.Z3_OP_SUB: "-", z3.Z3_OP_MUL: "*",
}


class UnsupportedTerm(ValueError):
    """A Z3 operator the compiler does not translate."""


class _Writer:
    """The source of one function: a local per shared or deep subterm, in dependency order.
    The terms are walked through Z3's C API (z3py's wrappers cost ~20x more per node)."""

    def __init__(self, ctx: Any, roots: Sequence[Any]) -> None:
        self.c = ctx.ref()
        self.lines: list[str] = []
        self.code: dict[int, str] = {}
        self.depth: dict[int, int] = {}
        self.names: dict[str, str] = {}
        self.parents = self._parents(roots)

    def _args(self, a: Any) -> list[Any]:
        if z3.Z3_get_ast_kind(self.c, a) != z3.Z3_APP_AST:
            return []
        return [z3.Z3_get_app_arg(self.c, a, i) for i in range(z3.Z3_get_app_num_args(self.c, a))]

    def _id(self, a: Any) -> int:
        return int(z3.Z3_get_ast_id(self.c, a))

    def _parents(self, roots: Sequence[Any]) -> dict[int, int]:
        """How many parent terms (or outputs) use each subterm."""
        count: dict[int, int] = {}
        seen: set[int] = set()
        stack = list(roots)
        for r in roots:
            count[self._id(r)] = count.get(self._id(r), 0) + 1
        while stack:
            node = stack.pop()
            key = self._id(node)
            if key in seen:
                continue
            seen.add(key)
            for c in self._args(node):
                count[self._id(c)] = count.get(self._id(c), 0) + 1
                stack.append(c)
        return count

    def local(self, text: str) -> str:
        name = f"t{len(self.lines)}"
        self.lines.append(f"    {name} = {text}")
        return name

    def var(self, name: str) -> str:
        known = self.names.get(name)
        if known is None:
            known = self.names[name] = self.local(f"e[{name!r}]")
        return known

    def term(self, root: Any) -> str:
        """The Python expression of ``root`` (its subterms written first, iteratively)."""
        stack = [(root, False)]
        while stack:
            node, ready = stack.pop()
            key = self._id(node)
            if key in self.code:
                continue
            args = self._args(node)
            if not ready:
                stack.append((node, True))
                stack.extend((c, False) for c in args if self._id(c) not in self.code)
                continue
            text, depth = self._node(node, args)
            if (self.parents.get(key, 0) > 1 or depth > _MAX_DEPTH) and args:
                text, depth = self.local(text), 0
            self.code[key], self.depth[key] = text, depth
        return self.code[self._id(root)]

    def _node(self, a: Any, args: list[Any]) -> tuple[str, int]:
        c = self.c
        kind = z3.Z3_get_ast_kind(c, a)
        if kind == z3.Z3_NUMERAL_AST:
            return str(z3.Z3_get_numeral_string(c, a)), 0
        if kind != z3.Z3_APP_AST:
            raise UnsupportedTerm(f"cannot compile Z3 term {z3.Z3_ast_to_string(c, a)[:80]}")
        decl = z3.Z3_get_app_decl(c, a)
        op = z3.Z3_get_decl_kind(c, decl)
        if op == z3.Z3_OP_TRUE:
            return "True", 0
        if op == z3.Z3_OP_FALSE:
            return "False", 0
        if op == z3.Z3_OP_UNINTERPRETED and not args:
            return self.var(z3.Z3_get_symbol_string(c, z3.Z3_get_decl_name(c, decl))), 0
        texts = [self.code[self._id(x)] for x in args]
        depth = 1 + max((self.depth[self._id(x)] for x in args), default=0)
        return _operator(op, texts, lambda: str(z3.Z3_ast_to_string(c, a))), depth


def _operator(kind: int, a: list[str], show: Callable[[], str]) -> str:
    if kind == z3.Z3_OP_AND:
        return "(" + " and ".join(a) + ")" if a else "True"
    if kind == z3.Z3_OP_OR:
        return "(" + " or ".join(a) + ")" if a else "False"
    if kind == z3.Z3_OP_NOT:
        return f"(not {a[0]})"
    if kind == z3.Z3_OP_IMPLIES:
        return f"((not {a[0]}) or {a[1]})"
    if kind == z3.Z3_OP_ITE:
        return f"({a[1]} if {a[0]} else {a[2]})"
    if kind == z3.Z3_OP_EQ:
        return f"({a[0]} == {a[1]})"
    if kind == z3.Z3_OP_DISTINCT:
        return f"({a[0]} != {a[1]})" if len(a) == 2 else f"(len({{{', '.join(a)}}}) == {len(a)})"
    if kind == z3.Z3_OP_UMINUS:
        return f"(-{a[0]})"
    op = _INFIX.get(kind)
    if op is not None:
        return "(" + f" {op} ".join(a) + ")"
    raise UnsupportedTerm(f"cannot compile Z3 operator {kind} in {show()[:80]}")


def compile_terms(terms: Sequence[Any], name: str = "f") -> Compiled:
    """One Python function computing every term of ``terms`` from an environment.
    Booleans come back as ``True``/``False`` (ints, for the caller's purposes)."""
    roots = [_as_term(t) for t in terms]
    writer = _Writer(roots[0].ctx, [t.as_ast() for t in roots])
    outputs = [writer.term(t.as_ast()) for t in roots]
    body = [f"def {name}(e):", *writer.lines,
            f"    return ({', '.join(outputs)}{',' if len(outputs) == 1 else ''})"]
    scope: dict[str, Any] = {}
    exec(compile("\n".join(body), f"<z3:{name}>", "exec"), scope)
    fn: Compiled = scope[name]
    return fn


def _as_term(x: Any) -> Any:
    if isinstance(x, bool):
        return z3.BoolVal(x)
    if isinstance(x, int):
        return z3.IntVal(x)
    return x
