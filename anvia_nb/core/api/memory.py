"""A connection to an MCP server object in this process, through the SDK's in-memory transport
(``mcp.memory(...)``: fast tests and teaching; nothing is started and nothing is secret)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.limits import Timeout
from anvia_nb.core.transport.client import McpClient
from anvia_nb.core.transport.sdk.memory import MemoryLaunch

__all__ = ["MemoryConnection"]


@dataclass(frozen=True)
class MemoryConnection:
    """A server object in this process, reached through the SDK's in-memory transport."""

    name: str
    server: Any  # any: the SDK's server object, passed on untouched
    max_calls_in_flight: int | None = None
    protocol: str | None = None
    """The protocol generation to speak (:mod:`anvia_nb.core.protocol.versions`; ``None``: discover, then fall back)."""
    transport: Literal["memory"] = "memory"

    def secrets(self) -> tuple[str, ...]:
        return ()

    def unmasked(self) -> tuple[str, ...]:
        return ()

    def target(self) -> str:
        return f"in-memory {type(self.server).__name__}"

    def client(self, *, log_level: str | None = None) -> McpClient:
        """A client for this connection, not yet open."""
        return McpClient(
            self.name,
            MemoryLaunch(self.server, self.protocol),
            log_level=log_level,
            max_calls_in_flight=self.max_calls_in_flight,
        )

    async def connect(self, *, timeout_seconds: Timeout = limits.DEFAULT, log_level: str | None = None) -> McpClient:
        """Handshake (by default within :data:`~anvia_nb.core.protocol.limits.DEFAULT_CONNECT_TIMEOUT_SECONDS`)."""
        return await self.client(log_level=log_level).open(timeout_seconds)
