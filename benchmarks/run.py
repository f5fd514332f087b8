"""anvia_nb beside the MCP SDK and its peers, measured in one interleaved run; prints one table.

    python -m benchmarks            # the full run (several minutes)
    python -m benchmarks --quick    # every row, tiny sizes and one or two rounds (CI runs this);
                                    # its stdio servers are forked from one (forks.py)
    python -m benchmarks --parts trace,map,form --map-rows 10000   # issue 41's rows, the map at 10k

Every contender keeps one warm session (its own server over stdio; one shared server over HTTP),
is warmed up before it is measured, and is measured in rounds whose order rotates; the table
shows each median with its spread (half the interquartile range) and its ratio to the SDK's
``ClientSession`` measured in the same rounds. The peers that pin another SDK
(langchain-mcp-adapters needs mcp<2) run in their own venvs (``benchmarks/setup``) against the
same server, each with its ratio to that venv's own ``ClientSession``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import functools
import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from benchmarks import forms, sections
from benchmarks.contenders import SERVER, Contender, main_contenders
from benchmarks.first_form import first_form_section
from benchmarks.forks import bench_forks
from benchmarks.maps import map_section
from benchmarks.measure import Stats, interleave
from benchmarks.trace_rows import trace_section

REPO = Path(__file__).resolve().parents[1]
PEERS = ("langchain", "fastmcp", "anvia_nb")
"""anvia_nb runs in the peers' harness too, from this venv: each client alone in a fresh process beside
its venv's ClientSession, so that anvia_nb and the peers are measured in like processes."""
BASE = "SDK ClientSession"
TRIVIAL = "trivial call"
MB = 1_000_000


@dataclass(frozen=True)
class Plan:
    rounds: int
    trivial_calls: int
    payloads: tuple[int, ...]
    first_rounds: int
    map_rows: int
    map_ms: float
    trace_payloads: tuple[int, ...]  # the trace's large results (--payloads sets them too)
    trace_large_calls: int  # calls a block of the trace's large results up to 1 MB (3 above)
    map64_rows: int = 1000  # the map at concurrency 64 (--map-rows), over the map's tool of map_ms
    warm_caches: bool = True  # one unmeasured fresh process first, writing the bytecode caches


FULL = Plan(5, 200, (20 * MB, 50 * MB), 3, map_rows=64, map_ms=50, trace_payloads=(200_000,), trace_large_calls=40)
QUICK = Plan(2, 5, (200_000,), 1, 8, 10, (200_000,), trace_large_calls=2, map64_rows=64, warm_caches=False)


def cache_dir() -> Path:
    return Path(os.environ.get("ANVIA_NB_CACHE") or REPO / ".cache")


def peer_missing(peer: str) -> str | None:
    """Why a peer cannot run here, or ``None`` when ``benchmarks/setup`` built its venv."""
    if peer == "anvia_nb" or (cache_dir() / f"bench-{peer}" / "anvia-ready").exists():
        return None
    return f"its venv {cache_dir() / f'bench-{peer}'} is not built: run benchmarks/setup (scripts/setup-test does)"


def workloads(plan: Plan) -> dict[str, tuple[str, dict[str, Any], int]]:
    found: dict[str, tuple[str, dict[str, Any], int]] = {TRIVIAL: ("echo", {"message": "hi"}, plan.trivial_calls)}
    for size in plan.payloads:
        found[f"{size / MB:g} MB text result"] = ("payload", {"size_chars": size}, 1)
    return found


def trace_workloads(plan: Plan) -> dict[str, tuple[str, dict[str, Any], int]]:
    """The trivial call and the trace's large results, with the calls in a block of each."""
    found: dict[str, tuple[str, dict[str, Any], int]] = {TRIVIAL: ("echo", {"message": "hi"}, plan.trivial_calls)}
    for size in plan.trace_payloads:
        calls = plan.trace_large_calls if size <= MB else 3
        found[f"{size / MB:g} MB text result"] = ("payload", {"size_chars": size}, calls)
    return found


