"""What the widgets share for showing server text: plain-text helpers and re-exported chrome.

The HTML of anvia_nb's chrome (tool header, destructive warning, request header, notes) is
built by :mod:`anvia_nb.display.chrome`, the display layer being the only place HTML is
assembled; it is re-exported here so the widgets have one place to import it from. What stays
here is plain text for ipywidgets' own Labels, options and tooltips: every server string goes
through the connection's :class:`~anvia_nb.policy.ShowPolicy` (secrets masked, hidden characters
made visible, length bounded by its named limits), so no widget holds markup a server wrote or a secret a server echoed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from anvia_nb.core.types import CallOutcome
from anvia_nb.display import display_status
from anvia_nb.display.chrome import (
    DESCRIPTION_CHARS,
    LINE_CHARS,
    NAME_CHARS,
    OPTION_CHARS,
    destructive_warning_html,
    hints_text,
    is_destructive,
    notice_html,
    policy_of,
    request_header_html,
    server_text_html,
    tool_header_html,
)
from anvia_nb.policy import ShowPolicy

__all__ = [
    "DESCRIPTION_CHARS",
    "LINE_CHARS",
    "NAME_CHARS",
    "OPTION_CHARS",
    "destructive_warning_html",
    "hints_text",
    "history_label",
    "is_destructive",
    "notice_html",
    "plain",
    "policy_of",
    "request_header_html",
    "server_text_html",
    "show_in_cell",
    "tool_header_html",
]


def plain(text: object, secrets: Sequence[str] | ShowPolicy = (), limit: int | None = None) -> str:
    """Server text as one safe plain string for a Label, option or tooltip (never markup).

    ``secrets`` is a :class:`ShowPolicy` or a connection's secrets; ``limit`` defaults to ``name_chars``.
    """
    policy = policy_of(secrets)
    return policy.line(text, policy.limits.name_chars if limit is None else limit)


def history_label(outcome: CallOutcome, secrets: Sequence[str] = ()) -> str:
    """One history row as plain text: time, server · tool, status, seconds, arguments."""
    when = outcome.started_at.astimezone().strftime("%H:%M:%S") if isinstance(outcome.started_at, datetime) else ""
    args = plain(repr(outcome.arguments or {}), secrets, OPTION_CHARS)
    name = f"{plain(outcome.server, secrets)} · {plain(outcome.tool, secrets)}"
    return f"{when}  {name}  {display_status(outcome)}  {outcome.seconds:.2f} s  {args}"


def show_in_cell(widget: object) -> None:
    """Display a widget in the output of the cell the kernel is running (IPython loaded only now)."""
    from IPython.display import display

    display(widget)  # type: ignore[no-untyped-call]
