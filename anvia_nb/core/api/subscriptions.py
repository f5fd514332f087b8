"""Resource subscriptions: hear when a resource the notebook cares about changes.

``McpServer.subscribe(uri)`` asks the server to say when ``uri`` changes, the way the connection's
protocol allows: ``resources/subscribe`` before 2026-07-28, a ``subscriptions/listen`` stream that
names the URI from 2026-07-28 on (one stream per subscribed URI, ended by ``unsubscribe``). Only
when the server's capabilities say ``resources.subscribe``; otherwise a one-line error and nothing
is sent. Each ``notifications/resources/updated`` is counted per URI with the time of the last one
(for a bounded number of URIs), readable with ``McpServer.resource_updates()``, and each listener
(the panel's Resources tab) is told ``listener(server_name, uri)`` on the session's loop.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from mcp import Client
from mcp.shared.exceptions import MCPDeprecationWarning

from anvia_nb.core.api.listeners import Listener, Listeners
from anvia_nb.core.transport.client import McpClient
from anvia_nb.core.transport.sdk import SdkSession
from anvia_nb.errors import InvalidValueError, NotOfferedError

__all__ = ["KEPT_URIS", "ResourceSubscriptions", "ResourceUpdates", "UpdateListener"]

KEPT_URIS = 1000
"""How many URIs' update counts are kept (the least recently updated go first)."""
MODERN = "2026-07-28"

UpdateListener = Listener
"""``listener(server_name, uri)``, on the session's loop; must not block."""

logger = logging.getLogger("anvia_nb.core.api.subscriptions")


@dataclass(frozen=True)
class ResourceUpdates:
    """How many ``notifications/resources/updated`` arrived for one URI, and when the last did."""

    uri: str
    count: int
    last: float
    """``time.time()`` of the last one."""


class ResourceSubscriptions:
    """The URIs one connection is subscribed to, and the updates that arrived for them."""

    def __init__(self, client: McpClient) -> None:
        self._client = client
        self._updates: collections.OrderedDict[str, ResourceUpdates] = collections.OrderedDict()
        self._streams: dict[str, asyncio.Task[None]] = {}
        self._subscribed: list[str] = []
        self._listeners = Listeners("resource update", logger)
        client.on_resource_updated(self.updated)

    @property
    def subscribed(self) -> list[str]:
        """The URIs subscribed to now, in the order they were."""
        return list(self._subscribed)

    def updates(self) -> dict[str, ResourceUpdates]:
        """The updates counted so far, by URI (also for URIs no longer subscribed to)."""
        return dict(self._updates)

    def on_update(self, listener: UpdateListener) -> Callable[[], None]:
        """Call ``listener(server_name, uri)`` after each update; returns the function that stops it."""
        return self._listeners.add(listener)

    def updated(self, uri: str) -> None:
        """Count one update of ``uri`` and tell the listeners (on the session's loop)."""
        before = self._updates.pop(uri, None)
        self._updates[uri] = ResourceUpdates(uri, (before.count if before else 0) + 1, time.time())
        while len(self._updates) > KEPT_URIS:
            self._updates.popitem(last=False)
        self._listeners.tell(self._client.name, uri)

    def _check(self, uri: object) -> str:
        if not isinstance(uri, str) or not uri.strip():
            raise InvalidValueError("give the URI of a resource to subscribe to, e.g. demo://counter")
        capabilities = self._client.server_capabilities
        resources = capabilities.get("resources")
        if not (isinstance(resources, dict) and resources.get("subscribe") is True):
            raise NotOfferedError(
                f"server {self._client.name} does not offer resource subscriptions "
                "(its capabilities lack resources.subscribe); read the resource again instead"
            )
        return uri

    async def subscribe(self, uri: str) -> None:
        """Ask the server to say when ``uri`` changes (a no-op when already subscribed)."""
        uri = self._check(uri)
        if uri in self._subscribed:
            return
        await self._client.in_session(lambda session: self._start(session, uri))
        self._subscribed.append(uri)

    async def unsubscribe(self, uri: str) -> None:
        """Stop hearing of ``uri``'s changes; its counted updates are kept."""
        uri = self._check(uri)
        if uri not in self._subscribed:
            raise InvalidValueError(f"not subscribed to {uri} on {self._client.name}; see %mcp resources")
        self._subscribed.remove(uri)
        await self._client.in_session(lambda session: self._stop(session, uri))

    async def _start(self, session: SdkSession, uri: str) -> None:
        client = session.sdk_client
        if session.protocol_version < MODERN:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await client.subscribe_resource(uri)
            return
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        task = asyncio.get_running_loop().create_task(self._listen(client, uri, ready), name=f"anvia_nb listen {uri}")
        self._streams[uri] = task
        try:
            await ready
        except BaseException:
            self._streams.pop(uri, None)
            task.cancel()
            raise

    async def _stop(self, session: SdkSession, uri: str) -> None:
        task = self._streams.pop(uri, None)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            return
        if session.protocol_version < MODERN:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await session.sdk_client.unsubscribe_resource(uri)

    async def _listen(self, client: Client, uri: str, ready: asyncio.Future[None]) -> None:
        try:
            async with client.listen(resource_subscriptions=[uri]) as stream:
                if uri not in set(stream.honored.resource_subscriptions or ()):
                    raise NotOfferedError(f"server {self._client.name} declined a subscription to {uri}")
                ready.set_result(None)
                async for _event in stream:
                    pass  # the SDK also hands each event to the message handler, which counts it
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not ready.done():
                ready.set_exception(exc)
            else:
                self._client.log.note("notice", f"updates of {uri} ended: {type(exc).__name__}: {exc}")
