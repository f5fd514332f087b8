"""Where a trivial call's work goes, in instructions: counts that the machine's load cannot move.

    python -m benchmarks.instructions            # every path, 150 calls each (a few minutes)
    python -m benchmarks.instructions --calls 50 --paths "SDK ClientSession,async API (tool.call)"
    python -m benchmarks.instructions --check    # each path a few calls, uncounted (the tests run it)

Each path runs in its own process under valgrind's callgrind, one warm session to the bench server
(``echo``), 20 calls to warm up, then ``--calls`` calls counted (``callgrind_control`` switches the
count on and off around them, so start-up and the server are not counted: the server is another
process). The table gives instructions per call, the ratio to the SDK's ``ClientSession`` and the
ratio to the floor of a call that keeps anvia_nb's guarantees (the SDK ``Client`` with a deadline
that progress moves, a whole-call bound and the result as JSON: ``contenders.guarded_call``). Paths
speak protocol 2025-11-25, the version ``ClientSession``'s handshake gives, so the ratios compare
the same exchange; those named "on 2026-07-28" show the default, and of those the ones "declaring
what anvia_nb declares" send anvia_nb's requests byte for byte (``contenders.declared_as_anvia_nb``:
the same capabilities in every request's ``_meta``, and a progress token). The paths "with its trace off"
are ``tool.call`` with its connection's trace recording nothing (``trace_rows.trace_off``): beside the
same path traced, they give the trace's own cost, and beside the floor, what anvia_nb's layers cost
without it; the table ends with the trace's ratio on each protocol.

Wall-clock times (``python -m benchmarks``) add what instructions do not show: the server's own time,
and on a synchronous path, the wake-ups of the threads (the caller and the background loop).
Needs ``valgrind`` and ``callgrind_control`` on the PATH.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from typing import Any

from benchmarks.contenders import TIMEOUT_AT
from benchmarks.forks import bench_forks, server_command
from benchmarks.trace_rows import trace_off

PROTOCOL = "2025-11-25"
BASE = "SDK ClientSession"
FLOOR = "floor: SDK Client + the call guarantees"
"""The SDK ``Client`` plus exactly what anvia_nb guarantees on a call (``contenders.guarded_call``)."""
WARM_CALLS = 20
ARGUMENTS = {"message": "hi"}


def _count(on: bool) -> None:
    if os.environ.get("ANVIA_COUNTING"):
        subprocess.run(
            ["callgrind_control", "-i", "on" if on else "off", str(os.getpid())], capture_output=True, check=False
        )


def _run_async(opener: Callable[[contextlib.AsyncExitStack], Any], calls: int) -> None:
    async def main() -> None:
        async with contextlib.AsyncExitStack() as stack:
            call = await opener(stack)
            for _ in range(WARM_CALLS):
                await call()
            _count(True)
            for _ in range(calls):
                await call()
            _count(False)

    asyncio.run(main())


def _run_sync(call: Callable[[], object], calls: int) -> None:
    for _ in range(WARM_CALLS):
        call()
    _count(True)
    for _ in range(calls):
        call()
    _count(False)


async def _sdk_session(stack: contextlib.AsyncExitStack) -> Callable[[], Any]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    command = server_command()
    read, write = await stack.enter_async_context(
        stdio_client(StdioServerParameters(command=command[0], args=command[1:]))
    )
    session = await stack.enter_async_context(ClientSession(read, write))
    await session.initialize()
    await session.list_tools()
    return lambda: session.call_tool("echo", ARGUMENTS)


def _sdk_client(
    mode: str, guarded: bool = False, declaring: bool = False
) -> Callable[[contextlib.AsyncExitStack], Any]:
    """The SDK ``Client``'s calls (``guarded``: through ``contenders.guarded_call``, the floor of a
    call that keeps anvia_nb's guarantees; ``declaring``: declaring what anvia_nb declares and
    asking for progress, so that each request is anvia_nb's, ``contenders.declared_as_anvia_nb``)."""

    async def opener(stack: contextlib.AsyncExitStack) -> Callable[[], Any]:
        from mcp import Client, StdioServerParameters

        from benchmarks.contenders import declared_as_anvia_nb, guarded_call, no_progress

        command = server_command()
        declared = declared_as_anvia_nb() if declaring else {}
        client = await stack.enter_async_context(
            Client(StdioServerParameters(command=command[0], args=command[1:]), mode=mode, **declared)
        )
        await client.list_tools()
        if guarded:
            return lambda: guarded_call(client, "echo", ARGUMENTS)
        if declaring:
            return lambda: client.call_tool("echo", ARGUMENTS, progress_callback=no_progress)
        return lambda: client.call_tool("echo", ARGUMENTS)

    return opener


