"""One tool over many argument rows, concurrently on one session: the core of ``tool.map``.

Works on a sequence of argument mappings (no pandas here: the DataFrame side is
:mod:`anvia_nb.frames`). Every row is made JSON (:mod:`anvia_nb.core.protocol.values`) and checked against
the inputSchema (:mod:`anvia_nb.core.protocol.schema`) before any row is sent; an invalid row is reported
without a call. Valid rows are called ``concurrency`` at a time: the map's own calls
are bounded by its workers, not by the connection's ``max_calls_in_flight`` (which still bounds
every other call), so ``concurrency=64`` sends 64 at once. Results are kept by row position, so they come back in
row order whatever finished first. A failing row fails alone, unless ``stop_on_error``: then the
calls in flight are cancelled on the server and the rows not started are marked ``not run``.

Cancelling the map (the stop button, ``task.cancel()``) cancels every call in flight, which tells
the server (``notifications/cancelled``); the rows done so far stay in :attr:`MapRun.rows`, the
others marked ``cancelled`` or ``not run``, before the cancellation goes on to the caller.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, TypeGuard

from anvia_nb.core.api.map_options import MapOptions
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.limits import Timeout
from anvia_nb.core.protocol.types import CallOutcome, JsonObject
from anvia_nb.core.protocol.values import json_value
from anvia_nb.core.transport.caller_bounds import bounded_by_caller
from anvia_nb.errors import AnviaError

__all__ = ["MapOptions", "MapRun", "MappedTool", "RowOutcome", "Rows", "is_rows"]

Rows: TypeAlias = Sequence[Mapping[str, Any]]
"""Argument rows: one mapping of argument names to values per call."""

INVALID = "invalid"
CANCELLED = "cancelled"
NOT_RUN = "not run"


@dataclass(frozen=True)
class RowOutcome:
    """What became of one row: its call's outcome, or why it was never sent or not finished.

    ``status`` is the call's status (``ok``, ``tool error``, ``timeout``...), or ``invalid``
    (refused before sending: ``problems`` says why), ``cancelled`` (in flight when the map was
    stopped; the server was told) or ``not run`` (never started).
    """

    position: int
    status: str
    arguments: JsonObject | None = None
    outcome: CallOutcome | None = None
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def error(self) -> str | None:
        """One line saying why the row failed (``None`` when it succeeded); not masked."""
        if self.outcome is not None:
            return None if self.outcome.error is None else str(self.outcome.error).split("\n", 1)[0]
        if self.problems:
            return "not sent: " + "; ".join(self.problems)
        return None if self.status == "ok" else self.status

    @property
    def seconds(self) -> float | None:
        return None if self.outcome is None else self.outcome.seconds


class MappedTool(Protocol):
    """What a map needs of its tool (a :class:`~anvia_nb.core.api.tool.Tool`)."""

    def check_arguments(self, arguments: Mapping[str, Any] | None) -> list[str]: ...

    async def call_outcome(
        self,
        arguments: object = None,
        *,
        timeout_seconds: Timeout = limits.DEFAULT,
        validate_arguments: bool = True,
        max_time_seconds: Timeout = limits.DEFAULT,
    ) -> CallOutcome: ...


MapListener = Callable[["MapRun"], None]
"""Called on the map's loop after each row finishes (keep it quick: it runs between calls)."""


def is_rows(data: object) -> TypeGuard[Rows]:
    """Whether ``data`` is a plain sequence of argument mappings (not a DataFrame)."""
    if not isinstance(data, Sequence) or isinstance(data, str | bytes):
        return False
    return all(isinstance(row, Mapping) for row in data)