class Table:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.shown = 0

    def show_new_rows(self) -> None:
        """Write the rows measured since the last call to stderr: a long run stopped early keeps them."""
        print("\n".join(self.lines[self.shown :]), file=sys.stderr, flush=True)
        self.shown = len(self.lines)

    def section(self, title: str) -> None:
        self.lines += [
            "",
            f"## {title}",
            "",
            "| contender | median | spread | ratio | note |",
            "|---|---:|---:|---:|---|",
        ]

    def row(self, contender: str, median: str = "", spread: str = "", ratio: str = "", note: str = "") -> None:
        self.lines.append(f"| {contender} | {median} | {spread} | {ratio} | {note} |")

    def stat(self, contender: str, found: Stats, base: Stats | None, note: str = "", unit: str = "ms") -> None:
        scale = 1000 if unit == "ms" else 1
        ratio = f"{found.median / base.median:.2f}" if base is not None and base.median else ""
        self.row(contender, f"{found.median * scale:.3g} {unit}", f"±{found.spread:.0%}", ratio, note)


def run_peer(peer: str, arguments: list[str], table: Table, timeout: float) -> dict[str, Any] | None:
    """``benchmarks/peer.py PEER ARGUMENTS`` in the peer's own venv (anvia_nb: this one), its bench
    server run by this Python; what its last line says, as JSON. ``None``, with the row saying why,
    when the peer's venv is missing or the run failed."""
    missing = peer_missing(peer)
    if missing is not None:
        table.row(peer, note=f"skipped: {missing}")
        return None
    python = sys.executable if peer == "anvia_nb" else cache_dir() / f"bench-{peer}" / "bin" / "python"
    command = [str(python), str(REPO / "benchmarks" / "peer.py"), peer, "--server-python", sys.executable, *arguments]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    lines = done.stdout.strip().splitlines()
    found: dict[str, Any] = json.loads(lines[-1]) if lines else {"error": done.stderr.strip()[-300:]}
    if "error" in found:
        table.row(peer, note=f"failed: {found['error']}")
        return None
    return found


def peers_section(plan: Plan, url: str | None, table: Table, transports: tuple[str, ...] = ("stdio", "http")) -> None:
    """Each peer in its own venv, over stdio and (with ``url``) HTTP, in one process per peer; for
    a large result, its own CPU per call as a multiple of the SDK's parse of the same bytes."""
    table.section("peers in their own venvs (ratio to that venv's own SDK ClientSession)")
    parses = {
        f"{transport}: {size / MB:g} MB text result": sections.sdk_parse(size, plan.rounds, transport)
        for size in plan.payloads
        for transport in transports
    }
    for peer in PEERS:
        arguments = ["--workloads", json.dumps(workloads(plan)), "--rounds", str(plan.rounds)]
        arguments += ["--transports", ",".join(transports), *(["--url", url] if url is not None else [])]
        found = run_peer(peer, arguments, table, timeout=1800)
        if found is None:
            continue
        names = found["names"]
        for key, by_name in found["results"].items():
            base = Stats(by_name[names["sdk"]])
            parse = parses.get(key)
            cpu = found.get("cpu", {}).get(key, {})
            note = f"{names['sdk']}: {base.median * 1000:.3g} ms"
            if parse is not None and cpu:
                note += (
                    "; own CPU "
                    + ", ".join(f"{who}: {Stats(cpu[names[who]]).median / parse.median:.2f}" for who in ("peer", "sdk"))
                    + " × the SDK's parse"
                )
            elif cpu:  # the trivial call: its own CPU beside its SDK's ClientSession's, in the same rounds
                mine, sdk_cpu = Stats(cpu[names["peer"]]).median, Stats(cpu[names["sdk"]]).median
                note += f"; own CPU {mine * 1e6:.0f} µs a call, {mine / sdk_cpu:.2f} × its SDK's {sdk_cpu * 1e6:.0f} µs"
            table.stat(f"{names['peer']} — {key}", Stats(by_name[names["peer"]]), base, note)


def _taking(contenders: dict[str, Contender], workload: str) -> dict[str, Contender]:
    """The contenders measured on ``workload`` (some only on the trivial call)."""
    return {name: c for name, c in contenders.items() if workload == TRIVIAL or not c.trivial_only}


def _warm(contenders: dict[str, Contender], plan: Plan) -> None:
    for workload, (tool, arguments, _calls) in workloads(plan).items():
        for contender in _taking(contenders, workload).values():
            contender.timed(tool, arguments, 1)


