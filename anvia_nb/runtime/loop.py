"""The background event loop: one daemon thread that owns every session opened by sync callers.

Jupyter runs each cell in its own task, and anyio's cancel scopes must be exited by the task
that entered them; magics and widget callbacks are synchronous. So sessions live here, on one
long-lived loop in its own thread, and callers either block on :meth:`BackgroundLoop.run`
(interruptible: a kernel interrupt cancels the coroutine, which sends ``notifications/cancelled``)
or ``await`` :meth:`BackgroundLoop.run_async` from a cell. No ``nest_asyncio``: this loop never
nests, and it keeps working in a kernel where the user applied it.

Every crossing into the loop is ``asyncio.run_coroutine_threadsafe`` and its
``concurrent.futures.Future``. Work that runs on while its caller goes on (a form's call, a map, a
listing) is started with :meth:`BackgroundLoop.submit`; :meth:`BackgroundLoop.cancel` cancels it
where it runs, and its future is done only once the task has ended, after its ``finally`` blocks
(``future.cancel()``, the standard way, marks the future done at once while the task winds down).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from anvia_nb.core.protocol import limits
from anvia_nb.errors import LoopMisuseError

__all__ = ["BackgroundLoop", "for_a_blocked_caller"]

T = TypeVar("T")


def for_a_blocked_caller() -> bool:
    """Whether the running task does work for a caller blocked in :meth:`BackgroundLoop.run` right
    now (a synchronous magic or callback that holds its thread, the kernel's, until the work ends).

    It is known from the task's context, so it is exact for work done in the caller's own task (a
    2026-07-28 server's ``input_required`` is answered there) whatever else runs. A task that only
    inherited that context (a session's reader started during a blocking connect) does not count
    once the blocking call has ended.
    """
    waiting = _blocking.get()
    return waiting is not None and waiting.locked()


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
        loop = self._loop
        if loop is not None and loop.is_running():  # the usual case: no lock, no look at the thread
            return loop  # (run_forever ends only in its thread, so a running loop's thread is alive)
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
                started.wait(limits.LOOP_STOP_WAIT_SECONDS)
                self._loop, self._thread = loop, thread
            return self._loop

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Start ``coro`` on the loop; its future can be waited on from any thread. To cancel the
        work and know when it has wound down, use :meth:`cancel`."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop())

    def cancel(self, coro: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[None]:
        """Cancel the task running ``coro`` (given to :meth:`submit`): the request is cancelled on the
        server. The returned future, and ``coro``'s own, are done once the task has ended (its
        ``finally`` blocks ran); a coroutine the loop has not started never runs."""
        loop = self.loop()
        loop.call_soon_threadsafe(_cancel_task_of, coro)  # once: a second cancel would cut its cleanup short
        return asyncio.run_coroutine_threadsafe(_ended(coro), loop)

    def run(self, coro: Coroutine[Any, Any, T], *, meanwhile: Callable[[], object] | None = None) -> T:
        """Run ``coro`` on the loop and block until it ends.

        ``meanwhile``, if given, is called in this thread once ``coro`` is handed to the loop, before the
        wait (work that would otherwise come later, done while the loop waits on a server); an
        exception of ``meanwhile`` is raised once ``coro`` has ended (its outcome is then dropped).
        A ``KeyboardInterrupt`` (the kernel's interrupt) cancels the coroutine, waits a bounded
        time for its cancellation to finish (so the server is told), then propagates.
        """
        thread = self._thread
        if thread is not None and thread.ident == threading.get_ident():
            coro.close()
            raise LoopMisuseError("BackgroundLoop.run() called from its own thread would deadlock; await instead.")
        handed = counted = False
        waiting = threading.Lock()  # held while this caller waits (an Event cost ~25k instructions a call)
        waiting.acquire()
        try:
            loop = self.loop()
            with self._count_lock:  # counted before the loop has it; callers on several threads add up
                self._blocked_callers += 1
                counted = True
            token = _blocking.set(waiting)  # the task copies this thread's context as it is handed over
            try:
                handed = True  # before: an interrupt in between cancels on the loop, which closes it
                future = asyncio.run_coroutine_threadsafe(coro, loop)
            finally:
                _blocking.reset(token)
            if meanwhile is not None:
                try:
                    meanwhile()
                except Exception:
                    concurrent.futures.wait([future])  # the loop has the coroutine: it ends first
                    raise
            return future.result()
        except KeyboardInterrupt:
            if handed:
                with contextlib.suppress(Exception):  # bounded: a stuck server never hangs the kernel
                    self.cancel(coro).result(limits.LOOP_CANCEL_WAIT_SECONDS)
            else:
                coro.close()  # an interrupt before the loop had it: it never runs, and is not left unawaited
            raise
        except BaseException:
            if not handed:
                coro.close()
            raise
        finally:
            waiting.release()
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
            return await asyncio.shield(asyncio.wrap_future(future))  # cancelled below, once
        except asyncio.CancelledError:
            # cancel the work where it runs and wait, bounded, for it to wind down (the server
            # told), as the in-place await above does
            await asyncio.wait([asyncio.wrap_future(self.cancel(coro))], timeout=limits.LOOP_CANCEL_WAIT_SECONDS)
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
                drained.result(limits.LOOP_STOP_WAIT_SECONDS)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(limits.LOOP_STOP_WAIT_SECONDS)
        if not thread.is_alive():
            loop.close()


_blocking: contextvars.ContextVar[threading.Lock | None] = contextvars.ContextVar("anvia_blocked_caller", default=None)
"""In work started by :meth:`BackgroundLoop.run`: held until its caller no longer waits (see
:func:`for_a_blocked_caller`)."""


def _task_of(coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any] | None:  # on the loop
    return next((task for task in asyncio.all_tasks() if task.get_coro() is coro), None)


def _cancel_task_of(coro: Coroutine[Any, Any, Any]) -> None:  # on the loop
    """Cancel the task that runs ``coro``; a coroutine no task runs was never handed over (a task
    is made in the callback ``run_coroutine_threadsafe`` queued before this one), and is closed."""
    task = _task_of(coro)
    if task is not None:
        task.cancel()
    else:
        coro.close()


async def _ended(coro: Coroutine[Any, Any, Any]) -> None:
    task = _task_of(coro)
    if task is not None:
        await asyncio.wait([task])


async def _cancel_the_rest() -> None:
    """Cancel every other task on this loop and wait for them, bounded."""
    current = asyncio.current_task()
    rest = [task for task in asyncio.all_tasks() if task is not current and not task.done()]
    for task in rest:
        task.cancel()
    if rest:
        await asyncio.wait(rest, timeout=limits.LOOP_CANCEL_WAIT_SECONDS)
