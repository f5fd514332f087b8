"""The bounds every connection lives within, in one place (change them here, before connecting).

``MAX_MESSAGE_BYTES`` is the largest message a server may send on any transport: a bigger one
ends the connection with a clear error instead of being buffered whole. The timeouts are what
``connect_mcp`` and ``Tool.call`` use when given none; an explicit ``None`` still means no limit.
"""

from __future__ import annotations

import enum

__all__ = [
    "DEFAULT",
    "DEFAULT_CALL_MAX_SECONDS",
    "DEFAULT_CALL_TIMEOUT_SECONDS",
    "DEFAULT_CONNECT_TIMEOUT_SECONDS",
    "DEFAULT_MAX_CALLS_IN_FLIGHT",
    "MAX_MESSAGE_BYTES",
    "PROGRESS_KEPT",
    "Default",
    "Timeout",
    "max_time_or_default",
    "timeout_or_default",
]

MAX_MESSAGE_BYTES = 256 * 1024 * 1024
"""Largest JSON-RPC message accepted from a server, in bytes (one stdio line, one HTTP body or SSE event)."""

DEFAULT_CONNECT_TIMEOUT_SECONDS = 30.0
"""How long connecting (handshake and tool listing) may take when no timeout is given."""

DEFAULT_CALL_TIMEOUT_SECONDS = 60.0
"""How long one tool call may go without an answer or a progress notification when no timeout is
given (each progress notification starts it again, up to the call's max time)."""

DEFAULT_CALL_MAX_SECONDS = 600.0
"""How long one tool call may take in all, progress or not, when no max time is given (never less
than the call's own timeout; none when that timeout is ``None``)."""

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


def max_time_or_default(max_time_seconds: float | Default | None, timeout: float | None) -> float | None:
    """A call's whole-time bound: the one given (``None``: none), else
    :data:`DEFAULT_CALL_MAX_SECONDS` but never less than the call's resolved ``timeout`` (and none
    when that is ``None``: a call told to wait for ever is not cut short by a default)."""
    if not isinstance(max_time_seconds, Default):
        return max_time_seconds
    return None if timeout is None else max(DEFAULT_CALL_MAX_SECONDS, timeout)
