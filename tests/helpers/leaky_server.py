"""A stdio MCP server that puts one secret-looking string in everything it writes but its results,
for the viewer-mode tests: ``python tests/helpers/leaky_server.py`` (no SDK, no anvia_nb: it starts at once).

The string, :data:`LEAK` (``LEAK_MARK`` in its environment to choose another), is in its stderr
(at start and at each call), its instructions, its capabilities and server info, every log message,
every error (a JSON-RPC error and a tool's ``isError`` result), the ``secret://config`` resource,
a ``file:///{path}`` template and a prompt. Its tools:

- ``echo(text)``: the text; ``add(a, b)``: ``a+b=SUM (a=A, b=B)``, so a test sees what was sent;
- ``chatter``: logs :data:`LEAK` at info and error level, then answers ``done``;
- ``fail``: a JSON-RPC error -32000 whose message holds :data:`LEAK`;
- ``boom``: an ``isError`` result whose text holds :data:`LEAK`;
- ``drop_tables``: destructive, never to be offered.

``--journal PATH`` appends every request it gets to ``PATH`` as one JSON line (method and params):
what a browser test reads to know what a page made the kernel ask, whatever the page showed.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

LEAK = os.environ.get("LEAK_MARK", "INTERNAL-db-password=hunter2-at-10.0.0.5:/srv/app/secret.yml")
FRAGMENT = "hunter2"
"""What no viewer may ever read (a part of :data:`LEAK`, so a cut or an escape is found too)."""

_OBJECT = {"type": "object"}
TOOLS = [
    {
        "name": "echo",
        "description": "Echo the text.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    },
    {
        "name": "add",
        "description": "Add two integers.",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
        },
    },
    {"name": "chatter", "description": "Log a little.", "inputSchema": _OBJECT},
    {"name": "fail", "description": "Fail with a JSON-RPC error.", "inputSchema": _OBJECT},
    {"name": "boom", "description": "Answer with an error result.", "inputSchema": _OBJECT},
    {
        "name": "drop_tables",
        "description": "Drop every table.",
        "inputSchema": _OBJECT,
        "annotations": {"destructiveHint": True},
    },
]
RESOURCES = [{"uri": "secret://config", "name": "config"}, {"uri": "public://readme", "name": "readme"}]
TEMPLATES = [{"uriTemplate": "file:///{path}", "name": "files"}]
PROMPTS = [{"name": "leak", "description": "A prompt."}]


def _send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _stderr(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def _text(text: str, **extra: Any) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], **extra}


def _call(params: dict[str, Any]) -> dict[str, Any] | tuple[int, str]:
    name, arguments = params.get("name"), params.get("arguments") or {}
    _stderr(f"call {name}: connecting with {LEAK}")
    if name == "echo":
        return _text(str(arguments.get("text", "")))
    if name == "add":
        a, b = arguments.get("a"), arguments.get("b")
        return (
            _text(f"a+b={a + b} (a={a}, b={b})")
            if isinstance(a, int) and isinstance(b, int)
            else (-32602, f"bad arguments: {LEAK}")
        )
    if name == "chatter":
        for level in ("info", "error"):
            _send(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/message",
                    "params": {"level": level, "logger": "db", "data": f"{level}: {LEAK}"},
                }
            )
        return _text("done")
    if name == "fail":
        return (-32000, f"echo failed: {LEAK}")
    if name == "boom":
        return _text(f"boom: {LEAK}", isError=True)
    if name == "drop_tables":
        return _text("dropped every table")
    return (-32602, f"no tool {name}: {LEAK}")


def _answer(method: str, params: dict[str, Any]) -> dict[str, Any] | tuple[int, str]:
    if method == "initialize":
        return {
            "protocolVersion": "2025-06-18",
            "capabilities": {
                "tools": {},
                "resources": {},
                "prompts": {},
                "logging": {},
                "experimental": {"leak": {"where": LEAK}},
            },
            "serverInfo": {"name": f"leaky {LEAK}", "version": "1"},
            "instructions": f"Use the password {LEAK}.",
        }
    answers: dict[str, Any] = {
        "ping": {},
        "logging/setLevel": {},
        "tools/list": {"tools": TOOLS},
        "resources/list": {"resources": RESOURCES},
        "resources/templates/list": {"resourceTemplates": TEMPLATES},
        "prompts/list": {"prompts": PROMPTS},
    }
    if method in answers:
        return dict(answers[method])
    if method == "tools/call":
        return _call(params)
    if method == "resources/read":
        uri = str(params.get("uri"))
        text = f"password: {LEAK}" if uri == "secret://config" else f"contents of {uri}: {LEAK}"
        return {"contents": [{"uri": uri, "mimeType": "text/plain", "text": text}]}
    if method == "prompts/get":
        return {"messages": [{"role": "user", "content": {"type": "text", "text": f"say {LEAK}"}}]}
    return (-32601, f"no method {method}: {LEAK}")


def _journal() -> str | None:
    arguments = sys.argv[1:]
    return arguments[arguments.index("--journal") + 1] if "--journal" in arguments else None


def main() -> None:
    _stderr(f"starting with {LEAK}")
    journal = _journal()
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        method, ident = message.get("method"), message.get("id")
        if ident is None or not isinstance(method, str):
            continue  # notifications, answers
        if journal is not None:
            with open(journal, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({"method": method, "params": message.get("params")}) + "\n")
        answer = _answer(method, message.get("params") or {})
        if isinstance(answer, tuple):
            _send({"jsonrpc": "2.0", "id": ident, "error": {"code": answer[0], "message": answer[1]}})
        else:
            _send({"jsonrpc": "2.0", "id": ident, "result": answer})


if __name__ == "__main__":
    main()
