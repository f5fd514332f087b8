"""Resources, resource templates, prompts and completion at the border with the MCP SDK.

SDK models in, plain JSON (wire keys) and our errors out, as in :mod:`anvia_nb.core.transport.sdk`, whose
:func:`~anvia_nb.core.transport.sdk_errors.error_from_exception` translates every failure. Listings follow
``nextCursor`` page by page, bounded in pages and in items. A server that does not declare the
capability is not asked at all: its listing is empty and nothing reaches it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import mcp_types

from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.core.transport.sdk import SdkSession
from anvia_nb.core.transport.sdk import wire_json as _json
from anvia_nb.core.transport.sdk_errors import error_from_exception

__all__ = [
    "LISTINGS",
    "MAX_LISTED",
    "MAX_PAGES",
    "capabilities",
    "complete",
    "get_prompt",
    "list_items",
    "read_resource",
]

MAX_PAGES = 100
"""Pages of one listing followed at most (a server whose cursor never ends stops here)."""
MAX_LISTED = 10_000
"""Items of one listing kept at most."""
MAX_COMPLETIONS = 100
"""Values of one completion kept (the protocol's own maximum)."""


def capabilities(session: SdkSession) -> JsonObject:
    """What the server declared in its handshake (wire keys): ``resources``, ``prompts``, ``completions``..."""
    return _json(session.sdk_client.server_capabilities)


async def _pages(
    session: SdkSession,
    key: str,
    during: str,
    fetch: Callable[[str | None], Awaitable[Any]],
    timeout_seconds: float | None,
) -> list[JsonObject]:
    """Every page of one listing, within ``timeout_seconds`` for all of them."""
    items: list[JsonObject] = []
    try:
        with anyio.fail_after(timeout_seconds):
            await _follow(items, key, fetch)
    except Exception as exc:
        raise error_from_exception(exc, server=session.server_name, during=during) from exc
    return items[:MAX_LISTED]


async def _follow(items: list[JsonObject], key: str, fetch: Callable[[str | None], Awaitable[Any]]) -> None:
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        page = _json(await fetch(cursor))
        found = page.get(key)
        items.extend(i for i in (found if isinstance(found, list) else []) if isinstance(i, dict))
        cursor = page.get("nextCursor")
        if not isinstance(cursor, str) or len(items) >= MAX_LISTED:
            return


LISTINGS: dict[str, tuple[str, str, str]] = {
    "resources": ("resources", "list_resources", "listing resources"),
    "resourceTemplates": ("resources", "list_resource_templates", "listing resource templates"),
    "prompts": ("prompts", "list_prompts", "listing prompts"),
}
"""Each listing other than tools: the capability it needs, the SDK client's method, and what an
error says was being done."""


async def list_items(session: SdkSession, key: str, timeout_seconds: float | None) -> list[JsonObject]:
    """Every page of one listing of :data:`LISTINGS` (``[]``, asking nothing, when the server did
    not declare its capability)."""
    capability, method, during = LISTINGS[key]
    if capability not in capabilities(session):
        return []
    fetch = getattr(session.sdk_client, method)
    return await _pages(session, key, during, lambda cursor: fetch(cursor=cursor, cache_mode="bypass"), timeout_seconds)


async def read_resource(session: SdkSession, uri: str, timeout_seconds: float | None) -> JsonObject:
    """One resources/read; the result as JSON with wire keys (``contents``)."""
    try:
        with anyio.fail_after(timeout_seconds):
            result = await session.sdk_client.read_resource(uri, cache_mode="bypass")
    except Exception as exc:
        raise error_from_exception(exc, server=session.server_name, during=f"reading {uri[:200]}") from exc
    return _json(result)


async def get_prompt(
    session: SdkSession, name: str, arguments: dict[str, str] | None, timeout_seconds: float | None
) -> JsonObject:
    """One prompts/get; the result as JSON with wire keys (``description``, ``messages``)."""
    try:
        with anyio.fail_after(timeout_seconds):
            result = await session.sdk_client.get_prompt(name, arguments)
    except Exception as exc:
        raise error_from_exception(exc, server=session.server_name, during=f"getting prompt {name[:200]}") from exc
    return _json(result)


async def complete(
    session: SdkSession,
    ref: tuple[str, str],
    argument: str,
    value: str,
    context: dict[str, str] | None,
    timeout_seconds: float | None,
) -> list[str]:
    """completion/complete for a prompt argument (``("prompt", name)``) or a template variable
    (``("template", uriTemplate)``); ``[]`` when the server does not declare ``completions``."""
    if "completions" not in capabilities(session):
        return []
    kind, name = ref
    target: mcp_types.PromptReference | mcp_types.ResourceTemplateReference = (
        mcp_types.PromptReference(type="ref/prompt", name=name)
        if kind == "prompt"
        else mcp_types.ResourceTemplateReference(type="ref/resource", uri=name)
    )
    try:
        with anyio.fail_after(timeout_seconds):
            result = await session.sdk_client.complete(
                target, {"name": argument, "value": value}, context_arguments=context or None
            )
    except Exception as exc:
        raise error_from_exception(exc, server=session.server_name, during=f"completing {argument[:200]}") from exc
    values = result.completion.values
    return [v for v in values[:MAX_COMPLETIONS] if isinstance(v, str)]
