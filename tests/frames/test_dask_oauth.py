"""``tool.map`` on a Dask LocalCluster with two worker processes, over a connection that uses OAuth
client credentials, against a server that requires tokens (tests/helpers/oauth_server.py): each
worker obtains its own tokens with the secret from its own environment, asks again when the server
stops taking one mid-map (the server decides: ``uses_per_token``), and a worker without the secret
fails its partition with one line naming the variable. Nothing secret is in what is sent.

The cluster is slow to start and stop: these tests are left out of the quick set."""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from anvia_nb import mcp
from anvia_nb.errors import AuthorizationError
from anvia_nb.runtime import Runtime
from tests.helpers.dask_cluster import local_cluster
from tests.helpers.oauth_server import OAuthTestServer

pytestmark = pytest.mark.slow  # a two-process Dask cluster: seconds to start its workers and to stop them

SECRET = "svc-secret-5d2e7f19a0c4"
VARIABLE = "ANVIA_TEST_SVC_SECRET"


@pytest.fixture(scope="module")
def dd() -> Any:
    import dask.dataframe  # the dask extra, in the test extra

    return dask.dataframe


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    import distributed

    cluster = local_cluster(distributed, {VARIABLE: SECRET})
    try:
        with distributed.Client(cluster) as dask_client:
            yield dask_client
    finally:
        cluster.close()


@pytest.fixture
def service(oauth_server: OAuthTestServer) -> OAuthTestServer:
    oauth_server.secrets["svc"] = SECRET
    oauth_server.uses_per_token = 3  # a partition's connect and six calls outlive several tokens
    return oauth_server


def _tokens_in_memory() -> int:
    from anvia_nb.core.transport.oauth import tokens as oauth_tokens

    return sum(1 for data in oauth_tokens._MEMORY.values() if data.get("tokens"))


def _forget_secret() -> None:
    os.environ.pop(VARIABLE, None)


def _restore_secret() -> None:
    os.environ[VARIABLE] = SECRET


def test_each_worker_gets_its_own_tokens_and_asks_again_mid_map(
    runtime: Runtime, client: Any, dd: Any, service: OAuthTestServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(VARIABLE, SECRET)
    auth = mcp.client_credentials(client_id="svc", client_secret_env=VARIABLE, token_dir=str(tmp_path))
    server = runtime.connect(mcp.http(name="svc", url=service.url, auth=auth)).server
    kernel_tokens = [token for _, token in service.issued]
    frame = pd.DataFrame({"message": [f"row {i}" for i in range(12)]})
    result: Any = server.tool("echo").map_sync(dd.from_pandas(frame, npartitions=2), concurrency=2)
    import cloudpickle  # Dask's own serializer

    graph = cloudpickle.dumps(dict(result.__dask_graph__()))  # everything the workers are sent
    assert SECRET.encode() not in graph and not any(token.encode() in graph for token in kernel_tokens)
    before = len(service.issued)
    computed = result.compute()
    assert list(computed["status"]) == ["ok"] * 12
    assert list(computed["output"]) == list(frame["message"])
    assert SECRET not in pickle.dumps(computed).decode("latin-1")
    # Each partition's connect and calls outlived several tokens, each asked for again by the worker.
    assert len(service.issued) - before >= 2 * 2
    in_memory = client.run(_tokens_in_memory)
    assert len(in_memory) == 2 and all(count >= 1 for count in in_memory.values())  # each worker its own
    assert [p.name for p in tmp_path.iterdir()] and len(list(tmp_path.iterdir())) == 1  # only the kernel's file


def test_a_worker_without_the_secret_fails_its_partition_with_one_line_naming_it(
    runtime: Runtime, client: Any, dd: Any, service: OAuthTestServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(VARIABLE, SECRET)
    auth = mcp.client_credentials(client_id="svc", client_secret_env=VARIABLE, token_dir=str(tmp_path))
    server = runtime.connect(mcp.http(name="svc2", url=service.url, auth=auth)).server
    result: Any = server.tool("echo").map_sync(dd.from_pandas(pd.DataFrame({"message": ["a", "b"]}), npartitions=1))
    client.run(_forget_secret)
    try:
        with pytest.raises(AuthorizationError) as raised:
            result.compute()
    finally:
        client.run(_restore_secret)
    message = str(raised.value)
    assert "\n" not in message and f"environment variable {VARIABLE}" in message and SECRET not in message


def test_a_person_authorization_is_refused_before_anything_is_sent(
    runtime: Runtime, dd: Any, oauth_server: OAuthTestServer
) -> None:
    from anvia_nb.errors import SecretNotPortableError

    connection = mcp.http(name="person", url=oauth_server.url, auth=mcp.oauth(client_id="x", client_secret="abcdefgh"))
    with pytest.raises(SecretNotPortableError, match="client_credentials"):
        pickle.dumps(connection)
