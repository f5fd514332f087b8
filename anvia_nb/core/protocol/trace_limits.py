"""The bounds on what a connection keeps of what passed: its log, its trace and its recording.

A group of :mod:`anvia_nb.core.protocol.limits`, which imports each of them and lists them in its
``__all__``: read them there (``limits.TRACE_MESSAGES_KEPT``), change them here.
``tests/package/test_bounds_home.py`` counts this module as a home of bounds, beside ``limits.py``.
"""

from __future__ import annotations

__all__ = [
    "LOG_ENTRIES_KEPT",
    "LOG_RECORD_CHARS",
    "LOG_TAIL_LINES",
    "LOG_TAIL_LINE_CHARS",
    "RECORDED_PROGRESS_KEPT",
    "RECORDING_READ_BYTES",
    "TRACE_HEAD_CHARS",
    "TRACE_MESSAGES_KEPT",
    "TRACE_MESSAGE_CHARS",
    "TRACE_PENDING_IDS",
    "TRACE_SUMMARY_CHARS",
    "TRACE_TOTAL_CHARS",
]

LOG_ENTRIES_KEPT = 500
"""A server's log messages a connection keeps (``%mcp log``): the last ones, as a ring."""

LOG_TAIL_LINES = 20
"""Lines of a server's stderr an error quotes when it could not start or stopped."""

LOG_TAIL_LINE_CHARS = 300
"""Characters of each of those stderr lines (and of a log message's logger name)."""

LOG_RECORD_CHARS = 500
"""Characters of one of the MCP SDK's own log records kept in a connection's log (one line)."""

TRACE_MESSAGES_KEPT = 2_000
"""JSON-RPC messages a connection's trace keeps (``%mcp trace``); older go first."""

TRACE_MESSAGE_CHARS = 64_000
"""Characters of one message the trace keeps whole; a larger one keeps its head."""

TRACE_TOTAL_CHARS = 8_000_000
"""Characters the whole trace keeps (about 32 MB at worst): older messages go first."""

TRACE_HEAD_CHARS = 2_000
"""The head kept of a message larger than :data:`TRACE_MESSAGE_CHARS` (enough to see what it was)."""

TRACE_SUMMARY_CHARS = 160
"""Characters of a trace entry's one-line summary (the summary is cut at twice this)."""

TRACE_PENDING_IDS = 10_000
"""Request ids the trace remembers to name their answers; past this the oldest are forgotten."""

RECORDED_PROGRESS_KEPT = 1_000
"""Progress steps of one call a recording keeps (``--record``): evenly spaced over the call, the
first and the latest always among them, the rest counted in the line (``progressDropped``). A
recording whose call holds more is refused when read, before its steps are made."""

RECORDING_READ_BYTES = 1 << 20
"""The most read at once while the end of a recording's line is looked for (the line itself is then
read in one piece, so a large line is held once, not as pieces and their join)."""
