"""Anvia's MCP adapter in Python: knows nothing of Jupyter.

The public names load the MCP SDK on first use, not when this package is imported.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anvia_nb.core.api.connections import HttpConnection, McpConnection, StdioConnection
    from anvia_nb.core.api.factories import mcp
    from anvia_nb.core.api.server import McpServer, Tool, connect_mcp
    from anvia_nb.core.exchange.logs import LOG_LEVELS, LogEntry, ServerLog
    from anvia_nb.core.transport.client import McpClient
    from anvia_nb.core.transport.stdio.transport import kill_all_process_groups

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
    "McpClient": "anvia_nb.core.transport.client",
    "HttpConnection": "anvia_nb.core.api.connections",
    "McpConnection": "anvia_nb.core.api.connections",
    "StdioConnection": "anvia_nb.core.api.connections",
    "mcp": "anvia_nb.core.api.factories",
    "McpServer": "anvia_nb.core.api.server",
    "Tool": "anvia_nb.core.api.server",
    "connect_mcp": "anvia_nb.core.api.server",
    "LOG_LEVELS": "anvia_nb.core.exchange.logs",
    "LogEntry": "anvia_nb.core.exchange.logs",
    "ServerLog": "anvia_nb.core.exchange.logs",
    "kill_all_process_groups": "anvia_nb.core.transport.stdio.transport",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'anvia_nb.core' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
