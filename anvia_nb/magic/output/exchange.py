"""The DataFrames of ``%mcp log`` and ``%mcp trace``: what a server said, and what went over the wire.

``%mcp log NAME`` merges a connection's stderr, its log messages (``notifications/message``) and
anvia_nb's own notes into one frame (time, source, level, logger, text). ``%mcp trace NAME`` is
the JSON-RPC exchange (time, direction, kind, method, id, size, summary), indexed by message
number; ``t.message(n)`` gives message ``n`` as a JSON value, masked. Every string is the
:class:`~anvia_nb.policy.ShowPolicy`'s (masked, control characters made visible, cut), and each
frame is a :class:`~anvia_nb.frames.server_frame.ServerFrame`, whose HTML MathJax leaves alone.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, ClassVar

import pandas as pd

from anvia_nb.core.exchange.logs import LogRow, ServerLog
from anvia_nb.core.exchange.trace import ProtocolTrace, TraceEntry
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.display.settings import viewer_words
from anvia_nb.errors import InvalidValueError
from anvia_nb.frames.server_frame import ServerFrame
from anvia_nb.policy import HIDDEN_SERVER_ERROR, ShowPolicy

__all__ = ["LOG_COLUMNS", "TRACE_COLUMNS", "TraceFrame", "log_frame", "trace_frame"]

LOG_COLUMNS = ["time", "source", "level", "logger", "text"]
TRACE_COLUMNS = ["time", "direction", "kind", "method", "id", "size", "summary"]


def _time(value: float | None) -> Any:
    return None if value is None else pd.Timestamp(value, unit="s", tz="UTC")


def log_frame(log: ServerLog, lines: int, policy: ShowPolicy | None = None) -> pd.DataFrame:
    """The last ``lines`` rows of a connection's stderr and log messages, in the order written."""
    shown = (policy or ShowPolicy()).with_secrets(log.policy.secrets)
    rows: Sequence[LogRow] = log.rows(lines, shown.limits.log_chars)
    if shown.for_viewers:  # for viewers: how many lines it wrote, in plain words, none of them
        written = sum(1 for row in rows if row.source != "client")
        rows = [LogRow(time.time(), "client", None, None, viewer_words("log", log.name, written, shown))]
    frame: pd.DataFrame = ServerFrame(
        [
            {
                "time": _time(row.time),
                "source": row.source,
                "level": None if row.level is None else shown.name(row.level),
                "logger": None if row.logger is None else shown.name(row.logger),
                "text": shown.text(row.text),
            }
            for row in rows
        ],
        columns=LOG_COLUMNS,
    )
    return frame


class TraceFrame(ServerFrame):
    """The messages of a protocol exchange, one row each, indexed by message number.

    ``frame.message(n)`` is message ``n`` as a JSON value (masked; a message over the trace's
    size limit is a summary with ``"truncated": true``), ``frame.json(n)`` its JSON text.
    """

    _metadata: ClassVar[list[str]] = ["_entries", "dropped", "truncated"]

    @property
    def _constructor(self) -> type[TraceFrame]:
        return TraceFrame

    def _entry(self, number: int) -> TraceEntry:
        entries: dict[int, TraceEntry] = getattr(self, "_entries", None) or {}
        found = entries.get(number)
        if found is None:
            kept = f"{min(entries)}..{max(entries)}" if entries else "none"
            raise InvalidValueError(f"No message {number!r} in this trace (its messages are numbered {kept}).")
        return found

    def message(self, number: int) -> JsonObject:
        """Message ``number`` (the frame's index) as a JSON value, masked."""
        return self._entry(number).message()

    def json(self, number: int) -> str:
        """Message ``number`` as JSON text, masked."""
        return self._entry(number).json


VIEWER_METHODS = frozenset(
    {
        "initialize",
        "ping",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/read",
        "resources/templates/list",
        "resources/subscribe",
        "resources/unsubscribe",
        "prompts/list",
        "prompts/get",
        "completion/complete",
        "logging/setLevel",
        "sampling/createMessage",
        "elicitation/create",
        "roots/list",
        "notifications/initialized",
        "notifications/message",
        "notifications/progress",
        "notifications/cancelled",
        "notifications/resources/updated",
        "notifications/resources/list_changed",
        "notifications/tools/list_changed",
        "notifications/prompts/list_changed",
        "notifications/roots/list_changed",
    }
)
"""Methods a viewer may read in a trace: the protocol's own. Any other a server sent is its text."""


def _summary(entry: TraceEntry, shown: ShowPolicy) -> str:
    """The entry's line. For viewers (``hide_server_errors``) none of the server's text: an error
    is said to be one, any other message has no summary (a log message's text is the server's);
    ``frame.message(n)`` keeps it all for the notebook's author."""
    if shown.for_viewers:
        return f"error: {HIDDEN_SERVER_ERROR}" if entry.kind == "error" else ""
    return shown.title(entry.summary + (" (truncated)" if entry.truncated else ""))


def _method(entry: TraceEntry, shown: ShowPolicy) -> str | None:
    if entry.method is None or (shown.for_viewers and entry.method not in VIEWER_METHODS):
        return None
    return shown.name(entry.method)


def _id(entry: TraceEntry, shown: ShowPolicy) -> str | None:
    if entry.id is None or (shown.for_viewers and not isinstance(entry.id, int)):
        return None  # a server's request may carry any string as its id
    return shown.name(str(entry.id))


def trace_frame(
    entries: Sequence[TraceEntry], trace: ProtocolTrace | None = None, policy: ShowPolicy | None = None
) -> pd.DataFrame:
    """One row per message, oldest first; strings masked, made visible and cut."""
    shown = (policy or ShowPolicy()).with_secrets(trace.policy.secrets if trace is not None else ())
    rows = [
        {
            "time": _time(entry.time),
            "direction": f"{entry.arrow} {entry.direction}",
            "kind": entry.kind,
            "method": _method(entry, shown),
            "id": _id(entry, shown),
            "size": entry.size,
            "summary": _summary(entry, shown),
        }
        for entry in entries
    ]
    frame = TraceFrame(rows, columns=TRACE_COLUMNS, index=pd.Index([e.seq for e in entries], name="n"))
    for column in ("method", "id"):  # a notification has no id: None, not NaN
        frame[column] = pd.Series([row[column] for row in rows], index=frame.index, dtype=object)
    frame._entries = {entry.seq: entry for entry in entries}
    frame.dropped = trace.dropped if trace is not None else 0
    frame.truncated = trace.truncated if trace is not None else 0
    result: pd.DataFrame = frame
    return result
