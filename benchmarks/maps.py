"""Issue 41's map: rows over the bench server's ``sleep`` tool at concurrency 64, anvia_nb's maps
beside ``asyncio.gather`` of the SDK's own clients under a semaphore of 64.

Each contender has its own bench server over stdio and maps the same rows once per round, in an
order that rotates every round and reverses every other round (so no contender always follows the
same one), each map from a collected heap (``gc.collect()`` before it, outside its timing: no map
pays a full collection for what the map before it kept). Measured per map: wall time and this
process's CPU (every thread: the magic's calls run on the runtime's loop thread; the servers are
other processes). Ratios are to the gather over ``ClientSession`` that drops each result as it
comes; beside it the same gather keeping its results (what ``asyncio.gather`` returns, and what a
map returns too: its outcomes), and each anvia_nb row's note gives its ratio to that one as well.
The tool's own bound, rows / 64 × its sleep, is what no client can go under; issue 41's goal is
within 1.2 × the gather, at 1k and 10k rows.

A third table gives each contender's server's CPU per map (``benchmarks/server_cpu.py``): on two
cores a map waits on whichever side is busiest, and over this Python server that is the server. What
a request costs the server depends on the protocol: at 2026-07-28 (the default of anvia_nb and of
the SDK ``Client``) every request carries its ``_meta`` (protocol version, client info and
capabilities), which the server reads each time; ``ClientSession``'s handshake speaks 2025-11-25. So
``tool.map`` and ``%mcp map`` are measured twice, at the default and at the gather's own exchange;
and a gather over the SDK ``Client`` declaring what anvia_nb declares sends the server the default
protocol's requests byte for byte as the maps do (``SAME_REQUESTS``), so each map at the default has
a ratio to a gather with none of anvia_nb's code that costs the server the same.

The DataFrame map shows its progress line (``progress=True``, as in a notebook), captured in the
IPython shell the magic runs in; the table says whether the line said the map was bound by the
client. ``%mcp map`` in a shell without a kernel shows none (a kernel's would).

The peers (fastmcp, langchain-mcp-adapters) have no map: their floor is the same gather of their own
``call_tool``, in their own venvs (``peer.py --gather``), beside that venv's ``ClientSession``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from benchmarks.contenders import _sdk_client, _sdk_session
from benchmarks.forks import server_command
from benchmarks.measure import AsyncContender, Call, Stats, load_average
from benchmarks.same_requests import same_requests
from benchmarks.server_cpu import cpu_seconds, not_readable, started_servers

if TYPE_CHECKING:
    from benchmarks.run import Table

__all__ = ["AT_ONCE", "gather_rows", "map_section", "peer_gathers_section"]

AT_ONCE = 64
BASE = "SDK ClientSession, asyncio.gather, 64 at a time"
KEPT = "SDK ClientSession, asyncio.gather keeping its results, 64 at a time"
FRAME = "anvia_nb tool.map on a DataFrame, concurrency 64, progress shown"
SAME_EXCHANGE = "anvia_nb tool.map on rows, concurrency 64, protocol 2025-11-25 (the gather's exchange)"
MAGIC = "anvia_nb %mcp map --concurrency 64, IPython shell"
SAME_REQUESTS = "SDK Client declaring what anvia_nb declares, asyncio.gather keeping its results, 64 at a time"
"""The gather that sends a server what anvia_nb's maps send at the default protocol, byte for byte
(:func:`~benchmarks.contenders.declared_as_anvia_nb`), over the SDK's own stdio: what the maps
would cost with none of anvia_nb's code, the server's work included."""
LEGACY = "2025-11-25"
"""The protocol version ``ClientSession``'s handshake gives: the gather's exchange."""


async def gather_rows(call: Call, rows: int, ms: float, *, keep: bool = False) -> list[object]:
    """``asyncio.gather`` of one ``sleep`` call per row, at most 64 in flight (a semaphore); with
    ``keep`` each call's result is what the gather returns (a map keeps its outcomes too), else it
    is dropped as it comes."""
    gate = asyncio.Semaphore(AT_ONCE)

    async def one() -> object:
        async with gate:
            result = await call("sleep", {"ms": ms})
        return result if keep else None

    return await asyncio.gather(*(one() for _ in range(rows)))


def _gather(opened: AsyncContender, rows: int, ms: float, *, keep: bool = False) -> Callable[[], None]:
    """:func:`gather_rows` on ``opened``, as a map of the table."""
    return lambda: opened.run(lambda call: gather_rows(call, rows, ms, keep=keep))


def _failed(found: Any) -> int:
    """Rows of a map that did not come back ok (a list of outcomes, or a DataFrame of results)."""
    if isinstance(found, list):
        return sum(1 for row in found if not row.ok)
    return int((found["status"] != "ok").sum())


class _Maps:
    """anvia_nb's maps, each on its own connection: the async API's and the magic's."""

    def __init__(self, loop: asyncio.AbstractEventLoop, rows: int, ms: float) -> None:
        import pandas as pd
        from IPython.core.interactiveshell import InteractiveShell

        from anvia_nb import connect_mcp, mcp

        self.loop = loop
        command = server_command()
        with started_servers() as found:
            connection = mcp.stdio(name="bench_map", command=command[0], args=command[1:])
            self.server = loop.run_until_complete(connect_mcp(connection))
        self.server_pids = found.pids
        with started_servers() as found:  # the protocol ClientSession speaks: the gather's exchange
            connection = mcp.stdio(name="bench_map_legacy", command=command[0], args=command[1:], protocol=LEGACY)
            self.legacy = loop.run_until_complete(connect_mcp(connection))
        self.legacy_pids = found.pids
        self.tool = self.server.tool("sleep")
        self.rows = [{"ms": ms}] * rows
        self.frame = pd.DataFrame({"ms": [ms] * rows})
        self.shell = InteractiveShell.instance()
        assert self.shell.extension_manager is not None
        if "anvia_nb" not in self.shell.extension_manager.loaded:
            self.shell.run_line_magic("load_ext", "anvia_nb")
        with contextlib.redirect_stdout(None), started_servers() as found:
            self.shell.run_line_magic("mcp", f"connect bench_map_magic --stdio {' '.join(command)}")
        self.magic_pids = found.pids
        with contextlib.redirect_stdout(None), started_servers() as found:
            line = f"connect bench_map_magic_legacy --protocol {LEGACY} --stdio {' '.join(command)}"
            self.shell.run_line_magic("mcp", line)
        self.magic_legacy_pids = found.pids
        self.shell.user_ns["bench_map_frame"] = self.frame
        self.progress = ""

    def _run(self, work: Awaitable[Any]) -> None:
        failed = _failed(self.loop.run_until_complete(work))
        if failed:
            raise RuntimeError(f"{failed} rows of the map failed")

    def on_rows(self) -> None:
        self._run(self.tool.map(self.rows, concurrency=AT_ONCE))

    def on_rows_legacy(self) -> None:
        self._run(self.legacy.tool("sleep").map(self.rows, concurrency=AT_ONCE))

    def on_frame(self) -> None:
        from IPython.utils.capture import capture_output

        with capture_output(stdout=False, stderr=False) as captured:
            self._run(self.tool.map(self.frame, concurrency=AT_ONCE, progress=True))
        shown = [output.data.get("text/plain", "") for output in captured.outputs]
        self.progress = str(shown[-1]) if shown else "no progress line was shown"

    def magic(self, name: str = "bench_map_magic") -> None:
        line = f"map {name}.sleep --frame bench_map_frame --concurrency {AT_ONCE}"
        failed = _failed(self.shell.run_line_magic("mcp", line))
        if failed:
            raise RuntimeError(f"{failed} rows of %mcp map failed")

    def magic_legacy(self) -> None:
        self.magic("bench_map_magic_legacy")

    def close(self) -> None:
        with contextlib.redirect_stdout(None):
            self.shell.run_line_magic("mcp", "close bench_map_magic")
            self.shell.run_line_magic("mcp", "close bench_map_magic_legacy")
        self.loop.run_until_complete(self.server.close())
        self.loop.run_until_complete(self.legacy.close())


