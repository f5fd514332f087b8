"""The contenders of the project's own venv, each holding one warm session to the bench server.

Each is opened once and gives ``timed(tool, arguments, calls)``: seconds per call, calls one after
another. Over stdio each has its own server process (stdio is one client per server); over HTTP
they share one server.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from benchmarks.measure import AsyncContender, Call
from benchmarks.server_forks import SERVER, server_command

LARGEST_MESSAGE = 256 * 1024 * 1024

__all__ = ["SERVER", "Contender", "main_contenders"]


class Contender:
    """What the harness needs: ``timed``, ``close``, and whatever else the contender offers."""

    def __init__(self, timed: Callable[[str, dict[str, Any], int], float], close: Callable[[], None]) -> None:
        self.timed = timed
        self.close = close


def _sdk_session(target: str | None) -> Callable[[], contextlib.AbstractAsyncContextManager[Call]]:
    @contextlib.asynccontextmanager
    async def opener() -> AsyncIterator[Call]:
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client
        from mcp.client.streamable_http import streamable_http_client

        server = server_command()
        streams: Any = (
            stdio_client(StdioServerParameters(command=server[0], args=server[1:])) if target is None
            else streamable_http_client(target, max_sse_event_size=LARGEST_MESSAGE)
        )
        async with streams as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            yield session.call_tool

    return opener


def _sdk_client(target: str | None) -> Callable[[], contextlib.AbstractAsyncContextManager[Call]]:
    @contextlib.asynccontextmanager
    async def opener() -> AsyncIterator[Call]:
        from mcp import Client, StdioServerParameters

        command = server_command()
        server: Any = StdioServerParameters(command=command[0], args=command[1:]) if target is None else target
        async with Client(server) as client:
            await client.list_tools()
            yield client.call_tool

    return opener


def _connection(name: str, target: str | None, protocol: str | None = None) -> Any:
    from anvia_nb import mcp

    if target is None:
        command = server_command()
        return mcp.stdio(name=name, command=command[0], args=command[1:], protocol=protocol)
    return mcp.http(name=name, url=target, protocol=protocol)


def _anvia_async(
    target: str | None, protocol: str | None = None
) -> Callable[[], contextlib.AbstractAsyncContextManager[Call]]:
    @contextlib.asynccontextmanager
    async def opener() -> AsyncIterator[Call]:
        from anvia_nb import connect_mcp

        server = await connect_mcp(_connection(f"bench_async_{protocol or 'auto'}", target, protocol))
        try:
            async def call(tool: str, arguments: dict[str, Any]) -> Any:
                return await server.tool(tool).call(arguments)

            yield call
        finally:
            await server.close()

    return opener


def _sync_runtime(target: str | None) -> Contender:
    from anvia_nb.runtime import get_runtime

    runtime = get_runtime()
    runtime.connect(_connection("bench_sync", target))

    def timed(tool: str, arguments: dict[str, Any], calls: int) -> float:
        start = time.perf_counter()
        for _ in range(calls):
            runtime.call("bench_sync", tool, arguments)
        return (time.perf_counter() - start) / calls

    def close() -> None:
        runtime.close("bench_sync")

    return Contender(timed, close)


def _magic(target: str | None) -> Contender:
    """``%mcp call`` in a real IPython shell, its result rendered as a notebook would show it."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    assert shell.extension_manager is not None and shell.display_formatter is not None
    formatter: Any = shell.display_formatter  # IPython's formatter is untyped
    if "anvia_nb" not in shell.extension_manager.loaded:
        shell.run_line_magic("load_ext", "anvia_nb")
    where = f"--stdio {' '.join(server_command())}" if target is None else f"--http {target}"
    with contextlib.redirect_stdout(None):
        shell.run_line_magic("mcp", f"connect bench_magic {where}")

    def timed(tool: str, arguments: dict[str, Any], calls: int) -> float:
        line = f"call bench_magic.{tool} " + " ".join(f"{key}={value}" for key, value in arguments.items())
        start = time.perf_counter()
        for _ in range(calls):
            view = shell.run_line_magic("mcp", line)
            formatter.format(view)
        return (time.perf_counter() - start) / calls

    return Contender(timed, lambda: shell.run_line_magic("mcp", "close bench_magic"))


def _async(loop: asyncio.AbstractEventLoop, opener: Callable[[], Any]) -> Contender:
    contender = AsyncContender(loop, opener).open()
    return Contender(contender.timed, contender.close)


def main_contenders(loop: asyncio.AbstractEventLoop, target: str | None) -> dict[str, Contender | str]:
    """Every contender of this venv, opened (``target``: an HTTP URL, or ``None`` for stdio);
    one that could not open is the reason, as text."""
    makers: dict[str, Callable[[], Contender]] = {
        "SDK ClientSession": lambda: _async(loop, _sdk_session(target)),
        "SDK Client": lambda: _async(loop, _sdk_client(target)),
        "anvia_nb async API": lambda: _async(loop, _anvia_async(target)),
        # Like for like: ClientSession speaks the initialize handshake's protocol, 2025-11-25.
        "anvia_nb async API, protocol 2025-11-25": lambda: _async(loop, _anvia_async(target, "2025-11-25")),
        "anvia_nb sync runtime": lambda: _sync_runtime(target),
        "anvia_nb %mcp call, rendered": lambda: _magic(target),
    }
    opened: dict[str, Contender | str] = {}
    for name, make in makers.items():
        try:
            opened[name] = make()
        except Exception as exc:  # a contender that cannot open is reported, not fatal
            opened[name] = f"could not open: {type(exc).__name__}: {exc}"[:160]
    return opened
