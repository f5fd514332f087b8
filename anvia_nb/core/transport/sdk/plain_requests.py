"""Requests the installed MCP SDK has no model for (a task's ``tasks/*``, the Skills extension's
``skills/*``), sent through its generic path, ``ClientSession.send_request``, with their answer
kept as plain JSON: the one place that tells the SDK "any JSON object" is the result type."""

from __future__ import annotations

from typing import Any, cast

import mcp_types
from mcp import ClientSession
from pydantic import TypeAdapter

from anvia_nb.core.protocol.types import JsonObject

__all__ = ["send_plain"]

_PLAIN = TypeAdapter(dict[str, Any])


async def send_plain(
    session: ClientSession,
    request: mcp_types.Request[Any, str],  # any: each request's own params model
    timeout_seconds: float | None = None,
) -> JsonObject:
    """Send ``request`` and return its result as a JSON object (``timeout_seconds``: the read
    timeout, ``None`` for the session's own)."""
    raw: Any = await session.send_request(
        request,
        cast(Any, _PLAIN),  # mcp SDK: send_request wants a result model; these answers are plain JSON objects
        request_read_timeout_seconds=timeout_seconds,
    )
    return dict(raw)
