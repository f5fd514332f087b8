"""Failures that explain themselves: a server that will not start says why, its log stays
readable and is removed when no longer needed, log messages arrive from every protocol version,
and protocol errors keep what the server sent. Real servers over stdio (``log_server.py``); the
server that will not start is a few lines of Python that write to stderr and exit, with no SDK to
import, and one ``log_server.py modern`` process serves the module's calls to it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from anvia_nb import ConnectError, ProtocolError, connect_mcp, mcp
from anvia_nb.core import McpServer, StdioConnection
from anvia_nb.errors import UnknownConnectionError, UrlElicitationRequiredError
from anvia_nb.magic.output.logs import log_text
from anvia_nb.policy import MASK
from anvia_nb.runtime import Runtime
from tests.helpers.support import DEMO_ARGS, LOG_SERVER, forked
from tests.helpers.waiting import wait_until_async

TOKEN = "tok-123456789"
FATAL = """
import os, sys
sys.stderr.write("starting up\\n")
sys.stderr.write(f"fatal: missing API key (token was {os.environ.get('DEMO_TOKEN', '')})\\n")
sys.exit(1)
"""
"""A server without its configuration: says why on stderr and exits before any handshake."""


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """One event loop for the module, so one ``modern`` server serves the tests that call it."""
    return "asyncio"


@pytest.fixture(scope="module")
async def modern() -> AsyncIterator[McpServer]:
    """``log_server.py modern`` at log level info, shared: each test reads only what its calls added."""
    srv = await connect_mcp(server("files", "modern"), log_level="info")
    try:
        yield srv
    finally:
        await srv.close()


def server(name: str, mode: str, **options: object) -> StdioConnection:
    return mcp.stdio(name=name, command=sys.executable, args=forked(LOG_SERVER, mode), **options)  # type: ignore[arg-type]


def fatal(name: str = "typo", **options: object) -> StdioConnection:
    return mcp.stdio(name=name, command=sys.executable, args=["-c", FATAL], env={"DEMO_TOKEN": TOKEN}, **options)  # type: ignore[arg-type]


# -- a server that will not start ----------------------------------------------------------------


@pytest.mark.anyio
async def test_a_server_that_exits_at_once_says_why_in_the_connect_error_with_its_secret_masked() -> None:
    with pytest.raises(ConnectError) as caught:
        await connect_mcp(fatal())
    text = str(caught.value)
    assert "fatal: missing API key" in text
    assert TOKEN not in text and MASK in text
    assert "%mcp" not in text  # a Python user is not told to run a magic
    assert "fatal: missing API key" in caught.value.stderr
    assert TOKEN not in caught.value.stderr
    caught.value.log.remove()


def test_the_log_of_a_connection_that_failed_stays_readable_until_it_is_closed(runtime: Runtime) -> None:
    with pytest.raises(ConnectError):
        runtime.connect(fatal(), timeout_seconds=60)
    shown = log_text(runtime.log("typo"), lines=50)
    assert "fatal: missing API key" in shown and TOKEN not in shown
    path = runtime.log("typo").stderr_path
    assert path is not None and Path(path).exists()
    assert runtime.close("typo") == []
    assert not Path(path).exists()
    with pytest.raises(UnknownConnectionError):
        runtime.log("typo")


def test_a_failed_connections_log_is_removed_when_the_runtime_shuts_down() -> None:
    rt = Runtime()
    with pytest.raises(ConnectError):
        rt.connect(fatal(), timeout_seconds=60)
    path = rt.log("typo").stderr_path
    assert path is not None and Path(path).exists()
    rt.shutdown()
    assert not Path(path).exists()


def test_a_log_asked_to_be_kept_survives_the_close(runtime: Runtime) -> None:
    demo = mcp.stdio(name="kept", command=sys.executable, args=DEMO_ARGS, keep_log=True)
    server_ = runtime.connect(demo, timeout_seconds=60).server
    path = server_.client.log.stderr_path
    assert path is not None
    try:
        runtime.close("kept")
        assert Path(path).exists()
    finally:
        Path(path).unlink(missing_ok=True)


@pytest.mark.slow
def test_logs_left_open_are_removed_at_interpreter_exit(tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import sys
        from anvia_nb import mcp, ConnectError
        from anvia_nb.runtime import get_runtime
        rt = get_runtime()
        server = rt.connect(mcp.stdio(name="left", command=sys.executable, args={DEMO_ARGS!r})).server
        print(server.client.log.stderr_path)
        try:
            rt.connect(mcp.stdio(name="typo", command=sys.executable, args=[{LOG_SERVER!r}, "fatal"]))
        except ConnectError:
            print(rt.log("typo").stderr_path)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    paths = done.stdout.split()
    assert len(paths) == 2, done.stderr
    assert not any(Path(p).exists() for p in paths)


# -- log messages, on 2026-07-28 and before ---------------------------------------------------------


@pytest.mark.anyio
async def test_log_messages_reach_the_log_on_protocol_2026_07_28_from_the_level_asked(modern: McpServer) -> None:
    srv = modern
    assert srv.client.protocol_version >= "2026-07-28"
    before = len(srv.client.log.entries)  # the connection is shared: what this call added
    assert await srv.tool("chatter").call({}) == "done"
    entries = list(srv.client.log.entries)[before:]
    assert [(e.level, e.logger, e.data) for e in entries] == [
        ("info", "db", "info message"),
        ("warning", "db", "warning message"),
        ("error", "db", "error message"),
    ]
    shown = log_text(srv.client.log, lines=20)
    assert "warning db: warning message" in shown


@pytest.mark.anyio
async def test_log_messages_reach_the_log_on_an_older_protocol_through_set_level() -> None:
    srv = await connect_mcp(server("legacy", "legacy"), log_level="warning")
    try:
        assert srv.client.protocol_version == "2025-06-18"
        assert await srv.tool("chatter").call({}) == "done"
        assert [(e.level, e.data) for e in srv.client.log.entries] == [
            ("warning", "warning message"),
            ("error", "error message"),
        ]
        # Written to stderr, another pipe read on its own, before the handshake ended: wait for it.
        await wait_until_async(
            lambda: "log level set to warning" in srv.client.log.stderr_text(), "the server's level note"
        )
    finally:
        await srv.close()


# -- protocol errors keep what the server sent --------------------------------------------------------


@pytest.mark.anyio
async def test_url_elicitation_required_keeps_its_url_message_code_and_data(modern: McpServer) -> None:
    outcome = await modern.tool("needs_url").call_outcome({})
    error = outcome.error
    assert isinstance(error, UrlElicitationRequiredError) and isinstance(error, ProtocolError)
    assert error.code == -32042
    assert error.url == "https://auth.example.com/sign-in?session=abc"
    assert error.url_message == "Sign in to the files service"
    assert error.data["elicitations"][0]["elicitationId"] == "sign-in-1"
    text = str(error)
    assert "https://auth.example.com/sign-in?session=abc" in text
    assert "Sign in to the files service" in text
    assert "MCP error -32042: MCP error -32042" not in text
    assert text.count("-32042") == 1
