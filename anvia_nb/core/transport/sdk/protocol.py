"""The one place a connection's ``protocol`` (:mod:`anvia_nb.core.protocol.versions`) becomes the SDK's.

``mcp.Client(mode=...)``: ``"auto"`` for ``None``, ``"legacy"`` for the handshake. For
2026-07-28 the SDK's version pin adopts a *made-up* ``server/discover`` answer with no
capabilities, no server info and no instructions (its ``prior_discover`` is for a result already
held): resources, prompts and list changes would look absent. So the pinned client then sends
``server/discover`` once at that version, without the fallback of ``"auto"``, and adopts the
server's own answer. A ``-32022`` (unsupported protocol version) answer is retried once at the
version its ``supported`` list shares with 2026-07-28, as ``"auto"`` does (the spec's retry); a
list without it fails the connect with the versions the server named.
"""

from __future__ import annotations

import contextlib
import functools
from typing import Any

import mcp_types
from mcp import Client
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from anvia_nb.core.protocol.versions import HANDSHAKE, MODERN
from anvia_nb.errors import ConnectError

__all__ = ["client_mode", "prepare_sdk_calls", "settle_protocol"]


def client_mode(protocol: str | None) -> str:
    """The ``mode=`` of ``mcp.Client`` for a connection's ``protocol``."""
    if protocol == HANDSHAKE:
        return "legacy"
    if protocol == MODERN:
        return MODERN
    return "auto"


async def settle_protocol(client: Client, protocol: str | None, server: str) -> None:
    """After ``Client.__aenter__``: for 2026-07-28, the server's own ``server/discover`` answer."""
    if protocol != MODERN:
        return
    try:
        try:
            answer = await client.session.send_discover(MODERN)
        except MCPError as exc:
            if exc.code != mcp_types.UNSUPPORTED_PROTOCOL_VERSION:
                raise
            answer = await client.session.send_discover(_retry_version(exc, server))
    except MCPError as exc:
        raise ConnectError(
            f"Connecting to {server!r} failed: it refused server/discover (error {exc.code}), so it does not "
            f"speak protocol {MODERN}; connect without protocol, or with protocol {HANDSHAKE!r}.",
            server=server,
        ) from exc
    client.session.adopt(mcp_types.DiscoverResult.model_validate(answer))


def _retry_version(exc: MCPError, server: str) -> str:
    """The version to send ``server/discover`` at again after ``-32022``: the pinned one, when the
    server's ``supported`` list names it (the first refusal may be a server's test of the client)."""
    data: Any = exc.error.data
    try:
        supported = mcp_types.UnsupportedProtocolVersionErrorData.model_validate(data).supported
    except ValidationError:
        raise exc from None
    if MODERN in supported:
        return MODERN
    named = ", ".join(str(version)[:40] for version in supported[:8]) or "none"
    raise ConnectError(
        f"Connecting to {server!r} failed: it does not speak protocol {MODERN} (it supports {named}); "
        f"connect without protocol, or with protocol {HANDSHAKE!r}.",
        server=server,
    ) from exc


@functools.cache
def prepare_sdk_calls() -> None:
    """Build what the SDK builds on a process's first ``tools/call``: the request model, left
    incomplete by ``mcp_types`` until first used, and the check of a result for each protocol
    version (two pydantic schemas built on the first call's path). Once per process (every connect
    asks, while its server starts; later ones find it done)."""
    from mcp_types import methods

    for model in (mcp_types.CallToolRequest, mcp_types.ReadResourceRequest, mcp_types.GetPromptRequest):
        if not model.__pydantic_complete__:
            model.model_rebuild()
    for method, version in methods.SERVER_RESULTS:  # a result's check, built once per version
        if method == "tools/call":
            with contextlib.suppress(Exception):
                methods.validate_server_result(method, version, {"content": []})
