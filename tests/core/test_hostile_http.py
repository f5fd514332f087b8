"""Over HTTP too, an unreadable or too large answer fails its call at once, naming the server."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.protocol import limits
from anvia_nb.errors import ProtocolError
from tests.helpers.rogue_http import RogueHttp

BOUND_SECONDS = 30.0


@pytest.fixture
def rogue() -> Iterator[RogueHttp]:
    server = RogueHttp()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.anyio
async def test_an_answer_nested_too_deep_over_http_is_a_protocol_error_naming_the_server(rogue: RogueHttp) -> None:
    server = await connect_mcp(mcp.http(name="web", url=rogue.url("deep")), timeout_seconds=BOUND_SECONDS)
    try:
        outcome = await asyncio.wait_for(server.tool("attack").call_outcome({}), BOUND_SECONDS)
        assert isinstance(outcome.error, ProtocolError)
        assert "web.attack" in str(outcome.error) and "could not be read" in str(outcome.error)
    finally:
        await server.close()


@pytest.mark.anyio
async def test_a_json_body_over_the_maximum_message_size_fails_the_call(
    rogue: RogueHttp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_MESSAGE_BYTES", 1_000_000)
    server = await connect_mcp(mcp.http(name="web", url=rogue.url("huge")), timeout_seconds=BOUND_SECONDS)
    try:
        outcome = await asyncio.wait_for(server.tool("attack").call_outcome({}), BOUND_SECONDS)
        assert isinstance(outcome.error, ProtocolError)
        assert "web.attack" in str(outcome.error) and "larger than the limit of 1,000,000 bytes" in str(outcome.error)
    finally:
        await server.close()
