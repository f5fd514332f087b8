"""A hand-written streamable-HTTP MCP server that attacks its client, in a thread of the test.

It answers JSON (never SSE), speaks the ``initialize`` handshake (2025-06-18) and lists one
tool, ``attack``. The URL's last path segment chooses what calling it does: ``deep`` answers with
``structuredContent`` nested 200 deep; ``huge`` answers with a body of ``HUGE_BYTES`` bytes.
"""

from __future__ import annotations

import json
from typing import Any

from tests.helpers.hand_http import McpHandler, Served

HUGE_BYTES = 5_000_000
TOOL = {"name": "attack", "description": "Does what the URL says.", "inputSchema": {"type": "object"}}


def _deep() -> dict[str, Any]:
    nested: dict[str, Any] = {}
    inner = nested
    for _ in range(200):
        inner["a"] = {}
        inner = inner["a"]
    return nested


class _Handler(McpHandler):
    def do_POST(self) -> None:
        message = self.read_json()
        method, ident = message.get("method"), message.get("id")
        if ident is None:
            self.reply(202)
            return
        mode = self.path.rstrip("/").rsplit("/", 1)[-1]
        if method == "initialize":
            result: Any = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": f"rogue-http-{mode}", "version": "1"},
            }
        elif method == "tools/list":
            result = {"tools": [TOOL]}
        elif method == "tools/call" and mode == "deep":
            result = {"content": [{"type": "text", "text": "deep"}], "structuredContent": _deep()}
        elif method == "tools/call" and mode == "huge":
            result = {"content": [{"type": "text", "text": "x" * HUGE_BYTES}]}
        else:
            error = {"code": -32601, "message": f"no method {method}"}
            self.reply(200, json.dumps({"jsonrpc": "2.0", "id": ident, "error": error}).encode())
            return
        self.reply(200, json.dumps({"jsonrpc": "2.0", "id": ident, "result": result}).encode())


class RogueHttp(Served):
    """Serves on 127.0.0.1 (a free port) until :meth:`stop`."""

    def __init__(self) -> None:
        super().__init__(_Handler)

    def url(self, mode: str = "") -> str:
        return super().url(f"/mcp/{mode}")
