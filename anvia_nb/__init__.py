"""anvia_nb: explore, call and teach MCP servers from a Jupyter notebook.

``%load_ext anvia_nb`` gives the ``%mcp`` magic; from Python, the adapter's API (docs/architecture.md)::

    from anvia_nb import connect_mcp, mcp
    server = await connect_mcp(mcp.stdio(name="demo", command="python", args=["-m", "anvia_nb.demo_server"]))
    out = await server.tools[0].call({"message": "hi"})
    await server.close()

Importing this package loads neither the MCP SDK nor IPython, ipywidgets or pandas: each is
loaded on first use of a name that needs it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from anvia_nb._version import __version__
from anvia_nb.core.api import dataframes as _dataframes
from anvia_nb.errors import (
    AnviaError,
    ArgumentError,
    ArgumentValidationError,
    ConnectError,
    ConnectionClosedError,
    InputRequiredError,
    OutputSchemaError,
    ProtocolError,
    TaskCancelledError,
    ToolCallError,
    ToolResultError,
    ToolTimeoutError,
    UnknownConnectionError,
    UnknownNameError,
    UnknownToolError,
    UnsupportedContentError,
    UrlElicitationRequiredError,
)

if TYPE_CHECKING:
    from anvia_nb.core.api.connections import HttpConnection, StdioConnection
    from anvia_nb.core.api.factories import mcp
    from anvia_nb.core.api.server import McpServer, Tool, connect_mcp
    from anvia_nb.core.api.tasks import BackgroundCall
    from anvia_nb.core.protocol.sampling import disable_sampling, enable_sampling
    from anvia_nb.core.protocol.types import CallOutcome, CallRecord, ToolInfo
    from anvia_nb.core.transport.client import McpClient
    from anvia_nb.display import RenderSettings, ResultView
    from anvia_nb.frames.audit import accept, audit, pin
    from anvia_nb.magic import load_ipython_extension, unload_ipython_extension
    from anvia_nb.widgets import app, enable_elicitation, form, panel


__all__ = [
    "AnviaError",
    "ArgumentError",
    "ArgumentValidationError",
    "BackgroundCall",
    "CallOutcome",
    "CallRecord",
    "ConnectError",
    "ConnectionClosedError",
    "HttpConnection",
    "InputRequiredError",
    "McpClient",
    "McpServer",
    "OutputSchemaError",
    "ProtocolError",
    "RenderSettings",
    "ResultView",
    "StdioConnection",
    "TaskCancelledError",
    "Tool",
    "ToolCallError",
    "ToolInfo",
    "ToolResultError",
    "ToolTimeoutError",
    "UnknownConnectionError",
    "UnknownNameError",
    "UnknownToolError",
    "UnsupportedContentError",
    "UrlElicitationRequiredError",
    "__version__",
    "accept",
    "app",
    "audit",
    "connect_mcp",
    "disable_sampling",
    "enable_elicitation",
    "enable_sampling",
    "form",
    "load_ipython_extension",
    "mcp",
    "panel",
    "pin",
    "unload_ipython_extension",
]

_LAZY = {
    "McpClient": "anvia_nb.core.transport.client",
    "HttpConnection": "anvia_nb.core.api.connections",
    "StdioConnection": "anvia_nb.core.api.connections",
    "mcp": "anvia_nb.core.api.factories",
    "McpServer": "anvia_nb.core.api.server",
    "Tool": "anvia_nb.core.api.server",
    "connect_mcp": "anvia_nb.core.api.server",
    "CallOutcome": "anvia_nb.core.protocol.types",
    "CallRecord": "anvia_nb.core.protocol.types",
    "ToolInfo": "anvia_nb.core.protocol.types",
    "BackgroundCall": "anvia_nb.core.api.tasks",
    "enable_sampling": "anvia_nb.core.protocol.sampling",
    "disable_sampling": "anvia_nb.core.protocol.sampling",
    "RenderSettings": "anvia_nb.display",
    "ResultView": "anvia_nb.display",
    "app": "anvia_nb.widgets",
    "enable_elicitation": "anvia_nb.widgets",
    "form": "anvia_nb.widgets",
    "panel": "anvia_nb.widgets",
    "audit": "anvia_nb.frames.audit",
    "pin": "anvia_nb.frames.audit",
    "accept": "anvia_nb.frames.audit",
    "load_ipython_extension": "anvia_nb.magic",  # %load_ext anvia_nb: the magic is imported only then
    "unload_ipython_extension": "anvia_nb.magic",
}


def _load_frames() -> None:
    """Import the DataFrame layer (pandas), which lends core and display its functions."""
    importlib.import_module("anvia_nb.frames")


_dataframes.load_with(_load_frames)  # on first use only: importing anvia_nb loads no pandas


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'anvia_nb' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
