"""What one large message costs in memory, measured with tracemalloc as ratios (never times):
a large result or log message peaks at most three times its own size, over stdio and streamable
HTTP (its JSON answers and its SSE streams), and nothing of a result is kept once the call has
returned it and it was dropped (the SDK's read loop kept the last message, and stdio its last
line, until the next one arrived). The server is the benchmark's (``benchmarks/bench_server.py``):
``payload`` answers one text of the size asked, ``shout`` sends one log message of that size first."""

from __future__ import annotations

import gc
import sys
import tracemalloc
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core import McpServer
from tests.helpers.bench_http import SERVER, bench_http_url

pytestmark = pytest.mark.anyio

CHARS = 4_000_000
"""The text's characters: 8 MB in memory (the payload has CJK in it: two bytes a character)."""
KEPT_BYTES = 1_000_000
"""What may stay traced after a dropped result (the trace's bounded entries, a log line, caches)."""


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    with bench_http_url() as url:
        yield url


@pytest.fixture(params=["stdio", "http"])
async def server(request: pytest.FixtureRequest, http_url: str) -> AsyncIterator[McpServer]:
    if request.param == "stdio":
        connection: Any = mcp.stdio(name="big", command=sys.executable, args=[SERVER])
    else:
        connection = mcp.http(name="big", url=http_url)
    srv = await connect_mcp(connection, log_level="info")
    try:
        await srv.tool("payload").call({"size_chars": 1000})  # warm: every module and cache built
        await srv.tool("shout").call({"size_chars": 1000})
        yield srv
    finally:
        await srv.close()


class Traced:
    """tracemalloc around one call: the peak and what is left, above what was traced before."""

    def __enter__(self) -> Traced:
        gc.collect()
        tracemalloc.start()
        self.base = tracemalloc.get_traced_memory()[0]
        return self

    def __exit__(self, *exc: object) -> None:
        tracemalloc.stop()

    def peak(self) -> int:
        return tracemalloc.get_traced_memory()[1] - self.base

    def now(self) -> int:
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - self.base


async def _large_result(server: McpServer) -> tuple[int, int, int]:
    """One large result, measured: the peak while it was made, its size, and what stays once it is dropped."""
    with Traced() as traced:
        text = await server.tool("payload").call({"size_chars": CHARS})
        size = sys.getsizeof(text)
        assert len(text) == CHARS and size >= 2 * CHARS
        peak = traced.peak()
        del text
        kept = traced.now()
    return peak, size, kept


async def test_a_large_result_peaks_below_three_times_its_size_and_nothing_is_kept(server: McpServer) -> None:
    peak, size, kept = await _large_result(server)
    assert peak <= 3 * size, f"peak {peak / size:.2f} × the result"
    assert kept <= KEPT_BYTES, f"{kept:,} bytes kept after the result was dropped"


async def test_a_large_log_message_peaks_below_three_times_its_size(server: McpServer) -> None:
    size = sys.getsizeof("日" * CHARS)
    with Traced() as traced:
        assert await server.tool("shout").call({"size_chars": CHARS}) == "shouted"
        peak = traced.peak()
        kept = traced.now()
    # Over HTTP a log message rides the call's SSE stream, read from its bytes (one join of the
    # event's data, then the parse), as the result is.
    assert peak <= 3 * size, f"peak {peak / size:.2f} × the message"
    assert kept <= KEPT_BYTES, f"{kept:,} bytes kept after the call"


async def test_a_large_result_over_sse_peaks_below_three_times_its_size_and_nothing_is_kept(http_url: str) -> None:
    """On 2025-11-25 the SDK's server answers every call with an SSE stream."""
    srv = await connect_mcp(mcp.http(name="big", url=http_url, protocol="2025-11-25"))
    try:
        await srv.tool("payload").call({"size_chars": 1000})  # warm
        peak, size, kept = await _large_result(srv)
    finally:
        await srv.close()
    assert peak <= 3 * size, f"peak {peak / size:.2f} × the result"
    assert kept <= KEPT_BYTES, f"{kept:,} bytes kept after the result was dropped"