def transport_section(
    transport: str, url: str | None, plan: Plan, table: Table, loop: asyncio.AbstractEventLoop
) -> None:
    opened = main_contenders(loop, url)
    contenders = {name: c for name, c in opened.items() if isinstance(c, Contender)}
    _warm(contenders, plan)
    parses = {
        f"{size / MB:g} MB text result": sections.sdk_parse(size, plan.rounds, transport) for size in plan.payloads
    }
    for workload, (tool, arguments, calls) in workloads(plan).items():
        table.section(f"{transport}: {workload}")
        taking = _taking(contenders, workload)
        cpu: dict[str, list[float]] = {name: [] for name in taking}

        measured = interleave(
            {name: functools.partial(_timed_cpu, c, tool, arguments, calls, cpu[name]) for name, c in taking.items()},
            plan.rounds,
        )
        base = measured.get(BASE)
        parse = parses.get(workload)
        if parse is not None:
            table.stat("SDK parse of the same bytes, in memory", parse, base, "the floor for any client")
        for name, found in opened.items():
            if isinstance(found, str):
                table.row(name, note=found)
                continue
            if name not in taking:
                continue
            vs_parse = f"{measured[name].median / parse.median:.2f} × the parse" if parse is not None else ""
            table.stat(name, measured[name], base, vs_parse)
        if parse is not None:
            table.section(f"{transport}: {workload}, the client's own CPU per call (ratio to the SDK's parse)")
            table.stat("SDK parse of the same bytes, in memory", parse, parse, "the floor for any client")
            for name in taking:
                table.stat(name, Stats(cpu[name]), parse, "this process's CPU; the server's is not counted")
        elif BASE in cpu:  # the trivial call: what a shared machine's load moves least
            table.section(f"{transport}: {workload}, the client's own CPU per call")
            for name in taking:
                table.stat(name, Stats(cpu[name]), Stats(cpu[BASE]), "this process's CPU; the server's is not counted")
    _memory_section(transport, {name: c for name, c in contenders.items() if not c.trivial_only}, plan, table)
    for contender in contenders.values():
        contender.close()


def _timed_cpu(contender: Contender, tool: str, arguments: dict[str, Any], calls: int, cpu: list[float]) -> float:
    """Seconds per call, keeping this process's CPU seconds per call in ``cpu`` (the client's own
    work: a stdio server is another process; so is the HTTP server)."""
    start = time.process_time()
    seconds = contender.timed(tool, arguments, calls)
    cpu.append((time.process_time() - start) / calls)
    return seconds


def _memory_section(transport: str, contenders: dict[str, Contender], plan: Plan, table: Table) -> None:
    size = min(plan.payloads[0], 20 * MB)
    table.section(f"{transport}: memory kept per dropped {size / MB:g} MB result (tracemalloc, after gc)")
    for name, mib in sections.kept_per_result(contenders, size).items():
        table.row(name, f"{mib:.2f} MiB")
    table.section(
        f"{transport}: peak memory during one {size / MB:g} MB result (tracemalloc; ratio to the "
        "result's own size in memory)"
    )
    floor = {"SDK parse of the held bytes (the floor)": sections.sdk_parse_peak(size, transport)}
    for name, (mib, ratio, wire) in (floor | sections.peak_per_result(contenders, size, transport)).items():
        table.row(name, f"{mib:.0f} MiB", "", f"{ratio:.2f}", f"{wire:.2f} × its bytes on the wire")


