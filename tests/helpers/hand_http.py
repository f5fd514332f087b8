"""Hand-written HTTP servers for tests, each in a thread of the test, on 127.0.0.1 only.

:class:`QuietHandler` is the request handler they share (no log lines, a JSON request read in one
call, an answer with its length); :class:`Served` runs one handler class on a free port until
:meth:`Served.stop`."""

from __future__ import annotations

import json
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["McpHandler", "QuietHandler", "Served"]


class QuietHandler(BaseHTTPRequestHandler):
    """A handler that logs nothing, with the few steps every hand-written MCP server takes."""

    def log_message(self, format: str, *args: Any) -> None:
        return

    def read_json(self) -> Any:
        """The request's JSON body."""
        return json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))

    def reply(self, status: int, body: bytes = b"", content_type: str = "application/json") -> None:
        """An answer of ``body`` with its length (an empty 202 or 405 too)."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Served:
    """``handler`` served on 127.0.0.1 (a free port) in a thread, over TLS when given ``tls``."""

    def __init__(self, handler: type[BaseHTTPRequestHandler], tls: ssl.SSLContext | None = None) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "/mcp") -> str:
        scheme = "http" if not isinstance(self.server.socket, ssl.SSLSocket) else "https"
        return f"{scheme}://127.0.0.1:{self.server.server_address[1]}{path}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


class McpHandler(QuietHandler):
    """A streamable HTTP MCP endpoint's handler with no GET stream (405) and an accepted DELETE:
    a subclass answers POST."""

    def do_GET(self) -> None:
        self.reply(405)

    def do_DELETE(self) -> None:
        self.reply(200)
