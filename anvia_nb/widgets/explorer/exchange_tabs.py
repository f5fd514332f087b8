"""The panel's Server, Log and Trace tabs: what the chosen server is, says, and exchanges.

- **Server**: protocol version, the server's name and version, its capabilities (JSON) and
  instructions, the notifications it sent and how its tool list changed.
- **Log**: its stderr, log messages and anvia_nb's notes, merged (as ``%mcp log``).
- **Trace**: the last JSON-RPC messages, one line each (as ``%mcp trace``).

For viewers (``hide_server_errors``: viewer mode) the three tabs say what happened in plain
words (:func:`~anvia_nb.display.settings.viewer_words`): no capabilities JSON, log text or
message summaries, nothing to type; the details stay in Python for the author.

Every server string goes through the connection's :class:`~anvia_nb.policy.ShowPolicy` and the
display layer's escaping (:func:`~anvia_nb.display.chrome.server_text_html`): masked, special
characters made visible, bounded. The tabs are read again when the panel picks a connection,
after each call made from it, on Refresh, and when the server says a list changed.
"""

from __future__ import annotations

import json
import time
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from anvia_nb.display.chrome import notice_html, server_text_html
from anvia_nb.display.settings import viewer_words
from anvia_nb.errors import AnviaError
from anvia_nb.policy import ShowPolicy

if TYPE_CHECKING:
    from anvia_nb.core import McpServer

__all__ = ["TAB_TITLES", "ExchangeTabs", "follow_changes"]

TAB_TITLES = ("Server", "Log", "Trace")


def _clock(seconds: float | None) -> str:
    return "--:--:--" if seconds is None else time.strftime("%H:%M:%S", time.localtime(seconds))


def server_text(server: McpServer, policy: ShowPolicy) -> str:
    """What the Server tab shows, as text (server strings still unmasked: the box masks them)."""
    client = server.client
    if policy.for_viewers:
        return (
            viewer_words("server", server.name, policy=policy)
            if server.is_open
            else policy.viewer_line(None, server.name)
        )
    try:
        version = client.protocol_version
        info = client.server_info
        capabilities: Any = client.capabilities
        instructions = client.instructions
    except AnviaError:
        return f"{server.name} is closed."
    lines = [
        f"protocol version: {version}",
        f"server: {info.get('name', '?')} {info.get('version', '')}".rstrip(),
        f"transport: {server.connection.transport}",
        "capabilities: " + json.dumps(capabilities, ensure_ascii=False, sort_keys=True),
    ]
    if client.notifications:
        counted = ", ".join(f"{method} ×{n}" for method, n in sorted(client.notifications.items()))
        lines.append(f"notifications received: {counted}")
    for change in server.changes.pending:
        lines.append(change.text(server.name))
    lines.append(f"instructions: {instructions}" if instructions else "instructions: (none)")
    return "\n".join(lines)


def log_text(server: McpServer, policy: ShowPolicy) -> str:
    rows = server.log.rows(policy.limits.panel_lines, policy.limits.log_chars)
    if policy.for_viewers:
        written = sum(1 for row in rows if row.source != "client")
        return viewer_words("log", server.name, written, policy)
    lines = []
    for row in rows:
        level = f" {row.level}" if row.level else ""
        logger = f" {row.logger}" if row.logger else ""
        lines.append(f"{_clock(row.time)} {row.source}{level}{logger}: {row.text}")
    if not lines and server.client.origin is not None:
        return f"{server.client.origin}: a recording holds no server log."
    return "\n".join(lines) or "(nothing yet)"


def trace_text(server: McpServer, policy: ShowPolicy) -> str:
    trace = server.trace
    if policy.for_viewers:
        return viewer_words("trace", server.name, len(trace) + trace.dropped, policy)
    if server.connection.transport == "memory":
        return "an in-memory connection: no messages go over a wire, so none are traced."
    if server.client.origin is not None:
        return f"{server.client.origin}: a recording holds no messages, so none are traced."
    lines = [
        f"{entry.seq:>5} {_clock(entry.time)} {entry.arrow} {entry.kind} {entry.method or ''} "
        f"id={entry.id} {entry.size}B  {entry.summary}{' (truncated)' if entry.truncated else ''}"
        for entry in trace.entries(policy.limits.panel_lines)
    ]
    if trace.dropped:
        lines.insert(0, f"({trace.dropped} earlier messages dropped: the trace is bounded)")
    return "\n".join(lines) or "(nothing yet)"


def follow_changes(server: McpServer, method: Callable[[str, str], None]) -> Callable[[], None]:
    """Call the bound ``method(server_name, what)`` on each list change of ``server`` while its
    object lives; returns the function that stops it."""
    target = weakref.WeakMethod(method)

    def listener(name: str, what: str) -> None:
        bound = target()
        if bound is None:
            stop()
        else:
            bound(name, what)

    stop = server.changes.on_change(listener)
    return stop


class ExchangeTabs:
    """Server, Log and Trace of the connection the panel shows: ``.pages``, one per tab."""

    def __init__(self, policy: ShowPolicy | None = None) -> None:
        self.policy = policy or ShowPolicy()
        self.server: McpServer | None = None
        self.server_view = widgets.HTML(value="")
        self.log_view = widgets.HTML(value="")
        self.trace_view = widgets.HTML(value="")
        self.refresh_button = widgets.Button(
            description="Read again", icon="refresh", tooltip="read the server's log and the protocol trace again"
        )
        self.refresh_button.on_click(lambda _b: self.refresh())
        self.pages = [
            widgets.VBox([self.refresh_button, view]) for view in (self.server_view, self.log_view, self.trace_view)
        ]
        """One page per tab (titles :data:`TAB_TITLES`), for the panel's tabs."""

    def show(self, server: McpServer | None) -> None:
        """Show ``server`` (``None``: nothing)."""
        self.server = server
        self.refresh()

    def refresh(self) -> None:
        server = self.server
        if server is None:
            for view in (self.server_view, self.log_view, self.trace_view):
                view.value = notice_html("No connection chosen.")
            return
        shown = self.policy.with_secrets(server.secrets)
        secrets = tuple(shown.secrets)
        name = shown.name(server.name)
        chars = shown.limits.log_chars
        if shown.for_viewers:  # plain words, nothing to type
            labels = (f"server {name}", f"log of server {name}", f"messages with server {name}")
        else:
            lines = shown.limits.panel_lines
            labels = (
                f"server {name}",
                f"log of server {name} (last {lines} lines)",
                f"protocol trace of {name} (last {lines} messages; all: %mcp trace {name})",
            )
        texts = (server_text(server, shown), log_text(server, shown), trace_text(server, shown))
        for view, label, text in zip((self.server_view, self.log_view, self.trace_view), labels, texts, strict=True):
            view.value = server_text_html(label, text, secrets, chars)

    def text(self) -> str:
        """The tabs as plain text, masked and made visible (for tests and places without widgets)."""
        server = self.server
        if server is None:
            return ""
        shown = self.policy.with_secrets(server.secrets)
        parts = (server_text(server, shown), log_text(server, shown), trace_text(server, shown))
        return "\n".join(shown.visible(part) for part in parts)