def _async_api(protocol: str | None, traced: bool = True) -> Callable[[contextlib.AsyncExitStack], Any]:
    """``tool.call`` on one connection (``traced=False``: its trace records nothing, as the trace
    part's "off" blocks do, ``trace_rows.trace_off``; the path checks that it recorded nothing)."""

    async def opener(stack: contextlib.AsyncExitStack) -> Callable[[], Any]:
        from anvia_nb import connect_mcp, mcp

        command = server_command()
        server = await connect_mcp(mcp.stdio(name="count", command=command[0], args=command[1:], protocol=protocol))
        stack.push_async_callback(server.close)
        if not traced:
            stack.enter_context(trace_off())
            before = server.trace.recorded

            def recorded_nothing() -> None:
                if server.trace.recorded != before:
                    raise RuntimeError(f"the trace recorded {server.trace.recorded - before} messages while off")

            stack.callback(recorded_nothing)
        return lambda: server.tool("echo").call(ARGUMENTS)

    return opener


async def _session_on_our_transport(stack: contextlib.AsyncExitStack) -> Callable[[], Any]:
    """The SDK's ClientSession over anvia_nb's stdio transport (its protocol trace on)."""
    from anvia_nb import connect_mcp, mcp
    from anvia_nb.core.transport.sdk.session import SdkSession

    command = server_command()
    server = await connect_mcp(mcp.stdio(name="count", command=command[0], args=command[1:], protocol=PROTOCOL))
    stack.push_async_callback(server.close)
    sdk = server.client._session  # the layer under anvia_nb's own
    assert isinstance(sdk, SdkSession)
    session = sdk.sdk_client.session
    return lambda: session.call_tool("echo", ARGUMENTS)


def _sync_runtime(calls: int) -> None:
    from anvia_nb import mcp
    from anvia_nb.runtime import get_runtime

    runtime = get_runtime()
    command = server_command()
    runtime.connect(mcp.stdio(name="count", command=command[0], args=command[1:], protocol=PROTOCOL))
    _run_sync(lambda: runtime.call("count", "echo", ARGUMENTS), calls)
    runtime.close("count")


def _magic(calls: int, rendered: bool) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    assert shell.extension_manager is not None and shell.display_formatter is not None
    if "anvia_nb" not in shell.extension_manager.loaded:
        shell.run_line_magic("load_ext", "anvia_nb")
    with contextlib.redirect_stdout(None):
        shell.run_line_magic("mcp", f"connect count --protocol {PROTOCOL} --stdio {' '.join(server_command())}")
    formatter: Any = shell.display_formatter  # IPython's formatter is untyped

    def call() -> None:
        view = shell.run_line_magic("mcp", "call count.echo message=hi")
        if rendered:
            formatter.format(view)

    _run_sync(call, calls)
    shell.run_line_magic("mcp", "close count")


def _bare_magic(calls: int) -> None:
    """The floor of any line magic that shows a call's result (``contenders.BareMagic``)."""
    from benchmarks.contenders import BareMagic

    bare = BareMagic(None)
    _run_sync(lambda: bare.call("echo", ARGUMENTS), calls)
    bare.close()


