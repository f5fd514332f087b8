"""``connect_mcp`` and ``McpServer``: the adapter's API over :class:`McpClient`.

A server's tools are :class:`~anvia_nb.core.api.tool.Tool` objects (``Tool`` is also importable from
here); resources, prompts and completion are in :mod:`anvia_nb.core.api.features`.
"""

from __future__ import annotations

import asyncio
import difflib
from collections.abc import Mapping

from anvia_nb.core.api import features
from anvia_nb.core.api.changes import ListWatch
from anvia_nb.core.api.connections import McpConnection
from anvia_nb.core.api.subscriptions import ResourceSubscriptions, ResourceUpdates
from anvia_nb.core.api.tool import Tool
from anvia_nb.core.exchange.logs import ServerLog
from anvia_nb.core.exchange.trace import ProtocolTrace
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.readings import PromptResult, ResourceRead
from anvia_nb.core.protocol.types import CallOutcome, JsonObject, ToolInfo
from anvia_nb.core.transport.client import McpClient
from anvia_nb.errors import (
    AnviaError,
    ConnectError,
    InvalidTypeError,
    UnknownToolError,
)

__all__ = ["McpServer", "Tool", "connect_mcp"]

class McpServer:
    """A connected server: its name, its adapted tools, and ``close()``."""

    def __init__(self, connection: McpConnection, client: McpClient, tools: list[ToolInfo]) -> None:
        self.connection = connection
        self._secrets: tuple[McpConnection, tuple[str, ...]] | None = None
        self.client = client
        self.tools: list[Tool] = [Tool(info, self) for info in tools]
        self.listings: dict[str, list[JsonObject]] = {}
        """The last ``resources``, ``resourceTemplates`` and ``prompts`` listings read."""
        self.offered_links: set[str] = set()
        """URIs of the resource links its results offered (reading one is on request)."""
        self.changes = ListWatch(self)
        """Re-lists the tools when the server says they changed, and keeps what changed (core/changes.py)."""
        self.subscriptions = ResourceSubscriptions(self)
        """The resources subscribed to and their counted updates (core/subscriptions.py)."""

    @property
    def name(self) -> str:
        return self.connection.name

    @property
    def secrets(self) -> tuple[str, ...]:
        """The connection's secret values (found once per connection: every call's outcome carries them)."""
        found = self._secrets
        if found is None or found[0] is not self.connection:
            found = self._secrets = (self.connection, self.connection.secrets())
        return found[1]

    @property
    def is_open(self) -> bool:
        """Whether calls can be made: connected, not closed, and (over stdio) its server still
        running. A connection whose server exited is not open, yet holds its log until it is closed
        or connected again; :attr:`status` says which."""
        return self.client.is_open and self.client.server_exit_status is None

    @property
    def status(self) -> str:
        """``"open"``, ``"closed"``, or, for an open connection whose stdio server process ended on
        its own, ``"server exited (status N)"``: calls fail until it is connected again."""
        if not self.client.is_open:
            return "closed"
        exited = self.client.server_exit_status
        return "open" if exited is None else f"server exited (status {exited})"

    def __repr__(self) -> str:
        return f"<McpServer {self.name!r} {self.connection.transport} {self.status}, {len(self.tools)} tools>"

    @property
    def trace(self) -> ProtocolTrace:
        """The JSON-RPC messages of this connection, bounded and masked: ``server.trace.entries()``."""
        return self.client.trace

    @property
    def log(self) -> ServerLog:
        """The server's log messages and stderr, with anvia_nb's own notes: ``server.log.rows()``."""
        return self.client.log

    def replace_tools(self, tools: list[ToolInfo]) -> None:
        """Adopt a new listing (after ``tools/list_changed``); a tool listed before keeps its object."""
        known = {tool.name: tool for tool in self.tools}
        adopted = []
        for info in tools:
            tool = known.get(info.name)
            if tool is None:
                tool = Tool(info, self)
            else:
                tool.info = info
            adopted.append(tool)
        self.tools = adopted

    def tool(self, name: str) -> Tool:
        """The tool called ``name``; the error lists the closest names."""
        for tool in self.tools:
            if tool.name == name:
                return tool
        names = [t.name for t in self.tools]
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(close)}?" if close else f" It has: {', '.join(names[:20])}."
        raise UnknownToolError(f"{self.name!r} has no tool {name!r}.{hint}", close)

    # Resources, templates, prompts and completion: see anvia_nb.core.api.features.

    async def resources(self) -> list[JsonObject]:
        """Every listed resource (wire keys: ``uri``, ``name``, ``title``, ``mimeType``, ``size``...)."""
        return await features.list_resources(self)

    async def resource_templates(self) -> list[JsonObject]:
        """Every listed resource template (``uriTemplate``, ``name``...)."""
        return await features.list_resource_templates(self)

    async def read_resource(
        self, uri: str, *, timeout_seconds: float | limits.Default | None = limits.DEFAULT
    ) -> ResourceRead:
        """resources/read of ``uri``: ``.contents`` as sent, ``.text``, ``.data(i)``, ``.save(i, path)``."""
        return await features.read_resource(self, uri, timeout_seconds=timeout_seconds)

    async def read_template(
        self,
        template: str,
        variables: Mapping[str, str] | None = None,
        *,
        timeout_seconds: float | limits.Default | None = limits.DEFAULT,
    ) -> ResourceRead:
        """Read a listed template (its ``uriTemplate`` or name) expanded with ``variables``."""
        return await features.read_template(self, template, variables, timeout_seconds=timeout_seconds)

    async def read_link(
        self,
        outcome: CallOutcome | JsonObject,
        index: int = 0,
        *,
        timeout_seconds: float | limits.Default | None = limits.DEFAULT,
    ) -> ResourceRead:
        """Read the ``index``-th ``resource_link`` of a result, because you ask (never by itself)."""
        return await features.read_link(self, outcome, index, timeout_seconds=timeout_seconds)

    async def prompts(self) -> list[JsonObject]:
        """Every listed prompt (``name``, ``title``, ``description``, ``arguments``)."""
        return await features.list_prompts(self)

    async def get_prompt(
        self,
        name: str,
        arguments: Mapping[str, str] | None = None,
        *,
        timeout_seconds: float | limits.Default | None = limits.DEFAULT,
    ) -> PromptResult:
        """prompts/get, its name and arguments checked first: ``.messages`` as sent."""
        return await features.get_prompt(self, name, arguments, timeout_seconds=timeout_seconds)

    async def complete(
        self,
        ref: tuple[str, str],
        argument: str,
        value: str = "",
        context: Mapping[str, str] | None = None,
    ) -> list[str]:
        """completion/complete: ``ref`` is ``("prompt", NAME)`` or ``("template", URI_TEMPLATE)``."""
        return await features.complete(self, ref, argument, value, context)

    async def subscribe(self, uri: str) -> None:
        """Hear when the resource ``uri`` changes (see ``resource_updates()``)."""
        await self.subscriptions.subscribe(uri)

    async def unsubscribe(self, uri: str) -> None:
        await self.subscriptions.unsubscribe(uri)

    def resource_updates(self) -> dict[str, ResourceUpdates]:
        """Updates counted per URI (``count``, ``last``) since connecting."""
        return self.subscriptions.updates()

    async def close(self) -> None:
        """Close the session and stop a stdio server with its whole process group."""
        await self.client.close()

    async def __aenter__(self) -> McpServer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def connect_mcp(
    connection: McpConnection,
    *,
    timeout_seconds: float | limits.Default | None = limits.DEFAULT,
    log_level: str | None = None,
) -> McpServer:
    """Connect, handshake, list every tool, and adapt them (Anvia's ``connectMcp``).

    ``timeout_seconds`` bounds all of it: by default the connection's own timeout (``mcp.http``'s
    ``timeout_seconds``), else :data:`~anvia_nb.core.protocol.limits.DEFAULT_CONNECT_TIMEOUT_SECONDS`;
    ``None``: no limit. ``log_level`` asks the server for
    its log messages from that level up (``"info"``...; see :data:`anvia_nb.core.exchange.logs.LOG_LEVELS`).
    Raises :class:`ConnectError` naming the server and what failed, with the last lines it wrote to
    stderr; a half-open session is closed before the error propagates, and its log kept on the
    error (``.log``) so it can still be read.
    """
    if not hasattr(connection, "connect") or not hasattr(connection, "name"):
        raise InvalidTypeError("connect_mcp takes a connection from mcp.stdio(...) or mcp.http(...).")
    if isinstance(timeout_seconds, limits.Default):
        own = getattr(connection, "timeout_seconds", None)
        timeout_seconds = own if isinstance(own, int | float) else limits.DEFAULT_CONNECT_TIMEOUT_SECONDS
    loop = asyncio.get_running_loop()
    deadline = None if timeout_seconds is None else loop.time() + timeout_seconds
    client = await connection.connect(timeout_seconds=timeout_seconds, log_level=log_level)
    try:
        left = None if deadline is None else max(0.0, deadline - loop.time())
        tools = await asyncio.wait_for(client.list_tools(), left)
    except BaseException as exc:
        await client.close(keep_log=True)
        if isinstance(exc, asyncio.TimeoutError):
            raise client.explained(
                ConnectError(
                    f"Connected to {connection.name!r} but it did not list its tools within {timeout_seconds:g} s.",
                    connection.name,
                )
            ) from None
        if isinstance(exc, AnviaError):
            raise client.explained(
                ConnectError(f"Connected to {connection.name!r} but listing its tools failed: {exc}", connection.name)
            ) from exc
        client.log.remove()
        raise
    return McpServer(connection, client, tools)
