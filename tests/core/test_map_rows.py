"""tool.map over a sequence of argument dicts (core, no pandas), against the demo server over stdio:
rows come back in row order whatever finished first, a failing row fails alone, invalid rows are
never sent, stop_on_error and cancelling stop the rest (the server is told), and a connection
never has more calls in flight than it allows."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core import McpServer
from anvia_nb.core.api.batch import MapOptions, MapRun
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.errors import InvalidValueError
from tests.helpers.support import DEMO_ARGS
from tests.helpers.waiting import wait_until_async

pytestmark = pytest.mark.anyio

BOUND = 60.0  # only proves nothing hangs


@pytest.fixture
async def server() -> AsyncIterator[McpServer]:
    """The demo server in this process (quick to start); the cancellation test uses a real process."""
    srv = await connect_mcp(mcp.memory(name="demo", server=build_server()))
    try:
        await srv.tool("echo").call({"message": "warm up"})
        yield srv
    finally:
        await srv.close()


async def test_results_come_back_in_row_order_under_random_latency(server: McpServer) -> None:
    rows = [{"value": i, "max_delay_seconds": 0.05} for i in range(40)]
    finished: list[int] = []
    run = MapRun(server.tool("jitter"), rows, MapOptions(concurrency=8), listener=lambda r: None)
    run.listener = lambda r: finished.extend(i for i, row in enumerate(r.rows) if row and i not in finished)
    outcomes = await asyncio.wait_for(run.run(), BOUND)
    assert [o.status for o in outcomes] == ["ok"] * 40
    structured = [o.outcome.structured for o in outcomes if o.outcome]
    assert [s["value"] for s in structured if isinstance(s, dict)] == list(range(40))
    assert [o.position for o in outcomes] == list(range(40))
    assert sorted(finished) == list(range(40))


async def test_a_failing_row_fails_alone(server: McpServer) -> None:
    rows = [{"value": i, "fail": i % 3 == 1} for i in range(9)]
    outcomes = await asyncio.wait_for(server.tool("jitter").map(rows, concurrency=4), BOUND)
    assert [o.status for o in outcomes] == ["ok", "tool error", "ok"] * 3
    assert outcomes[1].error == "jitter failed on purpose for 1"
    assert outcomes[0].outcome is not None and outcomes[0].outcome.output == "0"


async def test_rows_are_validated_before_any_is_sent_and_invalid_ones_are_not_sent(server: McpServer) -> None:
    rows: list[dict[str, object]] = [{"a": 1, "b": 2}, {"a": "one", "b": 2}, {"b": 3}, {"a": 1, "b": float("nan")}]
    run = MapRun(server.tool("add"), rows)
    assert [r.status if r else None for r in run.rows] == [None, "invalid", "invalid", "invalid"]  # before running
    outcomes = await asyncio.wait_for(run.run(), BOUND)
    assert [o.status for o in outcomes] == ["ok", "invalid", "invalid", "invalid"]
    assert all(o.outcome is None for o in outcomes[1:])  # never called
    assert "'one' is not of type 'number'" in (outcomes[1].error or "")
    assert "'a' is a required property" in (outcomes[2].error or "")
    assert "JSON cannot carry" in (outcomes[3].error or "")


async def test_constants_fill_what_a_row_leaves_out(server: McpServer) -> None:
    outcomes = await server.tool("add").map([{"a": 1}, {"a": 2, "b": 5}], constants={"b": 10})
    assert [o.outcome.structured for o in outcomes if o.outcome] == [{"sum": 11}, {"sum": 7}]


async def test_stop_on_error_cancels_the_rest(server: McpServer) -> None:
    rows = [{"value": 0, "max_delay_seconds": 0}, {"value": 1, "fail": True, "max_delay_seconds": 0}]
    rows += [{"value": i, "max_delay_seconds": 10} for i in range(2, 8)]
    outcomes = await asyncio.wait_for(server.tool("jitter").map(rows, concurrency=2, stop_on_error=True), BOUND)
    statuses = [o.status for o in outcomes]
    assert statuses[1] == "tool error"
    assert set(statuses[2:]) <= {"cancelled", "not run"}
    assert "not run" in statuses


@pytest.fixture
async def stdio_server() -> AsyncIterator[McpServer]:
    srv = await connect_mcp(mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS))
    try:
        yield srv
    finally:
        await srv.close()


async def test_cancelling_a_map_cancels_the_calls_in_flight_and_keeps_the_rows_done(stdio_server: McpServer) -> None:
    server = stdio_server
    rows = [{"value": i, "max_delay_seconds": 0} for i in range(4)]
    rows += [{"value": i, "max_delay_seconds": 10} for i in range(4, 12)]
    four_done = asyncio.Event()

    def listener(run: MapRun) -> None:
        if run.done >= 4:
            four_done.set()

    run = MapRun(server.tool("jitter"), rows, MapOptions(concurrency=4), listener=listener)
    task = asyncio.ensure_future(run.run())
    await asyncio.wait_for(four_done.wait(), BOUND)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, BOUND)
    statuses = [o.status for o in run.outcomes()]
    assert statuses[:4] == ["ok"] * 4
    assert "cancelled" in statuses[4:]
    assert set(statuses[4:]) <= {"cancelled", "not run"}
    log = server.client.log
    cancelled = "jitter cancelled"  # the server logs each cancellation it received
    await wait_until_async(lambda: cancelled in log.stderr_text(), f"the server's {cancelled!r}", seconds=BOUND)
    assert await server.tool("echo").call({"message": "still usable"}) == "still usable"


async def test_a_connection_never_has_more_calls_in_flight_than_it_allows() -> None:
    connection = mcp.memory(name="one", server=build_server(), max_calls_in_flight=1)
    async with await connect_mcp(connection) as server:
        order: list[str] = []

        async def call(tool: str, arguments: dict[str, object]) -> None:
            await server.tool(tool).call(arguments)
            order.append(tool)

        first = asyncio.ensure_future(call("slow", {"steps": 3, "delay_seconds": 0.2}))
        await asyncio.sleep(0)  # the slow call takes the one slot first
        await asyncio.wait_for(asyncio.gather(first, call("echo", {"message": "waits its turn"})), BOUND)
        assert order == ["slow", "echo"]  # with two slots the echo would finish first


def test_bad_limits_are_refused() -> None:
    with pytest.raises(InvalidValueError, match="max_calls_in_flight"):
        mcp.stdio(name="x", command="true", max_calls_in_flight=0)
    with pytest.raises(InvalidValueError, match="concurrency"):
        MapOptions(concurrency=0)
    with pytest.raises(InvalidValueError, match="concurrency"):
        MapOptions(concurrency=True)
