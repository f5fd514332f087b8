"""Which generation of the MCP protocol a connection speaks (``mcp.stdio(..., protocol=...)``).

- ``None`` (the default): ``server/discover`` first (2026-07-28), and the ``initialize``
  handshake (2025-11-25 and older) when the server refuses it or does not answer;
- ``"2025-11-25"``: the ``initialize`` handshake only; the server may answer an older version.
  For a server that never answers ``server/discover`` (the default waits for it before falling
  back), or to reproduce what a client of the older protocol sees;
- ``"2026-07-28"``: ``server/discover`` only; a server that refuses it fails the connect.

Pure: the values and their check. :mod:`anvia_nb.core.transport.sdk_protocol` maps them to the SDK.
"""

from __future__ import annotations

from typing import Final

from anvia_nb.errors import InvalidValueError

__all__ = ["HANDSHAKE", "MODERN", "PROTOCOLS", "check_protocol"]

HANDSHAKE: Final = "2025-11-25"
MODERN: Final = "2026-07-28"
PROTOCOLS: Final = (HANDSHAKE, MODERN)


def check_protocol(value: object) -> str | None:
    """``value`` if it is an accepted protocol (or ``None``); otherwise a one-line error."""
    if value is None or (isinstance(value, str) and value in PROTOCOLS):
        return value
    shown = repr(value)[:60]
    raise InvalidValueError(
        f"protocol must be {HANDSHAKE!r} (the initialize handshake), {MODERN!r} (server/discover only) "
        f"or None (discover, then fall back), not {shown}."
    )
