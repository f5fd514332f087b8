"""A map sends ``concurrency`` calls at once, whatever the connection's ``max_calls_in_flight``:
over a server whose tool answers only once four calls have arrived, a map of four rows at
concurrency 4 on a connection that allows one call finishes (held to one call, it would wait for
ever), while plain calls stay held to the connection's bound."""

from __future__ import annotations

import asyncio
from typing import Any

import mcp_types as types
import pytest
from mcp.server.lowlevel import Server

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.api.batch import MapOptions, MapRun
from tests.helpers.waiting import wait_until_async

pytestmark = pytest.mark.anyio

BOUND = 60.0  # only proves nothing hangs
GATHERED = 4


def gate_server() -> tuple[Server[Any], list[int]]:
    """A server whose ``gate`` answers once ``GATHERED`` calls are waiting in it together."""
    arrived: list[int] = []
    opened = asyncio.Event()
    tools = [
        {
            "name": "gate",
            "description": "Answers once four calls wait together.",
            "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
        }
    ]

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult.model_validate({"tools": tools})

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        arrived.append(int((params.arguments or {}).get("n", 0)))
        if len(arrived) >= GATHERED:
            opened.set()
        await opened.wait()
        return types.CallToolResult(content=[types.TextContent(type="text", text="through")])

    return Server("gate", version="1", on_list_tools=list_tools, on_call_tool=call_tool), arrived


async def test_a_map_sends_its_concurrency_past_the_connections_bound() -> None:
    server_object, arrived = gate_server()
    connection = mcp.memory(name="gate", server=server_object, max_calls_in_flight=1)
    async with await connect_mcp(connection) as server:
        rows = [{"n": i} for i in range(GATHERED)]
        run = MapRun(server.tool("gate"), rows, MapOptions(concurrency=GATHERED))
        outcomes = await asyncio.wait_for(run.run(), BOUND)
        assert [row.status for row in outcomes] == ["ok"] * GATHERED
        assert sorted(arrived) == list(range(GATHERED))


async def test_plain_calls_stay_held_to_the_connections_bound() -> None:
    server_object, arrived = gate_server()
    connection = mcp.memory(name="gate", server=server_object, max_calls_in_flight=1)
    async with await connect_mcp(connection) as server:
        first = asyncio.ensure_future(server.tool("gate").call({"n": 0}))
        others = [asyncio.ensure_future(server.tool("gate").call({"n": i})) for i in range(1, GATHERED)]
        await wait_until_async(lambda: arrived, "the first call to reach the server")
        for _ in range(50):  # every task that can run, runs: the others wait their turn, unsent
            await asyncio.sleep(0)
        assert arrived == [0]
        for task in [first, *others]:
            task.cancel()
        await asyncio.gather(first, *others, return_exceptions=True)
