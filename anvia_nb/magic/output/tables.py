"""The DataFrames of ``%mcp servers``, ``%mcp tools`` and ``%mcp history``.

They are values, not printouts, so ``df = %mcp tools`` can be filtered and joined. Every string
in them goes through the :class:`~anvia_nb.policy.ShowPolicy` (a server that echoes a token back
cannot show it here; control characters are made visible; names and lines bounded by its named
limits); pandas escapes HTML when it renders a frame, and each frame is a
:class:`~anvia_nb.frames.server_frame.ServerFrame`, whose HTML a front end's MathJax leaves alone
(a tool named ``$\\text{OK ✔ safe}$`` reads as typed).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from anvia_nb.core.api.server import McpServer
from anvia_nb.core.audit.tokens import tool_tokens
from anvia_nb.core.protocol.types import CallOutcome, CallRecord, ToolInfo
from anvia_nb.display import display_status
from anvia_nb.errors import AnviaError
from anvia_nb.frames.server_frame import ServerFrame
from anvia_nb.policy import ShowPolicy
from anvia_nb.runtime import SessionEntry

__all__ = [
    "HISTORY_COLUMNS",
    "SERVER_COLUMNS",
    "TOOL_COLUMNS",
    "history_frame",
    "note_refused_listings",
    "output_size",
    "protocol_version",
    "servers_frame",
    "tools_frame",
]

SERVER_COLUMNS = [
    "name",
    "transport",
    "target",
    "status",
    "server",
    "protocol",
    "tools",
    "scope",
    "opened_at",
    "instructions",
    "roots",
]
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
    "task",
    "app",
    "tokens",
    "server_tokens",
]
HISTORY_COLUMNS = ["time", "server", "tool", "arguments", "status", "seconds", "output_chars", "error", "requested_by"]


def protocol_version(server: McpServer) -> str | None:
    """The negotiated protocol version, or ``None`` once the session is closed."""
    try:
        return server.client.protocol_version
    except AnviaError:
        return None


def _server_label(server: McpServer, policy: ShowPolicy) -> str | None:
    try:
        info = server.client.server_info
    except AnviaError:
        return None
    return policy.title(f"{info.get('name', '?')} {info.get('version', '')}".strip())


def _instructions(server: McpServer, shown: ShowPolicy) -> str | None:
    """The server's instructions from initialize: its own words, so masked, made visible and bounded."""
    try:
        text = server.client.instructions
    except AnviaError:
        return None
    return shown.text(text) if text else None


def servers_frame(entries: Iterable[SessionEntry], policy: ShowPolicy | None = None) -> pd.DataFrame:
    """One row per connection of the runtime, with what its server says of itself; for viewers
    (viewer mode) neither the author's command line or URL nor the server's own words (its name,
    version and instructions): those cells are empty."""
    rows = []
    for entry in entries:
        server = entry.server
        shown = (policy or ShowPolicy()).with_secrets(server.secrets)
        viewers = shown.for_viewers
        rows.append(
            {
                "name": server.name,
                "transport": server.connection.transport,
                "target": None if viewers else shown.text(server.connection.target()),
                "status": server.status,
                "server": None if viewers else _server_label(server, shown),
                "protocol": protocol_version(server),
                "tools": len(server.tools),
                "scope": entry.scope,
                "opened_at": pd.Timestamp(entry.opened_at),
                "instructions": None if viewers else _instructions(server, shown),
                "roots": [shown.text(path) for path in server.client.roots],
            }
        )
    frame: pd.DataFrame = ServerFrame(rows, columns=SERVER_COLUMNS)
    return frame


_HINTS = {
    "readOnly": "readOnlyHint",
    "destructive": "destructiveHint",
    "idempotent": "idempotentHint",
    "openWorld": "openWorldHint",
}


def _objects(values: list[Any]) -> np.ndarray[Any, np.dtype[np.object_]]:
    """A column kept as given (``None`` stays "the server said nothing", not NaN or False)."""
    column = np.empty(len(values), dtype=object)
    column[:] = values
    return column


