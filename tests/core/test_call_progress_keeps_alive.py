"""A call whose server keeps reporting progress is alive: ``timeout_seconds`` counts from the
call's start and again from each progress notification; ``max_time_seconds`` bounds the whole
call, progress or not (limits.py: ``DEFAULT_CALL_MAX_SECONDS``, never less than the timeout).

Against the demo server's ``slow`` tool (``steps`` progress notifications ``delay_seconds``
apart). The margins are wide (progress every 0.05 s against a 1 s timeout): what is asserted is
how each call ended, never how long it took; outer waits only keep a broken bound from hanging.
Each runs with the standard library's ``asyncio.Timeout`` and with the anyio stand-in Python 3.10
gets in its place.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.api.server import McpServer
from anvia_nb.core.protocol import limits
from anvia_nb.core.transport.sdk import session
from anvia_nb.errors import ToolTimeoutError
from tests.helpers.support import DEMO_ARGS

pytestmark = pytest.mark.anyio

OUTER = 60.0
IDLE = 1.0
PROGRESSING = {"steps": 60, "delay_seconds": 0.05}
"""Three seconds of progress, one every 0.05 s: three times the idle timeout, never idle for it."""
SILENT = {"steps": 1, "delay_seconds": 30}
ENDLESS = {"steps": 10_000, "delay_seconds": 0.05}


@pytest.fixture(params=["asyncio.Timeout", "Python 3.10's stand-in"])
async def demo(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[McpServer]:
    if request.param != "asyncio.Timeout":  # the clock 3.10 gets, held to the same behaviour here
        monkeypatch.setattr(session, "_timeout_at", session._ScopeTimeout)
    server = await connect_mcp(mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS), timeout_seconds=OUTER)
    try:
        yield server
    finally:
        await server.close()


async def test_a_call_that_reports_progress_outlives_its_idle_timeout(demo: McpServer) -> None:
    outcome = await asyncio.wait_for(demo.tool("slow").call_outcome(PROGRESSING, timeout_seconds=IDLE), OUTER)
    assert outcome.error is None, outcome.error
    assert outcome.output == "done after 60 steps"
    assert outcome.progress_count == 60


async def test_a_silent_call_still_ends_at_its_timeout(demo: McpServer) -> None:
    outcome = await asyncio.wait_for(demo.tool("slow").call_outcome(SILENT, timeout_seconds=IDLE), OUTER)
    assert isinstance(outcome.error, ToolTimeoutError)
    assert "did not answer in time" in str(outcome.error)


async def test_max_time_ends_a_call_that_keeps_reporting_progress(demo: McpServer) -> None:
    slow = demo.tool("slow")
    outcome = await asyncio.wait_for(slow.call_outcome(ENDLESS, timeout_seconds=5, max_time_seconds=1.5), OUTER)
    assert isinstance(outcome.error, ToolTimeoutError)
    assert str(outcome.error) == (
        "demo.slow was still running after 1.5 s, its overall limit (max time, counted even while it reports "
        "progress); the request was cancelled."
    )
    assert outcome.progress_count > 0
    with pytest.raises(ToolTimeoutError, match="overall limit"):
        await asyncio.wait_for(slow.call(ENDLESS, timeout_seconds=5, max_time_seconds=1.5), OUTER)
    started = await slow.start(ENDLESS, timeout_seconds=5, max_time_seconds=1.5).wait(OUTER)
    assert isinstance(started.error, ToolTimeoutError) and "overall limit" in str(started.error)
    assert await demo.tool("echo").call({"message": "still here"}) == "still here"


async def test_a_map_bounds_each_row_by_both(demo: McpServer) -> None:
    slow = demo.tool("slow")
    rows = await asyncio.wait_for(slow.map([PROGRESSING, SILENT], timeout_seconds=IDLE, concurrency=2), OUTER)
    assert [row.status for row in rows] == ["ok", "timeout"]
    rows = await asyncio.wait_for(slow.map([ENDLESS], timeout_seconds=5, max_time_seconds=1.5), OUTER)
    assert [row.status for row in rows] == ["timeout"]
    assert rows[0].outcome is not None and "overall limit" in str(rows[0].outcome.error)


def test_the_default_max_time_never_cuts_a_longer_timeout_short() -> None:
    default = limits.DEFAULT
    assert limits.max_time_or_default(default, 60.0) == limits.DEFAULT_CALL_MAX_SECONDS == 600.0
    assert limits.max_time_or_default(default, 1200.0) == 1200.0
    assert limits.max_time_or_default(default, None) is None  # a call told to wait for ever
    assert limits.max_time_or_default(None, 60.0) is None
    assert limits.max_time_or_default(2.0, 60.0) == 2.0
