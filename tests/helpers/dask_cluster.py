"""A Dask LocalCluster of two worker processes with every server on 127.0.0.1.

distributed starts an HTTP server in the scheduler and in each worker even with no dashboard: with
``dashboard_address=None`` the scheduler's takes port 8787 on every interface (and warns when 8787
is taken, as when two test files run clusters at once), and each worker's a free port, also on
every interface. Here both are on the loopback, on free ports."""

from __future__ import annotations

from typing import Any

LOOPBACK = "127.0.0.1:0"


def local_cluster(distributed: Any, env: dict[str, str]) -> Any:
    """``distributed.LocalCluster`` with two single-threaded worker processes, ``env`` in theirs."""
    return distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=LOOPBACK,
        worker_dashboard_address=LOOPBACK,
        env=env,
    )
