"""Resources, resource templates, prompts and completion at the border with the MCP SDK.

Called by the methods of :class:`~anvia_nb.core.transport.sdk.session.SdkSession`. SDK models in,
plain JSON (wire keys) and our errors out: :func:`~anvia_nb.core.transport.sdk.errors.error_from_exception`
translates every failure. Listings follow
``nextCursor`` page by page, bounded in pages and in items. A server that does not declare the
capability is not asked at all: its listing is empty and nothing reaches it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import mcp_types
from mcp import Client

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.core.transport.sdk.errors import error_from_exception
from anvia_nb.core.transport.sdk.model_json import wire_json as _json
from anvia_nb.core.transport.sdk.skills import list_skills
from anvia_nb.core.transport.session import CompletionRequest, PromptRequest

__all__ = [
    "LISTINGS",
    "complete",
    "get_prompt",
    "list_items",
    "read_resource",
]


async def _pages(
    server: str,
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
        raise error_from_exception(exc, server=server, during=during) from exc
    return items[: limits.LISTED_ITEMS]


async def _follow(items: list[JsonObject], key: str, fetch: Callable[[str | None], Awaitable[Any]]) -> None:
    cursor: str | None = None
    for _ in range(limits.LISTING_PAGES):
        page = _json(await fetch(cursor))
        found = page.get(key)
        items.extend(i for i in (found if isinstance(found, list) else []) if isinstance(i, dict))
        cursor = page.get("nextCursor")
        if not isinstance(cursor, str) or len(items) >= limits.LISTED_ITEMS:
            return


LISTINGS: dict[str, tuple[str, str, str]] = {
    "resources": ("resources", "list_resources", "listing resources"),
    "resourceTemplates": ("resources", "list_resource_templates", "listing resource templates"),
    "prompts": ("prompts", "list_prompts", "listing prompts"),
}
"""Each listing other than tools: the capability it needs, the SDK client's method, and what an
error says was being done."""


async def list_items(
    client: Client, server: str, capabilities: JsonObject, key: str, timeout_seconds: float | None
) -> list[JsonObject]:
    """Every page of one listing of :data:`LISTINGS`, or ``skills`` (``[]``, asking nothing, when
    the server did not declare its capability or extension in ``capabilities``, wire keys)."""
    if key == "skills":  # an extension's listing: no method of the SDK's own
        return await list_skills(client, server, capabilities, timeout_seconds)
    capability, method, during = LISTINGS[key]
    if capability not in capabilities:
        return []
    fetch = getattr(client, method)
    return await _pages(server, key, during, lambda cursor: fetch(cursor=cursor, cache_mode="bypass"), timeout_seconds)


async def read_resource(client: Client, server: str, uri: str, timeout_seconds: float | None) -> JsonObject:
    """One resources/read; the result as JSON with wire keys (``contents``)."""
    try:
        with anyio.fail_after(timeout_seconds):
            result = await client.read_resource(uri, cache_mode="bypass")
    except Exception as exc:
        raise error_from_exception(exc, server=server, during=f"reading {uri[:200]}") from exc
    return _json(result)


async def get_prompt(client: Client, server: str, request: PromptRequest) -> JsonObject:
    """One prompts/get; the result as JSON with wire keys (``description``, ``messages``)."""
    try:
        with anyio.fail_after(request.timeout_seconds):
            result = await client.get_prompt(request.name, request.arguments)
    except Exception as exc:
        raise error_from_exception(exc, server=server, during=f"getting prompt {request.name[:200]}") from exc
    return _json(result)


async def complete(client: Client, server: str, capabilities: JsonObject, request: CompletionRequest) -> list[str]:
    """completion/complete for a prompt argument (``("prompt", name)``) or a template variable
    (``("template", uriTemplate)``); ``[]`` when the server does not declare ``completions``."""
    if "completions" not in capabilities:
        return []
    kind, name = request.ref
    argument = request.argument
    target: mcp_types.PromptReference | mcp_types.ResourceTemplateReference = (
        mcp_types.PromptReference(type="ref/prompt", name=name)
        if kind == "prompt"
        else mcp_types.ResourceTemplateReference(type="ref/resource", uri=name)
    )
    try:
        with anyio.fail_after(request.timeout_seconds):
            result = await client.complete(
                target, {"name": argument, "value": request.value}, context_arguments=request.context or None
            )
    except Exception as exc:
        raise error_from_exception(exc, server=server, during=f"completing {argument[:200]}") from exc
    values = result.completion.values
    return [v for v in values[: limits.COMPLETIONS_KEPT] if isinstance(v, str)]
