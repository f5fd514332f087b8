"""anvia_nb beside the raw MCP SDK, in one run: figures and ratios, printed side by side.

    .venv/bin/python benchmarks/bench_vs_sdk.py [--calls 200] [--large-mb 20]

Measures, against the bundled demo server over stdio:
- import cost (`import anvia_nb` and `from anvia_nb import connect_mcp` vs `import mcp`), fresh processes;
- connect + list every tool page;
- sequential echo calls (the adapter's mapping and bookkeeping on top of the SDK);
- one large text result (our linear stdio reader vs the SDK's `stdio_client`).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable

import mcp
from mcp.client.stdio import StdioServerParameters

from anvia_nb import connect_mcp
from anvia_nb import mcp as anvia_mcp

DEMO = ["-m", "anvia_nb.demo_server"]


def import_seconds(statement: str, repeat: int = 5) -> float:
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    runs = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(repeat)
    ]
    return min(runs)


async def best_of(repeat: int, work: Callable[[], Awaitable[None]]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


async def sdk_connect() -> None:
    async with mcp.Client(StdioServerParameters(command=sys.executable, args=DEMO)) as client:
        cursor = None
        while True:
            page = await client.list_tools(cursor=cursor)
            cursor = page.next_cursor
            if cursor is None:
                break


async def anvia_connect() -> None:
    server = await connect_mcp(anvia_mcp.stdio(name="bench", command=sys.executable, args=DEMO))
    await server.close()


async def sdk_calls(calls: int, size: int = 0) -> float:
    async with mcp.Client(StdioServerParameters(command=sys.executable, args=DEMO)) as client:
        await client.list_tools()
        start = time.perf_counter()
        for i in range(calls):
            if size:
                await client.call_tool("large", {"size_chars": size})
            else:
                await client.call_tool("echo", {"message": f"m{i}"})
        return time.perf_counter() - start


async def anvia_calls(calls: int, size: int = 0) -> float:
    server = await connect_mcp(anvia_mcp.stdio(name="bench", command=sys.executable, args=DEMO))
    try:
        start = time.perf_counter()
        for i in range(calls):
            if size:
                await server.tool("large").call({"size_chars": size})
            else:
                await server.tool("echo").call({"message": f"m{i}"})
        return time.perf_counter() - start
    finally:
        await server.close()


def row(label: str, ours: float, theirs: float, unit: str = "s") -> None:
    ratio = ours / theirs if theirs else float("nan")
    print(f"{label:<44} {ours:>10.4f}{unit} {theirs:>10.4f}{unit} {ratio:>8.2f}x")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--large-mb", type=float, default=20)
    args = parser.parse_args()
    print(f"{'measure':<44} {'anvia_nb':>11} {'raw SDK':>11} {'ratio':>9}")
    base = import_seconds("import mcp")
    row("import (anvia_nb vs mcp)", import_seconds("import anvia_nb"), base)
    row("import + first API name vs mcp", import_seconds("from anvia_nb import connect_mcp"), base)
    row("connect + list all tools (median of 5)", await best_of(5, anvia_connect), await best_of(5, sdk_connect))
    ours, theirs = await anvia_calls(args.calls), await sdk_calls(args.calls)
    row(f"{args.calls} echo calls, per call", ours / args.calls, theirs / args.calls)
    size = int(args.large_mb * 1_000_000)
    row(f"one {args.large_mb:g} MB text result over stdio", await anvia_calls(1, size), await sdk_calls(1, size))


if __name__ == "__main__":
    asyncio.run(main())
