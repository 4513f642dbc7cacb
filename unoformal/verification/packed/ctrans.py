"""The generated successor's module translated to C: a fifth reading of the commands.

:class:`..generated.GeneratedSuccessor` writes a table's successor function as Python
source over a record (a ``bytearray``), which mypyc compiles (``native``). mypyc keeps
Python's objects: every read and write of a record goes through the ``bytearray``'s
protocol, and every edge's labels are a new tuple. This module reads that same source
(its syntax tree, not the commands again) and writes it as C over ``uint8_t`` arrays,
with each label a small number: the language of the source is small (byte reads and
writes at offsets, integer arithmetic, ``if``, ``while``, the draw's loop, a list of
seats, four appends per edge), and anything outside it is refused by name and line
(:class:`Untranslatable`), so the search runs the same source as pure Python instead.

What is written by hand here, not read from the source, is the draw (``_DRAW``'s
``DRAW``, ``FROM_PILE``, ``DRAWN``, ``RESHUFFLE`` and the multisets in
``reading._multisets``' order), from the same constants the source's draw is written
with, ``STORE``'s cleared fields (``GeneratedSuccessor._store``) and the loop over a
chunk's records (``EXPAND``). The tests compare this reading with the engine's edge for
edge, as they compare the Python one.

A C module's entry, ``expand(records, count, i, *streams)``, appends to seven
``bytearray`` streams (the children's records, the action numbers, the label numbers and
each edge's count of them, the ends' numbers and counts, each record's number of edges)
and returns the index of the first record whose control key it lacks (``count`` when
none); ``labels()`` gives the labels by number, as JSON.
"""

from __future__ import annotations

import ast
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unoformal.rules.state import OVER, PHASES, RESPOND
from unoformal.verification.packed.layout import NONE, OVER_CODE
from unoformal.verification.packed.reading import (
    _READS_DRAWN,
    DRAWN_AT,
    KIND,
    OFFENDER,
    PENDING,
    PH,
    PREV,
    TOP,
    TURN,
    UNO_WINDOW,
    WD4,
    WINNER,
)

MAX_RAN = 64  # labels one edge may carry (its move's, then the round's end's)
MAX_ENDS = 512  # SCORE-1's labels: one per card left in the hands
_HAND_WRITTEN = {"PILE", "DRAW", "FROM_PILE", "DRAWN", "RESHUFFLE", "EXPAND"}
_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.LShift: "<<", ast.RShift: ">>",
           ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^"}
_CMPOPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<",
           ast.LtE: "<="}


class Untranslatable(Exception):
    """The source holds a construct this reading has no C for (named in the message)."""


@dataclass
class DrawConstants:
    """What ``_DRAW`` is written with: the hands' counts' offset, the faces, the record's
    width, the discard's counts' offset, RESHUFFLE-1's ``keep_top``, and the names of the
    short draw's and the reshuffle's labels."""

    base: int
    nf: int
    width: int
    disc: int
    keep_top: bool
    short: str
    reshuffled: str


@dataclass
class _Fn:
    """One function being written: its locals' kinds and C lines."""

    name: str
    kinds: dict[str, str] = field(default_factory=dict)  # int, state, ran, seen, child, ends
    lines: list[str] = field(default_factory=list)
    returns: str = "void"
    serial: int = 0

    def fresh(self) -> int:
        self.serial += 1
        return self.serial


def _fail(node: ast.AST | None, why: str) -> Untranslatable:
    where = f" (line {node.lineno}: {ast.unparse(node)[:80]})" \
        if node is not None and hasattr(node, "lineno") else ""
    return Untranslatable(f"{why}{where}")


