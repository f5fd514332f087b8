"""Anvia's MCP adapter in Python: knows nothing of Jupyter.

The public names load the MCP SDK on first use, not when this package is imported.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anvia_nb.core._stdio import kill_all_process_groups
    from anvia_nb.core.client import McpClient
    from anvia_nb.core.connections import HttpConnection, McpConnection, StdioConnection, mcp
    from anvia_nb.core.logs import LOG_LEVELS, LogEntry, ServerLog
    from anvia_nb.core.server import McpServer, Tool, connect_mcp

__all__ = [
    "LOG_LEVELS",
    "HttpConnection",
    "LogEntry",
    "McpClient",
    "McpConnection",
    "McpServer",
    "ServerLog",
    "StdioConnection",
    "Tool",
    "connect_mcp",
    "kill_all_process_groups",
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
    "LOG_LEVELS": "anvia_nb.core.logs",
    "LogEntry": "anvia_nb.core.logs",
    "ServerLog": "anvia_nb.core.logs",
    "kill_all_process_groups": "anvia_nb.core._stdio",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'anvia_nb.core' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
