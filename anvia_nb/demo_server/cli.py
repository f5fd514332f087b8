"""The demo server's command line, read before the server (and the MCP SDK, about 1.4 s of CPU) is
imported: a wrong option is said at once, and costs nothing."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

__all__ = ["LISTENING_PREFIX", "arguments", "parse_header"]

LISTENING_PREFIX = "anvia demo server listening on "
"""The line an HTTP server prints on stderr before its URL, once it accepts connections."""


def parse_header(text: str) -> tuple[str, str]:
    """``"Name: value"`` as ``(name, value)``; raises ``argparse.ArgumentTypeError`` otherwise."""
    name, colon, value = text.partition(":")
    if not colon or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError('expected "Name: value"')
    return name.strip(), value.strip()


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    """The options of ``argv`` (``None``: the command line); a wrong one exits with argparse's usage."""
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
    parser.add_argument(
        "--poisoned",
        action="store_true",
        help="serve the poisoned definitions of the tool-poisoning workshop instead (never by default)",
    )
    args = parser.parse_args(argv)
    if args.require_header is not None and not args.http:
        parser.error("--require-header needs --http")
    return args
