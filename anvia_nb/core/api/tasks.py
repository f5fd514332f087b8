"""Calls that run in the background, tasks included: :class:`BackgroundCall`.

``tool.start(arguments)`` sends the call and returns at once; the call runs on the connection's
own loop, so no cell (and no ``await``) is kept busy. Its state is plain data a view can show:
``status`` (``"running"``, then what the server says of its task: ``"working"``,
``"input_required"``..., and in the end ``"completed"``, ``"failed"`` or ``"cancelled"``), the
task's id and status message, the last progress, and the :class:`CallOutcome` when it is done.
``on_change(listener)`` is told of every change (on the loop's thread).

A tool whose ``execution.taskSupport`` is ``required`` runs as a task whether started or called
(``tool.call``, ``%mcp call``): the server makes a task, the client polls it and fetches the
result (see :mod:`anvia_nb.core.transport.sdk.tasks` for the two protocol forms). ``handle.cancel()``
cancels: a task is cancelled on the server with ``tasks/cancel``, a plain call with
``notifications/cancelled``; the outcome's error is then a :class:`TaskCancelledError`.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone

from anvia_nb._docs import fill_docstring
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import BackgroundState, CallOutcome, JsonObject
from anvia_nb.core.transport.client import McpClient
from anvia_nb.errors import (
    AnviaError,
    ConnectionClosedError,
    LoopMisuseError,
    TaskCancelledError,
    WaitTimeoutError,
)

__all__ = ["BackgroundCall", "BackgroundState"]

_WAITING = {
    "parameters": """
Parameters
----------
timeout_seconds : float, optional
    Seconds to wait; ``None`` (the default): until it is done.
""",
    "still_running": """
WaitTimeoutError
    Still running after ``timeout_seconds`` (the call goes on).
""",
}
"""What ``wait`` and ``result`` say alike about waiting, written once (see ``anvia_nb._docs``)."""


Listener = Callable[["BackgroundCall"], None]
Run = Callable[[], Awaitable[CallOutcome]]
"""Makes the call (``Tool.start`` gives one that tells :meth:`BackgroundCall.progress_seen` and
:meth:`BackgroundCall.task_seen`); its outcome is the call's."""