def _http_server() -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([sys.executable, SERVER, "--http"], stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        if "listening on " in line:
            return process, line.split("listening on ", 1)[1].strip()
    process.kill()
    raise RuntimeError("the HTTP bench server did not start")


def first_section(plan: Plan, table: Table) -> None:
    found = sections.first_calls(plan.first_rounds)
    labels = {"sdk": "SDK Client", "anvia": "anvia_nb connect_mcp", "magic": "anvia_nb %mcp connect"}
    for part in ("connect", "first_call"):
        what = (
            "first connect (import, start the server, handshake, list tools)"
            if part == "connect"
            else ("first call after connecting")
        )
        table.section(f"stdio, fresh process: {what}")
        for who, label in labels.items():
            loaded = ", ".join(found[who]["loaded"]) or "none"
            note = f"peak RSS {found[who]['peak_mib']:.0f} MiB; loaded: {loaded}" if part == "connect" else ""
            table.stat(label, found[who][part], found["sdk"][part], note)


def other_sections(plan: Plan, table: Table) -> None:
    table.section("the tools DataFrame of the demo server (21 tools)")
    frames = sections.dataframe_rows(plan.rounds, 20 if plan is QUICK else 200)
    base = frames["plain pandas DataFrame"]
    for name, found in frames.items():
        table.stat(name, found, base, "ratio to the plain DataFrame")
    table.section(f"map: {plan.map_rows} rows over a {plan.map_ms:g} ms tool (stdio)")
    mapped = sections.map_rows(plan.map_rows, plan.map_ms, plan.rounds)
    if isinstance(mapped, str):
        table.row("tool.map", note=f"skipped: {mapped}")
    else:
        for name, found in mapped.items():
            wide = name.endswith(" 64") or "64 at a time" in name
            base = mapped[f"async API, asyncio.gather, {64 if wide else 8} at a time"]
            table.stat(name, found, base, f"ratio to gather at {64 if wide else 8}", unit="s")
    table.section("the arguments form of a 300-property tool (in a process that showed a form before)")
    for name, (found, note) in forms.form_rows(plan.rounds).items():
        table.stat(name, found, None, note, unit="s")


def machine() -> str:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"{when}; {platform.platform()}; Python {platform.python_version()}; {os.cpu_count()} cores; "
        f"load average {load} (other work was running)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="anvia_nb beside the MCP SDK and its peers.")
    parser.add_argument("--quick", action="store_true", help="every row, tiny sizes, few rounds (for CI)")
    parser.add_argument("--transports", default="stdio,http")
    parser.add_argument(
        "--rounds",
        type=int,
        help="rounds per measurement, fresh processes included (default: 5, the fresh processes 3; quick: 2 and 1)",
    )
    parser.add_argument(
        "--payloads",
        help="sizes of the large results in bytes, comma-separated (default: 20 MB and 50 MB, quick: 0.2 MB)",
    )
    parser.add_argument(
        "--parts",
        default="first,warm,peers,other,trace,map,form",
        help="which parts to run (first connect, warm calls, peers, DataFrame and maps at 1, 8 and 64; "
        "issue 41's: the trace on and off, the map at 64 beside the SDK's gathers, the first big form)",
    )
    parser.add_argument("--map-rows", type=int, help="rows of the map at concurrency 64 (default 1000, quick 64)")
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    if args.rounds:
        plan = dataclasses.replace(plan, rounds=args.rounds, first_rounds=args.rounds)
    if args.payloads:
        sizes = tuple(int(size) for size in args.payloads.split(","))
        plan = dataclasses.replace(plan, payloads=sizes, trace_payloads=sizes)
    if args.map_rows:
        plan = dataclasses.replace(plan, map64_rows=args.map_rows)
    parts = set(args.parts.split(","))
    with bench_forks() if args.quick else contextlib.nullcontext():
        _run(plan, parts, args.transports.split(","))


def _run(plan: Plan, parts: set[str], transports: list[str]) -> None:
    table = Table()
    loop = asyncio.new_event_loop()
    server = _http_server() if "http" in transports and parts & {"warm", "peers", "trace"} else None
    url = None if server is None else server[1]
    try:
        if "first" in parts:
            _step("first connect and first call, fresh processes")
            first_section(plan, table)
        for transport in transports if "warm" in parts else ():
            _step(f"{transport}: warm calls", table)
            transport_section(transport, None if transport == "stdio" else url, plan, table, loop)
        if "peers" in parts:
            _step("peers", table)
            peers_section(plan, url, table, tuple(transports))
        for transport in transports if "trace" in parts else ():
            _step(f"{transport}: the trace on and off", table)
            trace_section(transport, None if transport == "stdio" else url, trace_workloads(plan), plan.rounds, table)
    finally:
        if server is not None:
            server[0].terminate()
            server[0].wait(timeout=30)
    if "other" in parts:
        _step("the tools DataFrame and the map", table)
        other_sections(plan, table)
    if "map" in parts:
        _step("the map at concurrency 64", table)
        map_section(plan.map64_rows, plan.map_ms, plan.rounds, table)
    if "form" in parts:
        _step("the first big form, fresh processes", table)
        first_form_section(plan.first_rounds, table, plan.warm_caches)
    print(f"Machine: {machine()}")
    print("\n".join(table.lines))


def _step(what: str, table: Table | None = None) -> None:
    if table is not None:
        table.show_new_rows()
    print(f"[{datetime.now().strftime('%H:%M:%S')}] {what}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
