"""The note ``%mcp tools`` prints when a server's tool list changed since it was last listed.

The connection re-lists by itself when the server says its tools changed (see
:mod:`anvia_nb.core.api.changes`); the person learns of it in the cell that next lists the tools:
``note: the tool list of demo changed since 12:00:01: added bonus``. Names are the server's
words, so the line goes through the :class:`~anvia_nb.policy.ShowPolicy`.
"""

from __future__ import annotations

from collections.abc import Iterable

from anvia_nb.core.api.server import McpServer
from anvia_nb.policy import ShowPolicy
from anvia_nb.runtime import Runtime

__all__ = ["note_tool_changes", "tool_change_notes"]


def tool_change_notes(server: McpServer, policy: ShowPolicy) -> list[str]:
    """The changes of ``server``'s tool list not yet noted, as lines; they count as noted now."""
    shown = policy.with_secrets(server.secrets)
    return [f"note: {shown.text(change.text(server.name))}" for change in server.changes.take_changes()]


def note_tool_changes(runtime: Runtime, servers: Iterable[McpServer], policy: ShowPolicy) -> None:
    """Wait (bounded) for re-listings under way, then print what changed."""
    for server in servers:
        runtime.run(server.changes.settled())
        for line in tool_change_notes(server, policy):
            print(line)
