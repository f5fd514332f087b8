"""The bound on a connection's calls in flight, seen on the wire: never more than
``max_calls_in_flight`` requests unanswered at once, the waiting calls sent in the order they
came, and a call cancelled while it waits its turn is never sent and takes no turn from the others.
"""

from __future__ import annotations

import asyncio
import sys

import pytest

from anvia_nb import StdioConnection, connect_mcp, mcp
from anvia_nb.core import McpServer
from tests.helpers.lite_server import LITE_ARGS

pytestmark = pytest.mark.anyio

BOUND = 60.0  # only proves nothing hangs


def lite(limit: int) -> StdioConnection:
    return mcp.stdio(name="lite", command=sys.executable, args=LITE_ARGS, max_calls_in_flight=limit)


async def settle() -> None:
    """Let every task that can run, run (a few turns of the loop; no clock involved)."""
    for _ in range(10):
        await asyncio.sleep(0)


def sent_calls(server: McpServer) -> list[object]:
    """The arguments of every tools/call request sent, in order."""
    return [
        e.message()["params"]["arguments"]
        for e in server.trace.entries()
        if e.method == "tools/call" and e.kind == "request"
    ]


def most_in_flight(server: McpServer) -> int:
    """The most tools/call requests that were unanswered at once, by the trace."""
    unanswered: set[object] = set()
    most = 0
    for entry in server.trace.entries():
        if entry.method != "tools/call":
            continue
        if entry.kind == "request":
            unanswered.add(entry.id)
        elif entry.kind in ("result", "error"):
            unanswered.discard(entry.id)
        most = max(most, len(unanswered))
    return most


async def test_at_most_the_limit_in_flight_and_the_others_sent_in_the_order_they_came() -> None:
    async with await connect_mcp(lite(2)) as server:
        slow = [asyncio.create_task(server.tool("slow").call({"steps": 2, "delay_seconds": 0.1})) for _ in range(2)]
        await settle()
        echoes = [asyncio.create_task(server.tool("echo").call({"message": str(i)})) for i in range(5)]
        answers = await asyncio.wait_for(asyncio.gather(*slow, *echoes), BOUND)
        assert answers[2:] == ["0", "1", "2", "3", "4"]
        assert sent_calls(server)[2:] == [{"message": str(i)} for i in range(5)]
        assert most_in_flight(server) == 2


async def test_a_call_cancelled_while_it_waits_is_never_sent_and_keeps_no_turn() -> None:
    async with await connect_mcp(lite(1)) as server:
        slow = asyncio.create_task(server.tool("slow").call({"steps": 2, "delay_seconds": 0.1}))
        await settle()
        cancelled = asyncio.create_task(server.tool("echo").call({"message": "cancelled"}))
        last = asyncio.create_task(server.tool("echo").call({"message": "last"}))
        await settle()
        cancelled.cancel()
        await asyncio.wait_for(asyncio.gather(slow, last), BOUND)
        assert cancelled.cancelled()
        # The one turn is still one: two more calls at once are still sent one after the other.
        await asyncio.wait_for(
            asyncio.gather(
                server.tool("slow").call({"steps": 2, "delay_seconds": 0.1}),
                server.tool("echo").call({"message": "after"}),
            ),
            BOUND,
        )
        assert {"message": "cancelled"} not in sent_calls(server)
        assert sent_calls(server)[-2:] == [{"steps": 2, "delay_seconds": 0.1}, {"message": "after"}]
        assert most_in_flight(server) == 1
