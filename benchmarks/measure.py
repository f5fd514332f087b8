"""How the benchmark measures, stdlib only (the peers' own venvs import it too).

Every contender keeps one warm session for the whole run. A measurement is one timed batch per
contender per round; the order of the contenders rotates every round, so a burst of load from
the rest of the machine falls on each of them in turn. Reported: the median of the rounds and
their spread (half the interquartile range, as a share of the median).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

__all__ = ["AsyncContender", "Stats", "interleave", "load_average", "stats"]

Call = Callable[[str, dict[str, Any]], Awaitable[Any]]


class Stats:
    """The rounds of one contender on one measurement (seconds per call)."""

    def __init__(self, samples: list[float]) -> None:
        self.samples = samples
        self.median = statistics.median(samples) if samples else float("nan")

    @property
    def spread(self) -> float:
        """Half the interquartile range over the median (0.05: the middle half within ±5 %)."""
        if len(self.samples) < 2 or not self.median:
            return 0.0
        low, _, high = statistics.quantiles(self.samples, n=4, method="inclusive")
        return (high - low) / 2 / self.median

    def as_json(self) -> list[float]:
        return self.samples


def stats(samples: list[float]) -> Stats:
    return Stats(samples)


def load_average() -> str:
    """The machine's load average over 1, 5 and 15 minutes, as printed beside a section."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def interleave(batches: dict[str, Callable[[], float]], rounds: int) -> dict[str, Stats]:
    """Run each batch once per round, rotating who goes first; each returns seconds per call."""
    names = list(batches)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(rounds):
        shift = round_ % len(names) if names else 0
        for name in names[shift:] + names[:shift]:
            samples[name].append(batches[name]())
    return {name: Stats(found) for name, found in samples.items()}


class AsyncContender:
    """An async client kept open by one owner task (anyio scopes end in the task that began them),
    called from the harness with ``timed`` on the same loop."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, opener: Callable[[], AbstractAsyncContextManager[Call]]
    ) -> None:
        self.loop = loop
        self._opener = opener
        self._call: Call | None = None
        self._closing = asyncio.Event()
        self._ready: asyncio.Future[None] = loop.create_future()
        self._task: asyncio.Task[None] | None = None

    def open(self, timeout: float = 120.0) -> AsyncContender:
        self._task = self.loop.create_task(self._life())
        self.loop.run_until_complete(asyncio.wait_for(asyncio.shield(self._ready), timeout))
        return self

    async def _life(self) -> None:
        try:
            async with self._opener() as call:
                self._call = call
                self._ready.set_result(None)
                await self._closing.wait()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            elif not isinstance(exc, asyncio.CancelledError | Exception):
                raise

    def timed(self, tool: str, arguments: dict[str, Any], calls: int = 1) -> float:
        """Seconds per call, over ``calls`` calls one after another."""
        return self.loop.run_until_complete(self._timed(tool, arguments, calls))

    async def _timed(self, tool: str, arguments: dict[str, Any], calls: int) -> float:
        assert self._call is not None
        start = time.perf_counter()
        for _ in range(calls):
            await self._call(tool, arguments)
        return (time.perf_counter() - start) / calls

    def run(self, work: Callable[[Call], Awaitable[Any]]) -> Any:
        assert self._call is not None
        return self.loop.run_until_complete(work(self._call))

    def close(self) -> None:
        if self._task is None:
            return
        self._closing.set()
        self.loop.run_until_complete(asyncio.wait({self._task}, timeout=30))
