"""Auditing a live server, and holding it to its pins.

:func:`server_definitions` gathers what a connected server defines (its instructions and
serverInfo from the handshake, its tools, and the prompts, resources and templates it offers) as
:class:`~anvia_nb.core.audit.definitions.Definition` objects; :func:`audit_servers` runs the
checks over all of them at once (a flow across servers needs them together) and adds the pins'
findings. :func:`check_pins` compares a server with its pins: a changed tool is refused when
called (``server.refused``) until it is pinned again; :func:`watch_pins` does so again after every
``list_changed`` the server sends.
"""

from __future__ import annotations

import asyncio
import os
import weakref
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Protocol

from anvia_nb._docs import fill_docstring
from anvia_nb.core.api.changes import ListWatch
from anvia_nb.core.audit.checks import audit_definitions
from anvia_nb.core.audit.definitions import Definition, Finding, definitions_of
from anvia_nb.core.audit.diff import DefinitionChange
from anvia_nb.core.audit.pins import LOCK_FILE_NAME, WRITTEN, Lock, pin_definitions, read_lock
from anvia_nb.core.audit.report import Reviewed, pin_findings, review, with_digests
from anvia_nb.core.protocol.types import JsonObject, ToolInfo
from anvia_nb.core.transport.client import McpClient
from anvia_nb.errors import AnviaError, NotOfferedError

__all__ = [
    "AuditedServer",
    "Checks",
    "LockPath",
    "audit_servers",
    "check_pins",
    "pin_servers",
    "refusal_line",
    "server_definitions",
    "watch_pins",
]

LockPath = str | os.PathLike[str]
"""Where the lock file is: ``mcp-lock.json`` in the working directory (beside the notebook) by default."""

_WATCHES: weakref.WeakKeyDictionary[AuditedServer, Callable[[], None]] = weakref.WeakKeyDictionary()
"""The pin watch of each server (one each): the function that stops it."""

Checks = Callable[[Sequence[Definition]], list[Finding]]
"""The checks: every server's definitions at once to findings (``core/audit/checks.py``)."""


class _Tool(Protocol):
    @property
    def info(self) -> ToolInfo: ...


class AuditedServer(Protocol):
    """What an audit reads of a connected server (an :class:`~anvia_nb.core.api.server.McpServer`)."""

    @property
    def name(self) -> str: ...

    @property
    def client(self) -> McpClient: ...

    @property
    def tools(self) -> Sequence[_Tool]: ...

    @property
    def secrets(self) -> tuple[str, ...]: ...

    @property
    def changes(self) -> ListWatch: ...

    refused: dict[str, str]

    async def prompts(self) -> list[JsonObject]: ...

    async def resources(self) -> list[JsonObject]: ...

    async def resource_templates(self) -> list[JsonObject]: ...


async def _offered(
    server: AuditedServer, capability: str, listing: Callable[[], Awaitable[list[JsonObject]]]
) -> list[JsonObject]:
    """A listing the server offers (by its capabilities); ``[]`` for one it does not, or that a
    recording does not hold."""
    if capability not in server.client.capabilities:
        return []
    try:
        return await listing()
    except NotOfferedError:
        return []


async def server_definitions(server: AuditedServer) -> list[Definition]:
    """Every item ``server`` defines, as a model would read it, listed now.

    Parameters
    ----------
    server : McpServer
        An open connection.

    Returns
    -------
    list of Definition
        The server itself (instructions, serverInfo), then its tools, prompts, resources and templates.
    """
    return definitions_of(
        server.name,
        instructions=server.client.instructions,
        server_info=server.client.server_info,
        tools=[tool.info for tool in server.tools],
        prompts=await _offered(server, "prompts", server.prompts),
        resources=await _offered(server, "resources", server.resources),
        templates=await _offered(server, "resources", server.resource_templates),
    )


def _lock(lock: Lock | LockPath | None) -> Lock | None:
    return lock if isinstance(lock, Lock) or lock is None else read_lock(lock)


async def audit_servers(
    servers: Sequence[AuditedServer], *, lock: Lock | LockPath | None = None, checks: Checks = audit_definitions
) -> list[Reviewed]:
    """Audit ``servers`` together: the checks' findings and, with a lock file, the pins'.

    Parameters
    ----------
    servers : sequence of McpServer
        Open connections.
    lock : Lock or path, optional
        The lock file: its pins add the items changed, added and removed since, its accepted
        findings are marked. ``None``: neither.
    checks : callable, optional
        The checks (default: every check of ``core/audit/checks.py``).

    Returns
    -------
    list of Reviewed
        The findings, most severe first, each with the reason it was accepted (if it was).

    Raises
    ------
    LockFileError
        The lock file does not parse or does not match its hashes.
    """
    held = _lock(lock)
    every: list[Definition] = []
    pinned: list[Finding] = []
    for server in servers:
        definitions = await server_definitions(server)
        every += definitions
        changes = held.changes(server.name, definitions) if held is not None else None
        pinned += pin_findings(server.name, changes or [])
    return review([*with_digests(checks(every), every), *pinned], held)