PATHS: dict[str, Callable[[int], None]] = {
    BASE: lambda calls: _run_async(_sdk_session, calls),
    "SDK Client": lambda calls: _run_async(_sdk_client("legacy"), calls),
    "SDK ClientSession on anvia_nb's stdio transport": lambda calls: _run_async(_session_on_our_transport, calls),
    "async API (tool.call)": lambda calls: _run_async(_async_api(PROTOCOL), calls),
    "async API (tool.call) with its trace off": lambda calls: _run_async(_async_api(PROTOCOL, traced=False), calls),
    "sync runtime (runtime.call)": _sync_runtime,
    "%mcp call": lambda calls: _magic(calls, rendered=False),
    "%mcp call and its rendering (IPython's display formatter)": lambda calls: _magic(calls, rendered=True),
    "floor: a bare line magic over ClientSession and its rendering": _bare_magic,
    # The protocol generation both pick by default, where the server speaks it:
    "SDK Client on 2026-07-28": lambda calls: _run_async(_sdk_client("auto"), calls),
    "SDK Client on 2026-07-28 declaring what anvia_nb declares": lambda calls: _run_async(
        _sdk_client("auto", declaring=True), calls
    ),
    "async API (tool.call) on 2026-07-28": lambda calls: _run_async(_async_api(None), calls),
    "async API (tool.call) on 2026-07-28 with its trace off": lambda calls: _run_async(
        _async_api(None, traced=False), calls
    ),
}
if TIMEOUT_AT is not None:  # the SDK Client plus exactly what anvia_nb guarantees on a call (Python 3.11+)
    PATHS[FLOOR] = lambda calls: _run_async(_sdk_client("legacy", True), calls)
    PATHS[f"{FLOOR} on 2026-07-28"] = lambda calls: _run_async(_sdk_client("auto", True), calls)
    PATHS[f"{FLOOR} on 2026-07-28 declaring what anvia_nb declares"] = lambda calls: _run_async(
        _sdk_client("auto", True, declaring=True), calls
    )


def count(path: str, calls: int) -> float:
    """Instructions per call of one path, counted in a process of its own."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-m",
            "benchmarks.instructions",
            "--child",
            path,
            "--calls",
            str(calls),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
        env={**os.environ, "ANVIA_COUNTING": "1", "PYTHONHASHSEED": "0"},
    )
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"{path}: {done.stderr.strip()[-400:]}")
    return int(found.group(1)) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=150)
    names = ", ".join(PATHS).replace("%", "%%")  # argparse formats help with %
    parser.add_argument("--paths", default=",".join(PATHS), help="comma-separated, from: " + names)
    parser.add_argument(
        "--check",
        action="store_true",
        help="run each path for a few calls in this process, uncounted (no valgrind needed)",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        PATHS[args.child](args.calls)
        return
    if args.check:  # what the test suite runs, so the paths cannot rot; servers forked from one
        with bench_forks():
            for path in PATHS:
                PATHS[path](3)
                print(f"ran: {path}", flush=True)
        return
    missing = [tool for tool in ("valgrind", "callgrind_control") if shutil.which(tool) is None]
    if missing:
        sys.exit(f"needs {' and '.join(missing)} on the PATH (Debian: apt-get install valgrind)")
    paths = [path.strip() for path in args.paths.split(",") if path.strip()]
    unknown = [path for path in paths if path not in PATHS]
    if unknown:
        sys.exit(f"unknown path(s): {', '.join(unknown)}; choose from: {', '.join(PATHS)}")
    workers = max(1, (os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        counted = dict(zip(paths, pool.map(lambda path: count(path, args.calls), paths), strict=True))
    base = counted.get(BASE)
    print(f"Instructions per trivial call (callgrind, {args.calls} calls each; protocol {PROTOCOL} unless named)\n")
    print("| path | instructions per call | ratio | × the floor of its protocol |\n|---|---:|---:|---:|")
    for path, per_call in counted.items():
        ratio = f"{per_call / base:.2f}" if base else ""
        floor = counted.get(FLOOR + (" on 2026-07-28" if " on 2026-07-28" in path else ""))
        print(f"| {path} | {per_call / 1000:,.0f}k | {ratio} | {f'{per_call / floor:.2f}' if floor else ''} |")
    traced = {
        path: per_call / counted[f"{path} with its trace off"]
        for path, per_call in counted.items()
        if f"{path} with its trace off" in counted
    }
    if traced:
        print("\nThe trace's own cost (each path against itself with its trace off):")
        for path, ratio in traced.items():
            print(f"- {path}: {ratio:.3f} ×")


if __name__ == "__main__":
    main()
