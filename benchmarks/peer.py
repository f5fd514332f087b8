"""One peer client beside its own venv's SDK, run inside that venv by ``benchmarks/run.py``.

    .cache/bench-langchain/bin/python benchmarks/peer.py langchain --server-python PY [--url URL] ...

Prints one JSON object: ``{"versions": {...}, "results": {workload: {contender: [seconds...]}}}``,
or ``{"error": "..."}``. With ``--gather ROWS,MS`` (stdio only), instead a map's floor: ``asyncio.gather``
of ROWS calls of the ``sleep`` tool of MS milliseconds, 64 in flight, by the peer and by its venv's
``ClientSession``: ``{"names": ..., "gather": {contender: {"wall": [...], "cpu": [...]}}}``.
Imports nothing of anvia_nb (a peer's venv does not have it): the SDK, the
peer, and :mod:`measure`; but for the peer ``anvia_nb``, run by the project's own venv, so that
anvia_nb is measured in the same kind of process as the peers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import functools
import inspect
import json
import sys
import time
from collections.abc import AsyncIterator, Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from forks import server_command  # type: ignore[import-not-found]
from measure import AsyncContender, Call, interleave  # type: ignore[import-not-found]  # run as a script

LARGEST_MESSAGE = 256 * 1024 * 1024


@contextlib.asynccontextmanager
async def sdk_streams(args: argparse.Namespace) -> AsyncIterator[tuple[Any, Any]]:
    """This venv's SDK transport to the bench server (mcp 1.x and 2.x spell HTTP differently)."""
    if args.url is None:
        from mcp import StdioServerParameters
        from mcp.client.stdio import stdio_client

        server = server_command(args.server_python)
        async with stdio_client(StdioServerParameters(command=server[0], args=server[1:])) as (read, write):
            yield read, write
        return
    from mcp.client import streamable_http

    if "max_sse_event_size" in inspect.signature(streamable_http.streamable_http_client).parameters:
        opened: Any = streamable_http.streamable_http_client(args.url, max_sse_event_size=LARGEST_MESSAGE)
    else:
        opened = streamable_http.streamable_http_client(args.url)
    async with opened as streams:
        yield streams[0], streams[1]


def sdk_session(args: argparse.Namespace) -> Callable[[], contextlib.AbstractAsyncContextManager[Call]]:
    @contextlib.asynccontextmanager
    async def opener() -> AsyncIterator[Call]:
        from mcp import ClientSession

        async with sdk_streams(args) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            yield session.call_tool

    return opener


def langchain(args: argparse.Namespace) -> Callable[[], contextlib.AbstractAsyncContextManager[Call]]:
    """langchain-mcp-adapters as its README shows it: tools loaded from one live session."""

    @contextlib.asynccontextmanager
    async def opener() -> AsyncIterator[Call]:
        from langchain_mcp_adapters.tools import load_mcp_tools  # type: ignore[import-not-found]  # its venv
        from mcp import ClientSession

        async with sdk_streams(args) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = {tool.name: tool for tool in await load_mcp_tools(session)}

            async def call(name: str, arguments: dict[str, Any]) -> Any:
                return await tools[name].ainvoke(arguments)

            yield call

    return opener


def fastmcp(args: argparse.Namespace) -> Callable[[], contextlib.AbstractAsyncContextManager[Call]]:
    @contextlib.asynccontextmanager
    async def opener() -> AsyncIterator[Call]:
        from fastmcp import Client  # type: ignore[import-not-found]  # in its own venv
        from fastmcp.client.transports import StdioTransport  # type: ignore[import-not-found]

        server = server_command(args.server_python)
        target: Any = args.url if args.url is not None else StdioTransport(command=server[0], args=server[1:])
        async with Client(target) as client:
            await client.list_tools()
            yield client.call_tool

    return opener


def anvia(args: argparse.Namespace) -> Callable[[], contextlib.AbstractAsyncContextManager[Call]]:
    """anvia_nb's async API, as a notebook's Python cell uses it (run by the project's venv)."""

    @contextlib.asynccontextmanager
    async def opener() -> AsyncIterator[Call]:
        from anvia_nb import connect_mcp, mcp

        server = server_command(args.server_python)
        connection: Any = (
            mcp.stdio(name="peer", command=server[0], args=server[1:])
            if args.url is None
            else mcp.http(name="peer", url=args.url)
        )
        opened = await connect_mcp(connection)
        try:

            async def call(tool: str, arguments: dict[str, Any]) -> Any:
                return await opened.tool(tool).call(arguments)

            yield call
        finally:
            await opened.close()

    return opener