def note_refused_listings(servers: Iterable[Any], key: str, policy: ShowPolicy) -> None:
    """Print one line per server that refused the ``key`` listing's method (-32601): its listing
    is empty, and the line says why (the rule is the client's, ``McpClient.listing_notes``)."""
    for server in servers:
        note = server.client.listing_notes.get(key)
        if note:
            print(f"note: {policy.with_secrets(server.secrets).text(note)}")


def _app_column(info: ToolInfo) -> str | None:
    """``"view"``: the tool has an interactive view (``%mcp app``); ``"view only"``: only its view
    may call it (no cell, form or model); ``None``: neither."""
    if not info.for_cells:
        return "view only"
    return "view" if info.app is not None else None


def tools_frame(servers: Iterable[McpServer], policy: ShowPolicy | None = None) -> pd.DataFrame:
    """One row per tool: names, hints (``None`` when the server gave none) and argument names;
    ``tokens``, what its definition costs a model's context, and ``server_tokens``, its server's
    tools together (estimates: :func:`~anvia_nb.core.audit.tokens.estimate_tokens`).

    Built column by column (one DataFrame construction, no per-row dicts or casts afterwards):
    a frame of a few dozen tools costs about what a plain DataFrame of the same rows does.
    """
    columns: dict[str, list[Any]] = {column: [] for column in TOOL_COLUMNS}
    for server in servers:
        shown = (policy or ShowPolicy()).with_secrets(server.secrets)
        name, line, limits = shown.name, shown.line, shown.limits
        for tool in server.tools:
            info = tool.info
            title, description = info.shown_title, info.description
            hints = info.annotations if isinstance(info.annotations, dict) else {}
            columns["server"].append(server.name)
            columns["name"].append(name(info.name))
            columns["title"].append(line(title, limits.line_chars) if isinstance(title, str) else None)
            columns["description"].append(
                line(description, limits.text_chars) if isinstance(description, str) else None
            )
            columns["required"].append([name(r) for r in info.required])
            columns["arguments"].append([name(a) for a in info.argument_names])
            for column, hint in _HINTS.items():
                value = hints.get(hint)
                columns[column].append(value if isinstance(value, bool) else None)
            columns["output_schema"].append(info.output_schema is not None)
            task = info.task_support  # "required": only as a task
            columns["task"].append(name(task) if isinstance(task, str) else None)
            columns["app"].append(_app_column(info))
            columns["tokens"].append(tool_tokens(info))
        tokens = columns["tokens"][len(columns["server_tokens"]) :]  # this server's tools
        columns["server_tokens"] += [sum(tokens)] * len(tokens)
    data: dict[str, Any] = {
        column: _objects(values) if column in _HINTS or column in ("required", "arguments") else values
        for column, values in columns.items()
    }
    frame: pd.DataFrame = ServerFrame(data, copy=False)  # columns in TOOL_COLUMNS' order
    return frame


def output_size(outcome: CallOutcome | CallRecord) -> int | None:
    """Characters of the mapped output (a list of parts counts as its JSON), ``None`` without one;
    a history entry measured it before the output itself was let go."""
    return outcome.output_chars


def history_frame(outcomes: Iterable[CallRecord], policy: ShowPolicy | None = None) -> pd.DataFrame:
    """One row per call made in this kernel, oldest first; arguments as masked JSON text.

    ``policy`` (the notebook's settings) decides whether an error's server text is shown.
    """
    rows = []
    for outcome in outcomes:
        shown = (policy or ShowPolicy()).with_secrets(outcome.secrets)
        arguments = None if outcome.arguments is None else json.dumps(outcome.arguments, ensure_ascii=False)
        rows.append(
            {
                "time": pd.Timestamp(outcome.started_at),
                "server": outcome.server,
                "tool": shown.name(outcome.tool),
                "arguments": None if arguments is None else shown.text(arguments),
                "status": display_status(outcome),
                "seconds": round(outcome.seconds, 3),
                "output_chars": output_size(outcome),
                "error": None if outcome.error is None else shown.error_line(outcome.error),
                "requested_by": None if outcome.requested_by is None else shown.name(outcome.requested_by),
            }
        )
    frame: pd.DataFrame = ServerFrame(rows, columns=HISTORY_COLUMNS)
    frame["output_chars"] = frame["output_chars"].astype("Int64")  # a failed call has no size, not NaN
    return frame
