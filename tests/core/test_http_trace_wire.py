"""Over HTTP the protocol trace keeps what went over the wire, as over stdio: a received answer is
recorded with the body's own text (this server writes JSON with spaces, which the SDK's models
would never serialize back), and a large one is kept as a head with its size in bytes as sent."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from anvia_nb import connect_mcp, mcp
from tests.helpers.rogue_http import HUGE_BYTES, TOOL, RogueHttp

BOUND_SECONDS = 30.0
pytestmark = pytest.mark.anyio


@pytest.fixture
def rogue() -> Iterator[RogueHttp]:
    server = RogueHttp()
    try:
        yield server
    finally:
        server.stop()


async def test_a_received_answer_is_traced_as_its_body_was_written(rogue: RogueHttp) -> None:
    server = await connect_mcp(mcp.http(name="web", url=rogue.url("plain")), timeout_seconds=BOUND_SECONDS)
    try:
        listed = [e for e in server.trace.entries() if e.method == "tools/list" and e.kind == "result"]
        assert len(listed) == 1
        written = json.dumps({"jsonrpc": "2.0", "id": listed[0].id, "result": {"tools": [TOOL]}})
        assert listed[0].json == written and ", " in written
        assert listed[0].size == len(written)
    finally:
        await server.close()


async def test_a_large_answer_is_traced_as_a_head_and_its_size_on_the_wire(rogue: RogueHttp) -> None:
    server = await connect_mcp(mcp.http(name="web", url=rogue.url("huge")), timeout_seconds=BOUND_SECONDS)
    try:
        assert len(await server.tool("attack").call({})) == HUGE_BYTES
        answer = [e for e in server.trace.entries() if e.method == "tools/call" and e.kind == "result"][-1]
        assert answer.truncated
        head = answer.message()["head"]
        assert head.startswith('{"jsonrpc": "2.0", "id": ') and len(head) <= 2_000
        assert answer.size == len(
            json.dumps(
                {"jsonrpc": "2.0", "id": answer.id, "result": {"content": [{"type": "text", "text": "x" * HUGE_BYTES}]}}
            )
        )
    finally:
        await server.close()
