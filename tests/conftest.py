"""Fixtures shared across the test folders."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of one local Dask cluster of two single-threaded worker processes,
    started once per test module that asks for it (a start costs seconds): the tests pass
    it as ``--scheduler`` to run a campaign on two workers. Not once per session: the
    cluster's scheduler runs on threads of this process, and one full run aborted inside
    Z3 (``Z3_solver_dec_ref`` during a garbage collection, in a later module's
    cross-check) while they were alive; Z3's Python objects are not thread-safe."""
    from unoformal.runtime import campaign

    cluster = campaign.local_cluster(2)
    try:
        yield str(cluster.scheduler_address)
    finally:
        campaign.shut_down(cluster)


COMPILED_HERE = "the explorer is compiled here; tests/test_build.py runs this on the pure source"


@pytest.fixture
def patchable_explorer() -> None:
    """For a test that plants a bug by setting a method on the explorer's game class. The
    build compiles the explorer (setup.py, unoformal/runtime/compiled.py), and a compiled class
    takes no new attribute: there the test is skipped here and run by
    ``tests/test_build.py`` on the pure source, which checks that it was not skipped."""
    from unoformal.runtime.compiled import compiled

    if "unoformal/verification/explore/chance.py" in compiled():
        pytest.skip(COMPILED_HERE)