class Translator:
    """One module's source and values to one C file."""

    def __init__(self, body: str, values: dict[str, Any], keys: Sequence[tuple[int, ...]],
                 n: int, draw: DrawConstants) -> None:
        self.tree = ast.parse(body)
        self.values = values
        self.keys = keys
        self.n, self.draw = n, draw
        self.width = draw.width
        self.labels: list[Any] = []  # label number -> the label
        self._label_ids: dict[str, int] = {}  # an L name -> its number
        self.fns: dict[str, ast.FunctionDef] = {}
        for node in self.tree.body:
            if isinstance(node, ast.FunctionDef):
                self.fns[node.name] = node
            elif not isinstance(node, ast.ImportFrom | ast.AnnAssign):
                raise _fail(node, "a module statement other than a function")
        self.kinds = {name: self._kind(fn) for name, fn in self.fns.items()}

    # ------------------------------------------------------------ names and values

    def label(self, name: str) -> int:
        """The number of the label named ``name`` (an ``L`` value of the source)."""
        found = self._label_ids.get(name)
        if found is None:
            value = self.values.get(name)
            if not (isinstance(value, tuple) and len(value) == 2
                    and all(isinstance(x, str) for x in value)):
                raise Untranslatable(f"{name} is not a label")
            found = self._label_ids[name] = len(self.labels)
            self.labels.append(value)
        return found

    def label_tuple(self, name: str) -> list[int]:
        """A ``K`` value's labels, as numbers."""
        value = self.values.get(name)
        if not isinstance(value, tuple):
            raise Untranslatable(f"{name} is not a tuple of labels")
        ids = []
        for lab in value:
            key = f"__label_{lab!r}"
            if key not in self._label_ids:
                self._label_ids[key] = len(self.labels)
                self.labels.append(lab)
            ids.append(self._label_ids[key])
        return ids

    def _kind(self, fn: ast.FunctionDef) -> str:
        """What a function returns: ``void``, ``int`` (True/False), ``ends`` (a tuple of
        labels built in a list) or a hand-written one."""
        if fn.name in _HAND_WRITTEN:
            return "hand"
        if fn.returns is not None and ast.unparse(fn.returns) == "int":
            return "int"  # its returns are numbers (AROUND's seat)
        kinds = set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Return) and node.value is not None:
                v = node.value
                if isinstance(v, ast.Constant) and isinstance(v.value, bool):
                    kinds.add("int")
                elif isinstance(v, ast.Call) and isinstance(v.func, ast.Name) \
                        and v.func.id == "tuple":
                    kinds.add("ends")
                else:
                    raise _fail(node, f"{fn.name} returns what C cannot")
        if len(kinds) > 1:
            raise _fail(fn, f"{fn.name} returns two kinds")
        return kinds.pop() if kinds else "void"

    # ------------------------------------------------------------ the file

    def c_source(self) -> str:
        parts: list[str] = []
        protos: list[str] = []
        for name, fn in self.fns.items():
            if self.kinds[name] == "hand":
                continue
            f = self._function(fn)
            protos.append(self._signature(f) + ";")
            parts.append(self._signature(f) + " {\n" + "\n".join(f.lines) + "\n}\n")
        tables = self._tables()
        pile, draw, expand = self._pile(), self._draw_c() + self._store_c(), self._expand()
        return "\n".join([_PRELUDE.format(w=self.width, sw=self.width + self.n,
                                          max_ran=MAX_RAN, max_ends=MAX_ENDS),
                          tables, *protos, pile, draw, *parts, expand, self._labels(),
                          _ENTRY])

    def _labels(self) -> str:
        """``labels()``: the labels by number, as JSON (read when a cached module is
        loaded, without translating again)."""
        text = json.dumps([list(x) for x in self.labels])
        literal = text.replace("\\", "\\\\").replace('"', '\\"')
        return ("static PyObject *labels(PyObject *self, PyObject *args) {\n"
                f'    return PyUnicode_FromString("{literal}");\n}}\n')

    def _signature(self, f: _Fn) -> str:
        fn = self.fns[f.name]
        params = []
        for a in fn.args.args:
            kind = self._param_kind(a.arg)
            params.append({"state": "uint8_t *", "out": "Out *", "int": "int "}[kind] + a.arg)
        if f.returns == "ends":
            params.append("Ends *ret_")
        ret = "int" if f.returns == "int" else "void"
        return f"static {ret} {f.name}({', '.join(params)})"

    @staticmethod
    def _param_kind(name: str) -> str:
        return {"s": "state", "t": "state", "out": "out"}.get(name, "int")

    def _tables(self) -> str:
        """The source's rows (``M``: a match per key; ``B``: WD4-1's slots per key) as
        C arrays; a key the source's dict lacks reads 0 (no record reaches it)."""
        out = []
        for name, value in sorted(self.values.items()):
            if name.startswith("M") and isinstance(value, dict):
                cells = ", ".join(f"[{k}] = {int(v)}" for k, v in sorted(value.items())
                                  if v)
                if any(not isinstance(v, bool) or not 0 <= k < 65536
                       for k, v in value.items()):
                    raise Untranslatable(f"{name}: a row other than keys to booleans")
                out.append(f"static const uint8_t {name}[65536] = {{{cells}}};")
            elif _is_row(value):
                cells = ", ".join(str(int(v)) for v in value)
                out.append(f"static const int {name}[{len(value)}] = {{{cells}}};")
        return "\n".join(out)

    # ------------------------------------------------------------ functions

    def _function(self, fn: ast.FunctionDef) -> _Fn:
        f = _Fn(fn.name, returns=self.kinds[fn.name])
        for a in fn.args.args:
            f.kinds[a.arg] = self._param_kind(a.arg)
        self._declare(f, fn)
        decls = []
        for name, kind in f.kinds.items():
            if name in {a.arg for a in fn.args.args}:
                continue
            decls.append({"int": f"    int {name} = 0;",
                          "state": f"    uint8_t {name}[SW + 8];",
                          "child": f"    uint8_t {name}[W];",
                          "ran": f"    Ran {name}; {name}.n = 0;",
                          "seen": f"    Seen {name} = {{0, 0, NULL}};",
                          "ends": f"    Ends *{name} = ret_; {name}->n = 0;",
                          "seats": f"    int {name}[256]; int {name}_n = 0;"}[kind])
        body: list[str] = []
        self._block(f, fn.body, body, 1)
        frees = [f"    free({name}.at);" for name, k in f.kinds.items() if k == "seen"]
        if frees and any(isinstance(x, ast.Return) for x in ast.walk(fn)):
            raise _fail(fn, "a return where a seen list is held")
        f.lines = decls + body + frees
        return f

    def _declare(self, f: _Fn, fn: ast.FunctionDef) -> None:
        """Each local's kind, from how the source first binds it."""
        for node in ast.walk(fn):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                text = ast.unparse(node.annotation)
                kind = {"list[Any]": "ran", "list[bytes]": "seen"}.get(text)
                if kind is None:
                    raise _fail(node, "an annotation C cannot read")
                self._bind(f, node.target.id, kind, node)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self._bind(f, target.id, self._value_kind(f, node.value), node)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                if node.target.id not in f.kinds:
                    raise _fail(node, "an augmented assignment before a binding")
            elif isinstance(node, ast.comprehension) and isinstance(node.target, ast.Name):
                self._bind(f, node.target.id, "int", node)
            elif isinstance(node, ast.For) and not self._is_draw(node):
                for name in ast.walk(node.target):
                    if isinstance(name, ast.Name):
                        self._bind(f, name.id, "int", node)

    def _bind(self, f: _Fn, name: str, kind: str, node: ast.AST) -> None:
        if f.kinds.setdefault(name, kind) != kind:
            raise _fail(node, f"{name} bound as {f.kinds[name]} and as {kind}")

    def _value_kind(self, f: _Fn, v: ast.expr) -> str:
        if isinstance(v, ast.Subscript) and isinstance(v.slice, ast.Slice) \
                and v.slice.lower is None and v.slice.upper is None:
            return "state"
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) \
                and v.func.id in ("bytes", "STORE"):
            return "child"
        if isinstance(v, ast.List):
            return "ends" if f.returns == "ends" and not v.elts else "ran"
        if isinstance(v, ast.ListComp):
            return "seats"
        return "int"

    @staticmethod
    def _is_draw(node: ast.For) -> bool:
        return isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name) \
            and node.iter.func.id == "DRAW"

    # ------------------------------------------------------------ statements

    def _block(self, f: _Fn, body: list[ast.stmt], out: list[str], depth: int) -> None:
        i = 0
        while i < len(body):
            st = body[i]
            if self._is_append(st, "out") and f.kinds.get("out") == "out":
                out.extend(self._edge(f, body[i:i + 4], depth))
                i += 4
                continue
            self._stmt(f, st, out, depth)
            i += 1

    @staticmethod
    def _is_append(st: ast.stmt, who: str) -> bool:
        return isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) \
            and isinstance(st.value.func, ast.Attribute) \
            and isinstance(st.value.func.value, ast.Name) \
            and st.value.func.value.id == who and st.value.func.attr == "append"

    def _stmt(self, f: _Fn, st: ast.stmt, out: list[str], depth: int) -> None:
        pad = "    " * depth
        if isinstance(st, ast.Pass):
            return
        if isinstance(st, ast.If):
            out.append(f"{pad}if ({self._cond(f, st.test)}) {{")
            self._block(f, st.body, out, depth + 1)
            if st.orelse:
                out.append(f"{pad}}} else {{")
                self._block(f, st.orelse, out, depth + 1)
            out.append(f"{pad}}}")
            return
        if isinstance(st, ast.For):
            self._for(f, st, out, depth)
            return
        if isinstance(st, ast.While) and not st.orelse:
            out.append(f"{pad}while ({self._cond(f, st.test)}) {{")
            self._block(f, st.body, out, depth + 1)
            out.append(f"{pad}}}")
            return
        if isinstance(st, ast.Break):
            out.append(f"{pad}break;")
            return
        if isinstance(st, ast.Return):
            self._return(f, st, out, pad)
            return
        if isinstance(st, ast.AnnAssign):
            if st.value is not None:
                self._assign(f, st.target, st.value, out, pad, st)
            return
        if isinstance(st, ast.Assign):
            if len(st.targets) != 1:
                raise _fail(st, "a chained assignment")
            self._assign(f, st.targets[0], st.value, out, pad, st)
            return
        if isinstance(st, ast.AugAssign):
            self._augassign(f, st, out, pad)
            return
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            self._call_stmt(f, st.value, out, pad)
            return
        raise _fail(st, "a statement C cannot read")

    def _return(self, f: _Fn, st: ast.Return, out: list[str], pad: str) -> None:
        v = st.value
        if f.returns == "int" and isinstance(v, ast.Constant) and isinstance(v.value, bool):
            out.append(f"{pad}return {int(v.value)};")
        elif f.returns == "int" and v is not None:
            out.append(f"{pad}return {self._int(f, v)};")
        elif (f.returns == "ends" and isinstance(v, ast.Call)) \
                or (f.returns == "void" and v is None):
            out.append(f"{pad}return;")
        else:
            raise _fail(st, "a return C cannot read")

    def _assign(self, f: _Fn, target: ast.expr, value: ast.expr, out: list[str],
                pad: str, st: ast.stmt) -> None:
        if isinstance(target, ast.Tuple):
            if not isinstance(value, ast.Tuple) or len(value.elts) != len(target.elts):
                raise _fail(st, "a tuple assignment C cannot read")
            k = f.fresh()
            vals = [f"v{k}_{j} = {self._int(f, v)}" for j, v in enumerate(value.elts)]
            sets = [self._store(f, t, f"v{k}_{j}", st) for j, t in enumerate(target.elts)]
            out.append(f"{pad}{{ int {', '.join(vals)}; {' '.join(sets)} }}")
            return
        if isinstance(target, ast.Subscript):
            out.append(pad + self._store(f, target, self._int(f, value), st))
            return
        if not isinstance(target, ast.Name):
            raise _fail(st, "an assignment C cannot read")
        name, kind = target.id, f.kinds.get(target.id)
        if kind == "state":
            src = self._state_name(f, value.value if isinstance(value, ast.Subscript)
                                   else value)
            out.append(f"{pad}memcpy({name}, {src}, SW);")
        elif kind == "child" and isinstance(value, ast.Call) \
                and isinstance(value.func, ast.Name) and value.func.id == "STORE":
            if len(value.args) != 1:
                raise _fail(st, "a store C cannot read")
            out.append(f"{pad}store_({self._state_name(f, value.args[0])}, {name});")
        elif kind == "child":
            assert isinstance(value, ast.Call)
            arg = value.args[0] if len(value.args) == 1 else None
            if not (isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Slice)
                    and arg.slice.lower is None
                    and self._const(arg.slice.upper) == self.width):
                raise _fail(st, "a child other than the record's bytes")
            out.append(f"{pad}memcpy({name}, {self._state_name(f, arg.value)}, W);")
        elif kind == "ran":
            if not isinstance(value, ast.List):
                raise _fail(st, "labels other than a list")
            out.append(f"{pad}{name}.n = 0;")
            for x in value.elts:
                out.append(f"{pad}RAN_PUSH({name}, {self._label_of(x)});")
        elif kind == "seen":
            out.append(f"{pad}{name}.n = 0;")
        elif kind == "ends":
            out.append(f"{pad}{name}->n = 0;")
        elif kind == "seats":
            self._seats(f, name, value, out, pad, st)
        else:
            out.append(f"{pad}{name} = {self._int(f, value)};")

    def _seats(self, f: _Fn, name: str, value: ast.expr, out: list[str], pad: str,
               st: ast.stmt) -> None:
        """``[p for p in range(n) if cond]``: the numbers that pass, in order."""
        gen = value.generators[0] if isinstance(value, ast.ListComp) \
            and len(value.generators) == 1 else None
        if gen is None or not (isinstance(gen.target, ast.Name)
                               and isinstance(value.elt, ast.Name)  # type: ignore[attr-defined]
                               and value.elt.id == gen.target.id  # type: ignore[attr-defined]
                               and isinstance(gen.iter, ast.Call)
                               and isinstance(gen.iter.func, ast.Name)
                               and gen.iter.func.id == "range" and len(gen.iter.args) == 1):
            raise _fail(st, "a list C cannot read")
        v = gen.target.id
        test = " && ".join(self._cond(f, x) for x in gen.ifs) or "1"
        out.append(f"{pad}{name}_n = 0;")
        out.append(f"{pad}for ({v} = 0; {v} < {self._int(f, gen.iter.args[0])}; {v}++)")
        out.append(f"{pad}    if ({test}) {{ if ({name}_n < 256) {name}[{name}_n++] = {v}; "
                   "else failed_ = 1; }")

    def _store(self, f: _Fn, target: ast.expr, value: str, st: ast.stmt) -> str:
        if not isinstance(target, ast.Subscript):
            raise _fail(st, "a tuple's target other than a byte")
        return f"{self._state_name(f, target.value)}[{self._int(f, target.slice)}] = " \
            f"(uint8_t)({value});"

    def _augassign(self, f: _Fn, st: ast.AugAssign, out: list[str], pad: str) -> None:
        target, op = st.target, _BINOPS.get(type(st.op))
        if op is None:
            raise _fail(st, "an augmented operator C cannot read")
        if isinstance(target, ast.Subscript):
            where = f"{self._state_name(f, target.value)}[{self._int(f, target.slice)}]"
            out.append(f"{pad}{where} = (uint8_t)({where} {op} ({self._int(f, st.value)}));")
            return
        assert isinstance(target, ast.Name)
        kind = f.kinds[target.id]
        if kind == "int":
            out.append(f"{pad}{target.id} {op}= {self._int(f, st.value)};")
        elif kind == "ran" and op == "+" and isinstance(st.value, ast.Tuple):
            for x in st.value.elts:
                out.append(f"{pad}RAN_PUSH({target.id}, {self._label_of(x)});")
        elif kind == "ends" and op == "+" and isinstance(st.value, ast.BinOp) \
                and isinstance(st.value.op, ast.Mult) \
                and isinstance(st.value.left, ast.Tuple) and len(st.value.left.elts) == 1:
            lab = self._label_of(st.value.left.elts[0])
            times = self._int(f, st.value.right)
            out.append(f"{pad}for (int r_ = {times}; r_ > 0; r_--) "
                       f"ENDS_PUSH({target.id}, {lab});")
        elif kind == "state" and op == "+":
            self._sizes(f, target.id, st, out, pad)
        else:
            raise _fail(st, "an augmented assignment C cannot read")

    def _sizes(self, f: _Fn, name: str, st: ast.AugAssign, out: list[str], pad: str) -> None:
        """``s += bytes((size, ...))``: the hands' sizes after the record."""
        v = st.value
        if not (isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
                and v.func.id == "bytes" and len(v.args) == 1
                and isinstance(v.args[0], ast.Tuple) and len(v.args[0].elts) == self.n):
            raise _fail(st, "a record extended other than by the hands' sizes")
        for j, x in enumerate(v.args[0].elts):
            out.append(f"{pad}{name}[W + {j}] = (uint8_t)({self._int(f, x)});")

    def _call_stmt(self, f: _Fn, call: ast.Call, out: list[str], pad: str) -> None:
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.attr == "append" and len(call.args) == 1:
            who = func.value.id
            kind = f.kinds.get(who)
            if kind == "ran":
                out.append(f"{pad}RAN_PUSH({who}, {self._label_of(call.args[0])});")
                return
            if kind == "seen":
                out.append(f"{pad}seen_add(&{who}, {self._child(f, call.args[0])});")
                return
        if isinstance(func, ast.Name) and self.kinds.get(func.id) == "void":
            out.append(f"{pad}{func.id}({self._args(f, call)});")
            return
        raise _fail(call, "a call C cannot read")

    def _args(self, f: _Fn, call: ast.Call) -> str:
        assert isinstance(call.func, ast.Name)
        params = self.fns[call.func.id].args.args
        if len(params) != len(call.args) or call.keywords:
            raise _fail(call, "a call's arguments")
        got = []
        for p, a in zip(params, call.args, strict=True):
            kind = self._param_kind(p.arg)
            if kind == "state":
                got.append(self._state_name(f, a))
            elif kind == "out":
                if not (isinstance(a, ast.Name) and f.kinds.get(a.id) == "out"):
                    raise _fail(call, "an edge list other than the function's")
                got.append(a.id)
            else:
                got.append(self._int(f, a))
        return ", ".join(got)

    def _for(self, f: _Fn, st: ast.For, out: list[str], depth: int) -> None:
        pad = "    " * depth
        if st.orelse:
            raise _fail(st, "a for with an else")
        if self._is_draw(st):
            self._draw_loop(f, st, out, depth)
            return
        it = st.iter
        if isinstance(it, ast.Subscript) and isinstance(it.value, ast.Name) \
                and it.value.id.startswith("B") and isinstance(st.target, ast.Tuple):
            self._rows_loop(f, st, out, depth)
            return
        if isinstance(it, ast.Name) and f.kinds.get(it.id) == "seats" \
                and isinstance(st.target, ast.Name):
            v, k = st.target.id, f.fresh()
            out.append(f"{pad}for (int j{k} = 0; j{k} < {it.id}_n; j{k}++) {{")
            out.append(f"{pad}    {v} = {it.id}[j{k}];")
            self._block(f, st.body, out, depth + 1)
            out.append(f"{pad}}}")
            return
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) \
                and it.func.id == "range" and len(it.args) == 1 \
                and isinstance(st.target, ast.Name):
            v = st.target.id
            out.append(f"{pad}for ({v} = 0; {v} < {self._int(f, it.args[0])}; {v}++) {{")
            self._block(f, st.body, out, depth + 1)
            out.append(f"{pad}}}")
            return
        raise _fail(st, "a loop C cannot read")

    def _draw_loop(self, f: _Fn, st: ast.For, out: list[str], depth: int) -> None:
        """``for t, ran in DRAW(t, ran, p, count, keeps):`` over the draw's outcomes,
        each a record and labels of its own (the names shadowed in the loop's block)."""
        pad = "    " * depth
        call = st.iter
        assert isinstance(call, ast.Call)
        elts = st.target.elts if isinstance(st.target, ast.Tuple) else []
        names = [x.id for x in elts if isinstance(x, ast.Name)]
        if len(names) != 2 or len(call.args) != 5 or f.kinds.get(names[0]) != "state" \
                or f.kinds.get(names[1]) != "ran":
            raise _fail(st, "a draw's loop C cannot read")
        s, ran, p, count, keeps = call.args
        if not (isinstance(ran, ast.Name) and f.kinds.get(ran.id) == "ran"):
            raise _fail(st, "a draw's labels")
        k = f.fresh()
        out.append(f"{pad}{{ Outs o{k} = {{0, 0, NULL, NULL}};")
        out.append(f"{pad}draw({self._state_name(f, s)}, &{ran.id}, {self._int(f, p)}, "
                   f"{self._int(f, count)}, {self._cond(f, keeps)}, &o{k});")
        out.append(f"{pad}for (int j{k} = 0; j{k} < o{k}.n; j{k}++) {{")
        out.append(f"{pad}    uint8_t *{names[0]} = o{k}.st + (size_t)j{k} * (SW + 8);")
        out.append(f"{pad}    Ran {names[1]} = o{k}.ran[j{k}];")
        self._block(f, st.body, out, depth + 1)
        out.append(f"{pad}}}")
        out.append(f"{pad}free(o{k}.st); free(o{k}.ran); }}")

    def _rows_loop(self, f: _Fn, st: ast.For, out: list[str], depth: int) -> None:
        """``for at, may in B[key]:`` with the rows folded: one case per key."""
        pad = "    " * depth
        it = st.iter
        assert isinstance(it, ast.Subscript) and isinstance(it.value, ast.Name)
        rows = self.values.get(it.value.id)
        target = st.target
        assert isinstance(target, ast.Tuple)
        names = [x.id for x in target.elts if isinstance(x, ast.Name)]
        if not isinstance(rows, dict) or len(names) != 2:
            raise _fail(st, "rows C cannot read")
        out.append(f"{pad}switch ({self._int(f, it.slice)}) {{")
        for key, row in sorted(rows.items()):
            out.append(f"{pad}case {int(key)}:")
            for cells in row:
                a, b = (int(x) for x in cells)
                out.append(f"{pad}    {names[0]} = {a}; {names[1]} = {b};")
                self._block(f, st.body, out, depth + 1)
            out.append(f"{pad}    break;")
        out.append(f"{pad}default: break;")
        out.append(f"{pad}}}")

    def _edge(self, f: _Fn, sts: list[ast.stmt], depth: int) -> list[str]:
        """The four appends of one edge: child, action number, labels, ends."""
        pad = "    " * depth
        if len(sts) != 4 or not all(self._is_append(x, "out") for x in sts):
            raise _fail(sts[0], "an edge other than four appends")
        child, number, labels, ends = (x.value.args[0] for x in sts)  # type: ignore[attr-defined]
        k = f.fresh()
        lines = [f"{pad}{{ Ran l{k}; l{k}.n = 0;"]
        if isinstance(labels, ast.Call) and isinstance(labels.func, ast.Name) \
                and labels.func.id == "tuple" and len(labels.args) == 1:
            labels = ast.Tuple(elts=[ast.Starred(value=labels.args[0])])
        if isinstance(labels, ast.Name):
            for lab in self.label_tuple(labels.id):
                lines.append(f"{pad}  RAN_PUSH(l{k}, {lab});")
        elif isinstance(labels, ast.Tuple):
            for x in labels.elts:
                if isinstance(x, ast.Starred):
                    if not (isinstance(x.value, ast.Name)
                            and f.kinds.get(x.value.id) == "ran"):
                        raise _fail(sts[2], "labels C cannot read")
                    lines.append(f"{pad}  RAN_CAT(l{k}, {x.value.id});")
                else:
                    lines.append(f"{pad}  RAN_PUSH(l{k}, {self._label_of(x)});")
        else:
            raise _fail(sts[2], "labels C cannot read")
        lines.append(f"{pad}  Ends e{k}; e{k}.n = 0;")
        when = "1"
        if isinstance(ends, ast.IfExp) and isinstance(ends.orelse, ast.Tuple) \
                and not ends.orelse.elts:  # the round's ends where the child is over
            when, ends = self._cond(f, ends.test), ends.body
        if isinstance(ends, ast.Call) and isinstance(ends.func, ast.Name) \
                and self.kinds.get(ends.func.id) == "ends":
            lines.append(f"{pad}  if ({when}) {ends.func.id}({self._args(f, ends)}, &e{k});")
        elif not (isinstance(ends, ast.Tuple) and not ends.elts):
            raise _fail(sts[3], "ends C cannot read")
        lines.append(f"{pad}  edge(out, {self._child(f, child)}, {self._int(f, number)}, "
                     f"&l{k}, &e{k}); }}")
        return lines

    # ------------------------------------------------------------ expressions

    def _label_of(self, x: ast.expr) -> int:
        if isinstance(x, ast.Name) and x.id.startswith("L"):
            return self.label(x.id)
        raise _fail(x, "a label C cannot read")

    def _child(self, f: _Fn, x: ast.expr) -> str:
        if isinstance(x, ast.Name) and f.kinds.get(x.id) == "child":
            return x.id
        raise _fail(x, "a child C cannot read")

    def _state_name(self, f: _Fn, x: ast.expr) -> str:
        if isinstance(x, ast.Name) and f.kinds.get(x.id) == "state":
            return x.id
        raise _fail(x, "a record C cannot read")

    @staticmethod
    def _const(x: ast.expr | None) -> int | None:
        if isinstance(x, ast.Constant) and isinstance(x.value, int):
            return int(x.value)
        return None

    def _cond(self, f: _Fn, x: ast.expr) -> str:
        """``x`` as a condition: ``and`` and ``or`` are C's (their values are not)."""
        if isinstance(x, ast.BoolOp):
            op = " && " if isinstance(x.op, ast.And) else " || "
            return "(" + op.join(self._cond(f, v) for v in x.values) + ")"
        if isinstance(x, ast.UnaryOp) and isinstance(x.op, ast.Not):
            return f"(!{self._cond(f, x.operand)})"
        if isinstance(x, ast.Compare) and len(x.ops) == 1 and isinstance(x.ops[0], ast.NotIn):
            right = x.comparators[0]
            if isinstance(right, ast.Name) and f.kinds.get(right.id) == "seen":
                return f"(!seen_has(&{right.id}, {self._child(f, x.left)}))"
            raise _fail(x, "a membership C cannot read")
        return f"({self._int(f, x)})"

    def _int(self, f: _Fn, x: ast.expr) -> str:
        if isinstance(x, ast.Constant) and isinstance(x.value, bool | int):
            return str(int(x.value))
        if isinstance(x, ast.Name):
            if f.kinds.get(x.id) == "int":
                return x.id
            if x.id == "NONE":
                return str(NONE)
            raise _fail(x, "a name C cannot read as a number")
        if isinstance(x, ast.Subscript):
            if isinstance(x.value, ast.Name) and x.value.id.startswith("M") \
                    and isinstance(self.values.get(x.value.id), dict):
                return f"{x.value.id}[({self._int(f, x.slice)}) & 0xFFFF]"
            row = self.values.get(x.value.id) if isinstance(x.value, ast.Name) else None
            if isinstance(x.value, ast.Name) and f.kinds.get(x.value.id) is None \
                    and _is_row(row):
                # a row of the table by a number (TWO-1's per players left); past its
                # end reads 0, where Python would raise (no record reaches it)
                assert isinstance(row, list | tuple)
                return f"ROW({x.value.id}, {len(row)}, {self._int(f, x.slice)})"
            return f"(int){self._state_name(f, x.value)}[{self._int(f, x.slice)}]"
        if isinstance(x, ast.BinOp) and isinstance(x.op, ast.Mod):
            # Python's remainder takes the divisor's sign (a seat counted backwards)
            return f"pymod({self._int(f, x.left)}, {self._int(f, x.right)})"
        if isinstance(x, ast.BinOp):
            op = _BINOPS.get(type(x.op))
            if op is None:
                raise _fail(x, "an operator C cannot read")
            return f"({self._int(f, x.left)} {op} {self._int(f, x.right)})"
        if isinstance(x, ast.UnaryOp):
            if isinstance(x.op, ast.Not):
                return f"(!{self._cond(f, x.operand)})"
            if isinstance(x.op, ast.USub):
                return f"(-{self._int(f, x.operand)})"
        if isinstance(x, ast.Compare):
            parts = []
            left = x.left
            for cmp, right in zip(x.ops, x.comparators, strict=True):
                sym = _CMPOPS.get(type(cmp))
                if sym is None:
                    raise _fail(x, "a comparison C cannot read")
                parts.append(f"{self._int(f, left)} {sym} {self._int(f, right)}")
                left = right
            return "(" + " && ".join(parts) + ")"
        if isinstance(x, ast.IfExp):
            return f"({self._cond(f, x.test)} ? {self._int(f, x.body)} : " \
                   f"{self._int(f, x.orelse)})"
        if isinstance(x, ast.BoolOp):
            raise _fail(x, "and/or as a value")
        if isinstance(x, ast.Call) and isinstance(x.func, ast.Name):
            return self._int_call(f, x)
        raise _fail(x, "an expression C cannot read")

    def _int_call(self, f: _Fn, x: ast.Call) -> str:
        assert isinstance(x.func, ast.Name)
        name = x.func.id
        if name == "sum" and len(x.args) == 1 and isinstance(x.args[0], ast.Subscript) \
                and isinstance(x.args[0].slice, ast.Slice):
            sl = x.args[0].slice
            lo, hi = self._const(sl.lower), self._const(sl.upper)
            if lo is None or hi is None or sl.step is not None:
                raise _fail(x, "a sum over a slice C cannot read")
            rec = self._state_name(f, x.args[0].value)
            return "(" + " + ".join(f"{rec}[{j}]" for j in range(lo, hi)) + ")" \
                if hi > lo else "0"
        if self.kinds.get(name) == "int":
            return f"{name}({self._args(f, x)})"
        raise _fail(x, "a call C cannot read")

    # ------------------------------------------------------------ written by hand

    def _pile(self) -> str:
        """``PILE``: read from the source (one number per face)."""
        fn = self.fns.get("PILE")
        if fn is None:
            raise Untranslatable("the module has no PILE")
        ret = fn.body[-1]
        if not (isinstance(ret, ast.Return) and isinstance(ret.value, ast.List)
                and len(ret.value.elts) == self.draw.nf):
            raise _fail(fn, "a pile C cannot read")
        f = _Fn("PILE")
        f.kinds["t"] = "state"
        cells = [f"    pile[{j}] = {self._int(f, x)};" for j, x in enumerate(ret.value.elts)]
        return "static void PILE(const uint8_t *t, int *pile) {\n" + "\n".join(cells) + "\n}\n"

    def _store_c(self) -> str:
        """``GeneratedSuccessor._store`` (``STORE``: the child of a record whose phase
        is known only at run time), by hand: the phase's unread fields cleared, then the
        record's bytes."""
        reads = ", ".join(str(int(x)) for x in _READS_DRAWN)
        return (f"static const uint8_t reads_drawn_[] = {{{reads}}};\n"
                "static void store_(uint8_t *t, uint8_t *c) {\n"
                f"    int phase = t[{PH}];\n"
                f"    if (!reads_drawn_[phase]) t[{DRAWN_AT}] = {NONE};\n"
                f"    if (phase != {PHASES.index(RESPOND)}) {{ t[{PENDING}] = 0; "
                f"t[{WD4}] = 0; t[{KIND}] = {NONE}; t[{OFFENDER}] = {NONE}; "
                f"t[{PREV}] = {NONE}; }}\n"
                f"    if (phase != {PHASES.index(OVER)}) {{ t[{WINNER}] = {NONE}; t[12] = 0; "
                "t[13] = 0; }\n"
                "    memcpy(c, t, W);\n}\n")

    def _draw_c(self) -> str:
        d = self.draw
        back = "" if d.keep_top else (
            f"    if (s[{TOP}] != {NONE}) {{ pile[s[{TOP}]] += 1; s[{TOP}] = {NONE}; }}\n")
        return _DRAW_C.format(base=d.base, nf=d.nf, window=UNO_WINDOW, none=NONE,
                              drawn=DRAWN_AT, disc=d.disc, top_back=back,
                              short=self.label(d.short), reshuffled=self.label(d.reshuffled))

    def _expand(self) -> str:
        lines = ["static Py_ssize_t expand_(const uint8_t *recs, Py_ssize_t count, "
                 "Py_ssize_t i, Out *out) {",
                 "    uint8_t s[SW + 8];",
                 "    while (i < count) {",
                 "        const uint8_t *row = recs + (size_t)i * W;",
                 f"        int ph = row[{PH}];",
                 f"        if (ph == {OVER_CODE}) {{ PUT(out->counts, int32_t, 0); i++; "
                 "continue; }",
                 f"        int rest = row[{TURN}] << 16 | row[{UNO_WINDOW}] << 8 | "
                 f"row[{OFFENDER}];",
                 "        Py_ssize_t before = out->edges;",
                 "        memcpy(s, row, W);",
                 "        switch (ph) {"]
        for phase in sorted({k[0] for k in self.keys if k[0] != OVER_CODE}):
            lines.append(f"        case {phase}: switch (rest) {{")
            for key in sorted(k for k in self.keys if k[0] == phase):
                _, turn, window, offender = key
                name = "K_" + "_".join(map(str, key))
                lines.append(f"            case {turn << 16 | window << 8 | offender}: "
                             f"{name}(s, out); break;")
            lines.append("            default: return i;")
            lines.append("            } break;")
        lines += ["        default: return i;",
                  "        }",
                  "        if (failed_) return -1;",
                  "        PUT(out->counts, int32_t, (int32_t)(out->edges - before));",
                  "        i++;",
                  "    }",
                  "    return i;",
                  "}"]
        return "\n".join(lines) + "\n"


