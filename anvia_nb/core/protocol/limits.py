"""The bounds every connection lives within, in one place (change them here, before connecting).

Every bound on what a connection sends, keeps and waits for is here, each with what it bounds and
why that number: message sizes, timeouts, calls in flight, and how much the trace, the log, the
history and a view keep. What may be *shown* is bounded by the policy's
:class:`~anvia_nb.policy.Limits` instead. ``tests/package/test_bounds_home.py`` fails on a bound
written anywhere else.

``MAX_MESSAGE_BYTES`` is the largest message a server may send on any transport: a bigger one
ends the connection with a clear error instead of being buffered whole. The timeouts are what
``connect_mcp`` and ``Tool.call`` use when given none; an explicit ``None`` still means no limit.
"""

from __future__ import annotations

import enum

__all__ = [
    "APP_DOMAINS_KEPT",
    "APP_HTML_CHARS",
    "APP_MAX_HEIGHT_PX",
    "APP_MESSAGES_KEPT",
    "APP_MESSAGE_CHARS",
    "APP_MIN_HEIGHT_PX",
    "APP_REPLY_CHARS",
    "APP_TEXT_CHARS",
    "APP_URI_CHARS",
    "CHANGES_KEPT",
    "CHANGE_NAMES_SHOWN",
    "COMPLETION_TIMEOUT_SECONDS",
    "DEFAULT",
    "DEFAULT_CALL_MAX_SECONDS",
    "DEFAULT_CALL_TIMEOUT_SECONDS",
    "DEFAULT_CONNECT_TIMEOUT_SECONDS",
    "DEFAULT_MAP_CONCURRENCY",
    "DEFAULT_MAX_CALLS_IN_FLIGHT",
    "HISTORY_CALLS_KEPT",
    "KEPT_JSON_CHARS",
    "KEPT_JSON_DEPTH",
    "KEPT_JSON_ITEMS",
    "LINKS_KEPT",
    "LOG_ENTRIES_KEPT",
    "LOG_RECORD_CHARS",
    "LOG_TAIL_LINES",
    "LOG_TAIL_LINE_CHARS",
    "LOOP_CANCEL_WAIT_SECONDS",
    "LOOP_STOP_WAIT_SECONDS",
    "MAX_MESSAGE_BYTES",
    "PATTERN_TIMEOUT_SECONDS",
    "PROGRESS_KEPT",
    "PROGRESS_MESSAGE_CHARS",
    "RECORD_SEEN_CHARS",
    "SCHEMA_DEPTH",
    "SCHEMA_PROBLEMS",
    "SCHEMA_VALUE_CHARS",
    "TASK_MESSAGE_CHARS",
    "TRACE_HEAD_CHARS",
    "TRACE_MESSAGES_KEPT",
    "TRACE_MESSAGE_CHARS",
    "TRACE_PENDING_IDS",
    "TRACE_SUMMARY_CHARS",
    "TRACE_TOTAL_CHARS",
    "UPDATED_URIS_KEPT",
    "VALUE_DEPTH",
    "Default",
    "Timeout",
    "max_time_or_default",
    "timeout_or_default",
]

MAX_MESSAGE_BYTES = 256 * 1024 * 1024
"""Largest JSON-RPC message accepted from a server, in bytes (one stdio line, one HTTP body or SSE event)."""

DEFAULT_CONNECT_TIMEOUT_SECONDS = 30.0
"""How long connecting (handshake and tool listing) may take when no timeout is given."""

DEFAULT_CALL_TIMEOUT_SECONDS = 60.0
"""How long one tool call may go without an answer or a progress notification when no timeout is
given (each progress notification starts it again, up to the call's max time)."""

DEFAULT_CALL_MAX_SECONDS = 600.0
"""How long one tool call may take in all, progress or not, when no max time is given (never less
than the call's own timeout; none when that timeout is ``None``)."""

DEFAULT_MAX_CALLS_IN_FLIGHT = 16
"""How many tool calls one connection has in flight at once unless told otherwise (cells, forms
and maps share them; the others wait their turn)."""

PROGRESS_KEPT = 100
"""How many of a call's last progress notifications its outcome keeps."""

# -- what one call and one connection keep ------------------------------------------------

PROGRESS_MESSAGE_CHARS = 2_000
"""Characters kept of one progress notification's message (a status line, not a document)."""

TASK_MESSAGE_CHARS = 2_000
"""Characters kept of a background task's status or progress message (the same line as a call's)."""

COMPLETION_TIMEOUT_SECONDS = 10.0
"""How long one ``completion/complete`` may take when no timeout is given (Tab waits for it)."""

