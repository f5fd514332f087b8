"""tool.map over a Dask DataFrame on a LocalCluster with two worker processes: each partition is
mapped on a worker that opens its own connection, and no secret value is in what is sent to them.

The cluster test is slow (left out of the quick set): the cluster is started only when it runs."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest

from anvia_nb import mcp
from anvia_nb.errors import SecretNotPortableError
from anvia_nb.runtime import Runtime
from tests.helpers.dask_cluster import local_cluster
from tests.helpers.support import DEMO_ARGS

SECRET = "dask-secret-7c1f0e93b2a4"


@pytest.fixture(scope="module")
def dd() -> Any:
    """``dask.dataframe``, imported when a test needs it: 1.5 s of CPU in every pytest process that
    merely collects this file otherwise."""
    import dask.dataframe  # the dask extra, in the test extra

    return dask.dataframe


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    import distributed  # imported here: seconds, for the cluster test only

    cluster = local_cluster(distributed, {"ANVIA_TEST_TOKEN": SECRET})
    try:
        with distributed.Client(cluster) as dask_client:
            yield dask_client
    finally:
        cluster.close()


@pytest.mark.slow  # a two-process Dask cluster: seconds to start its workers and to stop them
def test_each_partition_is_mapped_on_a_worker_without_the_secret_being_sent(
    runtime: Runtime, client: Any, dd: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANVIA_TEST_TOKEN", SECRET)
    connection = mcp.stdio(
        name="demo",
        command=sys.executable,
        args=DEMO_ARGS,
        env={"ANVIA_TEST_TOKEN": SECRET},
        secret_env=["ANVIA_TEST_TOKEN"],
    )
    server = runtime.connect(connection).server
    frame = pd.DataFrame({"name": ["ANVIA_TEST_TOKEN", "NOT_SET_ANYWHERE"] * 3, "row": range(6)})
    ddf = dd.from_pandas(frame, npartitions=2)
    result = server.tool("env_value").map_sync(ddf)
    assert isinstance(result, dd.DataFrame)
    import cloudpickle  # Dask's own serializer

    graph = cloudpickle.dumps(dict(result.__dask_graph__()))  # everything the workers are sent
    assert SECRET.encode() not in graph
    computed = result.compute()
    assert list(computed.index) == list(frame.index)
    assert list(computed["row"]) == list(range(6))
    assert list(computed["status"]) == ["ok", "tool error"] * 3  # a failing row fails alone
    assert list(computed["output"][::2]) == [SECRET] * 3  # each worker read it from its own environment
    # No outputSchema: the structured content is one column (a Dask frame's columns are known up front).
    assert list(computed.columns) == ["name", "row", "status", "error", "seconds", "output", "structured"]
    workers = client.run(lambda: __import__("os").getpid())
    assert len(set(workers.values())) == 2


def test_a_connection_whose_secret_cannot_travel_is_refused_before_anything_runs(
    runtime: Runtime, dd: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANVIA_TEST_TOKEN", raising=False)
    connection = mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS, env={"ANVIA_TEST_TOKEN": SECRET})
    server = runtime.connect(connection).server
    ddf = dd.from_pandas(pd.DataFrame({"name": ["HOME"]}), npartitions=1)
    with pytest.raises(SecretNotPortableError, match="ANVIA_TEST_TOKEN, set in the notebook,"):
        server.tool("env_value").map_sync(ddf)
