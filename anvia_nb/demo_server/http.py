"""The demo server over streamable HTTP: ``python -m anvia_nb.demo_server --http``.

Served on 127.0.0.1 with uvicorn; once it accepts connections it prints one line
``anvia demo server listening on http://127.0.0.1:PORT/mcp`` to stderr, so ``--port 0`` (a free
port) is usable from tests and notebooks. ``--require-header "Name: value"`` rejects requests
without that header with 401, to exercise connections that carry secret headers.
"""

from __future__ import annotations

import hmac
import socket
import sys
from collections.abc import Callable
from typing import Any

import uvicorn
from mcp.server.lowlevel import Server
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from anvia_nb.demo_server.cli import LISTENING_PREFIX
from anvia_nb.demo_server.handlers import build_server

__all__ = ["RequireHeader", "serve_http", "url_for"]


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


def serve_http(
    host: str,
    port: int,
    required_header: tuple[str, str] | None = None,
    build: Callable[[], Server[Any]] = build_server,
) -> None:
    """Serve streamable HTTP at ``/mcp`` until SIGINT or SIGTERM (``build``: the server, the demo
    server unless told the poisoned one)."""
    app: ASGIApp = build().streamable_http_app(host=host)
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
