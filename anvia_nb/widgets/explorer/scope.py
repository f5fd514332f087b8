"""What a panel may show: one connection or all, every tool or a chosen few, and the same for
resources and prompts.

A dashboard's panel should not hand every viewer every tool (a destructive one, one that reads
the server's environment), nor the server's resources and prompts: ``panel(tools=["echo", "add"])``
(``%mcp panel NAME --tools echo,add``) offers only those tools, and no Resources or Prompts tab
unless the author names those too (``resources=[URI or uriTemplate, ...]``, ``prompts=[NAME, ...]``;
``--resources``, ``--prompts``). A panel so scoped lists one connection: the one named, or the
only one open; with several open and none named it is refused (one line), so a viewer never
reaches ``admin.add`` beside ``demo.add``. A panel with no scope at all is the author's explorer.

The scope is checked when the panel is made, against the connections open then (a tool no open
connection has is a one-line error for the author), and again in the kernel whenever a widget
asks for something (see :meth:`PanelScope.allows`): what a viewer's browser sends of its own is
held to what the page offered. A connection that failed to open is not an error: the panel says
that it is not available (in a viewer's words when server errors are hidden) and lists it once
it opens.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from anvia_nb.errors import InvalidTypeError, InvalidValueError, UnknownConnectionError, UnknownToolError
from anvia_nb.policy import ShowPolicy
from anvia_nb.runtime import Runtime
from anvia_nb.runtime.app_bridge import PageOffer
from anvia_nb.widgets._chrome import never_opened_note
from anvia_nb.widgets.forms.unavailable import never_opened

__all__ = ["PanelScope", "panel_scope"]

NO_SERVER_FOR_VIEWERS = "No server is available on this page right now."


@dataclass(frozen=True)
class PanelScope:
    """``connection``: the one connection shown (``None``: all); ``tools``, ``resources``,
    ``prompts``: the names offered (``None``: all). ``scoped``: the author named what to offer,
    so what they did not name (a kind of item, another connection) is not offered at all."""

    connection: str | None = None
    tools: frozenset[str] | None = None
    resources: frozenset[str] | None = None
    prompts: frozenset[str] | None = None
    scoped: bool = False

    def names(self, open_names: Iterable[str]) -> list[str]:
        """The open connections the panel lists."""
        return [name for name in open_names if self.connection is None or name == self.connection]

    def allows(self, tool: str) -> bool:
        """Whether the tool ``tool`` is offered."""
        return self.tools is None or tool in self.tools

    def page_offer(self) -> PageOffer | None:
        """What a tool's interactive view opened from this panel may reach: what the author named
        (``None``: an unscoped panel, the author's explorer, where a view reaches its server)."""
        if not self.scoped:
            return None
        return PageOffer(tools=self.tools or frozenset(), resources=self.resources or frozenset())

    def allows_connection(self, name: str | None) -> bool:
        return name is not None and (self.connection is None or name == self.connection)

    @property
    def offers_tools(self) -> bool:
        return not self.scoped or self.tools is not None

    @property
    def offers_resources(self) -> bool:
        return not self.scoped or self.resources is not None

    @property
    def offers_prompts(self) -> bool:
        return not self.scoped or self.prompts is not None

    def empty_note(self, runtime: Runtime, policy: ShowPolicy, how_to_connect: str) -> str:
        """What the panel says when it lists no connection."""
        if self.connection is not None and never_opened(runtime, self.connection):
            return never_opened_note(self.connection, policy)
        if policy.for_viewers:
            return policy.viewer_line(None, self.connection or "") if self.connection else NO_SERVER_FOR_VIEWERS
        return how_to_connect


def _names(what: str, kind: str, example: str, values: Iterable[str] | None) -> frozenset[str] | None:
    if values is None:
        return None
    if isinstance(values, str) or not all(isinstance(v, str) for v in values):
        raise InvalidTypeError(f"panel({what}=...) takes a list of {kind}, such as {what}={example}.")
    return frozenset(values)


def panel_scope(
    runtime: Runtime,
    connection: str | None,
    tools: Iterable[str] | None,
    resources: Iterable[str] | None = None,
    prompts: Iterable[str] | None = None,
) -> PanelScope:
    """The scope of a new panel, checked against the connections open now (see the module's text)."""
    chosen = _names("tools", "tool names", '["echo", "add"]', tools)
    named_resources = _names("resources", "URIs or uriTemplates", '["demo://readme"]', resources)
    named_prompts = _names("prompts", "prompt names", '["summarize"]', prompts)
    scoped = chosen is not None or named_resources is not None or named_prompts is not None
    open_names = runtime.names()
    if connection is not None and connection not in open_names and not never_opened(runtime, connection):
        runtime.server(connection)  # raises UnknownConnectionError with close names
        raise UnknownConnectionError(f"No connection named {connection!r}.")
    if scoped and connection is None:
        if len(open_names) != 1:
            given = "tools" if chosen is not None else "resources" if named_resources is not None else "prompts"
            raise InvalidValueError(
                f"panel({given}=...) offers one connection's {given} and {len(open_names)} are open: name it, "
                f'e.g. panel(connection="demo", {given}=[...]) or %mcp panel demo --{given} ….'
            )
        connection = open_names[0]
    scope = PanelScope(connection, chosen, named_resources, named_prompts, scoped)
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
