"""Change events on protocol 2026-07-28: one ``subscriptions/listen`` stream per connection.

Before 2026-07-28 a server sends ``notifications/tools/list_changed`` (and the resource and
prompt ones) whenever it likes, and they reach :class:`~anvia_nb.core.transport.sdk.SdkHandlers`'s
notification handler. From 2026-07-28 on it may only send them on a ``subscriptions/listen``
stream the client opened; this module opens that stream, for the lists the server says change
(``listChanged`` in its capabilities), in a task of the session's owner, and hands each event to
the same handler as the notification it replaces, so the rest of anvia_nb sees one kind of news.
"""

from __future__ import annotations

import contextlib
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

__all__ = ["EVENT_METHODS", "start_listening"]

MODERN = "2026-07-28"

EVENT_METHODS: dict[type[Any], str] = {
    ToolsListChanged: "notifications/tools/list_changed",
    PromptsListChanged: "notifications/prompts/list_changed",
    ResourcesListChanged: "notifications/resources/list_changed",
    ResourceUpdated: "notifications/resources/updated",
}


def _changes(client: Client) -> dict[str, bool]:
    capabilities = client.server_capabilities
    found = {}
    for key in ("tools", "prompts", "resources"):
        section = getattr(capabilities, key, None)
        found[f"{key}_list_changed"] = bool(getattr(section, "list_changed", False))
    return found


async def start_listening(
    stack: contextlib.AsyncExitStack,
    client: Client,
    notification: Callable[[str], None] | None,
    note: Callable[[str, str], None] | None,
) -> None:
    """On 2026-07-28 with a server whose lists change, listen in a task that ends with ``stack``."""
    if notification is None or client.protocol_version < MODERN:
        return
    wanted = _changes(client)
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