def _order(names: list[str], round_: int) -> list[str]:
    """The contenders' order in a round: rotated by one each round and reversed every other round,
    so that each follows a different contender from round to round (a rotation alone keeps every
    neighbour: the DataFrame map would always follow the rows map)."""
    shift = round_ % len(names)
    turned = names[shift:] + names[:shift]
    return turned[::-1] if round_ % 2 else turned


def _measure(
    works: dict[str, tuple[Callable[[], None], frozenset[int]]], rounds: int
) -> dict[str, tuple[Stats, Stats, Stats]]:
    """Wall, CPU and its server's CPU seconds of each work (given with the processes of the server
    it calls), once a round (order: :func:`_order`), each from a collected heap: ``gc.collect()`` runs
    before every map, outside its timing, so no map inherits the collector's count of what the map
    before it kept (CPython runs a full collection once the objects that reached the oldest
    generation since the last one pass a quarter of it), and every map still pays every collection
    its own work causes."""
    for work, _ in works.values():
        gc.collect()
        work()  # warm: the first map of each kind is not counted
    names = list(works)
    wall: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    served: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(rounds):
        for name in _order(names, round_):
            work, server = works[name]
            gc.collect()
            server_start = cpu_seconds(server)
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            work()
            wall[name].append(time.perf_counter() - wall_start)
            cpu[name].append(time.process_time() - cpu_start)
            served[name].append(cpu_seconds(server) - server_start)
    return {name: (Stats(wall[name]), Stats(cpu[name]), Stats(served[name])) for name in names}


