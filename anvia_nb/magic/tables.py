"""The DataFrames of ``%mcp servers``, ``%mcp tools`` and ``%mcp history``.

They are values, not printouts, so ``df = %mcp tools`` can be filtered and joined. Every string
in them is masked (a server that echoes a token back cannot show it here) and server text has its
control characters made visible; pandas escapes HTML when it renders a frame.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd

from anvia_nb.core.server import McpServer
from anvia_nb.core.types import CallOutcome
from anvia_nb.display import GENERIC_SERVER_ERROR, display_status, mask_secrets, visible_text
from anvia_nb.errors import AnviaError, ToolCallError
from anvia_nb.runtime import SessionEntry

__all__ = [
    "HISTORY_COLUMNS",
    "SERVER_COLUMNS",
    "TOOL_COLUMNS",
    "history_frame",
    "output_size",
    "protocol_version",
    "servers_frame",
    "tools_frame",
]

SERVER_COLUMNS = ["name", "transport", "target", "status", "server", "protocol", "tools", "scope", "opened_at"]
TOOL_COLUMNS = [
    "server",
    "name",
    "title",
    "description",
    "required",
    "arguments",
    "readOnly",
    "destructive",
    "idempotent",
    "openWorld",
    "output_schema",
]
HISTORY_COLUMNS = ["time", "server", "tool", "arguments", "status", "seconds", "output_chars", "error"]


def protocol_version(server: McpServer) -> str | None:
    """The negotiated protocol version, or ``None`` once the session is closed."""
    try:
        return server.client.protocol_version
    except AnviaError:
        return None


def _server_label(server: McpServer) -> str | None:
    try:
        info = server.client.server_info
    except AnviaError:
        return None
    label = f"{info.get('name', '?')} {info.get('version', '')}".strip()
    return visible_text(label, server.secrets)


def servers_frame(entries: Iterable[SessionEntry]) -> pd.DataFrame:
    """One row per connection of the runtime."""
    rows = []
    for entry in entries:
        server = entry.server
        rows.append(
            {
                "name": server.name,
                "transport": server.connection.transport,
                "target": mask_secrets(server.connection.target(), server.secrets),
                "status": "open" if server.is_open else "closed",
                "server": _server_label(server),
                "protocol": protocol_version(server),
                "tools": len(server.tools),
                "scope": entry.scope,
                "opened_at": pd.Timestamp(entry.opened_at),
            }
        )
    frame: pd.DataFrame = pd.DataFrame(rows, columns=SERVER_COLUMNS)
    return frame


def _text(value: Any, secrets: Sequence[str]) -> str | None:
    return visible_text(value, secrets) if isinstance(value, str) else None


def tools_frame(servers: Iterable[McpServer]) -> pd.DataFrame:
    """One row per tool: names, hints (``None`` when the server gave none) and argument names."""
    rows = []
    for server in servers:
        secrets = server.secrets
        for tool in server.tools:
            info = tool.info
            rows.append(
                {
                    "server": server.name,
                    "name": visible_text(info.name, secrets),
                    "title": _text(info.title or (info.annotations or {}).get("title"), secrets),
                    "description": _text(info.description, secrets),
                    "required": [visible_text(r, secrets) for r in info.required],
                    "arguments": [visible_text(a, secrets) for a in info.argument_names],
                    "readOnly": info.hint("readOnlyHint"),
                    "destructive": info.hint("destructiveHint"),
                    "idempotent": info.hint("idempotentHint"),
                    "openWorld": info.hint("openWorldHint"),
                    "output_schema": info.output_schema is not None,
                }
            )
    frame: pd.DataFrame = pd.DataFrame(rows, columns=TOOL_COLUMNS)
    for column in ("readOnly", "destructive", "idempotent", "openWorld"):
        frame[column] = frame[column].astype(object)  # keep None as "the server said nothing"
    return frame


def output_size(outcome: CallOutcome) -> int | None:
    """Characters of the mapped output (a list of parts counts as its JSON), ``None`` without one."""
    output = outcome.output
    if output is None:
        return None
    if isinstance(output, str):
        return len(output)
    return len(json.dumps(output, ensure_ascii=False))


def _error_text(outcome: CallOutcome, hide_server_errors: bool) -> str | None:
    error = outcome.error
    if error is None:
        return None
    if hide_server_errors and (isinstance(error, ToolCallError) or bool(getattr(error, "server_text", ""))):
        return GENERIC_SERVER_ERROR
    return visible_text(" ".join(str(error).split()), outcome.secrets, limit=500)


def history_frame(outcomes: Iterable[CallOutcome], hide_server_errors: bool = False) -> pd.DataFrame:
    """One row per call made in this kernel, oldest first; arguments as masked JSON text."""
    rows = []
    for outcome in outcomes:
        arguments = None if outcome.arguments is None else json.dumps(outcome.arguments, ensure_ascii=False)
        rows.append(
            {
                "time": pd.Timestamp(outcome.started_at),
                "server": outcome.server,
                "tool": visible_text(outcome.tool, outcome.secrets),
                "arguments": None if arguments is None else visible_text(arguments, outcome.secrets, limit=2000),
                "status": display_status(outcome),
                "seconds": round(outcome.seconds, 3),
                "output_chars": output_size(outcome),
                "error": _error_text(outcome, hide_server_errors),
            }
        )
    frame: pd.DataFrame = pd.DataFrame(rows, columns=HISTORY_COLUMNS)
    frame["output_chars"] = frame["output_chars"].astype("Int64")  # a failed call has no size, not NaN
    return frame
