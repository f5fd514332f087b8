"""``connect_mcp`` and ``McpServer``: the adapter's API over :class:`McpClient`.

A server's tools are :class:`~anvia_nb.core.api.tool.Tool` objects (``Tool`` is also importable from
here); its resources, prompts and completion are the methods it has as a
:class:`~anvia_nb.core.api.features.ConnectedServer`; ``changes`` (:mod:`anvia_nb.core.api.changes`)
and ``subscriptions`` (:mod:`anvia_nb.core.api.subscriptions`) are its own objects.
"""

from __future__ import annotations

import asyncio

from anvia_nb.core.api.apps import app_of, read_app
from anvia_nb.core.api.audit import LockPath, audit_servers, check_pins, pin_servers
from anvia_nb.core.api.changes import ListWatch
from anvia_nb.core.api.connections import McpConnection, connect_timeout
from anvia_nb.core.api.dataframes import DataFrameLike, frames
from anvia_nb.core.api.features import unknown_name_hint
from anvia_nb.core.api.skills import SkilledServer
from anvia_nb.core.api.subscriptions import ResourceSubscriptions, ResourceUpdates
from anvia_nb.core.api.tool import Tool
from anvia_nb.core.audit.diff import DefinitionChange
from anvia_nb.core.audit.pins import LOCK_FILE_NAME
from anvia_nb.core.exchange.logs import ServerLog
from anvia_nb.core.exchange.trace import ProtocolTrace
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.apps import AppResource
from anvia_nb.core.protocol.limits import Timeout
from anvia_nb.core.protocol.types import ToolInfo
from anvia_nb.core.transport.client import McpClient
from anvia_nb.errors import (
    AnviaError,
    ConnectError,
    InvalidTypeError,
    UnknownToolError,
)

__all__ = ["McpServer", "Tool", "connect_mcp"]


