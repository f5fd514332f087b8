"""The bounds every connection lives within, in one place (change them here, before connecting).

Every bound on what a connection sends, keeps and waits for is here, each with what it bounds and
why that number: message sizes, timeouts, calls in flight, and how much the trace, the log, the
history and a view keep (what the log, the trace and a recording keep are written in
:mod:`~anvia_nb.core.protocol.trace_limits` and read here). What may be *shown* is bounded by the policy's
:class:`~anvia_nb.policy.Limits` instead. ``tests/package/test_bounds_home.py`` fails on a bound
written anywhere else.

``MAX_MESSAGE_BYTES`` is the largest message a server may send on any transport: a bigger one
ends the connection with a clear error instead of being buffered whole. The timeouts are what
``connect_mcp`` and ``Tool.call`` use when given none; an explicit ``None`` still means no limit.
"""

from __future__ import annotations

import enum
from typing import TypedDict

from anvia_nb.core.protocol import trace_limits
from anvia_nb.core.protocol.trace_limits import *  # noqa: F403 - its bounds are read here and named once, in its __all__

__all__ = [
    "APP_DOMAINS_KEPT",
    "APP_FRONTEND_BURST",
    "APP_FRONTEND_RATE",
    "APP_HTML_CHARS",
    "APP_INFO_CHARS",
    "APP_KERNEL_BURST",
    "APP_KERNEL_RATE",
    "APP_MAX_HEIGHT_PX",
    "APP_MESSAGES_KEPT",
    "APP_MESSAGE_CHARS",
    "APP_MIN_HEIGHT_PX",
    "APP_NOTIFICATIONS_KEPT",
    "APP_PENDING_REQUESTS",
    "APP_REPLY_CHARS",
    "APP_SENT_CHARS",
    "APP_TEARDOWN_WAIT_SECONDS",
    "APP_TEXT_CHARS",
    "APP_URI_CHARS",
    "CHANGES_KEPT",
    "CHANGE_NAMES_SHOWN",
    "CLOSE_TIMEOUT_SECONDS",
    "COMPLETIONS_KEPT",
    "COMPLETION_TIMEOUT_SECONDS",
    "DEFAULT",
    "DEFAULT_CALL_MAX_SECONDS",
    "DEFAULT_CALL_TIMEOUT_SECONDS",
    "DEFAULT_CONNECT_TIMEOUT_SECONDS",
    "DEFAULT_MAP_CONCURRENCY",
    "DEFAULT_MAX_CALLS_IN_FLIGHT",
    "DEFAULT_PROMPT_TIMEOUT_SECONDS",
    "DEFINITION_DIFF_LINES",
    "HISTORY_CALLS_KEPT",
    "HTTP_READ_BYTES",
    "KEPT_JSON_CHARS",
    "KEPT_JSON_DEPTH",
    "KEPT_JSON_ITEMS",
    "LINKS_KEPT",
    "LISTED_ITEMS",
    "LISTING_PAGES",
    "LOCK_FILE_BYTES",
    "LOOP_CANCEL_WAIT_SECONDS",
    "LOOP_STOP_WAIT_SECONDS",
    "MAP_CANCEL_WAIT_SECONDS",
    "MAP_PROGRESS_SECONDS",
    "MAP_TICK_SECONDS",
    "MAX_MESSAGE_BYTES",
    "OAUTH_REFRESH_MARGIN_SECONDS",
    "PANEL_CALLS_KEPT",
    "PATTERN_TIMEOUT_SECONDS",
    "PIPE_BYTES",
    "PIPE_WAITING_LINES",
    "PROCESS_POLL_SECONDS",
    "PROGRESS_KEPT",
    "PROGRESS_MESSAGE_CHARS",
    "PROMPTS_KEPT",
    "RECORD_SEEN_CHARS",
    "SCHEMA_DEPTH",
    "SCHEMA_PROBLEMS",
    "SCHEMA_VALUE_CHARS",
    "SECRET_FILE_BYTES",
    "SERVER_EXIT_GRACE_SECONDS",
    "SERVER_TERM_GRACE_SECONDS",
    "STDOUT_DRAIN_SECONDS",
    "TASK_CANCEL_TIMEOUT_SECONDS",
    "TASK_MESSAGE_CHARS",
    "TASK_POLL_MAX_SECONDS",
    "TASK_POLL_MIN_SECONDS",
    "TASK_POLL_SECONDS",
    "TASK_REQUEST_TIMEOUT_SECONDS",
    "TASK_TTL_MS",
    "UNRECORDED_CLOSEST_CALLS",
    "UPDATED_URIS_KEPT",
    "VALUE_DEPTH",
    "CallBounds",
    "Default",
    "Timeout",
    "max_time_or_default",
    "timeout_or_default",
]
__all__ += trace_limits.__all__  # the log, trace and recording bounds, each named there once

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

DEFINITION_DIFF_LINES = 400
"""Lines of a changed definition's difference (``%mcp diff``, a pin that changed) kept; the rest counted."""
LOCK_FILE_BYTES = 64 * 1024 * 1024
"""The most read of a lock file of pinned definitions (``mcp-lock.json``): untrusted, edited by hand."""

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

# -- the transports: opening, reading, stopping --------------------------------------------

CLOSE_TIMEOUT_SECONDS = 15.0
"""How long closing a session may wait for its owner task to end, and again once it is cancelled."""

HTTP_READ_BYTES = 1 << 20
"""The most one read of an HTTP response asks the socket for: above the 256 KiB the event loop
receives at once, so each read takes whatever piece has arrived, whole."""

