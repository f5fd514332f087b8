"""Anvia's MCP adapter in Python: knows nothing of Jupyter.

The public names load the MCP SDK on first use, not when this package is imported.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anvia_nb.core.client import McpClient
    from anvia_nb.core.connections import HttpConnection, McpConnection, StdioConnection, mcp
    from anvia_nb.core.server import McpServer, Tool, connect_mcp

__all__ = [
    "HttpConnection",
    "McpClient",
    "McpConnection",
    "McpServer",
    "StdioConnection",
    "Tool",
    "connect_mcp",
    "mcp",
]

_WHERE = {
    "McpClient": "anvia_nb.core.client",
    "HttpConnection": "anvia_nb.core.connections",
    "McpConnection": "anvia_nb.core.connections",
    "StdioConnection": "anvia_nb.core.connections",
    "mcp": "anvia_nb.core.connections",
    "McpServer": "anvia_nb.core.server",
    "Tool": "anvia_nb.core.server",
    "connect_mcp": "anvia_nb.core.server",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'anvia_nb.core' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
