"""With ``protocol="2026-07-28"`` pinned, a ``-32022`` (unsupported protocol version) answer to
``server/discover`` is retried once, as the spec says and as the unpinned connect does, when the
versions the server names include 2026-07-28; otherwise the connect fails in one line naming them.

Against a small real HTTP server (a thread of this process) that refuses the first request with
HTTP 400 and ``-32022``, as the conformance suite's ``request-metadata`` scenario does."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from anvia_nb import ConnectError, connect_mcp, mcp
from anvia_nb.core.protocol.versions import MODERN
from tests.helpers.hand_http import QuietHandler, Served

pytestmark = pytest.mark.anyio


def _handler(supported: list[str]) -> type[QuietHandler]:
    state = {"refused": False}

    class Handler(QuietHandler):
        def _answer(self, status: int, body: dict[str, Any]) -> None:
            self.reply(status, json.dumps(body).encode())

        def do_POST(self) -> None:
            message = self.read_json()
            ident, method = message.get("id"), message.get("method")
            if ident is None:
                self.send_response(202)
                self.end_headers()
                return
            if not state["refused"]:
                state["refused"] = True
                asked = self.headers.get("mcp-protocol-version")
                data = {"supported": supported, "requested": asked}
                error = {"code": -32022, "message": "Unsupported protocol version", "data": data}
                self._answer(400, {"jsonrpc": "2.0", "id": ident, "error": error})
                return
            result: dict[str, Any] = {"resultType": "complete", "ttlMs": 0, "cacheScope": "private"}
            if method == "server/discover":
                result.update(
                    supportedVersions=[MODERN],
                    capabilities={"tools": {}},
                    serverInfo={"name": "versions", "version": "1"},
                )
            elif method == "tools/list":
                result["tools"] = []
            self._answer(200, {"jsonrpc": "2.0", "id": ident, "result": result})

    return Handler


@pytest.fixture
def serve() -> Iterator[Any]:
    started: list[Served] = []

    def start(supported: list[str]) -> str:
        started.append(Served(_handler(supported)))
        return started[-1].url()

    yield start
    for served in started:
        served.stop()


async def test_a_refusal_naming_the_pinned_version_is_retried(serve: Any) -> None:
    url = serve([MODERN])
    async with await connect_mcp(mcp.http(name="versions", url=url, protocol=MODERN), timeout_seconds=30) as server:
        assert server.client.protocol_version == MODERN
        assert server.tools == []


async def test_a_refusal_naming_other_versions_fails_in_one_line_naming_them(serve: Any) -> None:
    url = serve(["2099-01-01"])
    with pytest.raises(ConnectError) as info:
        await connect_mcp(mcp.http(name="versions", url=url, protocol=MODERN), timeout_seconds=30)
    message = str(info.value)
    assert "does not speak protocol" in message and "2099-01-01" in message and "HTTP 400" not in message
    assert len(message.splitlines()) == 1
