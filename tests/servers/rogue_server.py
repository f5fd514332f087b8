"""A hand-written stdio MCP server that attacks its client, started as ``python rogue_server.py MODE``.

It speaks the ``initialize`` handshake (2025-06-18) and lists one tool, ``attack``; what calling
it does depends on MODE:

- ``mute``: reads everything and answers nothing, not even the handshake;
- ``silent``: never answers ``tools/call``;
- ``deep``: answers with ``structuredContent`` nested 200 deep (valid JSON the SDK cannot parse);
- ``crash``: starts a child that keeps the server's stdout open, writes its pid to stderr as
  ``child pid=<pid>``, then exits without answering;
- ``setsid``: at start, starts a child in a session of its own (``setsid``), and writes
  ``escapee pid=<pid>``; calls answer ``ok``;
- ``huge``: writes a line of ``HUGE_BYTES`` bytes (argv[2]) with no newline, then waits;
- ``progress``: sends ``PROGRESS_COUNT`` (argv[2]) progress notifications of 1,000 characters each,
  then answers ``ok``;
- ``noise``: sends ``NOISE_COUNT`` (argv[2]) invalid notifications quoting ``key=sk-live-secret42``,
  then answers ``ok``.

Every mode writes ``ready pid=<pid>`` to stderr once started.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

SECRET = "sk-live-secret42"
TOOL = {"name": "attack", "description": "Does what the mode says.", "inputSchema": {"type": "object"}}


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def say(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def sleeper(**options: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], stdin=subprocess.DEVNULL, **options)


def attack(mode: str, ident: Any, params: dict[str, Any]) -> dict[str, Any] | None:
    """The result to send for ``tools/call``, or ``None`` to send nothing."""
    amount = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if mode == "silent":
        return None
    if mode == "deep":
        nested: dict[str, Any] = {}
        inner = nested
        for _ in range(200):
            inner["a"] = {}
            inner = inner["a"]
        return {"content": [{"type": "text", "text": "deep"}], "structuredContent": nested}
    if mode == "crash":
        child = sleeper()  # inherits our stdout
        say(f"child pid={child.pid}")
        os._exit(3)
    if mode == "huge":
        chunk = b"x" * 65536
        sys.stdout.buffer.write(b'{"jsonrpc": "2.0", "id": ' + json.dumps(ident).encode() + b', "result": "')
        for _ in range(amount // len(chunk) + 1):
            sys.stdout.buffer.write(chunk)
        sys.stdout.flush()
        time.sleep(600)
    if mode == "progress":
        token = params.get("_meta", {}).get("progressToken")
        for index in range(amount):
            note = {"progressToken": token, "progress": index, "message": f"{index:06d}" + "p" * 994}
            send({"jsonrpc": "2.0", "method": "notifications/progress", "params": note})
    if mode == "noise":
        for index in range(amount):
            # A progress notification without its required fields: invalid MCP, quoting a secret.
            send({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"key": f"{SECRET} {index}"}})
    return {"content": [{"type": "text", "text": "ok"}]}


def main() -> None:
    mode = sys.argv[1]
    say(f"ready pid={os.getpid()}")
    if mode == "setsid":
        escapee = sleeper(start_new_session=True, stdout=subprocess.DEVNULL)
        say(f"escapee pid={escapee.pid}")
    for line in sys.stdin:
        message = json.loads(line)
        method, ident = message.get("method"), message.get("id")
        if ident is None or mode == "mute":
            continue
        if method == "initialize":
            result: dict[str, Any] | None = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": f"rogue-{mode}", "version": "1"},
            }
        elif method == "tools/list":
            result = {"tools": [TOOL]}
        elif method == "tools/call":
            result = attack(mode, ident, message.get("params") or {})
        else:
            send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"no method {method}"}})
            continue
        if result is not None:
            send({"jsonrpc": "2.0", "id": ident, "result": result})


if __name__ == "__main__":
    main()
