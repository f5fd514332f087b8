"""Call time limits: one timer per session serves every call in flight (anvia_nb.core.transport.deadlines).

What a user relies on: a call over its limit ends as a timeout and the server is told; a call
with a shorter limit is not held up by a longer one in flight; a cancellation that is not the
timeout's stays a cancellation; a call that ended in time is never cancelled afterwards.
"""

from __future__ import annotations

import asyncio
import sys

import pytest

from anvia_nb import ToolTimeoutError, connect_mcp, mcp
from anvia_nb.core.transport.deadlines import Deadlines
from tests.helpers.lite_server import LITE_ARGS

pytestmark = pytest.mark.anyio


async def test_a_short_limit_ends_in_time_beside_a_long_call_that_still_answers() -> None:
    server = await connect_mcp(mcp.stdio(name="lite", command=sys.executable, args=LITE_ARGS))
    try:
        long_call = asyncio.create_task(
            server.tool("slow").call_outcome({"steps": 10, "delay_seconds": 0.1}, timeout_seconds=60)
        )
        await asyncio.sleep(0)  # the long call's deadline is set first: the timer is at 60 s
        short = await asyncio.wait_for(
            server.tool("slow").call_outcome({"steps": 300, "delay_seconds": 0.1}, timeout_seconds=0.3), 20
        )
        assert isinstance(short.error, ToolTimeoutError), short.error
        done = await asyncio.wait_for(long_call, 60)
        assert done.error is None and done.output is not None
        after = await asyncio.wait_for(server.tool("echo").call_outcome({"message": "still here"}), 20)
        assert after.output == "still here"
    finally:
        await server.close()


async def test_a_bound_that_passes_is_a_timeout_and_nothing_stays_cancelled() -> None:
    deadlines = Deadlines()

    async def waits_too_long() -> bool:
        bound = deadlines.start(0.05)
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            return deadlines.end(bound)
        return False

    task = asyncio.create_task(waits_too_long())
    assert await asyncio.wait_for(task, 20) is True
    if sys.version_info >= (3, 11):
        assert task.cancelling() == 0  # the bound withdrew its cancel, as asyncio.timeout does


async def test_a_cancel_from_elsewhere_stays_a_cancel_even_when_the_bound_also_passed() -> None:
    deadlines = Deadlines()

    async def cancelled_by_someone_else() -> bool:
        bound = deadlines.start(0.0)  # due at once: its timer may fire before or after the cancel lands
        task = asyncio.current_task()
        assert task is not None
        task.cancel()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            return deadlines.end(bound)
        return True

    assert await asyncio.wait_for(asyncio.create_task(cancelled_by_someone_else()), 20) is False


async def test_a_call_that_ended_in_time_is_not_cancelled_when_its_deadline_passes() -> None:
    deadlines = Deadlines()

    async def quick_then_waits() -> str:
        bound = deadlines.start(0.05)
        await asyncio.sleep(0)
        assert deadlines.end(bound) is False
        await asyncio.sleep(0.3)  # the timer set for the ended call fires meanwhile, and finds nothing
        return "not cancelled"

    assert await asyncio.wait_for(asyncio.create_task(quick_then_waits()), 20) == "not cancelled"


async def test_a_later_shorter_deadline_fires_first_and_the_longer_one_keeps_running() -> None:
    deadlines = Deadlines()
    release = asyncio.Event()

    async def bounded(seconds: float) -> str:
        bound = deadlines.start(seconds)
        try:
            await release.wait()
        except asyncio.CancelledError:
            return "timed out" if deadlines.end(bound) else "cancelled"
        deadlines.end(bound)
        return "ended in time"

    long_one = asyncio.create_task(bounded(60))
    await asyncio.sleep(0)  # its deadline is set first: the timer is at 60 s
    short_one = asyncio.create_task(bounded(0.1))
    assert await asyncio.wait_for(short_one, 20) == "timed out"
    assert not long_one.done()
    release.set()
    assert await asyncio.wait_for(long_one, 20) == "ended in time"