def _beside_kept(name: str, found: dict[str, tuple[Stats, Stats, Stats]], measure: int) -> str:
    """An anvia_nb map's ratio to the gather that keeps its results, which the map is like for like
    in what it keeps, and at the default protocol to :data:`SAME_REQUESTS` too, which sends the
    server what the map sends (``measure``: 0 for wall, 1 for client CPU)."""
    if not name.startswith("anvia_nb"):
        return ""
    measured, kept, same = (found[who][measure].median for who in (name, KEPT, SAME_REQUESTS))
    note = f"; {measured / kept:.2f} × the gather keeping its results"
    if LEGACY not in name:
        note += f", {measured / same:.2f} × the one sending the same requests"
    return note


def map_section(rows: int, ms: float, rounds: int, table: Table) -> None:
    """Two sections, wall and client CPU, of every contender's map of ``rows`` rows of ``ms``."""
    bound = rows / AT_ONCE * ms / 1000
    title = f"map at concurrency 64: {rows} rows over a {ms:g} ms tool (stdio; the tool's own bound {bound:.3g} s)"
    loop = asyncio.new_event_loop()
    opened: list[AsyncContender] = []
    maps: _Maps | None = None
    try:
        pids: list[frozenset[int]] = []
        for opener in (_sdk_session(None), _sdk_client(None), _sdk_client(None, declaring=True)):
            with started_servers() as started:
                opened.append(AsyncContender(loop, opener).open())
            pids.append(started.pids)
        maps = _Maps(loop, rows, ms)
        checked = same_requests(loop)
        works = {  # each map, and the processes of the server it calls
            BASE: (_gather(opened[0], rows, ms), pids[0]),
            KEPT: (_gather(opened[0], rows, ms, keep=True), pids[0]),
            "SDK Client, asyncio.gather, 64 at a time": (_gather(opened[1], rows, ms), pids[1]),
            SAME_REQUESTS: (_gather(opened[2], rows, ms, keep=True), pids[2]),
            "anvia_nb tool.map on rows, concurrency 64": (maps.on_rows, maps.server_pids),
            SAME_EXCHANGE: (maps.on_rows_legacy, maps.legacy_pids),
            FRAME: (maps.on_frame, maps.server_pids),
            MAGIC: (maps.magic, maps.magic_pids),
            f"{MAGIC}, protocol {LEGACY} (the gather's exchange)": (maps.magic_legacy, maps.magic_legacy_pids),
        }
        found = _measure(works, rounds)
    except Exception as exc:  # a map that cannot run is a row that says why, not a lost table
        table.section(title)
        table.row("map at concurrency 64", note=f"failed: {type(exc).__name__}: {exc}"[:200])
        return
    finally:
        if maps is not None:
            maps.close()
        for contender in opened:
            contender.close()
        loop.close()
    from anvia_nb.display.map_progress import CLIENT_BOUND_SHARE

    fair = "each map from a collected heap, the order rotated and reversed by round"
    table.section(f"{title}, wall per map (ratio to the gather over ClientSession; {fair}; load {load_average()})")
    for name, (wall, _cpu, _served) in found.items():
        note = f"{wall.median / bound:.2f} × the tool's bound" + _beside_kept(name, found, 0)
        if name == SAME_REQUESTS:
            note += f"; {checked}"
        if name == FRAME:
            said = "said" if "bound by this client" in maps.progress else "did not say"
            note += f"; its progress line {said} it was bound by the client: {maps.progress!r}"
        table.stat(name, wall, found[BASE][0], note, unit="s")
    table.section(f"{title}, client CPU per map (this process, every thread; ratio to the gather over ClientSession)")
    for name, (wall, cpu, _served) in found.items():
        share = cpu.median / wall.median
        bound_by = "; bound by the client" if share >= CLIENT_BOUND_SHARE else ""
        note = f"on the CPU {share:.0%} of its wall{bound_by}" + _beside_kept(name, found, 1)
        table.stat(name, cpu, found[BASE][1], note, unit="s")
    _server_section(title, found, table)
    peer_gathers_section(rows, ms, rounds, title, table)


