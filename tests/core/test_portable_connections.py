"""Connections pickle without their secrets: a secret the kernel took from its environment travels
as the variable's name and is read again where it is unpickled; any other secret is refused."""

from __future__ import annotations

import pickle

import pytest

from anvia_nb import mcp
from anvia_nb.errors import InvalidValueError, SecretNotPortableError

SECRET = "tok-5f1c2e9a7b3d4c6e"


def test_a_secret_from_the_environment_travels_as_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANVIA_TEST_TOKEN", SECRET)
    connection = mcp.stdio(
        name="demo",
        command="python",
        args=["-m", "x"],
        env={"ANVIA_TEST_TOKEN": SECRET, "MODE": "plain"},
        secret_env=["ANVIA_TEST_TOKEN"],
        max_calls_in_flight=3,
    )
    pickled = pickle.dumps(connection)
    assert SECRET.encode() not in pickled
    assert b"ANVIA_TEST_TOKEN" in pickled and b"plain" in pickled
    assert pickle.loads(pickled) == connection  # read back from this process's environment
    monkeypatch.delenv("ANVIA_TEST_TOKEN")
    with pytest.raises(InvalidValueError, match="needs the environment variable ANVIA_TEST_TOKEN"):
        pickle.loads(pickled)


def test_a_secret_typed_in_the_notebook_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("API_TOKEN", raising=False)
    typed = mcp.stdio(name="demo", command="python", env={"API_TOKEN": SECRET})
    with pytest.raises(SecretNotPortableError, match="API_TOKEN, set in the notebook,") as info:
        pickle.dumps(typed)
    assert SECRET not in str(info.value)
    with pytest.raises(SecretNotPortableError, match="--token"):
        pickle.dumps(mcp.stdio(name="demo", command="server", args=[f"--token={SECRET}"]))
    monkeypatch.setenv("DATABASE_URL", f"postgres://app:{SECRET}@db/x")
    from_env = mcp.stdio(name="db", command="server", env={"DATABASE_URL": f"postgres://app:{SECRET}@db/x"})
    assert SECRET.encode() not in pickle.dumps(from_env)


def test_http_connections_travel_only_without_credentials() -> None:
    plain = mcp.http(name="web", url="http://127.0.0.1:9/mcp", headers={"Accept": "application/json"})
    assert pickle.loads(pickle.dumps(plain)) == plain
    with pytest.raises(SecretNotPortableError, match="header Authorization"):
        pickle.dumps(mcp.http(name="web", url="http://127.0.0.1:9/mcp", headers={"Authorization": f"Bearer {SECRET}"}))
    with pytest.raises(SecretNotPortableError, match="query"):
        pickle.dumps(mcp.http(name="web", url=f"http://127.0.0.1:9/mcp?key={SECRET}"))


def test_an_in_memory_connection_is_refused() -> None:
    from anvia_nb.core.api.portable import portable
    from anvia_nb.demo_server.handlers import build_server

    connection = mcp.memory(name="mem", server=build_server())
    with pytest.raises(SecretNotPortableError, match="in-memory"):
        portable(connection)  # type: ignore[arg-type]  # refused at run time too: what this test checks


def test_the_protocol_travels_with_the_connection() -> None:
    stdio = mcp.stdio(name="demo", command="python", args=["-m", "x"], protocol="2025-11-25")
    http = mcp.http(name="web", url="http://127.0.0.1:9/mcp", protocol="2026-07-28")
    for connection in (stdio, http):
        back = pickle.loads(pickle.dumps(connection))
        assert back == connection
        assert back.protocol == connection.protocol
        assert back.launch().protocol == connection.protocol  # what the worker's session will ask for
