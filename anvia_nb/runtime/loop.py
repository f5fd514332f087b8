"""The background event loop: one daemon thread that owns every session opened by sync callers.

Jupyter runs each cell in its own task, and anyio's cancel scopes must be exited by the task
that entered them; magics and widget callbacks are synchronous. So sessions live here, on one
long-lived loop in its own thread, and callers either block on :meth:`BackgroundLoop.run`
(interruptible: a kernel interrupt cancels the coroutine, which sends ``notifications/cancelled``)
or ``await`` :meth:`BackgroundLoop.run_async` from a cell. No ``nest_asyncio``: this loop never
nests, and it keeps working in a kernel where the user applied it.

Work that runs on while its caller goes on (a form's call, a map, a listing) is started with
:meth:`BackgroundLoop.submit`, whose :class:`Submitted` future is the one place where cancelling
work on the loop is defined: the task is cancelled where it runs, and the future is done only
once the task has ended, after its ``finally`` blocks.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import threading
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

from anvia_nb.errors import LoopMisuseError

__all__ = ["BackgroundLoop", "Submitted", "for_a_blocked_caller"]

T = TypeVar("T")

_CANCEL_WAIT_SECONDS = 5.0
_STOP_WAIT_SECONDS = 10.0


def for_a_blocked_caller() -> bool:
    """Whether the running task does work for a caller blocked in :meth:`BackgroundLoop.run` right
    now (a synchronous magic or callback that holds its thread, the kernel's, until the work ends).

    It is known from the task's context, so it is exact for work done in the caller's own task (a
    2026-07-28 server's ``input_required`` is answered there) whatever else runs. A task that only
    inherited that context (a session's reader started during a blocking connect) does not count
    once the blocking call has ended.
    """
    handoff = _blocking.get()
    return handoff is not None and not handoff.ended


class BackgroundLoop:
    """A lazily started asyncio loop on a daemon thread."""

    def __init__(self, name: str = "anvia_nb-loop") -> None:
        self._name = name
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._blocked_callers = 0
        self._count_lock = threading.Lock()

    @property
    def caller_blocked(self) -> bool:
        """Whether a thread is blocked in :meth:`run` right now (a synchronous magic or callback):
        a prompt shown now could not receive its clicks until that caller returns."""
        return self._blocked_callers > 0

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def thread(self) -> threading.Thread | None:
        return self._thread

    def loop(self) -> asyncio.AbstractEventLoop:
        """The loop, started on first use."""
        with self._lock:
            if self._loop is None or self._thread is None or not self._thread.is_alive():
                loop = asyncio.new_event_loop()
                started = threading.Event()

                def serve() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(started.set)
                    loop.run_forever()

                thread = threading.Thread(target=serve, name=self._name, daemon=True)
                thread.start()
                started.wait(_STOP_WAIT_SECONDS)
                self._loop, self._thread = loop, thread
            return self._loop

    def submit(self, coro: Coroutine[Any, Any, T]) -> Submitted[T]:
        """Start ``coro`` on the loop; the future can be waited on, and cancelled, from any thread
        (see :class:`Submitted`)."""
        return Submitted(self.loop(), coro)

    def run(self, coro: Coroutine[Any, Any, T], *, meanwhile: Callable[[], object] | None = None) -> T:
        """Run ``coro`` on the loop and block until it ends.

        ``meanwhile``, if given, is called in this thread once ``coro`` is handed to the loop, before the
        wait (work that would otherwise come later, done while the loop waits on a server).
        A ``KeyboardInterrupt`` (the kernel's interrupt) cancels the coroutine, waits a bounded
        time for its cancellation to finish (so the server is told), then propagates.
        """
        if threading.current_thread() is self._thread:
            coro.close()
            raise LoopMisuseError("BackgroundLoop.run() called from its own thread would deadlock; await instead.")
        handoff: _Handoff[T] | None = None
        counted = False
        try:
            handoff = _Handoff(self.loop(), coro)
            with self._count_lock:  # counted before the loop has it; callers on several threads add up
                self._blocked_callers += 1
                counted = True
            return handoff.result(meanwhile)  # starts it: an interrupt from then on cancels it
        except BaseException:
            if handoff is None or not handoff.handed:
                coro.close()  # an interrupt before the loop had it: it never runs, and is not left unawaited
            raise
        finally:
            if counted:  # an interrupt may land anywhere here: the count must come back down
                with self._count_lock:
                    self._blocked_callers -= 1

    async def run_async(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` on the background loop, from it or from any other running loop (a cell).

        On the background loop itself ``coro`` is awaited in place, so cancelling the caller waits
        for ``coro`` to clean up (stop its server) instead of leaving it running behind.
        """
        if self._loop is not None and asyncio.get_running_loop() is self._loop:
            return await coro
        future = self.submit(coro)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            # wrap_future has already cancelled the work; wait, bounded, for it to wind down (the
            # server told), as the in-place await above does
            await asyncio.wait([asyncio.wrap_future(future)], timeout=_CANCEL_WAIT_SECONDS)
            raise

    def stop(self) -> None:
        """Stop the loop and join its thread (bounded); callers close sessions first.

        Work still running on the loop (a connect given up by its caller, still stopping its
        server) is cancelled and awaited first, so no process outlives the loop that watches it.
        """
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        if thread.is_alive() and threading.current_thread() is not thread:
            drained = asyncio.run_coroutine_threadsafe(_cancel_the_rest(), loop)
            with contextlib.suppress(Exception):
                drained.result(_STOP_WAIT_SECONDS)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(_STOP_WAIT_SECONDS)
        if not thread.is_alive():
            loop.close()


class Submitted(concurrent.futures.Future[T]):
    """The future of a coroutine started on the loop by :meth:`BackgroundLoop.submit`.

    Unlike ``asyncio.run_coroutine_threadsafe``'s future, :meth:`cancel` does not mark it done at
    once while the task still runs: it cancels the task on the loop and the future becomes cancelled
    when the task has ended. So whoever waits on it after cancelling (``result()``,
    ``concurrent.futures.wait``, a done callback) knows the work has wound down: the server was told,
    the ``finally`` blocks ran. A coroutine cancelled before it started never runs.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T], *, start: bool = True) -> None:
        super().__init__()
        self._loop = loop
        self._coro: Coroutine[Any, Any, T] | None = coro
        self._task: asyncio.Task[T] | None = None
        self._cancel_sent = False
        if start:
            self.start()

    def start(self) -> None:
        """Hand the coroutine to the loop (made with ``start=False``: a caller that must be able to
        cancel whatever an interrupt interrupts holds the future before the loop has the work)."""
        self._loop.call_soon_threadsafe(self._start)

    def _start(self) -> None:  # on the loop, before any cancel_on_loop (callbacks run in order)
        coro, self._coro = self._coro, None
        if coro is None:  # cancelled before it started: it never will
            return
        self._task = self._loop.create_task(coro)
        self._task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[T]) -> None:  # on the loop
        if task.cancelled():
            self._cancelled()
        elif (error := task.exception()) is not None:
            self.set_exception(error)
        else:
            self.set_result(task.result())

    def cancel(self) -> bool:
        """Ask the loop to cancel the task; False when the future is already done. The future is
        cancelled once the task has ended (or at once, when the task had not started)."""
        if self.done():
            return False
        with contextlib.suppress(RuntimeError):  # a closed loop has nothing left to cancel
            self._loop.call_soon_threadsafe(self._cancel_on_loop)
        return True

    def _cancel_on_loop(self) -> None:
        task = self._task
        if task is not None:
            if not self._cancel_sent:  # once: a second cancel would cut its cleanup short
                self._cancel_sent = True
                task.cancel()
        elif self._coro is not None:
            self._coro.close()
            self._coro = None
            self._cancelled()

    def _cancelled(self) -> None:
        super().cancel()
        self.set_running_or_notify_cancel()  # what wakes concurrent.futures.wait() on a cancel


class _Handoff(Generic[T]):
    """One coroutine run on the loop for a caller blocked on it: the cheapest hand-off there is.

    One ``call_soon_threadsafe`` starts a task, and the task itself releases a plain lock the
    caller waits on, as it ends (no concurrent future, no condition, no extra turn of the loop):
    a synchronous call pays the two thread wake-ups and little else.
    """

    __slots__ = ("_coro", "_done", "_error", "_loop", "_released", "_started", "_task", "_value", "handed")

    def __init__(self, loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T]) -> None:
        self._loop = loop
        self._coro = coro
        self._done = threading.Lock()
        self._done.acquire()
        self._started = self._released = False
        self.handed = False
        """Whether the loop was asked to start it: from then on the loop, not the caller, ends it."""
        self._task: asyncio.Task[None] | None = None
        self._error: BaseException | None = None

    def _start(self) -> None:  # on the loop
        if self._started:  # cancelled before it started: it never will
            return
        self._started = True
        context = contextvars.copy_context()  # the caller's, as a task would copy it, plus who waits
        context.run(_blocking.set, self)
        self._task = context.run(self._loop.create_task, self._body())  # the task copies it
        self._task.add_done_callback(self._on_task_done)

    async def _body(self) -> None:
        try:
            self._value = await self._coro
        except (Exception, asyncio.CancelledError) as exc:
            self._error = exc  # the caller's to raise: the task itself ends quietly
        except BaseException as exc:  # SystemExit and the like end the loop, as they would anyway
            self._error = exc
            raise
        finally:
            self._released = True
            self._done.release()

    @property
    def ended(self) -> bool:
        """Whether the coroutine has ended (its caller no longer waits for it)."""
        return self._released

    def _on_task_done(self, task: asyncio.Task[None]) -> None:  # on the loop
        if not self._released:  # cancelled before its first step: the body never ran
            self._never_ran()

    def _cancel(self) -> None:  # on the loop
        if self._task is not None:
            self._task.cancel()
        elif not self._started:  # cancelled before it started: it never will
            self._started = True
            self._never_ran()

    def _never_ran(self) -> None:  # on the loop
        """The coroutine will not run: close it and let the caller raise CancelledError."""
        self._released = True
        self._coro.close()
        self._error = asyncio.CancelledError()
        self._done.release()

    def result(self, meanwhile: Callable[[], object] | None = None) -> T:
        """Block until the coroutine ends (after calling ``meanwhile``); its value, or its
        exception raised here. An exception of ``meanwhile`` is raised once the coroutine has ended
        (whose own outcome is then dropped)."""
        try:
            # Started inside the try: an interrupt that lands as soon as the loop has it (after the
            # call_soon_threadsafe returns) must still cancel it, or the server is never told.
            self.handed = True  # before: an interrupt in between cancels on the loop, which closes it
            self._loop.call_soon_threadsafe(self._start)
            if meanwhile is not None:
                try:
                    meanwhile()
                except Exception:
                    self._done.acquire()  # the loop has the coroutine: it ends before the caller hears
                    raise
            self._done.acquire()
        except KeyboardInterrupt:
            with contextlib.suppress(RuntimeError):  # a loop closed meanwhile has nothing to cancel
                self._loop.call_soon_threadsafe(self._cancel)
            if self._done.acquire(timeout=_CANCEL_WAIT_SECONDS):
                self._done.release()
            raise
        error = self._error
        if error is None:
            return self._value
        self._error = None  # no cycle through the traceback
        if isinstance(error, asyncio.CancelledError):
            raise concurrent.futures.CancelledError() from None
        raise error


_blocking: contextvars.ContextVar[_Handoff[Any] | None] = contextvars.ContextVar("anvia_blocked_caller", default=None)
"""In a task started by :meth:`BackgroundLoop.run`: the hand-off whose caller waits (see
:func:`for_a_blocked_caller`)."""


async def _cancel_the_rest() -> None:
    """Cancel every other task on this loop and wait for them, bounded."""
    current = asyncio.current_task()
    rest = [task for task in asyncio.all_tasks() if task is not current and not task.done()]
    for task in rest:
        task.cancel()
    if rest:
        await asyncio.wait(rest, timeout=_CANCEL_WAIT_SECONDS)