class McpServer(SkilledServer):
    """A connected server: its name, its adapted tools, its resources and prompts, and ``close()``.

    Made by :func:`connect_mcp`, not by hand. ``server.tools`` lists its :class:`Tool` objects;
    ``server.changes`` and ``server.subscriptions`` follow what the server says changed.

    Parameters
    ----------
    connection : StdioConnection or HttpConnection
        The connection it was opened from (or a replayed or in-memory one).
    client : McpClient
        The open client.
    tools : list of ToolInfo
        The tools it listed when connecting.
    """

    def __init__(self, connection: McpConnection, client: McpClient, tools: list[ToolInfo]) -> None:
        super().__init__(connection, client)
        self.tools: list[Tool] = [Tool(info, self) for info in tools]
        self.changes = ListWatch(client, lambda: [tool.info for tool in self.tools], self.replace_tools)
        """Re-lists the tools when the server says they changed, and keeps what changed (core/api/changes.py)."""
        self.subscriptions = ResourceSubscriptions(client)
        """The resources subscribed to and their counted updates (core/api/subscriptions.py)."""

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
        """Adopt a new listing (after ``tools/list_changed``); a tool listed before keeps its object.

        Parameters
        ----------
        tools : list of ToolInfo
            The new listing, in the server's order.
        """
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
        """The tool called ``name``.

        Parameters
        ----------
        name : str
            The tool's name as listed.

        Returns
        -------
        Tool

        Raises
        ------
        UnknownToolError
            No tool has that name; the message and ``.suggestions`` give the closest names.
        """
        for tool in self.tools:
            if tool.name == name:
                return tool
        names = [t.name for t in self.tools]
        close, hint = unknown_name_hint(name, names, "It has:", "It lists no tools.", most=20)
        raise UnknownToolError(f"{self.name!r} has no tool {name!r}.{hint}", close)

    async def app(self, tool: str, *, timeout_seconds: Timeout = limits.DEFAULT) -> AppResource:
        """The interactive view (MCP Apps) of the tool ``tool``, read from this server and checked
        (core/api/apps.py).

        Parameters
        ----------
        tool : str
            The tool's name.
        timeout_seconds : float or None, optional
            Seconds to wait for the read (default 60 s); ``None``: no limit.

        Returns
        -------
        AppResource
            The view's HTML and what it declares.

        Raises
        ------
        UnknownToolError
            No tool has that name.
        InvalidValueError
            The tool has no view, or what came back is not one (one line says why).
        """
        return await read_app(self, app_of(self.tool(tool).info), timeout_seconds=timeout_seconds)

    async def subscribe(self, uri: str) -> None:
        """Hear when the resource ``uri`` changes (see :meth:`resource_updates`).

        Parameters
        ----------
        uri : str
            A resource URI.

        Raises
        ------
        InvalidValueError
            ``uri`` is empty.
        NotOfferedError
            The server does not offer resource subscriptions.
        """
        await self.subscriptions.subscribe(uri)

    async def unsubscribe(self, uri: str) -> None:
        """Stop hearing about the resource ``uri``.

        Parameters
        ----------
        uri : str
            A URI given to ``subscribe``.

        Raises
        ------
        InvalidValueError
            Not subscribed to ``uri``.
        """
        await self.subscriptions.unsubscribe(uri)

    def resource_updates(self) -> dict[str, ResourceUpdates]:
        """Updates counted per URI since connecting.

        Returns
        -------
        dict of str to ResourceUpdates
            Per subscribed URI: ``count`` and ``last``.
        """
        return self.subscriptions.updates()

    async def audit(self, *, lock: LockPath | None = None) -> DataFrameLike:
        """This server's findings: one row per finding (docs/audit.md).

        Parameters
        ----------
        lock : str or path, optional
            A lock file: adds what changed since it was pinned and marks the accepted findings.

        Returns
        -------
        DataFrame
            ``server``, ``kind``, ``item``, ``check``, ``severity``, ``evidence``, ``advice``,
            ``accepted`` and ``hash``, every server string shown through the policy.
        """
        return frames().findings_frame(await audit_servers([self], lock=lock))

    async def pin(self, lock: LockPath = LOCK_FILE_NAME) -> None:
        """Pin every item this server defines in the lock file (``mcp-lock.json`` here by default);
        a tool refused since it changed is accepted. See :func:`~anvia_nb.core.api.audit.pin_servers`.

        Parameters
        ----------
        lock : str or path, optional
            The lock file.
        """
        await pin_servers([self], lock)

    async def check_pins(self, lock: LockPath = LOCK_FILE_NAME) -> list[DefinitionChange] | None:
        """Compare with the pins; a changed tool is refused until pinned again
        (:func:`~anvia_nb.core.api.audit.check_pins`).

        Parameters
        ----------
        lock : str or path, optional
            The lock file.

        Returns
        -------
        list of DefinitionChange or None
            The items changed, added and removed since pinned; ``None`` when never pinned.
        """
        return await check_pins(self, lock)

    async def close(self) -> None:
        """Close the session and stop a stdio server with its whole process group.

        Closing twice is harmless; ``async with`` closes on leaving the block.
        """
        await self.client.close()

    async def __aenter__(self) -> McpServer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def connect_mcp(
    connection: McpConnection,
    *,
    timeout_seconds: Timeout = limits.DEFAULT,
    log_level: str | None = None,
) -> McpServer:
    """Connect, handshake, list every tool, and adapt them (Anvia's ``connectMcp``).

    A half-open session is closed before an error propagates, its log kept on the error
    (``.log``) so it can still be read.

    Parameters
    ----------
    connection : StdioConnection or HttpConnection
        What ``mcp.stdio(...)``, ``mcp.http(...)``, ``mcp.replay(...)`` or ``mcp.memory(...)`` made.
    timeout_seconds : float or None, optional
        Seconds all of it may take: by default the connection's own (``mcp.http``'s
        ``timeout_seconds``), else 30 s (``DEFAULT_CONNECT_TIMEOUT_SECONDS``); ``None``: no limit.
    log_level : str, optional
        Ask the server for its log messages from that level up (``"debug"``, ``"info"``, ...
        ``"emergency"``: ``anvia_nb.core.exchange.logs.LOG_LEVELS``); ``None``: do not ask.

    Returns
    -------
    McpServer
        The connected server, its tools adapted (``server.tools``).

    Raises
    ------
    InvalidTypeError
        ``connection`` is not a connection from ``mcp``.
    ConnectError
        Starting, the handshake or the tool listing failed or took too long; it names the server
        and what failed, with the last lines the server wrote to stderr.

    Examples
    --------
    >>> server = await connect_mcp(mcp.stdio(name="demo", command="python", args=["-m", "anvia_nb.demo_server"]))
    >>> await server.tool("echo").call({"message": "hi"})
    """
    if not hasattr(connection, "connect") or not hasattr(connection, "name"):
        raise InvalidTypeError("connect_mcp takes a connection from mcp.stdio(...) or mcp.http(...).")
    timeout = connect_timeout(connection, timeout_seconds)
    loop = asyncio.get_running_loop()
    deadline = None if timeout is None else loop.time() + timeout
    client = await connection.connect(timeout_seconds=timeout, log_level=log_level)
    try:
        left = None if deadline is None else max(0.0, deadline - loop.time())
        tools = await asyncio.wait_for(client.list_tools(), left)
    except BaseException as exc:
        await client.close(keep_log=True)
        if isinstance(exc, asyncio.TimeoutError):
            raise client.explained(
                ConnectError(
                    f"Connected to {connection.name!r} but it did not list its tools within {timeout:g} s.",
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
