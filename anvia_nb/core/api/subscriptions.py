"""Resource subscriptions: hear when a resource the notebook cares about changes.

``McpServer.subscribe(uri)`` asks the server to say when ``uri`` changes, the way the connection's
protocol allows (the session's ``subscribe_resource``: ``resources/subscribe`` before 2026-07-28, a
``subscriptions/listen`` stream that names the URI from then on, ended by ``unsubscribe``). Only
when the server's capabilities say ``resources.subscribe``; otherwise a one-line error and nothing
is sent. Each ``notifications/resources/updated`` is counted per URI with the time of the last one
(for a bounded number of URIs), readable with ``McpServer.resource_updates()``, and each listener
(the panel's Resources tab) is told ``listener(server_name, uri)`` on the session's loop.
"""

from __future__ import annotations

import collections
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from anvia_nb.core.api.listeners import Listener, Listeners
from anvia_nb.core.protocol import limits
from anvia_nb.core.transport.client import McpClient
from anvia_nb.errors import InvalidValueError, NotOfferedError

__all__ = ["ResourceSubscriptions", "ResourceUpdates", "UpdateListener"]


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
        while len(self._updates) > limits.UPDATED_URIS_KEPT:
            self._updates.popitem(last=False)
        self._listeners.tell(self._client.name, uri)

    def _check(self, uri: object) -> str:
        if not isinstance(uri, str) or not uri.strip():
            raise InvalidValueError("give the URI of a resource to subscribe to, e.g. demo://counter")
        resources = self._client.capabilities.get("resources")
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
        await self._client.in_session(lambda session: session.subscribe_resource(uri))
        self._subscribed.append(uri)

    async def unsubscribe(self, uri: str) -> None:
        """Stop hearing of ``uri``'s changes; its counted updates are kept."""
        uri = self._check(uri)
        if uri not in self._subscribed:
            raise InvalidValueError(f"not subscribed to {uri} on {self._client.name}; see %mcp resources")
        self._subscribed.remove(uri)
        await self._client.in_session(lambda session: session.unsubscribe_resource(uri))
