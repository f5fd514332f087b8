"""Shared by the demo server tests: read results the way a person would, walk every tools page."""

from __future__ import annotations

from typing import Any

import mcp
import mcp_types as types

from anvia_nb.demo_server.handlers import PAGE_SIZE

MODES = ["auto", "legacy"]
"""``auto`` speaks 2026-07-28 (the SDK client's default); ``legacy`` the initialize handshake."""


def wire(item: Any) -> dict[str, Any]:
    """A content item as it travels (camelCase keys, no nulls)."""
    dumped: dict[str, Any] = item.model_dump(by_alias=True, exclude_none=True, mode="json")
    return dumped


def texts(result: types.CallToolResult) -> list[str]:
    return [item.text for item in result.content if isinstance(item, types.TextContent)]


async def list_all_tools(client: mcp.Client) -> tuple[list[types.Tool], int]:
    """Every listed tool and the number of pages it took, checking each page's size."""
    tools: list[types.Tool] = []
    pages = 0
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor)
        pages += 1
        assert len(page.tools) <= PAGE_SIZE
        tools.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None:
            return tools, pages
