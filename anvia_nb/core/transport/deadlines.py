"""The whole-time bounds of the calls on one session, kept by one loop timer.

A call's time limit is a deadline: when it passes, the calling task is cancelled (so the SDK sends
the server its courtesy ``notifications/cancelled``) and the call raises ``TimeoutError``. A timer
per call (``asyncio.timeout``, or anyio's ``CancelScope`` with a deadline) costs a timer handle and
its cancellation on every call, and work in every turn of the loop while it is set: about a twentieth
of the client's whole work on a trivial call. Here one timer serves every call of a session: it is
set for the earliest deadline and moved only when it fires, so a call that ends in time costs one
entry in a dict.
"""

from __future__ import annotations

import asyncio
import contextvars
import sys

__all__ = ["Bound", "Deadlines"]


class Bound:
    """One call's deadline, in the loop's time; ``expired`` once its task was cancelled for it."""

    __slots__ = ("at", "cancelling", "ended", "expired", "task")

    def __init__(self, task: asyncio.Task[object], at: float) -> None:
        self.task = task
        self.at = at
        self.expired = self.ended = False
        # Cancellations already asked of the task: only the one this bound asks becomes a timeout.
        self.cancelling = 0
        if sys.version_info >= (3, 11):
            self.cancelling = task.cancelling()

    def withdraw(self) -> bool:
        """Withdraw this bound's request to cancel, if it made one (as ``asyncio.timeout`` does);
        whether the task's cancellation was this bound's alone, that is, a timeout."""
        if not self.expired:
            return False
        if sys.version_info >= (3, 11):
            return self.task.uncancel() <= self.cancelling
        return True  # pragma: no cover - Python 3.10 does not count cancellations


class Deadlines:
    """The deadlines of the calls in flight on one loop; see the module's doc."""

    def __init__(self) -> None:
        self._due: dict[Bound, None] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        """When the timer fires (its ``when()``, kept: reading it is a call)."""

    def start(self, seconds: float | None) -> Bound | None:
        """Bound the current task's call to ``seconds`` from now (``None``: no bound)."""
        if seconds is None:
            return None
        task = asyncio.current_task()
        if task is None:  # pragma: no cover - calls always run in a task
            return None
        loop = asyncio.get_running_loop()
        bound = Bound(task, loop.time() + seconds)
        self._due[bound] = None
        if self._timer is None or self._timer_at > bound.at:
            if self._timer is not None:
                self._timer.cancel()
            self._arm(loop, bound.at)
        return bound

    def end(self, bound: Bound | None) -> bool:
        """The call ended, in time or not: forget its bound; whether it ended by its timeout (the
        task's cancellation was this bound's alone). Only the first call for a bound counts."""
        if bound is None or bound.ended:
            return False
        bound.ended = True
        self._due.pop(bound, None)
        return bound.expired and bound.withdraw()  # most calls end in time: no call to withdraw

    def _fire(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        now = loop.time()
        for bound in [bound for bound in self._due if bound.at <= now]:
            del self._due[bound]
            bound.expired = True
            bound.task.cancel()
        if self._due:
            self._arm(loop, min(bound.at for bound in self._due))

    def _arm(self, loop: asyncio.AbstractEventLoop, at: float) -> None:
        # In an empty context, not the caller's: that may hold the call's result (a blocked caller's
        # hand-off) for as long as the timer is set.
        self._timer = loop.call_at(at, self._fire, loop, context=contextvars.Context())
        self._timer_at = at