def _server_section(title: str, found: dict[str, tuple[Stats, Stats, Stats]], table: Table) -> None:
    """Each contender's server's CPU per map: over two cores, a map waits on whichever side is busiest."""
    table.section(f"{title}, its server's CPU per map (the bench server serving each; ratio to the gather's server)")
    why_not = not_readable()
    if why_not is not None:
        table.row("the bench servers' CPU", note=f"not measured: {why_not}")
        return
    for name, (wall, _cpu, served) in found.items():
        table.stat(name, served, found[BASE][2], f"on the CPU {served.median / wall.median:.0%} of the map's wall", "s")


def peer_gathers_section(rows: int, ms: float, rounds: int, title: str, table: Table) -> None:
    """Each peer's gather beside its own venv's ``ClientSession`` gather, wall and CPU."""
    from benchmarks.run import run_peer

    table.section(f"{title}, the peers in their own venvs (ratio to that venv's own ClientSession gather)")
    for peer in ("fastmcp", "langchain"):
        found = run_peer(peer, ["--gather", f"{rows},{ms}", "--rounds", str(rounds)], table, timeout=3600)
        if found is None:
            continue
        sdk, mine = (found["gather"][found["names"][who]] for who in ("sdk", "peer"))
        for who, measured in ((found["names"]["sdk"], sdk), (found["names"]["peer"], mine)):
            wall, cpu = Stats(measured["wall"]), Stats(measured["cpu"])
            note = f"client CPU {cpu.median:.3g} s, {cpu.median / Stats(sdk['cpu']).median:.2f} × its ClientSession's"
            table.stat(f"{who}, asyncio.gather, 64 at a time: wall", wall, Stats(sdk["wall"]), note, unit="s")
