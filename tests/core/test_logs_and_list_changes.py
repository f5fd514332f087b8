"""A server's log messages and stderr in one bounded, masked, ordered view, on protocol
2026-07-28 and on an older one; a server whose tool list changes is listed again, and the change
is kept until it is noted. Real servers: the demo (stdio, and the session's shared HTTP process)
and ``log_server.py``; the client's own notes need no server process (the demo in memory)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator
from typing import Any

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.api.server import McpServer
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.policy import MASK
from tests.helpers.support import DEMO_ARGS, LOG_SERVER, forked
from tests.helpers.waiting import wait_until_async

SECRET = "sk-live-logs-51d0e2"


def _log_server(mode: str) -> Any:
    return mcp.stdio(name=mode, command=sys.executable, args=forked(LOG_SERVER, mode))


@pytest.mark.anyio
async def test_demo_log_messages_at_every_level_on_2026_07_28() -> None:
    demo = mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS, env={"API_TOKEN": SECRET})
    async with await connect_mcp(demo, log_level="debug") as server:
        assert server.client.protocol_version == "2026-07-28"
        await server.tool("log_levels").call_outcome({"message": f"token {SECRET}"})
        rows = [r for r in server.log.rows(100) if r.source == "server log"]
    assert [r.level for r in rows] == ["debug", "info", "notice", "warning", "error"]
    assert {r.logger for r in rows} == {"demo.logs"}
    assert rows[0].text == f"debug: token {MASK}"
    assert all(r.time is not None for r in rows)


@pytest.mark.anyio
async def test_the_level_asked_for_is_honoured_on_2026_07_28(demo_http_url: str) -> None:
    demo = mcp.http(name="demo", url=demo_http_url)  # the level travels with each request: a session of its own
    async with await connect_mcp(demo, log_level="warning") as server:
        await server.tool("log_levels").call_outcome({})
        levels = [r.level for r in server.log.rows(100) if r.source == "server log"]
        sent = [e for e in server.trace.entries() if e.method == "tools/call" and e.kind == "request"]
    assert levels == ["warning", "error"]
    assert sent[-1].message()["params"]["_meta"]["io.modelcontextprotocol/logLevel"] == "warning"


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["modern", "legacy"])
async def test_log_messages_and_stderr_are_merged_in_the_order_written(mode: str) -> None:
    async with await connect_mcp(_log_server(mode), log_level="info") as server:
        expected = "2026-07-28" if mode == "modern" else "2025-06-18"
        assert server.client.protocol_version == expected
        await server.tool("chatter").call_outcome({})
        rows = server.log.rows(100)
        trace = server.trace.entries()
    messages = [r for r in rows if r.source == "server log"]
    assert [r.level for r in messages] == ["info", "warning", "error"]
    if mode == "legacy":  # logging/setLevel was sent, and the server wrote so to stderr before it logged
        assert any(e.method == "logging/setLevel" and e.kind == "request" for e in trace)
        said = [r.text for r in rows if r.source == "stderr"]
        assert said == ["log level set to info"]
        assert rows.index(next(r for r in rows if r.source == "stderr")) < rows.index(messages[0])
    else:
        assert not any(e.method == "logging/setLevel" for e in trace)


@pytest.mark.anyio
async def test_the_clients_own_notes_are_marked_as_such() -> None:
    async with await connect_mcp(mcp.memory(name="modern", server=build_server())) as server:
        server.client.record_unanswered_elicitation("no form was open")
        rows = server.log.rows(10)
    assert rows[-1].source == "client" and rows[-1].logger == "anvia_nb"
    assert "no form was open" in rows[-1].text


@pytest.mark.anyio
async def test_a_server_cannot_pass_its_log_messages_off_as_the_clients() -> None:
    async with await connect_mcp(mcp.memory(name="modern", server=build_server()), log_level="debug") as server:
        server.client.log.add("error", "anvia_nb", "a server using the client's logger name")
        assert server.log.rows(1)[0].source == "server log"


@contextlib.asynccontextmanager
async def _bonus_removed_after(server: McpServer) -> AsyncIterator[None]:
    """Leave the demo's tool list as found: ``bonus`` listed is this test's doing."""
    try:
        yield
    finally:
        if server.is_open and "bonus" in [t.name for t in server.tools]:
            await server.tool("change_tools").call_outcome({})


async def _changed(server: McpServer, tool: str, before: int) -> None:
    await server.tool(tool).call_outcome({})
    await wait_until_async(lambda: len(server.tools) != before, "the tools to be listed again")


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_a_changed_tool_list_is_listed_again_and_kept_until_noted(
    transport: str, request: pytest.FixtureRequest
) -> None:
    if transport == "stdio":
        connection: Any = mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS)
    else:  # the shared process: the test takes bonus away again, even when it fails half-way
        connection = mcp.http(name="web", url=request.getfixturevalue("demo_http_url"))
    async with await connect_mcp(connection) as server, _bonus_removed_after(server):
        before = len(server.tools)
        assert "bonus" not in [t.name for t in server.tools]
        told: list[tuple[str, str]] = []
        server.changes.on_change(lambda name, what: told.append((name, what)))
        await _changed(server, "change_tools", before)
        assert [t.name for t in server.tools][-1] == "bonus"
        assert (await server.tool("bonus").call_outcome({})).output == "bonus"
        assert told == [(server.name, "tools")]
        changes = server.changes.take_changes()
        assert [c.added for c in changes] == [("bonus",)]
        assert f"the tool list of {server.name} changed since " in changes[0].text(server.name)
        assert changes[0].text(server.name).endswith(": added bonus")
        assert server.changes.take_changes() == []  # noted once
        await _changed(server, "change_tools", before + 1)
        assert [c.removed for c in server.changes.take_changes()] == [("bonus",)]


@pytest.mark.anyio
async def test_a_changed_tool_list_on_an_older_protocol_version() -> None:
    async with await connect_mcp(_log_server("legacy")) as server:
        assert server.client.protocol_version == "2025-06-18"
        await _changed(server, "change", 2)
        assert [c.added for c in server.changes.take_changes()] == [("extra",)]
        assert server.client.notifications["notifications/tools/list_changed"] == 1
