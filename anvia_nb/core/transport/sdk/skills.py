"""``skills/list`` and ``skills/get`` (the Skills extension, SEP-2640) at the border with the SDK.

The installed MCP SDK has no model of these methods, so they go through its generic request
path (``ClientSession.send_request``), as a task's requests do (:mod:`.tasks`), and come back
as plain JSON. A server that does not declare the extension is not asked: it has no skills.
"""

from __future__ import annotations

import anyio
import mcp_types
from mcp import Client

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.skills import offers_skills
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.core.transport.sdk.errors import error_from_exception
from anvia_nb.core.transport.sdk.plain_requests import send_plain

__all__ = ["get_skill", "list_skills"]


class _ListParams(mcp_types.RequestParams):
    cursor: str | None = None


class _ListRequest(mcp_types.Request[_ListParams, str]):
    """``skills/list``, one page."""


class _GetParams(mcp_types.RequestParams):
    uri: str


class _GetRequest(mcp_types.Request[_GetParams, str]):
    """``skills/get``: one skill's entry by the URI of its ``SKILL.md``."""

    name_param = "uri"


async def list_skills(
    client: Client, server: str, capabilities: JsonObject, timeout_seconds: float | None
) -> list[JsonObject]:
    """Every skill entry on every page of ``skills/list`` (``[]``, asking nothing, when the server
    does not declare the extension)."""
    if not offers_skills(capabilities):
        return []
    items: list[JsonObject] = []
    try:
        with anyio.fail_after(timeout_seconds):
            cursor: str | None = None
            for _ in range(limits.LISTING_PAGES):
                request = _ListRequest(method="skills/list", params=_ListParams(cursor=cursor))
                page = await send_plain(client.session, request)
                found = page.get("skills")
                items.extend(i for i in (found if isinstance(found, list) else []) if isinstance(i, dict))
                cursor = page.get("nextCursor")
                if not isinstance(cursor, str) or len(items) >= limits.LISTED_ITEMS:
                    break
    except Exception as exc:
        raise error_from_exception(exc, server=server, during="listing skills") from exc
    return items[: limits.LISTED_ITEMS]


async def get_skill(client: Client, server: str, uri: str, timeout_seconds: float | None) -> JsonObject:
    """``skills/get`` of the skill whose ``SKILL.md`` is at ``uri``: its entry."""
    try:
        with anyio.fail_after(timeout_seconds):
            answer = await send_plain(client.session, _GetRequest(method="skills/get", params=_GetParams(uri=uri)))
    except Exception as exc:
        raise error_from_exception(exc, server=server, during=f"getting skill {uri[:200]}") from exc
    skill = answer.get("skill")
    return dict(skill) if isinstance(skill, dict) else {}
