"""``python -m benchmarks.audit [--quick]``: what auditing a server costs beside listing it.

Two sections. A server of 5,000 ordinary tools (``benchmarks/audit_server.py``, over stdio): the
time ``client.list_tools()`` takes to list every tool again on a warm connection, beside the time
``audit_definitions`` takes over the same tools (their definitions built and every check run).
Then one tool whose description is 1 MB of hostile text, one row per kind of text (each aimed at
some check's patterns): listing it, and auditing it at a quarter of the size and at the full size,
whose ratio shows the time is linear (4 for linear, 16 for quadratic). Medians of the rounds, wall
time, the same process; ``--quick`` uses 200 tools and 40 kB for the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.audit.checks import audit_definitions
from anvia_nb.core.audit.definitions import definitions_of
from benchmarks.audit_server import HOSTILE

__all__ = ["main"]


def _median(rounds: int, work: Callable[[], object]) -> float:
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


async def _amedian(rounds: int, work: Callable[[], Awaitable[object]]) -> float:
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        await work()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


async def _listed(arguments: list[str], rounds: int) -> tuple[float, float, int]:
    """(listing seconds, audit seconds, tools) for the audit server started with ``arguments``."""
    connection = mcp.stdio(name="audited", command=sys.executable, args=["-m", "benchmarks.audit_server", *arguments])
    server = await connect_mcp(connection, timeout_seconds=600)
    try:
        listing = await _amedian(rounds, server.client.list_tools)
        infos = await server.client.list_tools()
        audit = _median(rounds, lambda: audit_definitions(definitions_of("audited", tools=infos)))
        return listing, audit, len(infos)
    finally:
        await server.close()


def _audit_of(kind: str, size: int, rounds: int) -> float:
    from anvia_nb.core.protocol.types import ToolInfo
    from benchmarks.audit_server import hostile_text

    tool = ToolInfo(server="audited", name="hostile", description=hostile_text(kind, size))
    return _median(rounds, lambda: audit_definitions(definitions_of("audited", tools=[tool])))


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3g} ms"


async def _run(tools: int, size: int, rounds: int) -> None:
    print(f"## Auditing a server of {tools:,} tools, beside listing it\n")
    print("| what | median | × the listing |\n|---|---:|---:|")
    listing, audit, count = await _listed(["--tools", str(tools)], rounds)
    print(f"| list {count:,} tools again (tools/list, every page) | {_ms(listing)} | 1.00 |")
    print(f"| audit {count:,} tools (audit_definitions) | {_ms(audit)} | {audit / listing:.2f} |\n")
    print(f"## One description of {size:,} characters of hostile text\n")
    print("| text | listing | audit of a quarter | audit | × the listing | full / quarter |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in HOSTILE:
        listing, audit, _ = await _listed(["--hostile", kind, "--size", str(size)], rounds)
        quarter = _audit_of(kind, size // 4, rounds)
        times = f"{_ms(listing)} | {_ms(quarter)} | {_ms(audit)}"
        print(f"| {kind} | {times} | {audit / listing:.2f} | {audit / quarter:.2f} |")


def main(argv: list[str] | None = None) -> None:
    """Print both sections (``--quick``: 200 tools, 40 kB, one round)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="200 tools, 40 kB and one round: rows, not figures")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    tools, size, rounds = (200, 40_000, 1) if args.quick else (5_000, 1_000_000, args.rounds)
    asyncio.run(_run(tools, size, rounds))


if __name__ == "__main__":
    main()
