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
import contextlib
import os
import time
from collections.abc import Coroutine
from typing import Any, TypeVar

from anvia_nb.core._sdk import (
    ElicitationHandler,
    HttpLaunch,
    MemoryLaunch,
    ProgressHandler,
    SdkHandlers,
    SdkSession,
    open_sdk_session,
)
from anvia_nb.core._stdio import StdioLaunch
from anvia_nb.core.types import JsonObject, ToolInfo
from anvia_nb.errors import ConnectError, ConnectionClosedError

__all__ = ["McpClient", "ServerLogEntry"]

T = TypeVar("T")

_CLOSE_TIMEOUT_SECONDS = 15.0
_MAX_LOG_ENTRIES = 500

ServerLogEntry = tuple[float, str, str | None, Any]
"""(time, level, logger, data) of one ``notifications/message`` from the server."""


class McpClient:
    """The seed's ``McpClient``: ``list_tools()``, ``call_tool()``, ``close()`` over one session."""

    def __init__(self, name: str, launch: StdioLaunch | HttpLaunch | MemoryLaunch) -> None:
        self.name = name
        self.launch = launch
        self.log_entries: collections.deque[ServerLogEntry] = collections.deque(maxlen=_MAX_LOG_ENTRIES)
        self.notifications: collections.Counter[str] = collections.Counter()
        self.tools_changed = False
        self._handlers = SdkHandlers(log=self._on_log, notification=self._on_notification)
        self._session: SdkSession | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._owner: asyncio.Task[None] | None = None
        self._closing: asyncio.Event | None = None
        self._closed = False
        self.close_error: BaseException | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    async def open(self) -> McpClient:
        """Start the owner task and wait for the handshake; raises :class:`ConnectError`."""
        if self._owner is not None:
            raise ConnectError(f"{self.name!r} is already open.", server=self.name)
        self._loop = asyncio.get_running_loop()
        self._closing = asyncio.Event()
        ready: asyncio.Future[SdkSession] = self._loop.create_future()
        self._owner = self._loop.create_task(self._own(ready), name=f"anvia_nb session {self.name}")
        try:
            self._session = await asyncio.shield(ready)
        except asyncio.CancelledError:
            if ready.done() and not ready.cancelled() and ready.exception() is None:
                self._closing.set()  # the handshake finished after all: close the normal way
            else:
                # Still in the handshake, which never looks at _closing: stop the owner itself.
                ready.cancel()
                self._owner.cancel()
            await asyncio.wait({self._owner}, timeout=_CLOSE_TIMEOUT_SECONDS)
            raise
        return self

    async def _own(self, ready: asyncio.Future[SdkSession]) -> None:
        assert self._closing is not None
        try:
            async with open_sdk_session(self.name, self.launch, self._handlers) as session:
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
        return self._session is not None and not self._closed

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        return self._loop

    async def close(self) -> None:
        """Close the session and stop its server; idempotent; bounded in time.

        The stderr log of a stdio server is deleted once it has been closed cleanly.
        """
        owner_loop = self._loop
        if self._owner is None or self._owner.done() or owner_loop is None or owner_loop.is_closed():
            # Never opened, already closed, or its loop has ended (asyncio.run cancelled the owner).
            self._closed = True
        else:
            await self._on_owner_loop(self._close_here())
        self._forget_log()

    def _forget_log(self) -> None:
        path = self.launch.stderr_path if isinstance(self.launch, StdioLaunch) else None
        if path:
            with contextlib.suppress(OSError):
                os.remove(path)

    async def _close_here(self) -> None:
        if self._owner is None or self._closing is None:
            self._closed = True
            return
        self._closing.set()
        done, _ = await asyncio.wait({self._owner}, timeout=_CLOSE_TIMEOUT_SECONDS)
        if not done:
            self._owner.cancel()
            await asyncio.wait({self._owner}, timeout=_CLOSE_TIMEOUT_SECONDS)
        self._closed = True
        error, self.close_error = self.close_error, None
        if error is not None and not _is_closed_noise(error):
            raise ConnectionClosedError(
                f"Closing {self.name!r} reported an error: {type(error).__name__}: {error}", server=self.name
            ) from error

    # -- requests ----------------------------------------------------------------------------

    def _live_session(self) -> SdkSession:
        if self._session is None or self._closed:
            raise ConnectionClosedError(
                f"The connection {self.name!r} is closed; connect again to use it.", server=self.name
            )
        return self._session

    @property
    def protocol_version(self) -> str:
        return self._live_session().protocol_version

    @property
    def server_info(self) -> JsonObject:
        return self._live_session().server_info

    @property
    def instructions(self) -> str | None:
        return self._live_session().instructions

    async def list_tools(self) -> list[ToolInfo]:
        """Every tool on every page of tools/list."""
        session = self._live_session()
        tools = await self._on_owner_loop(session.list_tools())
        self.tools_changed = False
        return tools

    async def call_tool(
        self,
        name: str,
        arguments: JsonObject | None = None,
        *,
        timeout_seconds: float | None = None,
        on_progress: ProgressHandler | None = None,
    ) -> JsonObject:
        """One tools/call; returns the raw result (wire keys) without mapping it."""
        session = self._live_session()
        return await self._on_owner_loop(
            session.call_tool(name, arguments, timeout_seconds=timeout_seconds, on_progress=on_progress)
        )

    def set_elicitation_handler(self, handler: ElicitationHandler | None) -> None:
        """Who answers the server's elicitation requests; without one they are cancelled."""
        self._handlers.elicitation = handler

    @property
    def unanswered_elicitations(self) -> int:
        """How many requests for input were cancelled because nothing could answer them."""
        return self._handlers.unanswered_elicitations

    def record_unanswered_elicitation(self, reason: str) -> None:
        """A handler that had to cancel a request says why (shown by ``%mcp log``)."""
        self._handlers.unanswered_elicitations += 1
        self._on_log("warning", "anvia_nb", f"the server asked for input: cancelled, {reason}")

    # -- server-initiated traffic ------------------------------------------------------------

    def _on_log(self, level: str, logger: str | None, data: Any) -> None:
        self.log_entries.append((time.time(), level, logger, data))

    def _on_notification(self, method: str) -> None:
        self.notifications[method] += 1
        if method == "notifications/tools/list_changed":
            self.tools_changed = True

    def stderr_tail(self, max_chars: int = 20_000) -> str:
        """The last ``max_chars`` characters the stdio server wrote to stderr ("" for HTTP)."""
        path = self.launch.stderr_path if isinstance(self.launch, StdioLaunch) else None
        if not path or not os.path.exists(path):
            return ""
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - max_chars * 4))
            text = handle.read().decode("utf-8", errors="replace")
        return text[-max_chars:]

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


def _is_closed_noise(error: BaseException) -> bool:
    """Errors that only say the server was already gone when we closed it."""
    return isinstance(error, ConnectionClosedError | EOFError | BrokenPipeError | ConnectionResetError)

