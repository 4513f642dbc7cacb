"""The packed search's visited set: the C table (``HashVisited``) and the sorted arrays
(``SortedVisited``) number the same fingerprints alike, through growth, repeats within a
chunk and the fingerprint 0 (the table's free-slot mark, kept apart)."""

from __future__ import annotations

import numpy as np
import pytest

from unoformal.verification.explore import preset_config
from unoformal.verification.packed import native, visited
from unoformal.verification.packed.search import search


def _chunks(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    pool = rng.integers(1, 2**64 - 1, size=5000, dtype=np.uint64)
    pool[17] = 0  # the free-slot mark, as a fingerprint
    # each chunk draws from a growing part of the pool: repeats within it and with the
    # chunks before it
    return [pool[rng.integers(0, 600 * (i + 1), size=2500)] for i in range(8)]


def _run(seen: visited.Visited, chunks: list[np.ndarray]) -> list[tuple[list[int], list[int]]]:
    out, base = [], 0
    for fps in chunks:
        ids, firsts = seen.add(fps, base)
        base += len(firsts)
        out.append((ids.tolist(), firsts.tolist()))
    return out


@pytest.mark.skipif(native.c_missing() is not None, reason="no C build here")
@pytest.mark.parametrize("seed", [1, 2])
def test_the_table_numbers_as_the_sorted_arrays(seed: int) -> None:
    chunks = _chunks(seed)
    table = visited.visited()
    assert isinstance(table, visited.HashVisited)
    small = visited.HashVisited(table.module, capacity=16)  # grown several times
    want = _run(visited.SortedVisited(), chunks)
    assert _run(small, chunks) == want
    assert len(small.keys) > 16 and small.meta[0] == sum(len(f) for _, f in want)
    first_ids, first_new = want[0]
    # numbered in order of first occurrence: a new number is one more than the last
    assert [first_ids[j] for j in first_new] == list(range(len(first_new)))


def test_the_search_without_the_c_module_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure switch: the sorted arrays, the same graph."""
    want = search(preset_config("tiny"))
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert isinstance(visited.visited(), visited.SortedVisited)
    got = search(preset_config("tiny"))
    assert np.array_equal(got.records.read(), want.records.read())
    assert np.array_equal(got.dst.read(), want.dst.read())
    assert list(got.parent) == list(want.parent) and got.covered == want.covered
