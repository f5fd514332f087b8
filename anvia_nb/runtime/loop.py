"""The background event loop: one daemon thread that owns every session opened by sync callers.

Jupyter runs each cell in its own task, and anyio's cancel scopes must be exited by the task
that entered them; magics and widget callbacks are synchronous. So sessions live here, on one
long-lived loop in its own thread, and callers either block on :meth:`BackgroundLoop.run`
(interruptible: a kernel interrupt cancels the coroutine, which sends ``notifications/cancelled``)
or ``await`` :meth:`BackgroundLoop.run_async` from a cell. No ``nest_asyncio``: this loop never
nests, and it keeps working in a kernel where the user applied it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from anvia_nb.errors import LoopMisuseError

__all__ = ["BackgroundLoop"]

T = TypeVar("T")

_CANCEL_WAIT_SECONDS = 5.0
_STOP_WAIT_SECONDS = 10.0


class BackgroundLoop:
    """A lazily started asyncio loop on a daemon thread."""

    def __init__(self, name: str = "anvia_nb-loop") -> None:
        self._name = name
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._blocked_callers = 0

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

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Schedule ``coro`` on the loop; the future can be waited on from any thread."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop())

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the loop and block until it ends.

        A ``KeyboardInterrupt`` (the kernel's interrupt) cancels the coroutine, waits a bounded
        time for its cancellation to finish (so the server is told), then propagates.
        """
        if threading.current_thread() is self._thread:
            coro.close()
            raise LoopMisuseError("BackgroundLoop.run() called from its own thread would deadlock; await instead.")
        finished = threading.Event()

        async def tracked() -> T:
            try:
                return await coro
            finally:
                finished.set()

        future = self.submit(tracked())
        self._blocked_callers += 1
        try:
            return future.result()
        except KeyboardInterrupt:
            future.cancel()
            finished.wait(_CANCEL_WAIT_SECONDS)
            raise
        finally:
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
            future.cancel()
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


async def _cancel_the_rest() -> None:
    """Cancel every other task on this loop and wait for them, bounded."""
    current = asyncio.current_task()
    rest = [task for task in asyncio.all_tasks() if task is not current and not task.done()]
    for task in rest:
        task.cancel()
    if rest:
        await asyncio.wait(rest, timeout=_CANCEL_WAIT_SECONDS)
