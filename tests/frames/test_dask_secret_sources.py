"""A connection whose secrets came from the kernel's environment in any field (``${VAR}`` of a
config file in args, env and headers; ``--env NAME``; a well-known token format) is sent to Dask
workers without a secret value: the pickled bytes and the task graph are searched for each, and a
real map on a LocalCluster with two worker processes shows each worker read them by name from its
own environment. A secret no variable holds is refused in one line that says how."""

from __future__ import annotations

import json
import pickle
import sys
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest

from anvia_nb.core.api.portable import portable
from anvia_nb.errors import SecretNotPortableError
from anvia_nb.magic.commands.config_files import servers_from_config_text
from anvia_nb.runtime import Runtime
from tests.helpers.dask_cluster import local_cluster
from tests.helpers.support import DEMO_ARGS

ARG_SECRET = "argsecret-0d9c8b7a6f5e"
ENV_SECRET = "envsecret-1a2b3c4d5e6f"
HEADER_SECRET = "teamsecret-9e8d7c6b5a40"
AWS_KEY = "AKIAQWERTYUIOPASDFGH"
WORKER_ENV = {"ANVIA_T_ARG": ARG_SECRET, "ANVIA_T_ENV": ENV_SECRET, "ANVIA_T_AWS": AWS_KEY}
SECRETS = (ARG_SECRET, ENV_SECRET, HEADER_SECRET, AWS_KEY)


def _config(url: str = "http://127.0.0.1:9/mcp") -> str:
    return json.dumps(
        {
            "mcpServers": {
                "demo": {
                    "command": sys.executable,
                    "args": ["-X", "anvia_note=${ANVIA_T_ARG}", *DEMO_ARGS],
                    "env": {"SERVER_SIDE": "${env:ANVIA_T_ENV}", "CLOUD_ID": "${ANVIA_T_AWS}"},
                },
                "web": {"url": url, "headers": {"X-Team": "${ANVIA_T_TEAM}", "Accept": "application/json"}},
            }
        }
    )


def _found(data: bytes) -> list[str]:
    return [secret for secret in SECRETS if secret.encode() in data]


def test_secrets_from_any_field_travel_as_names_and_come_back_from_the_receiving_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    environ = {**WORKER_ENV, "ANVIA_T_TEAM": HEADER_SECRET}
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    found = servers_from_config_text(_config(), environ=environ)
    for connection in found.connections.values():
        pickled = pickle.dumps(connection)
        assert not _found(pickled), connection.name
        assert pickle.loads(pickled) == connection  # read back here, by name
    stdio = found.connections["demo"]
    description = portable(stdio)
    assert set(description.env_from_process) == {"ANVIA_T_ARG", "ANVIA_T_ENV", "ANVIA_T_AWS"}
    elsewhere = {**WORKER_ENV, "ANVIA_T_ARG": "another-value-of-the-worker"}
    again = description.connection(elsewhere)
    assert "anvia_note=another-value-of-the-worker" in again.args  # type: ignore[attr-defined]
    assert dict(again.from_environ)["ANVIA_T_ARG"] == "another-value-of-the-worker"


def test_a_secret_typed_under_a_plain_name_is_refused_in_one_line_saying_how(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLOUD_ID", raising=False)
    from anvia_nb import mcp

    typed = mcp.stdio(name="typed", command="server", env={"CLOUD_ID": AWS_KEY})  # a format, a plain name
    with pytest.raises(SecretNotPortableError) as refused:
        pickle.dumps(typed)
    message = str(refused.value)
    assert "\n" not in message and AWS_KEY not in message
    assert "its env CLOUD_ID (a credential by its format) holds a secret" in message
    assert "--secret-env NAME or $NAME" in message
    with pytest.raises(SecretNotPortableError, match="argument 1 .a credential by its format."):
        pickle.dumps(mcp.stdio(name="typed", command="server", args=["--id", AWS_KEY]))


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    import distributed

    cluster = local_cluster(distributed, WORKER_ENV)
    try:
        with distributed.Client(cluster) as dask_client:
            yield dask_client
    finally:
        cluster.close()


@pytest.mark.slow  # a two-process Dask cluster
def test_a_map_on_worker_processes_reads_every_secret_from_their_environment(
    runtime: Runtime, client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cloudpickle  # Dask's own serializer
    import dask.dataframe as dd

    for name, value in WORKER_ENV.items():
        monkeypatch.setenv(name, value)
    connection = servers_from_config_text(_config(), names=("demo",), environ=WORKER_ENV).connections["demo"]
    server = runtime.connect(connection).server
    frame = pd.DataFrame({"name": ["SERVER_SIDE", "CLOUD_ID"] * 2})
    result: Any = server.tool("env_value").map_sync(dd.from_pandas(frame, npartitions=2))
    graph = cloudpickle.dumps(dict(result.__dask_graph__()))  # everything the workers are sent
    assert not _found(graph)
    computed = result.compute()
    assert list(computed["output"]) == [ENV_SECRET, AWS_KEY] * 2  # each worker read them by name
