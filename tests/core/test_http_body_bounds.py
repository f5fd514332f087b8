"""A JSON answer over HTTP is bounded whether or not it declares its length: one that declares a
length within the limit is read as it comes (h11 reads no more than declared), one that declares
none is counted as it is read and fails its call once past the limit."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.protocol import limits
from anvia_nb.errors import ProtocolError
from tests.helpers.hand_http import McpHandler, Served

BOUND_SECONDS = 30.0
LIMIT = 100_000
TOOL = {"name": "text", "description": "A text of the asked size.", "inputSchema": {"type": "object"}}


def _answer(message: dict[str, Any]) -> dict[str, Any]:
    """The JSON-RPC answer to one request: the handshake, the one tool, or its text."""
    method, answer = message.get("method"), {"jsonrpc": "2.0", "id": message["id"]}
    if method == "initialize":
        info = {"name": "t", "version": "1"}
        return answer | {"result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": info}}
    if method == "tools/list":
        return answer | {"result": {"tools": [TOOL]}}
    if method == "tools/call":
        text = "x" * message["params"]["arguments"]["size"]
        return answer | {"result": {"content": [{"type": "text", "text": text}]}}
    return answer | {"error": {"code": -32601, "message": f"no method {method}"}}


class _Handler(McpHandler):
    """Answers ``text(size)`` with that many characters; under ``/undeclared`` with no
    ``Content-Length`` (the body ends when the connection closes, HTTP/1.0)."""

    def do_POST(self) -> None:
        message = self.read_json()
        if "id" not in message:  # a notification
            self.reply(202)
            return
        body = json.dumps(_answer(message)).encode()
        if message.get("method") != "tools/call" or not self.path.endswith("/undeclared"):
            self.reply(200, body)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    monkeypatch.setattr(limits, "MAX_MESSAGE_BYTES", LIMIT)
    server = Served(_Handler)
    try:
        yield server
    finally:
        server.stop()


async def _call(url: str, size: int) -> Any:
    server = await connect_mcp(mcp.http(name="web", url=url), timeout_seconds=BOUND_SECONDS)
    try:
        return await asyncio.wait_for(server.tool("text").call_outcome({"size": size}), BOUND_SECONDS)
    finally:
        await server.close()


@pytest.mark.anyio
@pytest.mark.parametrize("path", ["/mcp/declared", "/mcp/undeclared"])
async def test_an_answer_within_the_limit_is_read_whole(served: Served, path: str) -> None:
    outcome = await _call(served.url(path), LIMIT - 1_000)
    assert outcome.error is None
    assert outcome.raw["content"][0]["text"] == "x" * (LIMIT - 1_000)


@pytest.mark.anyio
async def test_an_answer_of_no_declared_length_over_the_limit_fails_the_call(served: Served) -> None:
    outcome = await _call(served.url("/mcp/undeclared"), 2 * LIMIT)
    assert isinstance(outcome.error, ProtocolError)
    assert "web.text" in str(outcome.error) and f"larger than the limit of {LIMIT:,} bytes" in str(outcome.error)