PIPE_BYTES = 1 << 20
"""The width asked for a stdio server's stdout pipe (Linux's default most; 64 KiB otherwise), and
the bytes read ahead before the reader waits for the session to take lines."""

PIPE_WAITING_LINES = 64
"""Lines of a stdio server read ahead before the reader waits for the session to take them."""

STDOUT_DRAIN_SECONDS = 1.0
"""After a stdio server's process ended, how long its stdout may still deliver what it wrote."""

SERVER_EXIT_GRACE_SECONDS = 2.0
"""How long a stdio server may take to exit once its stdin is closed, before it is terminated."""

SERVER_TERM_GRACE_SECONDS = 2.0
"""How long a stdio server (its group, what it left behind) may take to go after SIGTERM, before SIGKILL."""

PROCESS_POLL_SECONDS = 0.01
"""How often a stopping server's processes are looked for."""

LISTING_PAGES = 100
"""Pages of one ``resources/list``, ``resources/templates/list`` or ``prompts/list`` followed."""

LISTED_ITEMS = 10_000
"""Items of one such listing kept, whatever the pages held."""

COMPLETIONS_KEPT = 100
"""Suggestions of one ``completion/complete`` kept (the protocol's own most)."""

TASK_TTL_MS = 600_000
"""How long a server is asked to keep a task (2025-11-25 form): ten minutes."""

TASK_POLL_SECONDS = 0.5
"""How often a task is polled when its server suggests no interval."""

TASK_POLL_MIN_SECONDS = 0.05
"""The least poll interval a server's suggestion is held to."""

TASK_POLL_MAX_SECONDS = 5.0
"""The greatest poll interval a server's suggestion is held to."""

TASK_REQUEST_TIMEOUT_SECONDS = 30.0
"""How long one ``tasks/get`` or ``tasks/result`` request may take."""

TASK_CANCEL_TIMEOUT_SECONDS = 5.0
"""How long telling a server that a task is cancelled may take."""

OAUTH_REFRESH_MARGIN_SECONDS = 60.0
"""How long before an OAuth access token expires it is refreshed (at most half its lifetime)."""

SECRET_FILE_BYTES = 1 << 20
"""The most read of a file holding an OAuth secret (a client secret, a key, a platform token)."""

UNRECORDED_CLOSEST_CALLS = 3
"""Recorded calls named in the error for a call a recording does not hold."""

# -- the notebook's side: views, prompts, the panel, maps ----------------------------------

APP_FRONTEND_BURST = 200
"""Messages a view may send at once before its frame (in the browser) drops the rest."""

APP_FRONTEND_RATE = 50
"""Messages a second a view may send after that burst (the frame drops the rest): a script, not a person."""

APP_KERNEL_BURST = 100
"""A view's messages the kernel takes at once; more are refused (half what the browser lets through)."""

APP_KERNEL_RATE = 20
"""A view's messages a second the kernel takes after that burst; more are refused."""

APP_PENDING_REQUESTS = 16
"""A view's requests waiting for the kernel's worker at once (as many as a connection's calls); more are refused."""

APP_SENT_CHARS = 1_000_000
"""The largest message (as JSON) a view may send the kernel; a larger one is dropped by both sides."""

APP_INFO_CHARS = 200
"""Characters kept of a view's own name, version and title (one line each)."""

APP_NOTIFICATIONS_KEPT = 64
"""Notifications kept for a view that initializes later (the same output shown twice)."""

APP_TEARDOWN_WAIT_SECONDS = 3.0
"""How long closing a view waits for its answer to ``ui/resource-teardown`` before closing the widget."""

DEFAULT_PROMPT_TIMEOUT_SECONDS = 600.0
"""How long a server's request for input waits for a person when no timeout is given (a call's max time)."""

PROMPTS_KEPT = 100
"""A server's requests for input (and the answers given) one session's prompt router keeps."""

PANEL_CALLS_KEPT = 200
"""Calls the panel's own history keeps to show and call again (a dropdown, not the runtime's history)."""

MAP_TICK_SECONDS = 0.25
"""How often a map run from a cell redraws its progress and lets Ctrl-C in."""

MAP_CANCEL_WAIT_SECONDS = 10.0
"""How long an interrupted map waits for its calls in flight to be cancelled on their server."""

MAP_PROGRESS_SECONDS = 0.2
"""The least time between two updates of a map's progress line (five a second, however fast rows finish)."""

# -- the background loop --------------------------------------------------------------------

LOOP_CANCEL_WAIT_SECONDS = 5.0
"""How long the background loop waits for a cancelled call to finish before going on."""

LOOP_STOP_WAIT_SECONDS = 10.0
"""How long the background loop may take to start or to stop (its calls drained)."""


class Default(enum.Enum):
    """The type of :data:`DEFAULT`: "no timeout given" (``None`` means "no limit")."""

    TOKEN = "default"

    def __repr__(self) -> str:
        """``DEFAULT``: how the sentinel reads where it stands, in a signature IPython's ``?`` shows."""
        return "DEFAULT"


DEFAULT = Default.TOKEN

Timeout = float | Default | None
"""What every ``timeout_seconds`` takes: seconds, :data:`DEFAULT` (the documented default), or ``None`` (no limit)."""


class CallBounds(TypedDict, total=False):
    """A call's two bounds, as the functions that pass them on to ``Tool.call_outcome`` take them
    (``**bounds``: ``Tool.call_task``, ``Runtime.start``); what each does is said there, and each
    defaults to :data:`DEFAULT`."""

    timeout_seconds: Timeout
    max_time_seconds: Timeout


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
