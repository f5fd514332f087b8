"""The trace on and off on one connection: what recording every message costs a call.

One anvia_nb connection per transport (the async API, ``server.tool(name).call``), called in short
blocks of calls one after another, in pairs: one block with the trace on and one with it off, the
order swapped every pair (on, off; off, on; ...), so a burst of load from the rest of the machine
falls on both. Measured per block: this process's CPU (the client's own work: the server is another
process), its user and system time apart, and wall time. The ratio is on over off; issue 41's goal
is within 3 % on every row.

On a shared 2-core virtual machine a block's CPU moves by ±20 % with the load (a plain Python loop
does), far more than 3 %: so the row's figure is the median of the pairs' own ratios, with its 95 %
interval (order statistics of the pairs, no model), and pairs are added, up to ten times the least,
until that interval is within ±1.5 % of it. An "on against on" control (both blocks of each pair
with the trace on) shows what the method reads when there is nothing to find.

anvia_nb has no switch that turns a connection's trace off, so "off" replaces
``ProtocolTrace.record`` with a method that does nothing for the block (the transports still hand
it every message): the trace's own work is what is left out, the call path is not.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import statistics
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from benchmarks.contenders import Contender, _anvia_async, _async
from benchmarks.measure import Stats, load_average

if TYPE_CHECKING:
    from benchmarks.run import Table

__all__ = ["paired_ratio", "trace_off", "trace_section"]

MB = 1_000_000
BLOCKS_SPLIT = 10
"""A workload's calls a block are split this many ways: short blocks, many pairs (see the module doc)."""
PAIRS_A_ROUND = 8
"""Pairs of blocks for each of ``--rounds`` at least; up to ten times as many while the interval is wide."""
RESOLVED = 0.015
"""The half-width of the ratio's 95 % interval at which no more pairs are taken."""


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


def _times() -> tuple[float, float, float]:
    """This process's user and system CPU seconds so far, and the clock."""
    try:
        import resource
    except ImportError:  # not on Unix: the CPU is not split, all of it counted as user time
        return time.process_time(), 0.0, time.perf_counter()
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime, used.ru_stime, time.perf_counter()


class _Blocks:
    """Blocks of calls on one connection, the trace on or off; what each block cost and recorded."""

    def __init__(self, contender: Contender, trace: Any) -> None:
        self.contender = contender
        self.trace = trace
        self.cpu: dict[bool, list[float]] = {True: [], False: []}
        self.user: dict[bool, list[float]] = {True: [], False: []}
        self.system: dict[bool, list[float]] = {True: [], False: []}
        self.wall: dict[bool, list[float]] = {True: [], False: []}
        self.recorded: dict[bool, int] = {True: 0, False: 0}

    def block(self, tool: str, arguments: dict[str, Any], calls: int, on: bool, mode: bool | None = None) -> None:
        """``calls`` calls with the trace ``on`` or off, their costs per call kept under ``mode``
        (``on`` unless given: the control keeps its second block as "off" with the trace on)."""
        before = self.trace.recorded
        kept = on if mode is None else mode
        with contextlib.nullcontext() if on else trace_off():
            user, system, clock = _times()
            start = time.process_time()
            self.contender.timed(tool, arguments, calls)
            self.cpu[kept].append((time.process_time() - start) / calls)
            user_after, system_after, clock_after = _times()
        self.user[kept].append((user_after - user) / calls)
        self.system[kept].append((system_after - system) / calls)
        self.wall[kept].append((clock_after - clock) / calls)
        self.recorded[kept] += self.trace.recorded - before

    def pairs(self, tool: str, arguments: dict[str, Any], calls: int, least: int, control: bool = False) -> None:
        """Pairs of blocks, the order swapped every pair, until the CPU ratio is resolved (see
        :data:`RESOLVED`) or ten times ``least`` were taken (``control``: both blocks traced)."""
        while len(self.cpu[False]) < least or (
            len(self.cpu[False]) < 10 * least and paired_ratio(self.cpu[True], self.cpu[False])[2] > RESOLVED
        ):
            first = len(self.cpu[False]) % 2 == 0
            for on in (first, not first):
                self.block(tool, arguments, calls, on or control, on)