def refusal_line(server: str, change: DefinitionChange) -> str:
    """The one line a call of a changed tool is refused with, saying how to accept the change."""
    return (
        f"{server}.{change.item} changed since it was pinned: refused. Read the difference "
        f"(%mcp diff {server} --lock), then accept it with %mcp pin {server}."
    )


async def check_pins(server: AuditedServer, lock: Lock | LockPath = LOCK_FILE_NAME) -> list[DefinitionChange] | None:
    """Compare ``server`` with its pins; a changed tool is refused (``server.refused``) until pinned again.

    Parameters
    ----------
    server : McpServer
        An open connection.
    lock : Lock or path, optional
        The lock file (default ``mcp-lock.json`` in the working directory).

    Returns
    -------
    list of DefinitionChange or None
        The items changed, added and removed since pinned; ``None`` when the server was never pinned.

    Raises
    ------
    LockFileError
        The lock file does not parse or does not match its hashes.

    Notes
    -----
    With a path, a pinned server is compared again after every ``list_changed`` (:func:`watch_pins`).
    """
    held = _lock(lock)
    assert held is not None  # a path or a Lock was given
    if held.pinned(server.name) is None:
        server.refused.clear()
        return None
    changes = held.changes(server.name, await server_definitions(server)) or []
    if not isinstance(lock, Lock) and server not in _WATCHES:
        watch_pins(server, lock)
    server.refused.clear()
    server.refused.update(
        {c.item: refusal_line(server.name, c) for c in changes if c.kind == "tool" and c.change == "changed"}
    )
    return changes


@fill_docstring(WRITTEN)
async def pin_servers(servers: Sequence[AuditedServer], lock: LockPath = LOCK_FILE_NAME) -> Lock:
    """Pin every item of ``servers`` in the lock file; their refused tools are accepted.

    Parameters
    ----------
    servers : sequence of McpServer
        Open connections.
    lock : path, optional
        The lock file (default ``mcp-lock.json`` in the working directory).

    {written}
    """
    every: list[Definition] = []
    for server in servers:
        every += await server_definitions(server)
    written = pin_definitions(lock, every, secrets=[s for server in servers for s in server.secrets])
    for server in servers:
        server.refused.clear()
    return written


def watch_pins(
    server: AuditedServer, lock: LockPath, on_changes: Callable[[str, list[DefinitionChange]], None] | None = None
) -> None:
    """After each change the server announces, compare it with its pins again (in a task on its
    loop): changed tools are refused, and ``on_changes(server_name, changes)`` is told what differs.

    Parameters
    ----------
    server : McpServer
        An open connection; watched until it closes (one watch per connection: a second replaces it).
    lock : path
        The lock file.
    on_changes : callable, optional
        Told the changes since pinned (also when there are none); must not block. By default each
        change is a line of the server's log (``%mcp log NAME``).
    """
    path = Path(lock)
    running: set[asyncio.Task[None]] = set()  # held until done: the loop keeps only weak references
    watched = weakref.ref(server)  # the watch, kept in _WATCHES by the server, must not keep it alive

    def noted(name: str, changes: list[DefinitionChange]) -> None:
        found = watched()
        if found is None:
            return
        for change in changes:
            found.client.log.note("warning", f"pins: {name}: {change.line} since pinned in {path.name}")

    tell = noted if on_changes is None else on_changes

    async def again(found: AuditedServer) -> None:
        await found.changes.settled()
        try:
            changes = await check_pins(found, path)
        except AnviaError as exc:
            found.client.log.note("warning", f"comparing with the pins failed: {exc}")
            return
        if changes is not None:
            tell(found.name, changes)

    def heard(name: str, what: str) -> None:
        found = watched()
        if found is not None and what in ("tools", "prompts", "resources"):
            task = asyncio.get_running_loop().create_task(again(found), name=f"anvia_nb pins {name}")
            running.add(task)
            task.add_done_callback(running.discard)

    stop = _WATCHES.pop(server, None)
    if stop is not None:
        stop()
    _WATCHES[server] = server.changes.on_change(heard)
