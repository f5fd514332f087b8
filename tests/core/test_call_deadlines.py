"""Call time limits (``timeout_seconds``), each call bounded on its own.

What a user relies on: a call over its limit ends as a timeout and the server is told; a call
with a shorter limit is not held up by a longer one in flight; a cancellation that is not the
timeout's stays a cancellation; a call that ended in time is never cancelled afterwards.
"""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

from anvia_nb import StdioConnection, ToolTimeoutError, connect_mcp, mcp
from anvia_nb.core import McpServer
from tests.helpers.lite_server import LITE_ARGS
from tests.helpers.waiting import wait_until_async

pytestmark = pytest.mark.anyio


async def test_a_short_limit_ends_in_time_beside_a_long_call_that_still_answers() -> None:
    server = await connect_mcp(mcp.stdio(name="lite", command=sys.executable, args=LITE_ARGS))
    try:
        long_call = asyncio.create_task(
            server.tool("slow").call_outcome({"steps": 10, "delay_seconds": 0.1}, timeout_seconds=60)
        )
        await asyncio.sleep(0)  # the long call's deadline is set first: the timer is at 60 s
        short = await asyncio.wait_for(
            server.tool("slow").call_outcome({"steps": 1, "delay_seconds": 30}, timeout_seconds=0.3), 20
        )
        assert isinstance(short.error, ToolTimeoutError), short.error
        done = await asyncio.wait_for(long_call, 60)
        assert done.error is None and done.output is not None
        after = await asyncio.wait_for(server.tool("echo").call_outcome({"message": "still here"}), 20)
        assert after.output == "still here"
    finally:
        await server.close()


def lite() -> StdioConnection:
    return mcp.stdio(name="lite", command=sys.executable, args=LITE_ARGS)


async def test_a_call_over_its_limit_is_a_timeout_the_server_is_told_and_nothing_stays_cancelled() -> None:
    async with await connect_mcp(lite()) as server:

        async def too_long() -> tuple[BaseException | None, int]:
            outcome = await server.tool("slow").call_outcome({"steps": 1, "delay_seconds": 30}, timeout_seconds=0.2)
            await asyncio.sleep(0)  # the task goes on: its cancellation was the limit's alone, and withdrawn
            task = asyncio.current_task()
            assert task is not None
            if sys.version_info >= (3, 11):
                return outcome.error, task.cancelling()
            return outcome.error, 0

        error, cancelling = await asyncio.wait_for(asyncio.create_task(too_long()), 20)
        assert isinstance(error, ToolTimeoutError) and error.__cause__ is None, error
        assert "did not answer in time" in str(error)
        assert cancelling == 0
        await told_of_the_cancel(server)


async def test_a_cancel_from_elsewhere_stays_a_cancel_even_when_the_limit_also_passed() -> None:
    async with await connect_mcp(lite()) as server:
        started = asyncio.Event()

        async def cancelled_by_someone_else() -> None:
            started.set()
            await server.tool("slow").call_outcome({"steps": 1, "delay_seconds": 30}, timeout_seconds=0.05)

        task = asyncio.create_task(cancelled_by_someone_else())
        await started.wait()
        await asyncio.sleep(0)  # the call is on its way
        time.sleep(0.1)  # the loop is held: when it runs again, the limit has passed too
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 20)
        assert await asyncio.wait_for(server.tool("echo").call({"message": "still here"}), 20) == "still here"


async def test_a_call_that_ended_in_time_is_not_cancelled_when_its_limit_passes() -> None:
    async with await connect_mcp(lite()) as server:

        async def quick_then_waits() -> str:
            await server.tool("echo").call_outcome({"message": "quick"}, timeout_seconds=0.05)
            await asyncio.sleep(0.3)  # the quick call's limit passes meanwhile
            return "not cancelled"

        assert await asyncio.wait_for(asyncio.create_task(quick_then_waits()), 20) == "not cancelled"


async def told_of_the_cancel(server: McpServer) -> None:
    """The server received notifications/cancelled (the lite server writes ``slow cancelled``)."""
    await wait_until_async(lambda: "slow cancelled" in server.client.log.stderr_text(), "the server's 'slow cancelled'")
