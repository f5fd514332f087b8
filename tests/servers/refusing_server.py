"""An MCP server that declares tools, resources and prompts yet refuses some of their listings
with ``-32601 Method not found``, as the sqlite and duckdb reference servers refuse
``resources/templates/list``.

Plain JSON lines over stdio, no SDK. Its arguments are the methods it refuses (by default
``resources/templates/list``); every other listing has one item, and ``tools/call`` of ``ping``
answers ``pong``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

METHOD_NOT_FOUND = -32601

LISTINGS: dict[str, tuple[str, list[dict[str, Any]]]] = {
    "tools/list": ("tools", [{"name": "ping", "inputSchema": {"type": "object"}}]),
    "resources/list": ("resources", [{"uri": "refusing://one", "name": "one"}]),
    "resources/templates/list": ("resourceTemplates", [{"uriTemplate": "refusing://{id}", "name": "item"}]),
    "prompts/list": ("prompts", [{"name": "hello"}]),
}


def answer(message: dict[str, Any], refused: set[str]) -> dict[str, Any]:
    method = str(message.get("method"))
    if method == "initialize":
        result = {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}, "resources": {}, "prompts": {}},
            "serverInfo": {"name": "refusing", "version": "1"},
        }
        return {"result": result}
    if method in LISTINGS and method not in refused:
        key, items = LISTINGS[method]
        return {"result": {key: items}}
    if method == "tools/call":
        return {"result": {"content": [{"type": "text", "text": "pong"}]}}
    if method == "ping":
        return {"result": {}}
    return {"error": {"code": METHOD_NOT_FOUND, "message": "Method not found"}}


def main() -> None:
    refused = set(sys.argv[1:]) or {"resources/templates/list"}
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue  # notifications
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], **answer(message, refused)}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
