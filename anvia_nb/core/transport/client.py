"""``McpClient``: one live session, owned by one task on the loop that opened it.

anyio's cancel scopes must be exited by the task that entered them, while a notebook connects
in one cell (one task) and closes in another. So each client starts an *owner task* that enters
the SDK's context managers, waits until asked to close, and exits them itself. Calls run in the
caller's task (many at once on one session); a call from another thread's loop hops to the
owner's loop, so a session opened on the background runtime can be used from a kernel cell.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, TypeVar

from anvia_nb.core.exchange.logs import ServerLog
from anvia_nb.core.exchange.trace import ProtocolTrace
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.methods import LISTING_METHODS, METHOD_NOT_FOUND
from anvia_nb.core.protocol.types import JsonObject, ProgressHandler, ToolInfo
from anvia_nb.core.transport.caller_bounds import caller_bounds
from anvia_nb.core.transport.connection_errors import explained, quiet_at_close
from anvia_nb.core.transport.handlers import SessionHandlers
from anvia_nb.core.transport.sdk import log as sdk_log
from anvia_nb.core.transport.sdk.protocol import prepare_sdk_calls
from anvia_nb.core.transport.sdk.tasks import TaskWatch, watched
from anvia_nb.core.transport.server_traffic import ServerTraffic
from anvia_nb.core.transport.session import Session, SessionOpener, ToolCall
from anvia_nb.errors import AnviaError, ConnectError, ConnectionClosedError, ProtocolError

__all__ = ["McpClient"]

T = TypeVar("T")


class McpClient(ServerTraffic):
    """Anvia's ``McpClient``: ``list_tools()``, ``call_tool()``, ``close()`` over one session."""

    def __init__(
        self,
        name: str,
        opener: SessionOpener,
        *,
        log: ServerLog | None = None,
        log_level: str | None = None,
        roots: tuple[str, ...] = (),
        max_calls_in_flight: int | None = None,
    ) -> None:
        """Made by a connection (``connection.client()``), not by hand; nothing opens until :meth:`open`.

        Parameters
        ----------
        name : str
            The connection's name.
        opener : SessionOpener
            Opens the session (a transport's launch, a recording...: ``core/transport/session.py``).
        log, log_level : optional
            The ``ServerLog`` its messages go to (``None``: a new one); the least severe message asked
            of the server (``None``: none on 2026-07-28, the server's choice on older protocols).
        roots : tuple of str, optional
            Absolute paths offered as roots.
        max_calls_in_flight : int, optional
            Calls sent at once on this session, the others wait their turn (``None``: 16).
        """
        self.name = name
        self.max_calls_in_flight = max_calls_in_flight or limits.DEFAULT_MAX_CALLS_IN_FLIGHT
        # The calls in flight on this session: at most max_calls_in_flight, the others wait in turn.
        self._in_flight = asyncio.Semaphore(self.max_calls_in_flight)
        self.opener = opener
        self.log = log if log is not None else ServerLog(name)
        self.notifications: collections.Counter[str] = collections.Counter()
        self.trace = ProtocolTrace(name, secrets=self.log.policy.secrets)
        """The JSON-RPC messages of this connection (stdio and HTTP; an in-memory one has no wire)."""
        self._notification_listeners: list[Callable[[str], None]] = []
        self._handlers = SessionHandlers(
            log=self.log.add,
            note=self.log.note,
            notification=self._on_notification,
            log_level=log_level,
            trace=self.trace,
            roots=tuple(roots),
            credential=lambda value: self.add_secrets((value, *value.split()[1:])),
            explained=self.explained,
        )
        self._session: Session | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._owner: asyncio.Task[None] | None = None
        self._closing: asyncio.Event | None = None
        self._closed = False
        self.close_error: BaseException | None = None
        self.origin: str | None = None
        """Where answers come from when not from a live server (``"replayed from FILE"``)."""
        self.listing_notes: dict[str, str] = {}
        """Per listing key (``tools``, ``resourceTemplates``...): why its last listing was empty
        when the server refused the method (one line); no entry when it answered."""

    def add_secrets(self, values: Iterable[str]) -> None:
        """Secrets found while connected (an OAuth token, a refreshed one): masked from now on in
        the log and the trace, and kept there, so an old token stays masked after a refresh.

        Parameters
        ----------
        values : iterable of str
        """
        policy = self.log.policy.with_secrets(values)
        if policy is not self.log.policy:
            self.log.policy = policy
            self.trace.add_secrets(policy.secrets)
            for listener in self._handlers.secrets:
                listener(policy.secrets)

    # -- lifecycle ---------------------------------------------------------------------------

    async def open(self, timeout_seconds: float | limits.Default | None = limits.DEFAULT) -> McpClient:
        """Start the owner task and wait for the handshake.

        Parameters
        ----------
        timeout_seconds : float or None, optional
            Seconds it may take (default 30 s); ``None``: no limit.

        Returns
        -------
        McpClient
            This client, open.

        Raises
        ------
        ConnectError
            Already open, too slow, or it failed; ending with the last lines the server wrote to stderr.
        """
        if self._owner is not None:
            raise ConnectError(f"{self.name!r} is already open.", server=self.name)
        timeout_seconds = limits.timeout_or_default(timeout_seconds, limits.DEFAULT_CONNECT_TIMEOUT_SECONDS)
        self._loop = asyncio.get_running_loop()
        self._closing = asyncio.Event()
        ready: asyncio.Future[Session] = self._loop.create_future()
        self._owner = self._loop.create_task(self._own(ready), name=f"anvia_nb session {self.name}")
        self._loop.call_soon(prepare_sdk_calls)  # once the owner has started the server, while it starts
        try:
            self._session = await asyncio.wait_for(asyncio.shield(ready), timeout_seconds)
        except (asyncio.CancelledError, asyncio.TimeoutError) as exc:
            await self._abandon(ready)
            if isinstance(exc, asyncio.CancelledError):
                raise
            raise self.explained(
                ConnectError(
                    f"{self.name!r} did not finish connecting within {timeout_seconds:g} s; check the command or "
                    "URL, or allow more time.",
                    self.name,
                )
            ) from None
        except AnviaError as exc:
            raise self.explained(exc) from exc.__cause__
        finally:
            if self._session is None:  # failed or cancelled, perhaps before the owner began to open
                self._handlers.client_closed()
        return self

    async def _abandon(self, ready: asyncio.Future[Session]) -> None:
        """Stop a connect nobody waits for any more; bounded."""
        assert self._owner is not None and self._closing is not None
        if ready.done() and not ready.cancelled() and ready.exception() is None:
            self._closing.set()  # the handshake finished after all: close the normal way
        else:
            # Still in the handshake, which never looks at _closing: stop the owner itself.
            ready.cancel()
            self._owner.cancel()
        await asyncio.wait({self._owner}, timeout=limits.CLOSE_TIMEOUT_SECONDS)

    def explained(self, error: AnviaError) -> AnviaError:
        """``error`` as its caller should hear it (see :mod:`anvia_nb.core.transport.connection_errors`)."""
        return explained(error, self.log, self.opener.auth_failure())

    async def _own(self, ready: asyncio.Future[Session]) -> None:
        assert self._closing is not None
        sdk_log.install()
        sdk_log.current_log.set(self.log)  # this task's context: the SDK's records about it land in its log
        try:
            async with self.opener.open(self.name, self._handlers) as session:
                ready.set_result(session)
                await self._closing.wait()
        except BaseException as exc:  # the owner must never die silently: report to whoever waits
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else ConnectError(str(exc), self.name))
            elif not isinstance(exc, asyncio.CancelledError):
                self.close_error = exc
            if not isinstance(exc, Exception | asyncio.CancelledError):
                raise
        finally:
            self._closed = True

    @property
    def is_open(self) -> bool:
        """Open, and not ended by an OAuth failure (its transport died; the owner ends after)."""
        return self._session is not None and not self._closed and self.opener.auth_failure() is None

    @property
    def server_exit_status(self) -> int | None:
        """A stdio server's exit status once its process ended (``None`` while it runs, or over HTTP)."""
        return self._handlers.server_exit_status

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The loop that opened the session and runs its owner task (``None`` before ``open``)."""
        return self._loop

    async def close(self, *, keep_log: bool = False) -> None:
        """Close the session and stop its server; idempotent; bounded in time.

        Parameters
        ----------
        keep_log : bool, optional
            Keep the stderr file of a stdio server (default ``False``: removed, even when closing
            fails, unless the connection asked to keep it).
        """
        owner_loop = self._loop
        try:
            if self._owner is None or self._owner.done() or owner_loop is None or owner_loop.is_closed():
                # Never opened, already closed, or its loop has ended (asyncio.run cancelled the owner).
                self._closed = True
            else:
                await self._on_owner_loop(self._close_here())
        finally:
            if not keep_log:
                self.log.remove()
            self._handlers.client_closed()

    async def _close_here(self) -> None:
        if self._owner is None or self._closing is None:
            self._closed = True
            return
        self._closing.set()
        done, _ = await asyncio.wait({self._owner}, timeout=limits.CLOSE_TIMEOUT_SECONDS)
        if not done:
            self._owner.cancel()
            await asyncio.wait({self._owner}, timeout=limits.CLOSE_TIMEOUT_SECONDS)
        self._closed = True
        error, self.close_error = self.close_error, None
        if error is not None and not quiet_at_close(error, self.opener.auth_failure()):
            raise ConnectionClosedError(
                f"Closing {self.name!r} reported an error: {type(error).__name__}: {error}", server=self.name
            ) from error

    # -- requests ----------------------------------------------------------------------------

    def _live_session(self) -> Session:
        if self._session is None or self._closed:
            raise ConnectionClosedError(
                f"The connection {self.name!r} is closed; connect again to use it.", server=self.name
            )
        return self._session

    @property
    def protocol_version(self) -> str:
        """The protocol version the handshake agreed on; ``ConnectionClosedError`` when closed."""
        return self._live_session().protocol_version

    @property
    def server_info(self) -> JsonObject:
        """The server's ``serverInfo`` from the handshake (``name``, ``version``...)."""
        return self._live_session().server_info

    @property
    def instructions(self) -> str | None:
        """The server's ``instructions`` from the handshake, or ``None``."""
        return self._live_session().instructions

    @property
    def capabilities(self) -> JsonObject:
        """What the server said it can do, from the handshake (wire keys: ``resources.subscribe``...):
        the one way to read a connection's capabilities."""
        return self._live_session().capabilities

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
        """One ``tools/call``; returns the raw result without mapping it.

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
            Closed connection; a JSON-RPC error; no answer in time.
        """
        timeout = limits.timeout_or_default(timeout_seconds, limits.DEFAULT_CALL_TIMEOUT_SECONDS)
        ceiling = limits.max_time_or_default(max_time_seconds, timeout)
        return await self.send(ToolCall(name, arguments, timeout, on_progress, as_task, ceiling), watch)

    async def send(self, call: ToolCall, watch: TaskWatch | None = None) -> JsonObject:
        """Send ``call`` on the owner's loop in its turn (what :meth:`call_tool` does once it has
        made the call); ``watch`` as for :meth:`call_tool`.
        """
        session = self._live_session()

        def start() -> Coroutine[Any, Any, JsonObject]:
            sent = session.call_tool(call)
            return sent if watch is None else watched(sent, watch)

        try:
            return await self._on_owner_loop(self._in_turn(start))
        except ConnectionClosedError as exc:
            raise self.explained(exc) from exc.__cause__

    async def list_items(self, key: str, timeout_seconds: float | None) -> list[JsonObject]:
        """Every page of one listing other than tools: ``resources``, ``resourceTemplates`` or
        ``prompts`` (``[]`` when the server does not offer it).
        """
        listing = self.in_session(lambda session: session.list_items(key, timeout_seconds))
        return await self._optional_listing(key, listing)

    async def in_session(self, work: Callable[[Session], Coroutine[Any, Any, T]]) -> T:
        """Run ``work(session)`` on the owner's loop (resources, prompts, completion, subscriptions)."""
        session = self._live_session()
        try:
            return await self._on_owner_loop(work(session))
        except ConnectionClosedError as exc:
            raise self.explained(exc) from exc.__cause__

    async def _in_turn(self, start: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """Start and await ``start()`` once fewer than ``max_calls_in_flight`` calls are in flight (on
        the owner's loop); a call cancelled while waiting its turn is never made. A call whose caller
        bounds its calls itself (:func:`~anvia_nb.core.transport.caller_bounds.bounded_by_caller`) goes at once."""
        if caller_bounds():
            return await start()
        async with self._in_flight:
            return await start()

    # -- loops -------------------------------------------------------------------------------

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
