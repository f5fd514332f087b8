"""The one place a connection's ``protocol`` (:mod:`anvia_nb.core.protocol.versions`) becomes the SDK's.

``mcp.Client(mode=...)``: ``"auto"`` for ``None``, ``"legacy"`` for the handshake. For
2026-07-28 the SDK's version pin adopts a *made-up* ``server/discover`` answer with no
capabilities, no server info and no instructions (its ``prior_discover`` is for a result already
held): resources, prompts and list changes would look absent. So the pinned client then sends
``server/discover`` once at that version, without the fallback of ``"auto"``, and adopts the
server's own answer.
"""

from __future__ import annotations

import mcp_types
from mcp import Client
from mcp.shared.exceptions import MCPError

from anvia_nb.core.protocol.versions import HANDSHAKE, MODERN
from anvia_nb.errors import ConnectError

__all__ = ["client_mode", "settle_protocol"]


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
        answer = await client.session.send_discover(MODERN)
    except MCPError as exc:
        raise ConnectError(
            f"Connecting to {server!r} failed: it refused server/discover (error {exc.code}), so it does not "
            f"speak protocol {MODERN}; connect without protocol, or with protocol {HANDSHAKE!r}.",
            server=server,
        ) from exc
    client.session.adopt(mcp_types.DiscoverResult.model_validate(answer))
