"""``MemoryLaunch``: an SDK server object in this process, reached through the SDK's in-memory
transport (``mcp.memory(...)``: tests and teaching). A
:class:`~anvia_nb.core.transport.session.SessionOpener` with no wire: nothing is started, nothing
traced, no authorization to fail."""

from __future__ import annotations

import contextlib
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from anvia_nb.core.transport.handlers import SessionHandlers
from anvia_nb.core.transport.sdk.connect import ClientTarget, ConnectFacts, open_sdk_session
from anvia_nb.core.transport.session import Session
from anvia_nb.errors import AnviaError

__all__ = ["MemoryLaunch"]


@dataclass(frozen=True)
class MemoryLaunch:
    """An in-process server object (``mcp.server.lowlevel.Server`` or ``MCPServer``), for tests and teaching."""

    server: Any  # any: the SDK's server object, given to its Client
    """The SDK server object; typed by the SDK's ``Client``, which takes either kind."""
    protocol: str | None = None

    def open(self, server: str, handlers: SessionHandlers) -> AbstractAsyncContextManager[Session]:
        """Handshake with the server object (see :class:`~anvia_nb.core.transport.session.SessionOpener`)."""

        async def make_transport(stack: contextlib.AsyncExitStack[bool | None], facts: ConnectFacts) -> ClientTarget:
            target: ClientTarget = self.server
            return target

        return open_sdk_session(server, handlers, self.protocol, make_transport)

    def auth_failure(self) -> AnviaError | None:
        return None
