"""Command line and transports of the demo server: ``python -m anvia_nb.demo_server``.

stdio by default (the protocol owns stdout, so every log line goes to stderr); ``--http`` serves
streamable HTTP on 127.0.0.1 with uvicorn and, once it accepts connections, prints one line
``anvia demo server listening on http://127.0.0.1:PORT/mcp`` to stderr, so ``--port 0`` (a free
port) is usable from tests and notebooks. ``--require-header "Name: value"`` rejects requests
without that header with 401, to exercise connections that carry secret headers.
"""

from __future__ import annotations

import argparse
import hmac
import importlib
import logging
import socket
import sys
import threading
from collections.abc import Sequence

import anyio
import uvicorn
from mcp.server.lowlevel import NotificationOptions
from mcp.server.stdio import stdio_server
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from anvia_nb.demo_server.handlers import build_server

__all__ = ["LISTENING_PREFIX", "main", "parse_header", "serve_http", "serve_stdio"]

LISTENING_PREFIX = "anvia demo server listening on "
"""Start of the one stderr line that announces the HTTP URL (tests read the port from it)."""

logger = logging.getLogger("anvia_nb.demo_server")


async def serve_stdio() -> None:
    """Serve one client over this process's stdin and stdout until stdin closes."""
    server = build_server()
    async with stdio_server() as (read_stream, write_stream):
        options = server.create_initialization_options(NotificationOptions(tools_changed=True))
        await server.run(read_stream, write_stream, options)


class RequireHeader:
    """ASGI guard: HTTP requests without the expected header value get 401 and never reach MCP.

    The comparison is constant-time and the response never echoes the expected value.
    """

    def __init__(self, app: ASGIApp, name: str, value: str) -> None:
        self.app = app
        self.name = name
        self.value = value.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            sent = Headers(scope=scope).get(self.name)
            if sent is None or not hmac.compare_digest(sent.encode(), self.value):
                body = {"error": f"missing or wrong {self.name} header"}
                await JSONResponse(body, status_code=401)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def url_for(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/mcp"


class _AnnouncingServer(uvicorn.Server):
    """A uvicorn server that prints the listening URL once its sockets accept connections."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if not self.started:
            return
        port = int(self.servers[0].sockets[0].getsockname()[1])
        print(LISTENING_PREFIX + url_for(self.config.host, port), file=sys.stderr, flush=True)


def serve_http(host: str, port: int, required_header: tuple[str, str] | None = None) -> None:
    """Serve streamable HTTP at ``/mcp`` until SIGINT or SIGTERM."""
    app: ASGIApp = build_server().streamable_http_app(host=host)
    if required_header is not None:
        app = RequireHeader(app, *required_header)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=2,
    )
    _AnnouncingServer(config).run()


def parse_header(text: str) -> tuple[str, str]:
    """``"Name: value"`` as ``(name, value)``; raises ``argparse.ArgumentTypeError`` otherwise."""
    name, colon, value = text.partition(":")
    if not colon or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError('expected "Name: value"')
    return name.strip(), value.strip()


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="anvia-demo-server",
        description="The MCP demo server bundled with anvia_nb (stdio unless --http).",
    )
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP host (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="HTTP port; 0 picks a free one (default)")
    parser.add_argument(
        "--require-header",
        type=parse_header,
        metavar='"NAME: VALUE"',
        help="HTTP only: answer 401 to requests without this header",
    )
    args = parser.parse_args(argv)
    if args.require_header is not None and not args.http:
        parser.error("--require-header needs --http")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of ``python -m anvia_nb.demo_server`` and the ``anvia-demo-server`` script."""
    args = _arguments(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="anvia-demo %(levelname)s %(message)s")
    logger.setLevel(logging.INFO)
    # Importing jsonschema takes about a second here; the first argument check needs it, so
    # load it while the client is still connecting rather than during the first call.
    threading.Thread(target=importlib.import_module, args=("jsonschema",), daemon=True).start()
    try:
        if args.http:
            serve_http(args.host, args.port, args.require_header)
        else:
            anyio.run(serve_stdio)
    except KeyboardInterrupt:
        pass
