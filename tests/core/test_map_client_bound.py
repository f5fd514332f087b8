"""A map says when the client, not the tool, is what holds it back: ``MapRun.client_busy`` is the
share of the map's time this process spent on the CPU, and the progress line names a map whose
client was busy most of the time (issue 41)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core import McpServer
from anvia_nb.core.api.batch import MapOptions, MapRun
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.display.map_progress import CLIENT_BOUND_SHARE, MapProgress, progress_text

pytestmark = pytest.mark.anyio

BOUND = 60.0  # only proves nothing hangs
ROWS = [{"value": i, "max_delay_seconds": 0.05} for i in range(6)]


@pytest.fixture
async def server() -> AsyncIterator[McpServer]:
    srv = await connect_mcp(mcp.memory(name="demo", server=build_server()))
    try:
        yield srv
    finally:
        await srv.close()


def _spin(cpu_seconds: float) -> None:
    """Keep this process on the CPU for ``cpu_seconds`` of its own CPU time."""
    until = time.process_time() + cpu_seconds
    while time.process_time() < until:
        pass


async def test_a_map_whose_client_spins_is_busier_than_one_that_waits_on_its_tool(server: McpServer) -> None:
    waiting = MapRun(server.tool("jitter"), ROWS, MapOptions(concurrency=1))
    await asyncio.wait_for(waiting.run(), BOUND)
    spinning = MapRun(server.tool("jitter"), ROWS, MapOptions(concurrency=1), listener=lambda run: _spin(0.1))
    await asyncio.wait_for(spinning.run(), BOUND)
    assert 0 <= waiting.client_busy < spinning.client_busy
    finished = spinning.client_busy
    await asyncio.sleep(0.05)
    assert spinning.client_busy == finished  # read after the map: its own time, not the time since


def test_the_progress_line_says_when_the_client_is_the_bottleneck() -> None:
    busy = MapProgress("demo.add", 64, 16, 0, 4.0, client_busy=CLIENT_BOUND_SHARE + 0.1)
    assert "bound by this client (90% CPU), not the tool" in progress_text(busy)
    idle = MapProgress("demo.add", 64, 16, 0, 4.0, client_busy=CLIENT_BOUND_SHARE - 0.1)
    assert "bound by this client" not in progress_text(idle)
    assert "bound by this client" not in progress_text(MapProgress("demo.add", 64, 0, 0, 4.0, client_busy=1.0))
