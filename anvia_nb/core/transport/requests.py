"""What a client asks of its server, over its one session: the handshake's answers, the listings,
tool calls and the other requests ``core.api`` makes, each run on the owner task's loop (a call
from another thread's loop hops to it) and in its turn among ``max_calls_in_flight``.

:class:`ClientRequests` is what :class:`~anvia_nb.core.transport.client.McpClient` has of it (the
client opens the session and owns it; what its server starts is
:class:`~anvia_nb.core.transport.server_traffic.ServerTraffic`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import anyio

from anvia_nb.core.exchange.logs import ServerLog
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.methods import LISTING_METHODS, METHOD_NOT_FOUND
from anvia_nb.core.protocol.types import JsonObject, ProgressHandler, ToolInfo
from anvia_nb.core.transport.caller_bounds import caller_bounds
from anvia_nb.core.transport.connection_errors import explained
from anvia_nb.core.transport.sdk.tasks import TaskWatch, watched
from anvia_nb.core.transport.session import Session, SessionOpener, ToolCall
from anvia_nb.errors import AnviaError, ConnectionClosedError, ProtocolError

__all__ = ["ClientRequests"]

T = TypeVar("T")


class ClientRequests:
    """The requests of a client's session: listings, tool calls and work run in the session."""

    name: str
    opener: SessionOpener
    log: ServerLog
    listing_notes: dict[str, str]
    _in_flight: anyio.Semaphore
    _session: Session | None
    _closed: bool
    _loop: asyncio.AbstractEventLoop | None

    def explained(self, error: AnviaError) -> AnviaError:
        """``error`` as its caller should hear it: the OAuth failure that ended the connection
        instead of "connection closed", and a closed connection or a failed connect with the
        server's last stderr lines (``core/transport/connection_errors.py``).

        Parameters
        ----------
        error : AnviaError
            The error a connect or a request raised.

        Returns
        -------
        AnviaError
            The error to raise: ``error`` itself (its message and log filled in) or the OAuth
            failure.
        """
        return explained(error, self.log, self.opener.auth_failure())

    def _live_session(self) -> Session:
        if self._session is None or self._closed:
            raise ConnectionClosedError(
                f"The connection {self.name!r} is closed; connect again to use it.", server=self.name
            )
        return self._session

    @property
    def protocol_version(self) -> str:
        """The protocol version the handshake agreed on; ``ConnectionClosedError`` when closed."""
        return self._live_session().handshake.protocol_version

    @property
    def server_info(self) -> JsonObject:
        """The server's ``serverInfo`` from the handshake (``name``, ``version``...)."""
        return self._live_session().handshake.server_info

    @property
    def instructions(self) -> str | None:
        """The server's ``instructions`` from the handshake, or ``None``."""
        return self._live_session().handshake.instructions

    @property
    def capabilities(self) -> JsonObject:
        """What the server said it can do, from the handshake (wire keys: ``resources.subscribe``...):
        the one way to read a connection's capabilities."""
        return self._live_session().handshake.capabilities

    async def list_tools(self) -> list[ToolInfo]:
        """Every tool on every page of ``tools/list`` (``[]`` when the server refuses the method).

        Returns
        -------
        list of ToolInfo
        """
        session = self._live_session()
        return await self._optional_listing("tools", self._on_owner_loop(session.list_tools()))

    async def _optional_listing(self, key: str, listing: Coroutine[Any, Any, list[T]]) -> list[T]:
        """The one rule for every listing: a method the server refuses (-32601) lists nothing."""
        try:
            found = await listing
        except ProtocolError as exc:
            if exc.code != METHOD_NOT_FOUND:
                raise
            method, what = LISTING_METHODS[key]
            self.listing_notes[key] = f"{self.name!r} has no {method} (-32601 Method not found): no {what} listed."
            return []
        self.listing_notes.pop(key, None)
        return found

    async def call_tool(
        self,
        name: str,
        arguments: JsonObject | None = None,
        *,
        timeout_seconds: float | limits.Default | None = limits.DEFAULT,
        on_progress: ProgressHandler | None = None,
        as_task: bool = False,
        watch: TaskWatch | None = None,
        max_time_seconds: float | limits.Default | None = limits.DEFAULT,
    ) -> JsonObject:
        """One ``tools/call``, sent on the owner's loop in its turn among ``max_calls_in_flight``;
        returns the raw result without mapping it.

        Parameters
        ----------
        name : str
            The tool's name.
        arguments : dict, optional
            Its arguments, as sent (``None``: none).
        timeout_seconds, max_time_seconds, on_progress : optional
            As for ``Tool.call_outcome`` (defaults 60 s and 600 s; ``None``: no limit).
        as_task : bool, optional
            Ask for a task where the protocol lets the client ask (default ``False``).
        watch : TaskWatch, optional
            Told every state of a task the call became.

        Returns
        -------
        dict
            The result (wire keys).

        Raises
        ------
        ConnectionClosedError, ProtocolError, ToolTimeoutError
            Closed connection (with the OAuth failure or the server's last stderr lines that explain
            it); a JSON-RPC error; no answer in time.
        """
        if self._on_other_loop():  # sent from the owner's loop, where this runs again
            again = self.call_tool(
                name,
                arguments,
                timeout_seconds=timeout_seconds,
                on_progress=on_progress,
                as_task=as_task,
                watch=watch,
                max_time_seconds=max_time_seconds,
            )
            return await self._on_owner_loop(again)
        session = self._live_session()
        timeout = limits.timeout_or_default(timeout_seconds, limits.DEFAULT_CALL_TIMEOUT_SECONDS)
        call = ToolCall(
            name, arguments, timeout, on_progress, as_task, limits.max_time_or_default(max_time_seconds, timeout)
        )
        try:
            # In its turn among max_calls_in_flight, unless its caller bounds its calls itself (a
            # map: caller_bounds.py); its coroutine is made only once its turn comes, so a call
            # cancelled while it waits is never sent. A free turn is taken with anyio's
            # acquire_nowait (no coroutine; asyncio.Semaphore.acquire makes one and a generator
            # every time), waited for only when none is free; acquire/release, not `async with`;
            # the call made and sent here, not by a method it awaits (benchmarks/README.md, *The
            # per-call path, fourth pass* and *fifth pass*).
            bounded = not caller_bounds()
            if bounded:
                try:
                    self._in_flight.acquire_nowait()
                except anyio.WouldBlock:
                    await self._in_flight.acquire()
            try:
                sent = session.call_tool(call)
                return await (sent if watch is None else watched(sent, watch))
            finally:
                if bounded:
                    self._in_flight.release()
        except ConnectionClosedError as exc:
            raise self.explained(exc) from exc.__cause__

    async def list_items(self, key: str, timeout_seconds: float | None) -> list[JsonObject]:
        """Every page of one listing other than tools (``[]`` when the server refuses the method,
        and ``listing_notes`` says why).

        Parameters
        ----------
        key : str
            ``"resources"``, ``"resourceTemplates"`` or ``"prompts"``.
        timeout_seconds : float or None
            Seconds each page may take; ``None``: no limit.

        Returns
        -------
        list of dict
            The items of every page (wire keys).

        Raises
        ------
        ConnectionClosedError, ProtocolError, ToolTimeoutError
            Closed connection; a JSON-RPC error other than -32601; a page not answered in time.
        """
        listing = self.in_session(lambda session: session.list_items(key, timeout_seconds))
        return await self._optional_listing(key, listing)

    async def in_session(self, work: Callable[[Session], Coroutine[Any, Any, T]]) -> T:
        """Run ``work(session)`` on the owner's loop: how ``core.api`` reads resources, gets
        prompts, completes and subscribes.

        Parameters
        ----------
        work : callable
            Takes the live ``Session`` and returns the coroutine to await (not yet awaited).

        Returns
        -------
        object
            What the coroutine returns.

        Raises
        ------
        ConnectionClosedError
            Closed connection, before or during ``work`` (with what explains it); ``work``'s own
            errors pass unchanged.
        """
        session = self._live_session()
        try:
            return await self._on_owner_loop(work(session))
        except ConnectionClosedError as exc:
            raise self.explained(exc) from exc.__cause__

    # -- loops -------------------------------------------------------------------------------

    def _on_other_loop(self) -> bool:
        """Whether the running loop is not the owner's (a call from another thread's loop hops)."""
        owner = self._loop
        return owner is not None and owner is not asyncio.get_running_loop() and not owner.is_closed()

    async def _on_owner_loop(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` on the owner's loop, hopping threads when called from another loop."""
        owner = self._loop
        try:
            current = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - always called from a coroutine
            current = None
        if owner is None or owner is current or owner.is_closed():
            return await coro
        future = asyncio.run_coroutine_threadsafe(coro, owner)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            future.cancel()
            raise
