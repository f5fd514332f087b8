"""The bounds every connection lives within, in one place (change them here, before connecting).

``MAX_MESSAGE_BYTES`` is the largest message a server may send on any transport: a bigger one
ends the connection with a clear error instead of being buffered whole. The timeouts are what
``connect_mcp`` and ``Tool.call`` use when given none; an explicit ``None`` still means no limit.
"""

from __future__ import annotations

import enum

__all__ = [
    "DEFAULT",
    "DEFAULT_CALL_TIMEOUT_SECONDS",
    "DEFAULT_CONNECT_TIMEOUT_SECONDS",
    "DEFAULT_MAX_CALLS_IN_FLIGHT",
    "MAX_MESSAGE_BYTES",
    "PROGRESS_KEPT",
    "Default",
    "Timeout",
    "timeout_or_default",
]

MAX_MESSAGE_BYTES = 256 * 1024 * 1024
"""Largest JSON-RPC message accepted from a server, in bytes (one stdio line, one HTTP body or SSE event)."""

DEFAULT_CONNECT_TIMEOUT_SECONDS = 30.0
"""How long connecting (handshake and tool listing) may take when no timeout is given."""

DEFAULT_CALL_TIMEOUT_SECONDS = 60.0
"""How long one tool call may take when no timeout is given."""

DEFAULT_MAX_CALLS_IN_FLIGHT = 16
"""How many tool calls one connection has in flight at once unless told otherwise (cells, forms
and maps share them; the others wait their turn)."""

PROGRESS_KEPT = 100
"""How many of a call's last progress notifications its outcome keeps."""


class Default(enum.Enum):
    """The type of :data:`DEFAULT`: "no timeout given" (``None`` means "no limit")."""

    TOKEN = "default"


DEFAULT = Default.TOKEN

Timeout = float | Default | None
"""What every ``timeout_seconds`` takes: seconds, :data:`DEFAULT` (the documented default), or ``None`` (no limit)."""


def timeout_or_default(timeout_seconds: float | Default | None, default: float) -> float | None:
    """``default`` when no timeout was given, else the one given (``None``: no limit)."""
    return default if isinstance(timeout_seconds, Default) else timeout_seconds
