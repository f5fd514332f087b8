"""Change events on protocol 2026-07-28: one ``subscriptions/listen`` stream per connection.

Before 2026-07-28 a server sends ``notifications/tools/list_changed`` (and the resource and
prompt ones) whenever it likes, and they reach :class:`~anvia_nb.core.transport.handlers.SessionHandlers`'s
notification handler. From 2026-07-28 on it may only send them on a ``subscriptions/listen``
stream the client opened; this module opens that stream, for the lists the server says change
(``listChanged`` in its capabilities), in a task of the session's owner, and hands each event to
the same handler as the notification it replaces, so the rest of anvia_nb sees one kind of news.

:class:`ResourceStreams` subscribes to one resource's updates the way the version allows:
``resources/subscribe`` before 2026-07-28, a ``subscriptions/listen`` stream naming the URI from then on.
"""

from __future__ import annotations

import asyncio
import contextlib
import warnings
from collections.abc import Callable
from typing import Any

import anyio
from mcp import Client
from mcp.client.subscriptions import (
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated,
    ServerEvent,
    ToolsListChanged,
)
from mcp.shared.exceptions import MCPDeprecationWarning

from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.core.protocol.versions import listens
from anvia_nb.errors import NotOfferedError

__all__ = ["EVENT_METHODS", "ResourceStreams", "start_listening"]

EVENT_METHODS: dict[type[Any], str] = {
    ToolsListChanged: "notifications/tools/list_changed",
    PromptsListChanged: "notifications/prompts/list_changed",
    ResourcesListChanged: "notifications/resources/list_changed",
    ResourceUpdated: "notifications/resources/updated",
}


def _changes(capabilities: JsonObject) -> dict[str, bool]:
    found = {}
    for key in ("tools", "prompts", "resources"):
        section = capabilities.get(key)
        found[f"{key}_list_changed"] = isinstance(section, dict) and section.get("listChanged") is True
    return found


async def start_listening(
    stack: contextlib.AsyncExitStack,
    client: Client,
    capabilities: JsonObject,
    notification: Callable[[str], None] | None,
    note: Callable[[str, str], None] | None,
) -> None:
    """On 2026-07-28 with a server whose lists change (``capabilities``, wire keys), listen in a
    task that ends with ``stack``."""
    if notification is None or not listens(client.protocol_version):
        return
    wanted = _changes(capabilities)
    if not any(wanted.values()):
        return
    group = await stack.enter_async_context(anyio.create_task_group())
    stack.callback(group.cancel_scope.cancel)  # runs before the group is exited: the stream ends with the session
    group.start_soon(_listen, client, wanted, notification, note)


async def _listen(
    client: Client,
    wanted: dict[str, bool],
    notification: Callable[[str], None],
    note: Callable[[str, str], None] | None,
) -> None:
    try:
        listening = client.listen(
            tools_list_changed=wanted["tools_list_changed"],
            prompts_list_changed=wanted["prompts_list_changed"],
            resources_list_changed=wanted["resources_list_changed"],
        )
        async with listening as subscription:
            async for event in subscription:
                notification(_method(event))
    except Exception as exc:  # no news is no failure: the connection goes on without them
        if note is not None:
            note("notice", f"change notifications ended: {type(exc).__name__}: {exc}")


def _method(event: ServerEvent) -> str:
    return EVENT_METHODS.get(type(event), "notifications/unknown")


class ResourceStreams:
    """Resource subscriptions of one session: ``resources/subscribe`` before 2026-07-28, one
    ``subscriptions/listen`` stream per URI from then on (in a task on the session's loop, ended
    by :meth:`unsubscribe`). Updates reach the session's message handler either way."""

    def __init__(self, client: Client, server: str, note: Callable[[str, str], None] | None) -> None:
        self._client = client
        self._server = server
        self._note = note
        self._streams: dict[str, asyncio.Task[None]] = {}

    async def subscribe(self, uri: str) -> None:
        if not listens(self._client.protocol_version):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await self._client.subscribe_resource(uri)
            return
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        task = loop.create_task(self._listen(uri, ready), name=f"anvia_nb listen {uri}")
        self._streams[uri] = task
        try:
            await ready
        except BaseException:
            self._streams.pop(uri, None)
            task.cancel()
            raise

    async def unsubscribe(self, uri: str) -> None:
        task = self._streams.pop(uri, None)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            return
        if not listens(self._client.protocol_version):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await self._client.unsubscribe_resource(uri)

    async def _listen(self, uri: str, ready: asyncio.Future[None]) -> None:
        try:
            async with self._client.listen(resource_subscriptions=[uri]) as stream:
                if uri not in set(stream.honored.resource_subscriptions or ()):
                    raise NotOfferedError(f"server {self._server} declined a subscription to {uri}")
                ready.set_result(None)
                async for _event in stream:
                    pass  # the SDK also hands each event to the message handler, which counts it
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not ready.done():
                ready.set_exception(exc)
            elif self._note is not None:
                self._note("notice", f"updates of {uri} ended: {type(exc).__name__}: {exc}")
