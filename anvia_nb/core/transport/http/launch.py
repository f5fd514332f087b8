"""``HttpLaunch``: where to reach a streamable HTTP server, and how a session is opened over it
(a :class:`~anvia_nb.core.transport.session.SessionOpener`).

The httpx client reads large pieces at a time (:mod:`~anvia_nb.core.transport.http.client`),
bounds JSON bodies (:mod:`~anvia_nb.core.transport.http.body_limits`), keeps the status of each
failed response (the SDK only says "error response"; :class:`~anvia_nb.core.transport.sdk.connect.ConnectFacts`
says which) and hands each ``Authorization`` value to the connection as a secret. The SDK's
transport reads an answer's bytes once (:mod:`~anvia_nb.core.transport.http.streamable`) and its
messages are traced with their wire text.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import TypeAlias

import httpx2

from anvia_nb.core.protocol import limits
from anvia_nb.core.transport.handlers import SessionHandlers
from anvia_nb.core.transport.http.body_limits import bound_json_bodies
from anvia_nb.core.transport.http.streamable import wire_http_client
from anvia_nb.core.transport.sdk.connect import ClientTarget, ConnectFacts, open_sdk_session
from anvia_nb.core.transport.sdk.trace_streams import Wires, traced_transport
from anvia_nb.core.transport.session import Session
from anvia_nb.errors import AnviaError

__all__ = ["HttpAuth", "HttpLaunch"]

HttpAuth: TypeAlias = httpx2.Auth
"""What ``mcp.http(auth=...)`` takes besides ``mcp.oauth(...)``: any httpx2 authentication,
used as given (named here, so layers above the transport need not import httpx2)."""


@dataclass(frozen=True)
class HttpLaunch:
    """Where to connect over streamable HTTP, with headers and an optional httpx2 auth."""

    url: str = field(repr=False)  # the URL and headers may hold secrets: never in a repr
    headers: dict[str, str] = field(repr=False)
    timeout_seconds: float | None
    """Connect, write and pool timeout (``None``: no limit). Reads have no timeout of their own:
    each request is bounded by its caller (a call's ``timeout_seconds``, the connect timeout)."""
    auth: HttpAuth | None = field(default=None, repr=False)
    max_message_bytes: int | None = None
    """Largest SSE event or JSON body accepted (``None``: :data:`anvia_nb.core.protocol.limits.MAX_MESSAGE_BYTES`)."""
    protocol: str | None = None
    """The protocol generation to speak (:mod:`anvia_nb.core.protocol.versions`; ``None``: discover, then fall back)."""

    def open(self, server: str, handlers: SessionHandlers) -> AbstractAsyncContextManager[Session]:
        """Open the HTTP session and handshake (see :class:`~anvia_nb.core.transport.session.SessionOpener`)."""

        async def make_transport(stack: contextlib.AsyncExitStack[bool | None], facts: ConnectFacts) -> ClientTarget:
            facts.has_auth = self.auth is not None or any(key.lower() == "authorization" for key in self.headers)
            return await self._transport(stack, facts, handlers)

        return open_sdk_session(server, handlers, self.protocol, make_transport)

    def auth_failure(self) -> AnviaError | None:
        """The OAuth failure that ended the open session, if one did (kept by
        :class:`~anvia_nb.core.transport.oauth.person.NotebookOAuthProvider`, read without importing it)."""
        failure = getattr(self.auth, "failure", None)
        return failure if isinstance(failure, AnviaError) else None

    async def _transport(
        self, stack: contextlib.AsyncExitStack[bool | None], facts: ConnectFacts, handlers: SessionHandlers
    ) -> ClientTarget:
        """Streamable HTTP read as stdio is (one parse of a body's bytes), its messages traced with
        their wire text, its read stream letting go of each answer once handed on."""
        from anvia_nb.core.transport.http.client import http_client  # loads httpcore: HTTP only

        async def remember_status(response: httpx2.Response) -> None:
            if response.status_code >= 400:
                facts.failed_statuses.append(response.status_code)

        largest = self.max_message_bytes or limits.MAX_MESSAGE_BYTES
        http = http_client(self.headers, httpx2.Timeout(self.timeout_seconds, read=None), self.auth)
        http.event_hooks = {
            "request": [_credentials(handlers)] if self._may_send_credentials(facts, handlers) else [],
            "response": [remember_status, bound_json_bodies(largest)],
        }
        http = await stack.enter_async_context(http)
        wires = Wires() if handlers.trace is not None else None
        transport = wire_http_client(self.url, http_client=http, max_sse_event_size=largest, wires=wires)
        return traced_transport(transport, handlers.trace, wires)

    def _may_send_credentials(self, facts: ConnectFacts, handlers: SessionHandlers) -> bool:
        """Whether a request can carry an ``Authorization`` header for :func:`_credentials` to tell:
        only an auth flow, a configured header or the URL's user info (httpx's Basic auth) put one
        there. Without one the hook is left out (about 30k instructions a call, 0.8 %, issue 41)."""
        if handlers.credential is None:
            return False
        try:
            return facts.has_auth or bool(httpx2.URL(self.url).userinfo)
        except httpx2.InvalidURL:  # the request fails on it later, as it did with the hook
            return True


def _credentials(handlers: SessionHandlers) -> Callable[[httpx2.Request], Awaitable[None]]:
    """A request hook (it runs after the auth flow set the header) telling ``handlers.credential``."""

    async def hook(request: httpx2.Request) -> None:
        value = request.headers.get("authorization")
        if value and handlers.credential is not None:
            handlers.credential(value)

    return hook
