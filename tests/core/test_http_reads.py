"""A streamable HTTP connection reads its answers in the pieces that have arrived, not 64 KiB at a
time (``core/transport/http_reads.py``): every request goes through a :class:`LargeReadStream`,
and a large answer full of multi-byte characters, read in those larger pieces, arrives whole."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2
import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.transport.http_reads import LargeReadStream, http_client
from tests.helpers.bench_http import bench_http_url

pytestmark = pytest.mark.anyio
PIECE = 'row "quoted" \\ back <tag attr="1"> & amp\tTab é ü 日本語 $x$\n'
"""What the bench server's ``payload`` repeats (benchmarks/bench_server.py)."""


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with bench_http_url() as found:
        yield found


async def test_every_response_is_read_through_a_large_read_stream(url: str) -> None:
    async with http_client({"Accept": "application/json"}, httpx2.Timeout(30), None) as client:
        response = await client.get(url)
    assert isinstance(response.extensions["network_stream"], LargeReadStream)


async def test_a_large_answer_read_in_large_pieces_arrives_whole(url: str) -> None:
    size = 3_000_001  # not a multiple of the piece: the last one is cut inside it
    server = await connect_mcp(mcp.http(name="big", url=url), timeout_seconds=60)
    try:
        text = await server.tool("payload").call({"size_chars": size})
    finally:
        await server.close()
    assert text == (PIECE * (size // len(PIECE) + 1))[:size]
