"""What a server receives over streamable HTTP is the request the protocol trace shows: one
compact UTF-8 JSON body (``core/transport/http/client.py`` writes it with pydantic-core, the
serializer of the SDK's models and of the trace), carrying every argument's value as given,
with its type and length in the headers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from anvia_nb import connect_mcp, mcp
from tests.helpers.hand_http import McpHandler, Served

BOUND_SECONDS = 30.0
TOOL = {"name": "keep", "description": "Answers with nothing.", "inputSchema": {"type": "object"}}
ARGUMENTS: dict[str, Any] = {
    "text": 'é 日本語 \u2028 "quoted" \\ \x01 </script>',
    "small": 1e-7,  # json.dumps writes 1e-07, pydantic 1e-7: the trace and the wire must still agree
    "large": 1e300,
    "big": 10**30,
    "nested": {"list": [True, None, 1.5, -0.0, {"": []}]},
}
pytestmark = pytest.mark.anyio


class _Keeper(McpHandler):
    """A 2025-06-18 server whose one tool answers with no content; each POST kept as it arrived."""

    posts: ClassVar[list[tuple[bytes, str | None, str | None]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.posts.append((body, self.headers.get("Content-Type"), self.headers.get("Content-Length")))
        message = json.loads(body)
        if "id" not in message:  # a notification
            self.reply(202)
            return
        answer: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        method = message.get("method")
        if method == "initialize":
            info = {"name": "keeper", "version": "1"}
            answer["result"] = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": info}
        elif method == "tools/list":
            answer["result"] = {"tools": [TOOL]}
        elif method == "tools/call":
            answer["result"] = {"content": []}
        else:
            answer["error"] = {"code": -32601, "message": f"no method {method}"}
        self.reply(200, json.dumps(answer).encode())


@pytest.fixture
def keeper() -> Iterator[Served]:
    _Keeper.posts = []
    served = Served(_Keeper)
    try:
        yield served
    finally:
        served.stop()


async def test_the_server_receives_the_call_the_trace_recorded(keeper: Served) -> None:
    server = await connect_mcp(mcp.http(name="web", url=keeper.url()), timeout_seconds=BOUND_SECONDS)
    try:
        await server.tool("keep").call(ARGUMENTS)
        sent = [e for e in server.trace.entries() if e.method == "tools/call" and e.kind == "request"]
    finally:
        await server.close()
    calls = [post for post in _Keeper.posts if b'"tools/call"' in post[0]]
    assert len(calls) == 1 and len(sent) == 1
    body, kind, length = calls[0]
    assert json.loads(body)["params"]["arguments"] == ARGUMENTS
    assert body.decode("utf-8") == sent[0].json  # byte for byte what the trace shows
    assert "é 日本語" in body.decode("utf-8") and b'":' in body and b'": ' not in body  # UTF-8, compact
    assert kind == "application/json" and length == str(len(body))


async def test_every_request_of_a_connection_is_sent_as_json(keeper: Served) -> None:
    server = await connect_mcp(mcp.http(name="web", url=keeper.url()), timeout_seconds=BOUND_SECONDS)
    await server.close()
    methods = [json.loads(body).get("method") for body, _kind, _length in _Keeper.posts]
    assert "initialize" in methods and "tools/list" in methods
    assert {kind for _body, kind, _length in _Keeper.posts} == {"application/json"}
    assert all(length == str(len(body)) for body, _kind, length in _Keeper.posts)
