"""server-everything (npm, protocol 2025-11-25): its log messages after ``logging/setLevel``, its
exchange in the trace, and the ``tools/list_changed`` it sends at start that changes nothing."""

from __future__ import annotations

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.api.server import McpServer
from tests.helpers.support import npm_servers, require_setup
from tests.helpers.waiting import wait_until_async

pytestmark = pytest.mark.thirdparty


@pytest.fixture(scope="module")
def everything() -> str:
    require_setup(npm_servers() / "anvia-ready", "server-everything")
    return str(npm_servers() / "node_modules" / ".bin" / "mcp-server-everything")


async def _open(command: str, level: str) -> McpServer:
    return await connect_mcp(mcp.stdio(name="everything", command=command, args=["stdio"]), log_level=level)


@pytest.mark.anyio
async def test_log_messages_of_an_older_protocol_version_arrive_from_the_level_asked(everything: str) -> None:
    async with await _open(everything, "warning") as server:
        assert server.client.protocol_version < "2026-07-28"
        sent = [e for e in server.trace.entries() if e.method == "logging/setLevel" and e.kind == "request"]
        assert [e.message()["params"] for e in sent] == [{"level": "warning"}]
        await server.tool("toggle-simulated-logging").call_outcome({})

        def logged() -> list[str | None]:
            return [r.level for r in server.log.rows(500) if r.source == "server log"]

        # The server draws one of the eight levels at random every 5 s and sends it only at or above
        # the level asked: 5 of 8 levels here. The bound allows 25 draws, so all of them falling
        # below "warning" by chance ((3/8) ** 25) does not happen; one usually arrives at once.
        await wait_until_async(lambda: len(logged()) >= 1, "a simulated log message", seconds=125)
    assert set(logged()) <= {"warning", "error", "critical", "alert", "emergency"}


@pytest.mark.anyio
async def test_the_trace_and_a_list_changed_that_changes_nothing(everything: str) -> None:
    async with await _open(everything, "info") as server:
        outcome = await server.tool("echo").call_outcome({"message": "traced"})
        await server.changes.settled()
        entries = server.trace.entries()
        assert outcome.trace_span is not None
    assert entries[0].method == "server/discover" and entries[1].kind == "error"  # then the older handshake
    assert any(e.method == "initialize" and e.kind == "result" for e in entries)
    answer = [e for e in entries if e.method == "tools/call" and e.kind == "result"][-1]
    assert "traced" in answer.json
    # It says its tools changed as it starts; they did not, so nothing is noted.
    assert server.client.notifications["notifications/tools/list_changed"] >= 1
    assert server.changes.take_changes() == []
