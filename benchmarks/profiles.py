"""Where a trivial call's and a map row's time goes, package by package: a cProfile of the SDK's
clients beside anvia_nb's, the profile issue 41 is checked with.

    python -m benchmarks.profiles                  # 500 trivial calls and a 1,000-row map at 64, each path
    python -m benchmarks.profiles --calls 200 --map-rows 640 --top 15
    python -m benchmarks.profiles --check          # tiny sizes, servers forked (the tests run it)

Each path runs in a process of its own over its own bench server (stdio, protocol 2025-11-25, the
exchange ``ClientSession``'s handshake gives, as in ``benchmarks.instructions``): warm calls first
(20 calls, or a map of 64 rows), then cProfile around the counted ones only. The first table gives
each path's own time per call (or per row) split by the package its functions live in; the second,
anvia_nb's own functions that take the most of it, per path.

The profile's clock is this thread's CPU time (``time.thread_time``), so a wait for the server
costs nothing. cProfile charges every Python call it sees, so its shares lean towards code that
makes many small calls, and its times are not the calls' times; a coroutine counts as called
each time it resumes. The goal's figures are the instruction counts
(``benchmarks.instructions``) and the interleaved runs (``python -m benchmarks``); this says where to
look. C functions are "C built-ins", except pydantic-core's, which count as pydantic's; only the
thread that runs the calls' loop is profiled, which for these paths is every thread that works.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import pstats
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from benchmarks.contenders import _sdk_client as _sdk_client_calls
from benchmarks.forks import bench_forks, server_command
from benchmarks.instructions import PROTOCOL, WARM_CALLS, _async_api, _sdk_client, _sdk_session
from benchmarks.maps import AT_ONCE, gather_rows

__all__ = ["PACKAGES", "PATHS", "main", "package_of"]

PACKAGES = ("anvia_nb", "mcp", "anyio", "asyncio", "pydantic", "C built-ins", "the rest")
"""The columns of the first table, in order (``mcp``: the SDK, with ``mcp_types``)."""
_WHERE: tuple[tuple[str, str], ...] = (
    ("/anvia_nb/", "anvia_nb"),
    ("/mcp/", "mcp"),
    ("/mcp_types/", "mcp"),
    ("/anyio/", "anyio"),
    ("/asyncio/", "asyncio"),
    ("/pydantic", "pydantic"),
)
"""The first part of a file's path that names its package (the rest: "the rest")."""

Work = Callable[[], Awaitable[Any]]
Prepare = Callable[[contextlib.AsyncExitStack, int, float], Awaitable[tuple[Work, Work]]]
"""A path: given a stack, the calls or rows counted and the map tool's milliseconds, its warm-up
and its counted work."""


def package_of(filename: str, function: str) -> str:
    """The package a profiled function belongs to, from its file (``~`` for a C function, whose
    name then says where it comes from)."""
    if filename == "~":
        return "pydantic" if "pydantic_core" in function else "C built-ins"
    unix = filename.replace("\\", "/")
    return next((package for part, package in _WHERE if part in unix), "the rest")


def _calls(opener: Callable[[contextlib.AsyncExitStack], Awaitable[Callable[[], Any]]]) -> Prepare:
    """A path of trivial calls one after another, through an opener of ``benchmarks.instructions``."""

    async def prepare(stack: contextlib.AsyncExitStack, size: int, ms: float) -> tuple[Work, Work]:
        call = await opener(stack)

        async def times(count: int) -> None:
            for _ in range(count):
                await call()

        return (lambda: times(WARM_CALLS)), (lambda: times(size))

    return prepare


async def _sdk_gather(stack: contextlib.AsyncExitStack, size: int, ms: float) -> tuple[Work, Work]:
    """The map benchmark's gather over the SDK ``Client``, 64 calls of ``sleep`` in flight, results kept."""
    call = await stack.enter_async_context(_sdk_client_calls(None, mode="legacy")())
    return (lambda: gather_rows(call, AT_ONCE, ms, keep=True)), (lambda: gather_rows(call, size, ms, keep=True))


async def _anvia_map(stack: contextlib.AsyncExitStack, size: int, ms: float) -> tuple[Work, Work]:
    """anvia_nb's ``tool.map`` over the ``sleep`` tool at concurrency 64."""
    from anvia_nb import connect_mcp, mcp

    command = server_command()
    server = await connect_mcp(mcp.stdio(name="profile", command=command[0], args=command[1:], protocol=PROTOCOL))
    stack.push_async_callback(server.close)
    tool = server.tool("sleep")

    async def mapped(rows: int) -> None:
        failed = [row for row in await tool.map([{"ms": ms}] * rows, concurrency=AT_ONCE) if not row.ok]
        if failed:  # a profile of failing rows would not be a map's
            raise RuntimeError(f"{len(failed)} of {rows} rows failed, the first: {failed[0]!r}"[:500])

    return (lambda: mapped(AT_ONCE)), (lambda: mapped(size))


