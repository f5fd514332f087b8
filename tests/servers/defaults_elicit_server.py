"""An MCP server whose one tool, ``register``, asks by form elicitation with a ``default`` for
every field (SEP-1034, as the conformance scenario ``elicitation-sep1034-client-defaults``) and
answers with the content it received, as JSON text.

Plain JSON lines over stdio, no SDK: the 2025-06-18 ``initialize`` handshake, then
``elicitation/create`` sent to the client in the middle of the call.
"""

from __future__ import annotations

import json
import sys
from typing import Any

METHOD_NOT_FOUND = -32601
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
        "verified": {"type": "boolean", "default": True},
    },
}
TOOL = {"name": "register", "inputSchema": {"type": "object"}}


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    sys.stdout.flush()


def main() -> None:
    waiting: dict[str, Any] = {}  # our elicitation's id -> the tools/call it belongs to
    for line in sys.stdin:
        message = json.loads(line)
        method, ident = message.get("method"), message.get("id")
        if method is None and ident in waiting:  # the client's answer to our elicitation/create
            content = (message.get("result") or {}).get("content")
            text = json.dumps(content, sort_keys=True)
            send({"id": waiting.pop(ident), "result": {"content": [{"type": "text", "text": text}]}})
        elif method == "initialize":
            capabilities: dict[str, Any] = {"tools": {}}
            info = {"name": "defaults-elicit", "version": "1"}
            send(
                {
                    "id": ident,
                    "result": {"protocolVersion": "2025-06-18", "capabilities": capabilities, "serverInfo": info},
                }
            )
        elif method == "tools/list":
            send({"id": ident, "result": {"tools": [TOOL]}})
        elif method == "tools/call":
            asked = f"elicit-{ident}"
            waiting[asked] = ident
            send(
                {
                    "id": asked,
                    "method": "elicitation/create",
                    "params": {"mode": "form", "message": "Register?", "requestedSchema": SCHEMA},
                }
            )
        elif ident is not None and method is not None:
            send({"id": ident, "error": {"code": METHOD_NOT_FOUND, "message": "Method not found"}})


if __name__ == "__main__":
    main()
