"""Small stdio MCP servers for the log and error tests, started as ``python log_server.py MODE``.

- ``fatal``: writes ``fatal: missing API key`` (and the token it was given) to stderr and exits
  before any handshake, as a server without its configuration does;
- ``modern``: the SDK's ``MCPServer`` (protocol 2026-07-28) with ``chatter``, a tool that logs at
  four levels, and ``needs_url``, a tool that answers MCP error -32042 (URL elicitation required)
  with the URL in ``NEEDS_URL`` (a sign-in page by default);
- ``legacy``: a hand-written server that only knows the ``initialize`` handshake (2025-06-18):
  it records ``logging/setLevel`` and its ``chatter`` logs at the four levels from that level up;
  its ``change`` adds the tool ``extra`` (or takes it away) and sends ``tools/list_changed``.
"""

import json
import os
import sys
from typing import Any

LEVELS = ("debug", "info", "warning", "error")
URL = "https://auth.example.com/sign-in?session=abc"


def fatal() -> None:
    sys.stderr.write("starting up\n")
    sys.stderr.write(f"fatal: missing API key (token was {os.environ.get('DEMO_TOKEN', '')})\n")
    sys.stderr.flush()
    sys.exit(1)


def modern() -> None:
    # The SDK is imported here: ``fatal`` and ``legacy`` need none of it (about 1.3 s of CPU a start).
    # The module has no ``from __future__ import annotations``: the SDK resolves a tool's annotations
    # (``Context``) when it is defined, and these names exist only in this function.
    from mcp import UrlElicitationRequiredError
    from mcp.server.mcpserver import Context, MCPServer
    from mcp_types import ElicitRequestURLParams

    server = MCPServer("log-server")

    @server.tool()
    async def chatter(ctx: Context) -> str:
        """Log one message at each of four levels."""
        for level in LEVELS:
            await ctx.log(level, f"{level} message", logger_name="db")  # type: ignore[arg-type]
        return "done"

    @server.tool()
    async def needs_url() -> str:
        """Answer MCP error -32042: the person must sign in first."""
        params = ElicitRequestURLParams(
            mode="url",
            message="Sign in to the files service",
            url=os.environ.get("NEEDS_URL", URL),
            elicitation_id="sign-in-1",
        )
        raise UrlElicitationRequiredError([params], "MCP error -32042: Authorization required")

    server.run("stdio")


def _send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def legacy() -> None:
    chatter = {"name": "chatter", "description": "Log at four levels.", "inputSchema": {"type": "object"}}
    change = {"name": "change", "description": "Add or remove extra.", "inputSchema": {"type": "object"}}
    extra = {"name": "extra", "description": "Listed after change.", "inputSchema": {"type": "object"}}
    with_extra = False
    least = "debug"
    for line in sys.stdin:
        message = json.loads(line)
        method, ident = message.get("method"), message.get("id")
        if ident is None:
            continue  # notifications
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {"listChanged": True}, "logging": {}},
                "serverInfo": {"name": "legacy-log-server", "version": "1"},
            }
        elif method == "logging/setLevel":
            least = message["params"]["level"]
            sys.stderr.write(f"log level set to {least}\n")
            sys.stderr.flush()
            result = {}
        elif method == "tools/list":
            result = {"tools": [chatter, change, *([extra] if with_extra else [])]}
        elif method == "tools/call" and message["params"]["name"] == "change":
            with_extra = not with_extra
            _send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
            result = {"content": [{"type": "text", "text": "changed"}]}
        elif method == "tools/call":
            for level in LEVELS[LEVELS.index(least) if least in LEVELS else 0 :]:
                params = {"level": level, "logger": "db", "data": f"{level} message"}
                _send({"jsonrpc": "2.0", "method": "notifications/message", "params": params})
            result = {"content": [{"type": "text", "text": "done"}]}
        else:
            _send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"no method {method}"}})
            continue
        _send({"jsonrpc": "2.0", "id": ident, "result": result})


if __name__ == "__main__":
    {"fatal": fatal, "modern": modern, "legacy": legacy}[sys.argv[1]]()