PEERS = {
    "langchain": ("langchain-mcp-adapters", langchain),
    "fastmcp": ("fastmcp", fastmcp),
    "anvia_nb": ("anvia_nb", anvia),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("peer", choices=sorted(PEERS))
    parser.add_argument("--server-python", required=True)
    parser.add_argument("--url")
    parser.add_argument("--workloads", default="{}", help='JSON: {"name": [tool, arguments, calls]}')
    parser.add_argument("--gather", help="ROWS,MS: a gather of ROWS sleep calls of MS ms, 64 at a time (stdio)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--transports", default="stdio,http", help="of stdio and http (http needs --url)")
    args = parser.parse_args()
    package, make = PEERS[args.peer]
    loop = asyncio.new_event_loop()
    names = {"sdk": f"SDK ClientSession (mcp {version('mcp')})", "peer": f"{package} {version(package)}"}
    results: dict[str, dict[str, list[float]]] = {}
    cpu: dict[str, dict[str, list[float]]] = {}
    try:
        if args.gather:
            rows, ms = args.gather.split(",")
            openers = {names["sdk"]: sdk_session(args), names["peer"]: make(args)}
            found = gathers(loop, openers, int(rows), float(ms), args.rounds)
            print(json.dumps({"names": names, "gather": found}))
            return
        for transport in [t for t in args.transports.split(",") if t == "stdio" or (t == "http" and args.url)]:
            where = copy.copy(args)
            where.url = args.url if transport == "http" else None
            measure_transport(
                transport,
                loop,
                {names["sdk"]: sdk_session(where), names["peer"]: make(where)},
                json.loads(args.workloads),
                args.rounds,
                results,
                cpu,
            )
        print(json.dumps({"names": names, "results": results, "cpu": cpu}))
    except Exception as exc:
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"[:300]}))


def measure_transport(
    transport: str,
    loop: asyncio.AbstractEventLoop,
    openers: dict[str, Any],
    workloads: dict[str, Any],
    rounds: int,
    results: dict[str, dict[str, list[float]]],
    cpu: dict[str, dict[str, list[float]]],
) -> None:
    """Seconds per call in ``results`` and this process's CPU seconds per call in ``cpu`` (the
    client's own work: the server is another process), by workload and contender."""
    opened: dict[str, AsyncContender] = {}
    try:
        for name, opener in openers.items():
            opened[name] = AsyncContender(loop, opener).open()
        for workload, (tool, arguments, calls) in workloads.items():
            for contender in opened.values():
                contender.timed(tool, arguments, 1)  # warm: the first call of each kind is not measured
            key = f"{transport}: {workload}"
            cpu[key] = {name: [] for name in opened}

            measured = interleave(
                {
                    name: functools.partial(_timed_cpu, cpu[key][name], c, tool, arguments, calls)
                    for name, c in opened.items()
                },
                rounds,
            )
            results[key] = {name: found.samples for name, found in measured.items()}
    finally:
        for contender in opened.values():
            contender.close()


def gathers(
    loop: asyncio.AbstractEventLoop, openers: dict[str, Any], rows: int, ms: float, rounds: int
) -> dict[str, dict[str, list[float]]]:
    """Wall and CPU seconds of a gather of ``rows`` sleep calls, 64 at a time, by each contender;
    one unmeasured gather each first, then ``rounds`` rounds in an order that rotates."""
    opened = {name: AsyncContender(loop, opener).open() for name, opener in openers.items()}
    found: dict[str, dict[str, list[float]]] = {name: {"wall": [], "cpu": []} for name in opened}

    async def gather(call: Call) -> None:
        gate = asyncio.Semaphore(64)

        async def one() -> None:
            async with gate:
                await call("sleep", {"ms": ms})

        await asyncio.gather(*(one() for _ in range(rows)))

    def timed(name: str) -> float:
        cpu, wall = time.process_time(), time.perf_counter()
        opened[name].run(gather)
        found[name]["cpu"].append(time.process_time() - cpu)
        found[name]["wall"].append(time.perf_counter() - wall)
        return 0.0

    try:
        for contender in opened.values():
            contender.run(gather)
        interleave({name: functools.partial(timed, name) for name in opened}, rounds)
    finally:
        for contender in opened.values():
            contender.close()
    return found


def _timed_cpu(cpu: list[float], contender: AsyncContender, tool: str, arguments: Any, calls: int) -> float:
    start = time.process_time()
    seconds: float = contender.timed(tool, arguments, calls)
    cpu.append((time.process_time() - start) / calls)
    return seconds


if __name__ == "__main__":
    main()
