"""The status line of a call running in the background (``%mcp call --background``), as HTML.

Pure: a :class:`~anvia_nb.core.api.tasks.BackgroundState` in, markup and plain text out. The server
and tool names sit in anvia_nb's own header; everything the server chose (its task id, the task's
status and status message, a progress message) goes through the connection's
:class:`~anvia_nb.policy.ShowPolicy` (secrets masked, hidden characters made visible, bounded)
and then into the escape-by-default builder, inside an element marked not-math.
"""

from __future__ import annotations

from anvia_nb.core.protocol.types import BackgroundState
from anvia_nb.display._html import Html, element
from anvia_nb.policy import NOT_MATH_CLASSES, ShowPolicy

__all__ = ["background_html", "background_text"]

_TONES = {"completed": ("header", "status-ok"), "cancelled": ("header-warn", "status-warn")}
_KNOWN_STATUSES = ("running", "working", "input_required", "completed", "failed", "cancelled")


def _parts(state: BackgroundState, policy: ShowPolicy) -> list[tuple[str, str, str | None]]:
    """(class suffix, text, style) of each piece after the names, server text already made safe."""
    status = state.status if state.status in _KNOWN_STATUSES else policy.name(state.status)
    parts: list[tuple[str, str, str | None]] = [("status", status, None)]
    if state.task_id:
        parts.append(("task", f"task {policy.name(state.task_id)}", "muted"))
    if state.progress is not None:
        progress, total, message = state.progress
        shown = f"{progress:g}" + (f" of {total:g}" if total is not None else "")
        if message:
            shown += f": {policy.title(message)}"
        parts.append(("progress", shown, None))
    if state.status_message:
        parts.append(("message", policy.title(state.status_message), None))
    parts.append(("seconds", f"{state.seconds:.1f} s", "muted"))
    if not state.done:
        parts.append(("note", "running in the background; the cell is free", "muted"))
    return parts


def background_html(state: BackgroundState, policy: ShowPolicy | None = None) -> str:
    """Our header for a background call: server · tool, status, task, progress, time."""
    shown = (policy or ShowPolicy()).with_secrets(state.secrets)
    box, status_style = _TONES.get(
        state.status, ("header-error", "status-error") if state.status == "failed" else ("header", "status-warn")
    )
    pieces: list[Html] = [
        element("span", "MCP", style="badge"),
        element("b", shown.name(state.server), cls="anvia-server-name"),
        element("span", "·", style="muted"),
        element("code", shown.name(state.tool), cls="anvia-tool-name"),
    ]
    for kind, text, style in _parts(state, shown):
        style = status_style if kind == "status" else style
        pieces.append(element("span", text, cls=f"anvia-background-{kind}", style=style))
    return element("div", *pieces, cls=f"anvia-background {NOT_MATH_CLASSES}", style=box).markup


def background_text(state: BackgroundState, policy: ShowPolicy | None = None) -> str:
    """The same line as plain text (for ``repr`` and front ends without widgets)."""
    shown = (policy or ShowPolicy()).with_secrets(state.secrets)
    pieces = " · ".join(text for _kind, text, _style in _parts(state, shown))
    return f"[MCP {shown.name(state.server)} · {shown.name(state.tool)}] {pieces}"