class BackgroundCall:
    """A call of ``server``'s ``tool`` running on its connection's loop; see the module docstring.

    Made by ``tool.start(...)``, not by hand. ``status``, ``progress``, ``task_id`` and, once done,
    ``outcome`` change while nothing waits; ``on_change`` hears each change.

    Parameters
    ----------
    server, tool : str
        The server's and the tool's names.
    arguments : dict or None
        The arguments sent (already checked).
    secrets : tuple of str, optional
        Values masked wherever the call is shown.
    """

    def __init__(self, server: str, tool: str, arguments: JsonObject | None, *, secrets: tuple[str, ...] = ()) -> None:
        self.server = server
        self.tool = tool
        self.arguments = arguments
        self.secrets = secrets
        self.status: str = "running"
        self.task_id: str | None = None
        self.status_message: str | None = None
        self.progress: tuple[float, float | None, str | None] | None = None
        self.outcome: CallOutcome | None = None
        self.started_at = datetime.now(timezone.utc)
        self._start = time.perf_counter()
        self._seconds: float | None = None
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._finished = threading.Event()
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.cancel_requested = False

    def __repr__(self) -> str:
        return f"<BackgroundCall {self.server}.{self.tool} {self.status}>"

    # -- state -------------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """Whether the call finished (with an outcome, an error in it, or cancelled)."""
        return self._finished.is_set()

    @property
    def seconds(self) -> float:
        """Seconds since it started; once done, how long it took."""
        return self._seconds if self._seconds is not None else time.perf_counter() - self._start

    def state(self) -> BackgroundState:
        """A snapshot of the call, frozen, for views to show.

        Returns
        -------
        BackgroundState
            Server, tool, status, task id and message, progress, seconds, done.
        """
        return BackgroundState(
            server=self.server,
            tool=self.tool,
            status=self.status,
            task_id=self.task_id,
            status_message=self.status_message,
            progress=self.progress,
            seconds=self.seconds,
            done=self.done,
            secrets=self.secrets,
        )

    def on_change(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(self)`` after each change, and once now.

        Parameters
        ----------
        listener : callable
            Takes the call; what it raises is ignored (it must never stop the call).

        Returns
        -------
        callable
            Call it to stop listening.
        """
        with self._lock:
            self._listeners.append(listener)
        listener(self)

        def stop() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return stop

    def _changed(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(self)
            except Exception:  # a view's trouble must never stop the call
                continue

    def task_seen(self, task: JsonObject) -> None:
        """Take the state of the task the call became.

        Parameters
        ----------
        task : dict
            The task as sent (wire keys: ``taskId``, ``status``, ``statusMessage``).
        """
        task_id, status, message = task.get("taskId"), task.get("status"), task.get("statusMessage")
        if isinstance(task_id, str):
            self.task_id = task_id
        if isinstance(status, str):
            self.status = status
        if isinstance(message, str):
            self.status_message = message[: limits.TASK_MESSAGE_CHARS]
        self._changed()

    async def progress_seen(self, progress: float, total: float | None, message: str | None) -> None:
        """Take the call's last progress.

        Parameters
        ----------
        progress : float
        total : float or None
        message : str or None
            As the server's progress notification gave them.
        """
        self.progress = (progress, total, message[: limits.TASK_MESSAGE_CHARS] if message is not None else None)
        self._changed()

    # -- waiting and cancelling --------------------------------------------------------------

    @fill_docstring(_WAITING)
    async def wait(self, timeout_seconds: float | None = None) -> CallOutcome:
        """The outcome, once the call is done; awaitable from any loop.

        {parameters}

        Returns
        -------
        CallOutcome
            Its ``.error`` holds what went wrong, ``TaskCancelledError`` when cancelled.

        Raises
        ------
        {still_running}
        """
        deadline = None if timeout_seconds is None else time.monotonic() + timeout_seconds
        while not self._finished.is_set():
            if deadline is not None and time.monotonic() > deadline:
                raise WaitTimeoutError(f"{self!r} is still running after {timeout_seconds:g} s.")
            await asyncio.sleep(0.02)
        assert self.outcome is not None
        return self.outcome

    @fill_docstring(_WAITING)
    def result(self, timeout_seconds: float | None = None) -> CallOutcome:
        """Block until done and return the outcome (not on the connection's own loop thread).

        {parameters}

        Returns
        -------
        CallOutcome

        Raises
        ------
        LoopMisuseError
            Called on the loop the call runs on, which it would block: ``await call.wait()`` there.
        {still_running}
        """
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not None and running is self._loop:
            raise LoopMisuseError("result() would block the loop this call runs on; use await call.wait().")
        if not self._finished.wait(timeout_seconds):
            raise WaitTimeoutError(f"{self!r} is still running after {timeout_seconds:g} s.")
        assert self.outcome is not None
        return self.outcome

    def cancel(self) -> bool:
        """Ask for the call to stop (from any thread): cancelled on the server too.

        Returns
        -------
        bool
            ``False`` when it was already done.
        """
        if self.done:
            return False
        self.cancel_requested = True
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._cancel_here)  # after _begin: the loop runs them in order
        self._changed()
        return True

    # -- running -----------------------------------------------------------------------------

    def start(self, client: McpClient, run: Run) -> BackgroundCall:
        """Make the call with ``run()`` on ``client``'s loop (from any thread, the loop's own too)
        and return at once.

        Parameters
        ----------
        client : McpClient
            The open client whose loop runs the call.
        run : callable
            Makes the call and returns its outcome (``Tool.start`` gives it).

        Returns
        -------
        BackgroundCall
            This call.

        Raises
        ------
        ConnectionClosedError
            The connection is closed.
        """
        loop = client.loop
        if loop is None or loop.is_closed() or not client.is_open:
            raise ConnectionClosedError(
                f"The connection {self.server!r} is closed; connect again to use it.", server=self.server
            )
        self._loop = loop
        loop.call_soon_threadsafe(self._begin, run)
        return self

    async def _run(self, run: Run) -> None:
        try:
            outcome = await run()
        except asyncio.CancelledError:
            outcome = self._cancelled_outcome()
        except AnviaError as exc:
            outcome = self._outcome_with(exc)
        self._finish(outcome)

    def _begin(self, run: Run) -> None:
        """On the loop: start the call (unless cancelled already)."""
        assert self._loop is not None
        if self.cancel_requested:
            self._finish(self._not_started_outcome())
            return
        name = f"anvia_nb background {self.server}.{self.tool}"
        self._task = self._loop.create_task(self._run(run), name=name)
        self._task.add_done_callback(self._task_done)

    def _task_done(self, _task: asyncio.Task[None]) -> None:
        if not self.done:  # cancelled before it began to run: nothing was sent
            self._finish(self._not_started_outcome())

    def _not_started_outcome(self) -> CallOutcome:
        target = f"{self.server}.{self.tool}"
        error = TaskCancelledError(
            f"{target} was cancelled before anything was sent.", server=self.server, tool=self.tool
        )
        return self._outcome_with(error)

    def _cancel_here(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def _cancelled_outcome(self) -> CallOutcome:
        told = "tasks/cancel" if self.task_id else "notifications/cancelled"
        target = f"{self.server}.{self.tool}"
        error = TaskCancelledError(
            f"{target} was cancelled; the server was told ({told}).",
            server=self.server,
            tool=self.tool,
            task_id=self.task_id or "",
        )
        return self._outcome_with(error)

    def _outcome_with(self, error: AnviaError) -> CallOutcome:
        return CallOutcome(
            server=self.server,
            tool=self.tool,
            arguments=self.arguments,
            raw=None,
            output=None,
            error=error,
            schema_problems=None,
            seconds=time.perf_counter() - self._start,
            started_at=self.started_at,
            secrets=self.secrets,
        )

    def _finish(self, outcome: CallOutcome) -> None:
        if self._finished.is_set():
            return
        self.outcome = outcome
        self._seconds = outcome.seconds
        if outcome.status == "cancelled":
            self.status = "cancelled"
        elif self.status not in ("completed", "failed", "cancelled") or outcome.error is not None:
            self.status = "completed" if outcome.error is None else "failed"
        self._finished.set()
        self._changed()