def paired_ratio(on: list[float], off: list[float]) -> tuple[float, str, float]:
    """The median of the pairs' on/off ratios, its 95 % interval said, and the interval's larger
    half-width as a share of it (the order statistics of the ratios: no distribution assumed)."""
    ratios = sorted(a / b for a, b in zip(on, off, strict=True) if b > 0)
    if not ratios:
        return math.nan, "no pairs", math.inf
    median, count = statistics.median(ratios), len(ratios)
    reach = 1.96 * math.sqrt(count) / 2
    low, high = ratios[max(0, math.floor(count / 2 - reach))], ratios[min(count - 1, math.ceil(count / 2 + reach))]
    half = max(median - low, high - median) / median if median else math.inf
    return median, f"95 % interval {low:.3f}–{high:.3f} over {count} pairs", half


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
            trace = servers[0].trace
            warm = _Blocks(contender, trace)
            for _ in range(3):  # warm, both ways: caches filled before anything is counted
                warm.block(tool, arguments, 1, True)
                warm.block(tool, arguments, 1, False)
            # The ring full of this workload's own messages, as in a long session (up to 50 blocks' worth).
            warm.block(tool, arguments, min(trace.max_messages // 2, 50 * calls), True)
            short = max(1, calls // BLOCKS_SPLIT)
            blocks, control = _Blocks(contender, trace), _Blocks(contender, trace)
            blocks.pairs(tool, arguments, short, PAIRS_A_ROUND * rounds)
            control.pairs(tool, arguments, short, PAIRS_A_ROUND * rounds, control=True)
            _section_rows(table, f"{transport}: {workload}", short, blocks, control)
    finally:
        contender.close()
        loop.close()


def _section_rows(table: Table, title: str, calls: int, blocks: _Blocks, control: _Blocks) -> None:
    """The rows of one workload: CPU and wall on and off, the pairs' ratio, user and system apart."""
    table.section(
        f"trace on and off, {title} ({calls} calls a block, one connection; ratio on/off; load {load_average()})"
    )
    cpu_on, cpu_off = Stats(blocks.cpu[True]), Stats(blocks.cpu[False])
    recorded = "the trace recorded {} messages in these blocks"
    note = f"this process's CPU per call, median of the blocks; {recorded.format(blocks.recorded[True])}"
    table.stat("anvia_nb, trace on: client CPU", cpu_on, cpu_off, note)
    note = f"ProtocolTrace.record a no-op; {recorded.format(blocks.recorded[False])}"
    table.stat("anvia_nb, trace off: client CPU", cpu_off, cpu_off, note)
    for label, found in (("trace on and off", blocks), ("control, trace on in both blocks", control)):
        ratio, said, half = paired_ratio(found.cpu[True], found.cpu[False])
        note = f"the median of the pairs' own ratios, {said}" + (" (not resolved to ±1.5 %)" * (half > RESOLVED))
        table.row(f"anvia_nb, {label}: client CPU pair by pair", "", f"±{half:.1%}", f"{ratio:.3f}", note)
    for part, kept in (("user", blocks.user), ("system", blocks.system)):
        on, off = sum(kept[True]), sum(kept[False])
        of_sums = f"{on / off:.3f}" if off else ""
        note = "per call, all blocks; the kernel splits user and system time by its ticks, so their sums are read"
        table.row(f"anvia_nb, trace on: {part} CPU", f"{on / len(kept[True]) * 1000:.3g} ms", "", of_sums, note)
        table.row(f"anvia_nb, trace off: {part} CPU", f"{off / len(kept[False]) * 1000:.3g} ms", "", "1.000", "")
    table.stat("anvia_nb, trace on: wall", Stats(blocks.wall[True]), Stats(blocks.wall[False]), "per call")
    table.stat("anvia_nb, trace off: wall", Stats(blocks.wall[False]), Stats(blocks.wall[False]), "per call")
