"""Fixtures shared across the test folders."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def scheduler() -> Iterator[str]:
    """The address of one local Dask cluster of two single-threaded worker processes,
    started once for the whole session (a start costs seconds): the tests pass it as
    ``--scheduler`` to run a campaign on two workers."""
    from unoformal import campaign

    cluster = campaign.local_cluster(2)
    try:
        yield str(cluster.scheduler_address)
    finally:
        campaign.shut_down(cluster)
