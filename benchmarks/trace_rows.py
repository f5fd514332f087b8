"""The trace on and off on one connection: what recording every message costs a call.

One anvia_nb connection per transport (the async API, ``server.tool(name).call``), called in blocks
of calls one after another; the blocks alternate between the trace on and off (on, off; off, on;
...), so a burst of load from the rest of the machine falls on both. Measured per call: this
process's CPU (the client's own work: the server is another process) and wall time. The ratio is
on over off; issue 41's goal is within 3 % on every row.

anvia_nb has no switch that turns a connection's trace off, so "off" replaces
``ProtocolTrace.record`` with a method that does nothing for the block (the transports still hand
it every message): the trace's own work is what is left out, the call path is not.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from benchmarks.contenders import Contender, _anvia_async, _async
from benchmarks.measure import Stats, interleave, load_average

if TYPE_CHECKING:
    from benchmarks.run import Table

__all__ = ["trace_off", "trace_section"]

MB = 1_000_000


@contextlib.contextmanager
def trace_off() -> Iterator[None]:
    """Every connection's trace records nothing inside the block (see the module's doc)."""
    from anvia_nb.core.exchange.trace import ProtocolTrace

    own = vars(ProtocolTrace).get("record")  # None when a base class defines it

    def record_nothing(self: ProtocolTrace, direction: Any, message: Any, wire: Any = None) -> None:
        return None

    ProtocolTrace.record = record_nothing  # type: ignore[method-assign]  # the benchmark's off switch (module doc)
    try:
        yield
    finally:
        if own is None:
            del ProtocolTrace.record  # the base class's again
        else:
            ProtocolTrace.record = own  # type: ignore[method-assign]  # put back as it was


class _Blocks:
    """Blocks of calls on one connection, the trace on or off; what each block cost and recorded."""

    def __init__(self, contender: Contender, trace: Any) -> None:
        self.contender = contender
        self.trace = trace
        self.cpu: dict[bool, list[float]] = {True: [], False: []}
        self.recorded: dict[bool, int] = {True: 0, False: 0}

    def block(self, tool: str, arguments: dict[str, Any], calls: int, on: bool) -> float:
        """Seconds per call over ``calls`` calls with the trace ``on`` or off; CPU per call kept."""
        before = self.trace.recorded
        with contextlib.nullcontext() if on else trace_off():
            start = time.process_time()
            seconds = self.contender.timed(tool, arguments, calls)
            self.cpu[on].append((time.process_time() - start) / calls)
        self.recorded[on] += self.trace.recorded - before
        return seconds


def trace_section(
    transport: str,
    target: str | None,
    workloads: dict[str, tuple[str, dict[str, Any], int]],
    rounds: int,
    table: Table,
) -> None:
    """One section per workload: client CPU and wall per call, the trace on and off, ratio on/off."""
    loop = asyncio.new_event_loop()
    servers: list[Any] = []
    try:
        contender = _async(loop, _anvia_async(target, servers=servers))
    except Exception as exc:  # reported, not fatal, as every contender that cannot open
        table.section(f"trace on and off, {transport}")
        table.row("anvia_nb async API", note=f"could not open: {type(exc).__name__}: {exc}"[:160])
        loop.close()
        return
    try:
        for workload, (tool, arguments, calls) in workloads.items():
            warm = _Blocks(contender, servers[0].trace)
            for _ in range(3):  # warm, both ways: caches filled before anything is counted
                warm.block(tool, arguments, 1, True)
                warm.block(tool, arguments, 1, False)
            blocks = _Blocks(contender, servers[0].trace)
            modes: dict[str, Callable[[], float]] = {
                "on": functools.partial(blocks.block, tool, arguments, calls, True),
                "off": functools.partial(blocks.block, tool, arguments, calls, False),
            }
            wall = interleave(modes, rounds)
            table.section(
                f"trace on and off, {transport}: {workload} ({calls} calls a block, one connection; "
                f"ratio on/off; load {load_average()})"
            )
            cpu_on, cpu_off = Stats(blocks.cpu[True]), Stats(blocks.cpu[False])
            recorded = "the trace recorded {} messages in these blocks"
            note = f"this process's CPU per call; {recorded.format(blocks.recorded[True])}"
            table.stat("anvia_nb, trace on: client CPU", cpu_on, cpu_off, note)
            note = f"ProtocolTrace.record a no-op; {recorded.format(blocks.recorded[False])}"
            table.stat("anvia_nb, trace off: client CPU", cpu_off, cpu_off, note)
            table.stat("anvia_nb, trace on: wall", wall["on"], wall["off"], "per call")
            table.stat("anvia_nb, trace off: wall", wall["off"], wall["off"], "per call")
    finally:
        contender.close()
        loop.close()