class MapRun:
    """One map: its rows' outcomes by position (``None``: not finished), and its counters."""

    def __init__(
        self, tool: MappedTool, rows: Rows, options: MapOptions | None = None, *, listener: MapListener | None = None
    ) -> None:
        self.tool = tool
        self.options = options or MapOptions()
        self.listener = listener
        self.rows: list[RowOutcome | None] = [None] * len(rows)
        self.started = time.monotonic()
        self.finished_at: float | None = None
        self._cpu_started = time.process_time()
        self._cpu_finished: float | None = None
        self.stopped = False
        self.done = self.failed = self.answered = 0
        self._sendable: list[tuple[int, JsonObject]] = []
        shared = dict(self.options.constants or {})
        for position, row in enumerate(rows):
            self._check(position, {**shared, **row})

    def _check(self, position: int, row: Mapping[str, Any]) -> None:
        """Make the row JSON and validate it; an invalid row is recorded now and never sent."""
        try:
            arguments = json_value(row, f"row {position}")
        except AnviaError as exc:
            self._settle(RowOutcome(position, INVALID, None, problems=(str(exc),)))
            return
        problems = self.tool.check_arguments(arguments)
        if problems:
            self._settle(RowOutcome(position, INVALID, arguments, problems=tuple(problems)))
        else:
            self._sendable.append((position, arguments))

    def _settle(self, row: RowOutcome) -> None:
        """Record what became of a row (once per row) and count it: ``done`` rows, ``failed`` ones
        (anything but ``ok``) and ``answered`` ones (whose call came back, successful or not, as
        opposed to refused or cancelled), so a progress line reads three numbers, not every row."""
        self.rows[row.position] = row
        self.done += 1
        if row.status != "ok":
            self.failed += 1
        if row.outcome is not None:
            self.answered += 1

    # -- counters (read by progress displays, from any thread) ----------------------------------

    @property
    def total(self) -> int:
        return len(self.rows)

    @property
    def invalid(self) -> list[RowOutcome]:
        return [row for row in self.rows if row is not None and row.status == INVALID]

    @property
    def elapsed(self) -> float:
        return (self.finished_at or time.monotonic()) - self.started

    @property
    def client_busy(self) -> float:
        """The share of the map's time this process spent on the CPU (all its threads): near 1, the
        client is the bottleneck, not the tool (:data:`~anvia_nb.display.map_progress.CLIENT_BOUND_SHARE`)."""
        elapsed = self.elapsed
        cpu = (self._cpu_finished or time.process_time()) - self._cpu_started
        return cpu / elapsed if elapsed > 0 else 0.0

    def outcomes(self) -> list[RowOutcome]:
        """Every row's outcome in row order; rows without one (yet) are ``not run``."""
        return [row if row is not None else RowOutcome(i, NOT_RUN) for i, row in enumerate(self.rows)]

    # -- running ----------------------------------------------------------------------------

    async def run(self) -> list[RowOutcome]:
        """Call every valid row (once: the rows to send are consumed); returns :meth:`outcomes`.
        Cancelling this cancels every call in flight."""
        self.started = time.monotonic()
        self._cpu_started = time.process_time()
        queue, self._sendable = self._sendable, []
        queue.reverse()  # popped from the end: row order
        workers: list[asyncio.Task[None]] = []
        try:
            with bounded_by_caller():  # the workers' context: their calls are bounded by their number
                for _ in range(min(self.options.concurrency, len(queue))):
                    workers.append(asyncio.ensure_future(self._work(queue, workers)))
            if workers:
                await asyncio.gather(*workers, return_exceptions=True)
        except asyncio.CancelledError:
            self.stopped = True
            for worker in workers:
                worker.cancel()
            await asyncio.gather(*workers, return_exceptions=True)  # each call tells its server
            raise
        finally:
            self.finished_at = time.monotonic()
            self._cpu_finished = time.process_time()
            self._tell()
        return self.outcomes()

    async def _work(self, queue: list[tuple[int, JsonObject]], workers: list[asyncio.Task[None]]) -> None:
        """One worker: calls the next row until none is left or the map stopped.

        A row keeps what it was sent once, in its outcome (the call's own copy): the map's pair and
        copy of the arguments are let go as the row is taken, so a map holds fewer objects per row
        while its calls are in flight, and the collector runs less often among them."""
        call = self.tool.call_outcome
        options = self.options
        settle = self._settle
        while queue and not self.stopped:
            position, arguments = queue.pop()
            try:
                outcome = await call(
                    arguments,
                    timeout_seconds=options.timeout_seconds,
                    validate_arguments=False,
                    max_time_seconds=options.max_time_seconds,
                )
            except asyncio.CancelledError:
                settle(RowOutcome(position, CANCELLED, arguments))
                raise
            except AnviaError as exc:  # refused before sending (should have been caught by the check)
                settle(RowOutcome(position, INVALID, arguments, problems=(str(exc),)))
            else:
                settle(RowOutcome(position, outcome.status, outcome.arguments, outcome))
                if outcome.error is not None and options.stop_on_error and not self.stopped:
                    self.stopped = True
                    current = asyncio.current_task()
                    for worker in workers:
                        if worker is not current:
                            worker.cancel()
            self._tell()

    def _tell(self) -> None:
        if self.listener is not None:
            try:
                self.listener(self)
            except Exception:  # a progress display must never break the map
                self.listener = None
