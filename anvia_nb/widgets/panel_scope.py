"""What a panel may show: one connection or all, every tool or a chosen few.

A dashboard's panel should not hand every viewer every tool (a destructive one, one that reads
the server's environment): ``panel(tools=["echo", "add"])`` (``%mcp panel NAME --tools echo,add``)
lists only those, and ``panel(connection="demo")`` only that connection. Both are checked when the
panel is made, against the connections open then: a tool no open connection has is a one-line
error for the author. A connection that failed to open is not an error: the panel says that it
is not available (in a viewer's words when server errors are hidden) and lists it once it opens.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from anvia_nb.errors import InvalidTypeError, UnknownConnectionError, UnknownToolError
from anvia_nb.policy import ShowPolicy
from anvia_nb.runtime import Runtime
from anvia_nb.widgets._chrome import never_opened_note
from anvia_nb.widgets.unavailable import never_opened

__all__ = ["PanelScope", "panel_scope"]

NO_SERVER_FOR_VIEWERS = "No server is available on this page right now."


@dataclass(frozen=True)
class PanelScope:
    """``connection``: the one connection shown (``None``: all); ``tools``: the tool names shown (``None``: all)."""

    connection: str | None = None
    tools: frozenset[str] | None = None

    def names(self, open_names: Iterable[str]) -> list[str]:
        """The open connections the panel lists."""
        return [name for name in open_names if self.connection is None or name == self.connection]

    def allows(self, tool: str) -> bool:
        return self.tools is None or tool in self.tools

    def empty_note(self, runtime: Runtime, policy: ShowPolicy, how_to_connect: str) -> str:
        """What the panel says when it lists no connection."""
        if self.connection is not None and never_opened(runtime, self.connection):
            return never_opened_note(self.connection, policy)
        if policy.for_viewers:
            return policy.viewer_line(None, self.connection or "") if self.connection else NO_SERVER_FOR_VIEWERS
        return how_to_connect


def panel_scope(runtime: Runtime, connection: str | None, tools: Iterable[str] | None) -> PanelScope:
    """The scope of a new panel, checked against the connections open now (see the module's text)."""
    if tools is not None and (isinstance(tools, str) or not all(isinstance(t, str) for t in tools)):
        raise InvalidTypeError('panel(tools=...) takes a list of tool names, such as tools=["echo", "add"].')
    chosen = frozenset(tools) if tools is not None else None
    open_names = runtime.names()
    if connection is not None and connection not in open_names and not never_opened(runtime, connection):
        runtime.server(connection)  # raises UnknownConnectionError with close names
        raise UnknownConnectionError(f"No connection named {connection!r}.")
    scope = PanelScope(connection, chosen)
    servers = [runtime.server(name) for name in scope.names(open_names)]
    if chosen and servers:
        offered = {tool.name for server in servers for tool in server.tools}
        missing = sorted(chosen - offered)
        if missing:
            where = f"{connection!r}" if connection else "any open connection"
            raise UnknownToolError(
                f"panel(tools=...): {where} has no tool {missing[0]!r}. It has: {', '.join(sorted(offered)[:20])}.",
                [],
            )
    return scope
