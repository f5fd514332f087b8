"""The turns of the calls on one session: at most ``limit`` in flight, the others wait in order.

What ``asyncio.Semaphore`` does, except that a call finding a turn free takes it without a
coroutine: the semaphore's ``async with`` costs two coroutines and a generator on every call,
about a hundredth of a trivial call's whole work in the client.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib

__all__ = ["Turns"]


class Turns:
    """At most ``limit`` turns taken at once on one loop; first come, first served."""

    __slots__ = ("_waiting", "limit", "taken")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.taken = 0
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()

    def take(self) -> bool:
        """Take a turn if one is free and nobody waits for one; whether it was taken."""
        if self.taken < self.limit and not self._waiting:
            self.taken += 1
            return True
        return False

    async def wait(self) -> None:
        """Take a turn, waiting for one if need be; a wait that is cancelled keeps no turn."""
        if self.take():
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.give()  # handed a turn just as it was cancelled: hand it on
            else:
                with contextlib.suppress(ValueError):  # already taken out by give()
                    self._waiting.remove(waiter)
            raise

    def give(self) -> None:
        """Give a turn back: to the first call still waiting, else to the free ones."""
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self.taken -= 1
