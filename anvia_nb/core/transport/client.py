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
from collections.abc import Callable, Iterable

import anyio

from anvia_nb.core.exchange.logs import ServerLog
from anvia_nb.core.exchange.trace import ProtocolTrace
from anvia_nb.core.protocol import limits
from anvia_nb.core.transport.connection_errors import quiet_at_close
from anvia_nb.core.transport.handlers import SessionHandlers
from anvia_nb.core.transport.requests import ClientRequests
from anvia_nb.core.transport.sdk import log as sdk_log
from anvia_nb.core.transport.sdk.protocol import prepare_sdk_calls
from anvia_nb.core.transport.server_traffic import ServerTraffic
from anvia_nb.core.transport.session import Session, SessionOpener
from anvia_nb.errors import AnviaError, ConnectError, ConnectionClosedError

__all__ = ["CONNECT_TIMEOUT_ADVICE", "McpClient"]

# How to allow more time, in a connect that ran past its limit: the Python API's setting (the magic
# names its own, --timeout and connect_timeout_seconds, in place of these words).
CONNECT_TIMEOUT_ADVICE = "allow more time with connect(timeout_seconds=S) (None: no limit)"


class McpClient(ServerTraffic, ClientRequests):
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
        # The calls in flight on this session: at most max_calls_in_flight, the others wait in turn.
        # anyio's, made on the loop that runs the calls (made outside one, it is an adapter that
        # finds its loop on every use): requests.py takes a free turn with acquire_nowait.
        self._in_flight = anyio.Semaphore(self.max_calls_in_flight)
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
                    f"URL, or {CONNECT_TIMEOUT_ADVICE}.",
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