def _is_row(value: Any) -> bool:
    """A list of numbers (or booleans) the source indexes by a number."""
    return isinstance(value, list | tuple) and bool(value) \
        and all(isinstance(v, bool | int) for v in value)


def signature() -> str:
    """What a C module's text depends on besides the Python source: this module's text,
    and its templates and operators as they are now (a test's plant changes them)."""
    ops = sorted((k.__name__, v) for k, v in (*_BINOPS.items(), *_CMPOPS.items()))
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(repr((_PRELUDE, _DRAW_C, _ENTRY, ops)).encode())
    return digest.hexdigest()


def module_init(name: str) -> str:
    """The C module's definition and ``PyInit_`` function, for its file's name."""
    return (f"static struct PyModuleDef def_ = {{PyModuleDef_HEAD_INIT, \"{name}\", NULL, "
            f"-1, methods_}};\nPyMODINIT_FUNC PyInit_{name}(void) {{ "
            "return PyModule_Create(&def_); }\n")


_PRELUDE = """\
/* unoformal: a packed successor, translated to C from the source generated from a rule
   table (unoformal/verification/packed/ctrans.py). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#define W {w}
#define SW {sw}
#define MAX_RAN {max_ran}
#define MAX_ENDS {max_ends}
typedef struct {{ int n; uint16_t id[MAX_RAN]; }} Ran;
typedef struct {{ int n; uint16_t id[MAX_ENDS]; }} Ends;
typedef struct {{ char *p; size_t n, cap; }} Buf;
typedef struct {{
    Buf children, numbers, lab_ids, lab_lens, end_ids, end_lens, counts;
    Py_ssize_t edges;
}} Out;
typedef struct {{ int n, cap; uint8_t *at; }} Seen;
typedef struct {{ int n, cap; uint8_t *st; Ran *ran; }} Outs;
static int failed_ = 0;  /* a list past its bound, or no memory: the call raises */
static void put(Buf *b, const void *x, size_t k) {{
    if (b->n + k > b->cap) {{
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + k) cap *= 2;
        char *p = realloc(b->p, cap);
        if (p == NULL) {{ failed_ = 1; return; }}
        b->p = p; b->cap = cap;
    }}
    memcpy(b->p + b->n, x, k);
    b->n += k;
}}
#define PUT(buf, type, v) do {{ type v_ = (v); put(&(buf), &v_, sizeof v_); }} while (0)
#define RAN_PUSH(r, x) do {{ if ((r).n < MAX_RAN) (r).id[(r).n++] = (uint16_t)(x); \\
    else failed_ = 1; }} while (0)
#define RAN_CAT(r, o) do {{ for (int q_ = 0; q_ < (o).n; q_++) RAN_PUSH(r, (o).id[q_]); \\
    }} while (0)
#define ENDS_PUSH(e, x) do {{ if ((e)->n < MAX_ENDS) (e)->id[(e)->n++] = (uint16_t)(x); \\
    else failed_ = 1; }} while (0)
#define ROW(row, len, i) ((unsigned)(i) < (unsigned)(len) ? (row)[(i)] : 0)
static int pymod(int a, int b) {{
    int r = a % b;
    return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
}}
static void seen_add(Seen *s, const uint8_t *c) {{
    if (s->n == s->cap) {{
        int cap = s->cap ? s->cap * 2 : 16;
        uint8_t *p = realloc(s->at, (size_t)cap * W);
        if (p == NULL) {{ failed_ = 1; return; }}
        s->at = p; s->cap = cap;
    }}
    memcpy(s->at + (size_t)s->n * W, c, W);
    s->n++;
}}
static int seen_has(const Seen *s, const uint8_t *c) {{
    for (int j = 0; j < s->n; j++)
        if (memcmp(s->at + (size_t)j * W, c, W) == 0) return 1;
    return 0;
}}
static void outs_add(Outs *o, const uint8_t *s, const Ran *ran) {{
    if (o->n == o->cap) {{
        int cap = o->cap ? o->cap * 2 : 8;
        uint8_t *st = realloc(o->st, (size_t)cap * (SW + 8));
        if (st == NULL) {{ failed_ = 1; return; }}
        o->st = st;
        Ran *r = realloc(o->ran, (size_t)cap * sizeof(Ran));
        if (r == NULL) {{ failed_ = 1; return; }}
        o->ran = r; o->cap = cap;
    }}
    memcpy(o->st + (size_t)o->n * (SW + 8), s, SW);
    o->ran[o->n] = *ran;
    o->n++;
}}
static void edge(Out *out, const uint8_t *c, int number, const Ran *lab, const Ends *e) {{
    put(&out->children, c, W);
    PUT(out->numbers, int32_t, number);
    put(&out->lab_ids, lab->id, sizeof(uint16_t) * (size_t)lab->n);
    PUT(out->lab_lens, uint8_t, (uint8_t)lab->n);
    put(&out->end_ids, e->id, sizeof(uint16_t) * (size_t)e->n);
    PUT(out->end_lens, uint16_t, (uint16_t)e->n);
    out->edges++;
}}
"""