PATHS: dict[str, tuple[str, Prepare]] = {
    "SDK ClientSession: a trivial call": ("call", _calls(_sdk_session)),
    "SDK Client: a trivial call": ("call", _calls(_sdk_client("legacy"))),
    "anvia_nb tool.call: a trivial call": ("call", _calls(_async_api(PROTOCOL))),
    "SDK Client's asyncio.gather at 64: a row": ("row", _sdk_gather),
    "anvia_nb tool.map at 64: a row": ("row", _anvia_map),
}
"""Each path: what its unit is (a call or a row) and how it is prepared."""


def _profile(path: str, size: int, ms: float) -> dict[str, Any]:
    """Runs one path in this process and returns its profile, summed by package, as plain JSON."""
    profiler = cProfile.Profile(time.thread_time)  # CPU, not wall: time blocked in epoll is no one's work

    async def run() -> None:
        async with contextlib.AsyncExitStack() as stack:
            warm, counted = await PATHS[path][1](stack, size, ms)
            await warm()
            profiler.enable()
            await counted()
            profiler.disable()

    asyncio.run(run())
    stats: dict[tuple[str, int, str], tuple[int, int, float, float, Any]] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]  # pstats keeps its table untyped
    packages = dict.fromkeys(PACKAGES, 0.0)
    functions = []
    for (filename, line, function), (_primitive, calls, own, _cumulative, _callers) in stats.items():
        package = package_of(filename, function)
        packages[package] += own
        if package == "anvia_nb":
            module = filename.replace("\\", "/").rsplit("/anvia_nb/", 1)[-1]
            functions.append((f"{function} ({module}:{line})", calls, own))
    functions.sort(key=lambda found: -found[2])
    return {"size": size, "packages": packages, "functions": functions[:100]}


def _run_child(path: str, size: int, ms: float) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.profiles", "--child", path, "--size", str(size), "--ms", str(ms)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"{path}: {done.stderr.strip()[-2000:]}")
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def _tables(found: dict[str, dict[str, Any]], top: int) -> None:
    """The two tables: own time by package per unit, then anvia_nb's dearest functions per path."""
    print("| path | profiled µs per unit | " + " | ".join(PACKAGES) + " |")
    print("|---|---:|" + "---:|" * len(PACKAGES))
    for path, profile in found.items():
        unit, size = PATHS[path][0], profile["size"]
        total = sum(profile["packages"].values())
        cells = [
            f"{seconds / size * 1e6:.0f} ({seconds / total:.0%})" if total else "0"
            for seconds in (profile["packages"][package] for package in PACKAGES)
        ]
        print(f"| {path} | {total / size * 1e6:.0f} per {unit} | " + " | ".join(cells) + " |")
    print(f"\nanvia_nb's own functions, the {top} that take the most own time, per path\n")
    print("| path | function (module:line) | calls per unit | own µs per unit |\n|---|---|---:|---:|")
    for path, profile in found.items():
        for function, calls, own in profile["functions"][:top]:
            size = profile["size"]
            print(f"| {path} | {function} | {calls / size:.2f} | {own / size * 1e6:.1f} |")


def main() -> None:
    """The command line: every path (or ``--paths``), each in its own process, then the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=500, help="trivial calls profiled per path")
    parser.add_argument("--map-rows", type=int, default=1000, help="rows of each map profiled")
    parser.add_argument("--ms", type=float, default=50.0, help="the map tool's sleep, milliseconds")
    parser.add_argument("--top", type=int, default=20, help="anvia_nb functions listed per path")
    parser.add_argument("--paths", default=",".join(PATHS), help="a comma-separated subset of the paths")
    parser.add_argument("--check", action="store_true", help="tiny sizes, the bench servers forked")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_profile(args.child, args.size, args.ms)))
        return
    paths = [path.strip() for path in args.paths.split(",") if path.strip()]
    unknown = [path for path in paths if path not in PATHS]
    if unknown:
        sys.exit(f"unknown path(s): {', '.join(unknown)}; choose from: {', '.join(PATHS)}")
    calls, rows, ms = (5, AT_ONCE, 1.0) if args.check else (args.calls, args.map_rows, args.ms)
    print(f"cProfile, own time per unit by package ({calls} calls, maps of {rows} rows over a {ms:g} ms tool;")
    print(f"protocol {PROTOCOL}; each path in its own process; shares are of the path's profiled time)\n")
    with bench_forks() if args.check else contextlib.nullcontext():
        found = {path: _run_child(path, calls if PATHS[path][0] == "call" else rows, ms) for path in paths}
    _tables(found, args.top)


if __name__ == "__main__":
    main()
