"""The packed search's visited set: 64-bit fingerprints to state numbers.

A chunk's children are looked up in order; a fingerprint not yet seen gets the next
state number, so new states are numbered in the order their first edge is found (the
explorer's numbering). Two readings of the same contract:

- :class:`HashVisited`, an open-addressing table (linear probing, at most 70 % full,
  doubled when it would be more) in a small C module built once into the generated
  modules' cache (``native``): one probe a child, in the order the children come;
- :class:`SortedVisited`, where no C module can be built: a sorted ``uint64`` array and
  the parallel state numbers, a chunk looked up with one ``searchsorted`` and its new
  fingerprints merged in (12 bytes a state, and a search per child).
"""

from __future__ import annotations

import sys
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from unoformal.verification.packed import native

U64 = npt.NDArray[np.uint64]
I32 = npt.NDArray[np.int32]
MAX_LOAD = 0.7  # a fuller table probes further on each miss


class Visited(Protocol):
    def add(self, fps: U64, base: int) -> tuple[I32, I32]:
        """Each fingerprint's state number (``base``, ``base + 1``, ... to those not yet
        seen, in the order of their first occurrence), and the indices of those first
        occurrences."""
        ...

    @property
    def nbytes(self) -> int: ...


class SortedVisited:
    """A sorted array of fingerprints and the state number of each."""

    def __init__(self) -> None:
        self.fps: U64 = np.zeros(0, dtype=np.uint64)
        self.ids: I32 = np.zeros(0, dtype=np.int32)

    @property
    def nbytes(self) -> int:
        return int(self.fps.nbytes + self.ids.nbytes)

    def add(self, fps: U64, base: int) -> tuple[I32, I32]:
        k = len(fps)
        ids = np.empty(k, dtype=np.int32)
        if len(self.fps):
            pos = np.searchsorted(self.fps, fps)
            pos_c = np.minimum(pos, len(self.fps) - 1)
            found = self.fps[pos_c] == fps
            ids[found] = self.ids[pos_c[found]]
        else:
            found = np.zeros(k, dtype=bool)
        fresh = np.nonzero(~found)[0]
        if not len(fresh):
            return ids, np.zeros(0, dtype=np.int32)
        u, first, inv = np.unique(fps[fresh], return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")  # numbered as first found
        number = np.empty(len(u), dtype=np.int32)
        number[order] = np.arange(base, base + len(u), dtype=np.int32)
        ids[fresh] = number[inv.reshape(-1)]
        at = np.searchsorted(self.fps, u)
        self.fps = np.insert(self.fps, at, u)
        self.ids = np.insert(self.ids, at, number)
        return ids, fresh[first[order]].astype(np.int32)


class HashVisited:
    """An open-addressing table of fingerprints (0 marks a free slot; the fingerprint
    0 itself is kept apart) with the state number of each, probed by the C module."""

    def __init__(self, module: Any, capacity: int = 1 << 16) -> None:
        self.module = module
        self.keys: U64 = np.zeros(capacity, dtype=np.uint64)
        self.vals: I32 = np.zeros(capacity, dtype=np.int32)
        # [fingerprints held, the number of fingerprint 0 (-1: not seen), next number]
        self.meta = np.array([0, -1, 0], dtype=np.int64)

    @property
    def nbytes(self) -> int:
        return int(self.keys.nbytes + self.vals.nbytes)

    def add(self, fps: U64, base: int) -> tuple[I32, I32]:
        k = len(fps)
        self._room(int(self.meta[0]) + k)
        self.meta[2] = base
        ids = np.empty(k, dtype=np.int32)
        firsts = np.empty(k, dtype=np.int32)
        fps = np.ascontiguousarray(fps, dtype=np.uint64)
        new = self.module.probe(self.keys, self.vals, fps, ids, firsts, self.meta)
        return ids, firsts[:new]

    def _room(self, held: int) -> None:
        capacity = len(self.keys)
        if held <= MAX_LOAD * capacity:
            return
        while held > MAX_LOAD * capacity:
            capacity *= 2
        keys = np.zeros(capacity, dtype=np.uint64)
        vals = np.zeros(capacity, dtype=np.int32)
        self.module.rehash(self.keys, self.vals, keys, vals)
        self.keys, self.vals = keys, vals


def visited() -> Visited:
    """The C table where its module builds (or is cached), else the sorted arrays."""
    built = native.load_c(native.c_name(_SOURCE), lambda: _SOURCE)
    if built.module is None:
        why = f"the visited set's C module is {built.how}; it is kept in sorted arrays"
        if native.PURE_ENV not in built.how and why not in native._said:  # asked: silent
            native._said.add(why)
            print(f"unoformal: {why}", file=sys.stderr)
        return SortedVisited()
    return HashVisited(built.module)


_SOURCE = """\
/* unoformal: the packed search's visited set (unoformal/verification/packed/visited.py) */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static PyObject *probe(PyObject *self, PyObject *args) {
    Py_buffer keys, vals, fps, ids, firsts, meta;
    if (!PyArg_ParseTuple(args, "w*w*y*w*w*w*", &keys, &vals, &fps, &ids, &firsts, &meta))
        return NULL;
    uint64_t *K = keys.buf;
    int32_t *V = vals.buf, *I = ids.buf, *FI = firsts.buf;
    const uint64_t *F = fps.buf;
    int64_t *M = meta.buf;
    size_t mask = (size_t)(keys.len / 8) - 1, n = (size_t)(fps.len / 8), fresh = 0;
    for (size_t j = 0; j < n; j++) {
        uint64_t f = F[j];
        if (f == 0) {  /* the free slot's mark: kept apart */
            if (M[1] < 0) { M[1] = M[2]++; M[0]++; FI[fresh++] = (int32_t)j; }
            I[j] = (int32_t)M[1];
            continue;
        }
        size_t h = (size_t)(f ^ (f >> 29)) & mask;
        for (;;) {
            uint64_t k = K[h];
            if (k == f) { I[j] = V[h]; break; }
            if (k == 0) {
                K[h] = f;
                V[h] = (int32_t)M[2]++;
                M[0]++;
                FI[fresh++] = (int32_t)j;
                I[j] = V[h];
                break;
            }
            h = (h + 1) & mask;
        }
    }
    PyBuffer_Release(&keys); PyBuffer_Release(&vals); PyBuffer_Release(&fps);
    PyBuffer_Release(&ids); PyBuffer_Release(&firsts); PyBuffer_Release(&meta);
    return PyLong_FromSize_t(fresh);
}

static PyObject *rehash(PyObject *self, PyObject *args) {
    Py_buffer ok, ov, nk, nv;
    if (!PyArg_ParseTuple(args, "y*y*w*w*", &ok, &ov, &nk, &nv)) return NULL;
    const uint64_t *OK = ok.buf;
    const int32_t *OV = ov.buf;
    uint64_t *NK = nk.buf;
    int32_t *NV = nv.buf;
    size_t old = (size_t)(ok.len / 8), mask = (size_t)(nk.len / 8) - 1;
    for (size_t j = 0; j < old; j++) {
        uint64_t f = OK[j];
        if (f == 0) continue;
        size_t h = (size_t)(f ^ (f >> 29)) & mask;
        while (NK[h] != 0) h = (h + 1) & mask;
        NK[h] = f;
        NV[h] = OV[j];
    }
    PyBuffer_Release(&ok); PyBuffer_Release(&ov); PyBuffer_Release(&nk); PyBuffer_Release(&nv);
    Py_RETURN_NONE;
}

static PyMethodDef methods_[] = {
    {"probe", probe, METH_VARARGS, "a chunk's fingerprints looked up, the new ones added"},
    {"rehash", rehash, METH_VARARGS, "a table moved into a larger one"},
    {NULL, NULL, 0, NULL}
};
"""