DEFAULT_MAP_CONCURRENCY = 8
"""Rows of one map in flight at once unless told otherwise (half the calls a connection has in flight)."""

LINKS_KEPT = 1_000
"""Links a server offered (resource links in results) that a connection keeps: a list, not a crawl."""

UPDATED_URIS_KEPT = 1_000
"""URIs whose update counts a connection keeps (the least recently updated go first)."""

CHANGES_KEPT = 20
"""A server's list changes waiting to be said (only the last few are worth a line)."""

CHANGE_NAMES_SHOWN = 10
"""Names one list-change line spells out before "and N more" (one line of the log)."""

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

HISTORY_CALLS_KEPT = 1_000
"""Calls the runtime's history keeps by default (``%mcp history``, forms, panels)."""

KEPT_JSON_CHARS = 1_000
"""Characters of one string kept of a JSON value (a call's arguments in the history, a log message;
an error's message: twice this)."""

RECORD_SEEN_CHARS = 4_000
"""The largest mapped output or structuredContent (as JSON) a history record keeps for tests."""

KEPT_JSON_ITEMS = 50
"""Items of one list or object kept of such a JSON value; the rest are counted."""

KEPT_JSON_DEPTH = 8
"""Nesting kept of such a JSON value; deeper values are elided."""

# -- checking values and schemas ----------------------------------------------------------

VALUE_DEPTH = 100
"""Nesting of a Python value turned into JSON arguments; deeper is a cycle, most likely."""

SCHEMA_DEPTH = 32
"""Nesting of a schema the quick checks read; deeper ones go to the full validator."""

SCHEMA_PROBLEMS = 20
"""Problems one schema check reports (the first ones; one screen)."""

SCHEMA_VALUE_CHARS = 60
"""Characters of a value quoted in a schema problem (``must be one of …``)."""

PATTERN_TIMEOUT_SECONDS = 0.1
"""The most one ``pattern`` search may take before it is given up as "could not check"."""

# -- MCP Apps (views) -----------------------------------------------------------------------

APP_HTML_CHARS = 5_000_000
"""The largest view (its HTML, in characters) fetched and shown (the npm example views are 0.3 to 1.5 MB)."""

APP_REPLY_CHARS = 5_000_000
"""The largest answer (as JSON) the kernel sends a view for one of its requests (as large as a view)."""

APP_MESSAGES_KEPT = 100
"""How many of a view's messages (``ui/message``) and offered links a view object keeps; older go first."""

APP_MESSAGE_CHARS = 20_000
"""How much of one message, link, or of the model context a view sets, is kept (as JSON text)."""

APP_TEXT_CHARS = 200
"""Characters of a view's text quoted in a history entry or a refusal (one line)."""

APP_URI_CHARS = 120
"""Characters of a view's URI quoted in an error (one line)."""

APP_DOMAINS_KEPT = 32
"""Origins a view declares per CSP directive that are kept; more are ignored."""

APP_MIN_HEIGHT_PX = 80
"""The least height of a view's frame, whatever size it asks for (one line of controls)."""

APP_MAX_HEIGHT_PX = 1_200
"""The greatest height of a view's frame, whatever size it asks for (a screen, not a flood)."""

# -- the background loop --------------------------------------------------------------------

LOOP_CANCEL_WAIT_SECONDS = 5.0
"""How long the background loop waits for a cancelled call to finish before going on."""

LOOP_STOP_WAIT_SECONDS = 10.0
"""How long the background loop may take to start or to stop (its calls drained)."""


class Default(enum.Enum):
    """The type of :data:`DEFAULT`: "no timeout given" (``None`` means "no limit")."""

    TOKEN = "default"


DEFAULT = Default.TOKEN

Timeout = float | Default | None
"""What every ``timeout_seconds`` takes: seconds, :data:`DEFAULT` (the documented default), or ``None`` (no limit)."""


def timeout_or_default(timeout_seconds: float | Default | None, default: float) -> float | None:
    """``default`` when no timeout was given, else the one given (``None``: no limit)."""
    return default if isinstance(timeout_seconds, Default) else timeout_seconds


def max_time_or_default(max_time_seconds: float | Default | None, timeout: float | None) -> float | None:
    """A call's whole-time bound: the one given (``None``: none), else
    :data:`DEFAULT_CALL_MAX_SECONDS` but never less than the call's resolved ``timeout`` (and none
    when that is ``None``: a call told to wait for ever is not cut short by a default)."""
    if not isinstance(max_time_seconds, Default):
        return max_time_seconds
    return None if timeout is None else max(DEFAULT_CALL_MAX_SECONDS, timeout)
