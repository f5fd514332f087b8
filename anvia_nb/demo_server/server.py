"""Command line and transports of the demo server: ``python -m anvia_nb.demo_server``.

stdio by default (the protocol owns stdout, so every log line goes to stderr); ``--http`` serves
streamable HTTP on 127.0.0.1 (:mod:`anvia_nb.demo_server.http`, loaded only then).
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

import anyio
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.stdio import stdio_server

from anvia_nb.core.protocol.schema import import_jsonschema
from anvia_nb.demo_server.cli import LISTENING_PREFIX, arguments
from anvia_nb.demo_server.handlers import build_server

__all__ = ["LISTENING_PREFIX", "main", "run", "serve_stdio"]

"""Start of the one stderr line that announces the HTTP URL (tests read the port from it)."""

logger = logging.getLogger("anvia_nb.demo_server")


async def serve_stdio(build: Callable[[], Server[Any]] = build_server) -> None:
    """Serve one client over this process's stdin and stdout until stdin closes (``build``: the
    server, the demo server unless told the poisoned one)."""
    server = build()
    async with stdio_server() as (read_stream, write_stream):
        options = server.create_initialization_options(NotificationOptions(tools_changed=True))
        await server.run(read_stream, write_stream, options)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of ``python -m anvia_nb.demo_server`` and the ``anvia-demo-server`` script."""
    run(arguments(argv))


def run(args: argparse.Namespace) -> None:
    """Serve as ``args`` (from :func:`anvia_nb.demo_server.cli.arguments`) say."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="anvia-demo %(levelname)s %(message)s")
    logger.setLevel(logging.INFO)
    # The first argument check needs jsonschema: load it while the client is still connecting,
    # without the IRI grammar that no demo tool's format uses (two seconds of CPU to build).
    threading.Thread(target=import_jsonschema, daemon=True).start()
    build = build_server
    if args.poisoned:  # the workshop's poisoned definitions, only when asked
        from anvia_nb.demo_server.poisoned_server import build_poisoned_server as build
    try:
        if args.http:
            from anvia_nb.demo_server.http import serve_http  # uvicorn: only for HTTP

            serve_http(args.host, args.port, args.require_header, build)
        else:
            anyio.run(serve_stdio, build)
    except KeyboardInterrupt:
        pass