# ``_DRAW`` (generated.py), by hand: the same outcomes in the same order
_DRAW_C = """\
static void drawn(uint8_t *s, Ran *ran, int p, int count, int taken, int last, int keeps,
                  Outs *o) {{
    if (taken && s[{window}] == p) s[{window}] = {none};
    if (taken < count) RAN_PUSH(*ran, {short});
    if (keeps) s[{drawn}] = (uint8_t)(taken ? last : {none});
    outs_add(o, s, ran);
}}
typedef struct {{ const uint8_t *s; const Ran *ran; int at, size, left, closes, keeps;
                 Outs *o; int faces[256]; }} Ms;
static void multisets(Ms *m, int *pile, int k, int lo, int depth) {{
    if (k == 0) {{
        uint8_t s2[SW + 8];
        memcpy(s2, m->s, SW);
        for (int j = 0; j < depth; j++) s2[m->at + m->faces[j]] += 1;
        s2[m->size] = (uint8_t)(s2[m->size] + m->left);
        if (m->closes) s2[{window}] = {none};
        if (m->keeps) s2[{drawn}] = (uint8_t)m->faces[depth - 1];
        outs_add(m->o, s2, m->ran);
        return;
    }}
    if (depth >= 256) {{ failed_ = 1; return; }}
    for (int f = lo; f < {nf}; f++) {{
        if (pile[f]) {{
            pile[f] -= 1;
            m->faces[depth] = f;
            multisets(m, pile, k - 1, f, depth + 1);
            pile[f] += 1;
        }}
    }}
}}
static void from_pile(uint8_t *s, Ran *ran, int p, int left, int keeps, int *pile,
                      Outs *o) {{
    int at = {base} + p * {nf};
    int size = W + p;
    int closes = s[{window}] == p;
    if (left == 1) {{
        uint8_t s2[SW + 8];
        for (int f = 0; f < {nf}; f++) {{
            if (pile[f]) {{
                memcpy(s2, s, SW);
                s2[at + f] += 1;
                s2[size] += 1;
                if (closes) s2[{window}] = {none};
                if (keeps) s2[{drawn}] = (uint8_t)f;
                outs_add(o, s2, ran);
            }}
        }}
        return;
    }}
    Ms m = {{s, ran, at, size, left, closes, keeps, o, {{0}}}};
    multisets(&m, pile, left, 0, 0);
}}
static int any_(const int *pile) {{
    for (int f = 0; f < {nf}; f++) if (pile[f]) return 1;
    return 0;
}}
static int sum_(const int *pile) {{
    int total = 0;
    for (int f = 0; f < {nf}; f++) total += pile[f];
    return total;
}}
static void reshuffle(uint8_t *s, Ran *ran, int *pile) {{
    for (int f = 0; f < {nf}; f++) {{
        pile[f] += s[{disc} + f];
        s[{disc} + f] = 0;
    }}
{top_back}    RAN_PUSH(*ran, {reshuffled});
}}
static void draw(uint8_t *s, Ran *ran, int p, int count, int keeps, Outs *o) {{
    if (!count) {{ drawn(s, ran, p, 0, 0, -1, keeps, o); return; }}
    int pile[{nf}];
    PILE(s, pile);
    if (count < sum_(pile)) {{ from_pile(s, ran, p, count, keeps, pile, o); return; }}
    int at = {base} + p * {nf};
    int left = count, last = -1;
    for (;;) {{
        if (left && !any_(pile)) {{
            reshuffle(s, ran, pile);
            if (!any_(pile)) {{ drawn(s, ran, p, count, count - left, last, keeps, o); return; }}
        }}
        int size = sum_(pile);
        if (left >= size && size > 0) {{
            for (int f = 0; f < {nf}; f++) {{
                int k = pile[f];
                if (k) {{ s[at + f] += k; last = f; }}
            }}
            s[W + p] += size;
            left -= size;
            for (int f = 0; f < {nf}; f++) pile[f] = 0;
            continue;
        }}
        if (!left) {{ drawn(s, ran, p, count, count, last, keeps, o); return; }}
        from_pile(s, ran, p, left, keeps, pile, o);
        return;
    }}
}}
"""

