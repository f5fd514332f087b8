"""A small stdio MCP server for the tests whose subject is a process's life (close, reconnect,
interrupts, leaks, exit), started as ``python lite_server.py [--legacy]``.

It imports only the standard library, so it starts in milliseconds where the demo server spends
about 1.4 s of CPU importing the MCP SDK. It speaks MCP as JSON lines on stdin/stdout:

- both protocol eras the SDK client uses: ``server/discover`` (2026-07-28), or with ``--legacy``
  only the ``initialize`` handshake (the client falls back to it when discover is refused);
- ``ping``, ``tools/list`` (one page) and ``tools/call`` of five tools, named and shaped as the
  demo server's: ``echo`` (the message back), ``fail`` (a tool error quoting the message),
  ``large`` (``size_chars`` characters of ``0123456789abcdef...``), ``slow`` (``steps`` progress
  notifications ``delay_seconds`` apart; it writes ``slow started`` and, when the client cancels
  it, ``slow cancelled`` to stderr) and ``crash`` (the process exits with status 3);
- notifications are ignored (``notifications/cancelled`` ends a ``slow`` call); it exits at the
  end of its stdin, unless started with ``--ignore-eof`` (then it stays until it is killed, or
  five minutes: a server that only a signal ends, to prove the client sends one).

It writes ``ready pid=<pid>`` to stderr once started. Tests import ``LITE_ARGS`` (the arguments
after the interpreter) and ``LITE_STDIO`` (the ``%mcp connect`` option) from here.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import sys
import time
from pathlib import Path
from typing import Any

LITE_ARGS = [str(Path(__file__).resolve())]
LITE_STDIO = "--stdio " + shlex.join([sys.executable, *LITE_ARGS])
MODERN = "2026-07-28"
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
CRASH_EXIT_CODE = 3
IGNORED_EOF_SECONDS = 300
SERVER_INFO = {"name": "lite", "version": "1"}
CACHE = {"cacheScope": "private", "ttlMs": 0}
"""What 2026-07-28 requires of ``server/discover`` and list results: no one may cache them."""


def _tool(name: str, description: str, **properties: str) -> dict[str, Any]:
    schema = {"type": "object", "properties": {key: {"type": kind} for key, kind in properties.items()}}
    return {"name": name, "description": description, "inputSchema": schema}


TOOLS = [
    _tool("echo", "Returns the message as one text item.", message="string"),
    _tool("fail", "Returns a tool error quoting the message.", message="string"),
    _tool("large", "Returns size_chars characters of text.", size_chars="integer"),
    _tool("slow", "Reports progress steps times, delay_seconds apart.", steps="integer", delay_seconds="number"),
    _tool("crash", "Ends the server process."),
]


def say(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def text_result(text: str, *, is_error: bool = False) -> dict[str, Any]:
    result: dict[str, Any] = {"content": [{"type": "text", "text": text}]}
    if is_error:
        result["isError"] = True
    return result


class Slow:
    """A ``slow`` call in progress: its next step is due at ``due``."""

    def __init__(self, ident: Any, arguments: dict[str, Any], token: Any) -> None:
        self.ident, self.token = ident, token
        self.steps = int(arguments.get("steps", 5))
        self.delay = float(arguments.get("delay_seconds", 0.2))
        self.done = 0
        self.due = time.monotonic() + self.delay


class LiteServer:
    def __init__(self, *, legacy: bool) -> None:
        self.legacy = legacy
        self.modern = False
        self.slow: dict[Any, Slow] = {}

    def send(self, message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        sys.stdout.flush()

    def answer(self, ident: Any, result: dict[str, Any]) -> None:
        if self.modern:
            result = {"resultType": "complete", **result}
        self.send({"id": ident, "result": result})

    def refuse(self, ident: Any, code: int, text: str) -> None:
        self.send({"id": ident, "error": {"code": code, "message": text}})

    def handle(self, message: dict[str, Any]) -> None:
        method, ident, params = message.get("method"), message.get("id"), message.get("params") or {}
        if "id" not in message:
            if method == "notifications/cancelled" and self.slow.pop(params.get("requestId"), None):
                say("slow cancelled")
            return
        if method == "server/discover" and not self.legacy:
            self.modern = True
            stamp = {"io.modelcontextprotocol/serverInfo": SERVER_INFO}
            found = {"supportedVersions": [MODERN], "capabilities": {"tools": {}}, "_meta": stamp}
            self.answer(ident, {**found, **CACHE})
        elif method == "initialize":
            asked = params.get("protocolVersion")
            version = asked if asked in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]
            self.answer(ident, {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": SERVER_INFO})
        elif method == "ping":
            self.answer(ident, {})
        elif method == "tools/list":
            self.answer(ident, {"tools": TOOLS, **(CACHE if self.modern else {})})
        elif method == "tools/call":
            self.call(ident, params)
        else:
            self.refuse(ident, -32601, f"Method not found: {method}")

    def call(self, ident: Any, params: dict[str, Any]) -> None:
        name, arguments = params.get("name"), params.get("arguments") or {}
        if name == "echo":
            self.answer(ident, text_result(str(arguments.get("message", ""))))
        elif name == "fail":
            self.answer(ident, text_result(str(arguments.get("message", "failed")), is_error=True))
        elif name == "large":
            size = int(arguments.get("size_chars", 0))
            self.answer(ident, text_result(("0123456789abcdef" * (size // 16 + 1))[:size]))
        elif name == "slow":
            token = (params.get("_meta") or {}).get("progressToken")
            self.slow[ident] = Slow(ident, arguments, token)
            say(f"slow started: {self.slow[ident].steps} steps")
        elif name == "crash":
            say(f"crash requested: exiting with code {CRASH_EXIT_CODE}")
            os._exit(CRASH_EXIT_CODE)
        else:
            self.refuse(ident, -32602, f"Unknown tool: {name}")

    def step(self, now: float) -> None:
        """Advance every ``slow`` call whose next step is due."""
        for call in [c for c in self.slow.values() if c.due <= now]:
            call.done += 1
            if call.token is not None:
                progress = {"progressToken": call.token, "progress": call.done, "total": call.steps}
                self.send({"method": "notifications/progress", "params": progress})
            if call.done >= call.steps:
                del self.slow[call.ident]
                self.answer(call.ident, text_result(f"done after {call.steps} steps"))
            else:
                call.due = now + call.delay

    def run(self, ignore_eof: bool = False) -> None:
        selector = selectors.DefaultSelector()
        selector.register(sys.stdin.fileno(), selectors.EVENT_READ)
        pending = b""
        while True:
            due = min((c.due for c in self.slow.values()), default=None)
            timeout = None if due is None else max(0.0, due - time.monotonic())
            if selector.select(timeout):
                chunk = os.read(sys.stdin.fileno(), 1 << 16)
                if not chunk:
                    if ignore_eof:
                        time.sleep(IGNORED_EOF_SECONDS)
                    return  # the end of stdin: the client closed
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if line.strip():
                        self.handle(json.loads(line))
            self.step(time.monotonic())


if __name__ == "__main__":
    say(f"ready pid={os.getpid()}")
    LiteServer(legacy="--legacy" in sys.argv[1:]).run(ignore_eof="--ignore-eof" in sys.argv[1:])
