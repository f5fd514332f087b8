"""Named sessions of a kernel, owned by the background loop, and the history of their calls.

The magic, the forms and the panel all go through one :class:`Runtime`: it opens connections
by name (re-opening a name closes the old one first), calls tools, keeps a bounded history of
call summaries (tool, arguments, status, error, time; never results), and closes everything at
interpreter exit. Close failures are returned as warnings to the caller that caused them, never
raised into a later cell. The log of a connection
that failed to open stays readable (:meth:`Runtime.log`) until that name is connected or closed.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import functools
import logging
import threading
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Concatenate, Literal, NamedTuple, ParamSpec, TypeVar

from anvia_nb._docs import shared_keywords
from anvia_nb.core import McpConnection, McpServer, ServerLog, connect_mcp, kill_all_process_groups
from anvia_nb.core.api.features import unknown_name_hint
from anvia_nb.core.api.tasks import BackgroundCall
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import CallOutcome, CallRecord, ProgressHandler
from anvia_nb.errors import AnviaError, ConnectError, TaskCancelledError, UnknownConnectionError
from anvia_nb.runtime.loop import BackgroundLoop

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing's own from Python 3.11; 3.10 is supported

    from anvia_nb.core import Tool

__all__ = ["Connected", "ConnectionListener", "Runtime", "Scope", "SessionEntry", "get_runtime"]

T = TypeVar("T")
P = ParamSpec("P")
Scope = Literal["kernel", "cell"]
ConnectionListener = Callable[[str, "McpServer | None"], None]
"""``listener(name, server)``: the new session after ``name`` connects, ``None`` after it closes."""

logger = logging.getLogger("anvia_nb.runtime")


@dataclass
class SessionEntry:
    """One open connection and who it belongs to."""

    server: McpServer
    scope: Scope = "kernel"
    opened_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))


class Connected(NamedTuple):
    """What :meth:`Runtime.connect` returns: the open server, and the warnings of closing the one
    it replaced (empty when there was none, or it closed cleanly)."""

    server: McpServer
    warnings: list[str]


def _blocking(
    method: Callable[Concatenate[Runtime, P], Coroutine[Any, Any, T]],
) -> Callable[Concatenate[Runtime, P], T]:
    """The blocking door to an async method of :class:`Runtime` (``connect`` to ``connect_async``):
    the same parameters, run on the background loop by :meth:`Runtime.run`. Its signature, and so
    ``?``, is the async method's (``__wrapped__``); its name drops ``_async``; no docstring of its own."""

    def blocking(self: Runtime, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self.run(method(self, *args, **kwargs))

    functools.update_wrapper(blocking, method, assigned=("__module__",), updated=())
    blocking.__name__ = method.__name__.removesuffix("_async")
    blocking.__qualname__ = method.__qualname__.removesuffix("_async")
    return blocking


class Runtime:
    """Sessions by name on one background loop; sync and async doors to each operation."""

    def __init__(self, loop: BackgroundLoop | None = None, history_limit: int = limits.HISTORY_CALLS_KEPT) -> None:
        self.loop = loop or BackgroundLoop()
        self.sessions: dict[str, SessionEntry] = {}
        self.history: collections.deque[CallRecord] = collections.deque(maxlen=history_limit)
        self._failed: dict[str, ServerLog] = {}
        self._lock = threading.Lock()
        self._listeners: list[ConnectionListener] = []

    # -- running coroutines ------------------------------------------------------------------

    def run(self, coro: Coroutine[Any, Any, T], *, meanwhile: Callable[[], object] | None = None) -> T:
        """Block on ``coro`` on the background loop (interruptible); ``meanwhile`` is called in
        this thread while it runs (see :meth:`BackgroundLoop.run`)."""
        return self.loop.run(coro, meanwhile=meanwhile)

    async def run_async(self, coro: Coroutine[Any, Any, T]) -> T:
        return await self.loop.run_async(coro)

    # -- sessions ----------------------------------------------------------------------------

    def names(self) -> list[str]:
        with self._lock:
            return list(self.sessions)

    def entry(self, name: str) -> SessionEntry:
        with self._lock:
            entry = self.sessions.get(name)
            names = list(self.sessions) if entry is None else []
        if entry is None:
            none = "There are no open connections: connect first."
            close, hint = unknown_name_hint(name, names, "Open connections:", none)
            raise UnknownConnectionError(f"No connection named {name!r}.{hint}", close, server=name)
        return entry

    def server(self, name: str) -> McpServer:
        return self.entry(name).server

    def log(self, name: str) -> ServerLog:
        """The log of an open connection, or of one that failed to open (its stderr explains why)."""
        with self._lock:
            failed = self._failed.get(name) if name not in self.sessions else None
        return failed if failed is not None else self.server(name).client.log

    async def connect_async(
        self,
        connection: McpConnection,
        scope: Scope = "kernel",
        *,
        timeout_seconds: float | limits.Default | None = limits.DEFAULT,
        log_level: str | None = None,
    ) -> Connected:
        """Open ``connection`` on the background loop; an open one of the same name is closed first.

        ``timeout_seconds`` bounds the connect (by default as ``connect_mcp`` does; ``None``: no
        limit); ``log_level`` asks the server for its log messages from that level up. Returns
        :class:`Connected`: the server and the warnings of closing the one it replaced. A failed
        connect raises :class:`ConnectError`; its log stays readable.
        """
        warnings = await self.close_async(connection.name) if connection.name in self.names() else []
        self._forget_failed(connection.name)
        opening = connect_mcp(connection, timeout_seconds=timeout_seconds, log_level=log_level)
        server = await self.loop.run_async(self._remember_failure(connection.name, opening))
        replaced = self._register(connection.name, SessionEntry(server, scope))
        if replaced is not None:
            warnings += await self.loop.run_async(self._close_quietly(replaced))
        return Connected(server, warnings)

    connect = _blocking(connect_async)

    async def _remember_failure(self, name: str, opening: Coroutine[Any, Any, McpServer]) -> McpServer:
        try:
            return await opening
        except ConnectError as exc:
            if isinstance(exc.log, ServerLog):
                with self._lock:
                    self._failed[name] = exc.log
            raise

    def _forget_failed(self, name: str | None = None) -> None:
        """Remove the kept log of one failed connect (of all, without a name)."""
        with self._lock:
            logs = list(self._failed.values()) if name is None else [self._failed.pop(name, None)]
            if name is None:
                self._failed.clear()
        for log in logs:
            if log is not None:
                log.remove()

    def on_connections(self, listener: ConnectionListener) -> Callable[[], None]:
        """Call ``listener(name, server)`` after each connect (the new server) and each close
        (``None``) of a name, in the thread that made the change; returns the function that stops it."""
        with self._lock:
            self._listeners.append(listener)

        def stop() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return stop

    def _tell(self, name: str, server: McpServer | None) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(name, server)
            except Exception:  # a widget's trouble must never break a connect or a close
                logger.exception("a connection listener failed for %r", name)

    def _register(self, name: str, entry: SessionEntry) -> SessionEntry | None:
        """Record a new session; one of the same name opened meanwhile (a concurrent connect) is
        returned so the caller closes it instead of leaking its server."""
        with self._lock:
            replaced = self.sessions.get(name)
            self.sessions[name] = entry
        self._tell(name, entry.server)
        return replaced if replaced is not None and replaced.server is not entry.server else None

    def _pop(self, name: str) -> SessionEntry:
        self.entry(name)  # raises with suggestions
        with self._lock:
            entry = self.sessions.pop(name)
        self._tell(name, None)
        return entry

    @staticmethod
    async def _close_quietly(entry: SessionEntry) -> list[str]:
        try:
            await entry.server.close()
        except AnviaError as exc:
            return [f"closing {entry.server.name!r}: {exc}"]
        except Exception as exc:  # a close must never raise into a later cell
            return [f"closing {entry.server.name!r}: {type(exc).__name__}: {exc}"]
        return []

    def close(self, name: str) -> list[str]:
        """Close one connection; returns warnings instead of raising when the close fails."""
        return self.run(self.close_async(name))

    async def close_async(self, name: str) -> list[str]:
        if name in self._failed and name not in self.names():
            self._forget_failed(name)  # a connection that failed: only its log is left
            return []
        entry = self._pop(name)
        return await self.loop.run_async(self._close_quietly(entry))

    def close_scope(self, scope: Scope) -> list[str]:
        """Close every connection of one scope (``"cell"`` at the end of a cell)."""
        with self._lock:
            names = [n for n, e in self.sessions.items() if e.scope == scope]
        warnings: list[str] = []
        for name in names:
            if name in self.sessions:
                warnings.extend(self.close(name))
        return warnings

    def close_all(self) -> list[str]:
        """Close every connection, and forget the logs of the ones that failed."""
        warnings: list[str] = []
        for name in self.names():
            warnings.extend(self.close(name))
        self._forget_failed()
        return warnings

    # -- calls -------------------------------------------------------------------------------

    async def _call(
        self,
        found: Tool,
        name: str,
        arguments: Mapping[str, Any] | None,
        timeout_seconds: float | limits.Default | None,
        on_progress: ProgressHandler | None,
        max_time_seconds: float | limits.Default | None = limits.DEFAULT,
        validate_arguments: bool = True,
    ) -> CallOutcome:
        """Call ``found`` (the tool :meth:`call` looked up in the caller's thread) and record it."""
        start = time.perf_counter()
        try:
            outcome = await found.call_outcome(
                arguments,
                timeout_seconds=timeout_seconds,
                on_progress=on_progress,
                max_time_seconds=max_time_seconds,
                validate_arguments=validate_arguments,
            )
        except asyncio.CancelledError:  # interrupted (the kernel's stop button): a call of the history too
            seconds = time.perf_counter() - start  # when it began, told only of an interrupted call:
            started_at = datetime.now(timezone.utc) - timedelta(seconds=seconds)
            self.record(self._interrupted(name, found.name, arguments, started_at, seconds))
            raise
        self.record(outcome)
        return outcome

    def _interrupted(
        self, name: str, tool: str, arguments: Mapping[str, Any] | None, started_at: datetime, seconds: float
    ) -> CallOutcome:
        """The outcome of a call interrupted before its answer: cancelled, the server told."""
        error = TaskCancelledError(
            f"{name}.{tool} was interrupted; the server was told (notifications/cancelled).", server=name, tool=tool
        )
        server = self.sessions.get(name)
        return CallOutcome(
            server=name,
            tool=tool,
            arguments=dict(arguments or {}),
            raw=None,
            output=None,
            error=error,
            schema_problems=None,
            seconds=seconds,
            started_at=started_at,
            secrets=server.server.secrets if server is not None else (),
        )

    def record(self, outcome: CallOutcome) -> None:
        """Add one call to the history (from any thread): its summary, never its result, so a
        dropped result is freed (see :class:`CallRecord`)."""
        summary = outcome.summary()
        with self._lock:
            self.history.append(summary)

    def calls(self) -> list[CallRecord]:
        """A snapshot of the history, safe while calls are being recorded from the loop thread."""
        with self._lock:
            return list(self.history)

    def set_history_limit(self, limit: int) -> None:
        with self._lock:
            if self.history.maxlen != limit:
                self.history = collections.deque(self.history, maxlen=max(0, limit))

    def call(
        self,
        name: str,
        tool: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout_seconds: float | limits.Default | None = limits.DEFAULT,
        on_progress: ProgressHandler | None = None,
        max_time_seconds: float | limits.Default | None = limits.DEFAULT,
        validate_arguments: bool = True,
    ) -> CallOutcome:
        """Call ``name.tool`` and record the outcome; argument errors raise before any call.
        ``timeout_seconds``, ``max_time_seconds`` and ``validate_arguments`` (``False``: the caller
        checked them against the inputSchema already) as for ``Tool.call_outcome``."""
        found = self.server(name).tool(tool)  # unknown names fail here, in the caller's thread
        return self.run(
            self._call(found, name, arguments, timeout_seconds, on_progress, max_time_seconds, validate_arguments)
        )

    def call_checked(
        self,
        name: str,
        found: Tool,
        arguments: Mapping[str, Any] | None,
        timeout_seconds: float | limits.Default | None,
        max_time_seconds: float | limits.Default | None,
    ) -> CallOutcome:
        """:meth:`call` of ``found``, a tool of connection ``name`` the caller looked up and whose
        ``arguments`` it checked against the inputSchema (``%mcp call``): neither is done again."""
        return self.run(self._call(found, name, arguments, timeout_seconds, None, max_time_seconds, False))

    @shared_keywords(limits.CallBounds, dict.fromkeys(limits.CallBounds.__annotations__, limits.DEFAULT))
    def start(
        self, name: str, tool: str, arguments: Mapping[str, Any] | None = None, **bounds: Unpack[limits.CallBounds]
    ) -> BackgroundCall:
        """Start ``name.tool`` in the background (see :mod:`anvia_nb.core.api.tasks`), its bounds as
        ``tool.start`` takes them; recorded in the history when it ends. Argument errors raise before
        anything is sent."""
        call = self.server(name).tool(tool).start(arguments, **bounds)
        once = threading.Lock()  # told from the caller's thread and the loop's: record it one time

        def record_when_done(done: BackgroundCall) -> None:
            if done.done and done.outcome is not None and once.acquire(blocking=False):
                self.record(done.outcome)

        call.on_change(record_when_done)
        return call

    # -- shutdown ----------------------------------------------------------------------------

    def shutdown(self) -> list[str]:
        """Close everything and stop the loop; run at interpreter exit and on unload."""
        warnings: list[str] = []
        thread = self.loop.thread
        if self.loop.running:
            try:
                warnings = self.close_all()
            finally:
                self.loop.stop()
        self._forget_failed()
        if thread is not None:  # what this runtime's loop started, not another runtime's servers
            kill_all_process_groups(started_in=thread)
        return warnings


_runtime: Runtime | None = None
_runtime_lock = threading.Lock()


def get_runtime() -> Runtime:
    """The kernel's one runtime (created on first use, shut down at interpreter exit)."""
    global _runtime
    with _runtime_lock:
        if _runtime is None:
            _runtime = Runtime()
            atexit.register(_runtime.shutdown)
        return _runtime