_ENTRY = """\
static int append_(PyObject *to, const Buf *b) {
    Py_ssize_t n = PyByteArray_GET_SIZE(to);
    if (b->n == 0) return 0;
    if (PyByteArray_Resize(to, n + (Py_ssize_t)b->n) < 0) return -1;
    memcpy(PyByteArray_AS_STRING(to) + n, b->p, b->n);
    return 0;
}
static PyObject *expand(PyObject *self, PyObject *args) {
    Py_buffer recs;
    Py_ssize_t count, i;
    PyObject *to[7];
    if (!PyArg_ParseTuple(args, "y*nnO!O!O!O!O!O!O!", &recs, &count, &i,
                          &PyByteArray_Type, &to[0], &PyByteArray_Type, &to[1],
                          &PyByteArray_Type, &to[2], &PyByteArray_Type, &to[3],
                          &PyByteArray_Type, &to[4], &PyByteArray_Type, &to[5],
                          &PyByteArray_Type, &to[6]))
        return NULL;
    if (recs.len < count * W) {
        PyBuffer_Release(&recs);
        PyErr_SetString(PyExc_ValueError, "fewer records than count");
        return NULL;
    }
    Out out;
    memset(&out, 0, sizeof out);
    failed_ = 0;
    /* the GIL held: failed_ is the module's own */
    Py_ssize_t got = expand_((const uint8_t *)recs.buf, count, i, &out);
    PyBuffer_Release(&recs);
    Buf *bufs[7] = {&out.children, &out.numbers, &out.lab_ids, &out.lab_lens,
                    &out.end_ids, &out.end_lens, &out.counts};
    int bad = failed_ || got < 0;
    for (int j = 0; j < 7 && !bad; j++) bad = append_(to[j], bufs[j]) < 0;
    for (int j = 0; j < 7; j++) free(bufs[j]->p);
    if (bad) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_MemoryError, "a label list past its bound, or no memory");
        return NULL;
    }
    return PyLong_FromSsize_t(got);
}
static PyMethodDef methods_[] = {
    {"expand", expand, METH_VARARGS, "a chunk's records expanded onto seven bytearrays"},
    {"labels", labels, METH_NOARGS, "the labels by number, as JSON"},
    {NULL, NULL, 0, NULL}
};
"""
