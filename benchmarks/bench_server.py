"""The one server every contender of the benchmark calls: ``python benchmarks/bench_server.py``.

stdio by default; ``--http`` serves streamable HTTP on 127.0.0.1 (a free port) and prints
``listening on URL`` to stderr once it accepts connections; ``--form-tool`` lists a fifth tool,
``wide_form``, whose inputSchema has 300 properties (``benchmarks/forms.py``'s schema, for
``%mcp form``), kept out of the default list so every other row lists the same four tools:

- ``echo(message)``: the message back (the trivial call);
- ``payload(size_chars)``: one text item of exactly that many characters, full of what JSON and
  HTML must escape (quotes, backslashes, ``<&>``, newlines, tabs, accents, CJK), built once per
  size, so a repeat costs the server nothing but sending it;
- ``sleep(ms)``: answers after that many milliseconds (the map's tool);
- ``shout(size_chars)``: sends one log message (``notifications/message``, level ``info``) whose
  data is the payload text of that size, then answers ``shouted`` (a large message that is not
  a result).

A low-level ``Server`` with no input validation and nothing imported that a call would wait for,
so what is measured is the client.
"""

from __future__ import annotations

import argparse
import socket
import sys
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

__all__ = ["LISTENING", "payload_text"]

LISTENING = "listening on "
_PIECE = 'row "quoted" \\ back <tag attr="1"> & amp\tTab é ü 日本語 $x$\n'

TOOLS: list[dict[str, Any]] = [
    {
        "name": "echo",
        "description": "The message back.",
        "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
    },
    {
        "name": "payload",
        "description": "One text item of size_chars characters with much to escape.",
        "inputSchema": {
            "type": "object",
            "properties": {"size_chars": {"type": "integer", "minimum": 0}},
            "required": ["size_chars"],
        },
    },
    {
        "name": "shout",
        "description": "One log message of size_chars characters, then a short answer.",
        "inputSchema": {
            "type": "object",
            "properties": {"size_chars": {"type": "integer", "minimum": 0}},
            "required": ["size_chars"],
        },
    },
    {
        "name": "sleep",
        "description": "Answers after ms milliseconds.",
        "inputSchema": {"type": "object", "properties": {"ms": {"type": "number", "minimum": 0}}, "required": ["ms"]},
    },
]


@lru_cache(maxsize=4)
def payload_text(size_chars: int) -> str:
    """Exactly ``size_chars`` characters of text with something to escape on every line."""
    return (_PIECE * (size_chars // len(_PIECE) + 1))[:size_chars]


@lru_cache(maxsize=4)
def _payload_result(size_chars: int) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=payload_text(size_chars))])


async def _list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
    return types.ListToolsResult.model_validate({"tools": TOOLS})


def _with_form_tool() -> None:
    """List ``wide_form`` too: a tool of 300 properties that answers like ``echo``."""
    sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository
    from benchmarks.forms import many_properties

    schema = many_properties()
    TOOLS.append({"name": "wide_form", "description": "300 arguments; answers as echo.", "inputSchema": schema})


async def _call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    arguments = params.arguments or {}
    if params.name == "payload":
        return _payload_result(int(arguments.get("size_chars", 0)))
    if params.name == "shout":
        with warnings.catch_warnings():  # logging is deprecated from 2026-07-28 on, still sent when asked
            warnings.simplefilter("ignore")
            await ctx.session.send_log_message("info", payload_text(int(arguments.get("size_chars", 0))), "bench")
        return types.CallToolResult(content=[types.TextContent(type="text", text="shouted")])
    if params.name == "sleep":
        await anyio.sleep(float(arguments.get("ms", 0)) / 1000)
        return types.CallToolResult(content=[types.TextContent(type="text", text="slept")])
    return types.CallToolResult(content=[types.TextContent(type="text", text=str(arguments.get("message", "")))])


async def _set_level(_ctx: Any, _params: Any) -> types.EmptyResult:
    return types.EmptyResult()


def build_server() -> Server[Any]:
    with warnings.catch_warnings():  # the logging capability (for ``shout``) is deprecated from 2026-07-28 on
        warnings.simplefilter("ignore")
        return Server(
            "anvia-bench",
            version="1.0",
            on_list_tools=_list_tools,
            on_call_tool=_call_tool,
            on_set_logging_level=_set_level,
        )


async def _serve_stdio() -> None:
    server = build_server()
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def run_stdio() -> None:
    anyio.run(_serve_stdio)


def _serve_http() -> None:
    import uvicorn

    class Announcing(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            port = int(self.servers[0].sockets[0].getsockname()[1])
            print(f"{LISTENING}http://127.0.0.1:{port}/mcp", file=sys.stderr, flush=True)

    app = build_server().streamable_http_app(host="127.0.0.1")
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=1
    )
    Announcing(config).run()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--http", action="store_true")
    parser.add_argument("--form-tool", action="store_true", help="list wide_form, a tool of 300 properties, too")
    args = parser.parse_args()
    if args.form_tool:
        _with_form_tool()
    if args.http:
        _serve_http()
    else:
        run_stdio()


if __name__ == "__main__":
    main()
