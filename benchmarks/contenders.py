"""The contenders of the project's own venv, each holding one warm session to the bench server.

Each is opened once and gives ``timed(tool, arguments, calls)``: seconds per call, calls one after
another. Over stdio each has its own server process (stdio is one client per server); over HTTP
they share one server.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import json
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any, cast

from benchmarks.forks import SERVER, server_command
from benchmarks.measure import AsyncContender, Call

LARGEST_MESSAGE = 256 * 1024 * 1024

__all__ = ["SERVER", "BareMagic", "Contender", "declared_as_anvia_nb", "guarded_call", "main_contenders", "no_progress"]

IDLE_SECONDS = 60.0
"""anvia_nb's default call timeout, moved by each progress notification (the floor's idle deadline)."""
CEILING_SECONDS = 600.0
"""anvia_nb's default max time of a whole call, progress or not (the floor's ceiling)."""
TIMEOUT_AT: Any = getattr(asyncio, "timeout_at", None)
"""``asyncio.timeout_at`` (Python 3.11+, ``Any``: mypy checks for 3.10, which has none); on 3.10
the floor is not offered."""


class Contender:
    """What the harness needs: ``timed``, ``close``, and whatever else the contender offers;
    ``trivial_only``: measured on the trivial call alone."""

    def __init__(
        self, timed: Callable[[str, dict[str, Any], int], float], close: Callable[[], None], trivial_only: bool = False
    ) -> None:
        self.timed = timed
        self.close = close
        self.trivial_only = trivial_only


def _sdk_session(target: str | None) -> Callable[[], contextlib.AbstractAsyncContextManager[Call]]:
    @contextlib.asynccontextmanager
    async def opener() -> AsyncIterator[Call]:
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client
        from mcp.client.streamable_http import streamable_http_client

        server = server_command()
        streams: Any = (
            stdio_client(StdioServerParameters(command=server[0], args=server[1:]))
            if target is None
            else streamable_http_client(target, max_sse_event_size=LARGEST_MESSAGE)
        )
        async with streams as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            yield session.call_tool

    return opener


def _sdk_client(
    target: str | None, guarded: bool = False, declaring: bool = False, mode: str = "auto"
) -> Callable[[], contextlib.AbstractAsyncContextManager[Call]]:
    """The SDK ``Client``'s calls (``guarded``: each made through :func:`guarded_call`;
    ``declaring``: the client declares what anvia_nb's does, :func:`declared_as_anvia_nb`;
    ``mode``: the ``Client``'s, ``"legacy"`` for the handshake of 2025-11-25)."""

    @contextlib.asynccontextmanager
    async def opener() -> AsyncIterator[Call]:
        from mcp import Client, StdioServerParameters

        if guarded and TIMEOUT_AT is None:
            raise RuntimeError("the floor needs asyncio.timeout_at (Python 3.11+)")

        command = server_command()
        server: Any = StdioServerParameters(command=command[0], args=command[1:]) if target is None else target
        declared = declared_as_anvia_nb() if declaring else {}
        async with Client(server, mode=mode, **declared) as client:
            await client.list_tools()
            if guarded:
                yield functools.partial(guarded_call, client)
            elif declaring:  # a progress token in each request, as anvia_nb's carry
                yield functools.partial(client.call_tool, progress_callback=no_progress)
            else:
                yield client.call_tool

    return opener


def declared_as_anvia_nb() -> dict[str, Any]:
    """The SDK ``Client``'s arguments that make it declare what anvia_nb's connection declares
    (sampling, elicitation, the tasks and Apps extensions) under anvia_nb's client info: at
    2026-07-28 every request then carries the same ``_meta`` as anvia_nb's, byte for byte, so a
    server reads the same requests from both. The callbacks refuse: the bench tools ask for none."""
    import mcp_types

    from anvia_nb._version import __version__
    from anvia_nb.core.transport.sdk.capabilities import apps_extension
    from anvia_nb.core.transport.sdk.tasks import TasksExtension

    async def refuse(*_: Any) -> Any:
        return mcp_types.ErrorData(code=-1, message="the benchmark answers no requests")

    return {
        "sampling_callback": refuse,
        "elicitation_callback": refuse,
        "extensions": [TasksExtension(), apps_extension()],
        "client_info": mcp_types.Implementation(name="anvia_nb", version=__version__),
    }


async def no_progress(progress: float, total: float | None, message: str | None) -> None:
    """Asks for progress (a ``progressToken`` in the request) and does nothing with it."""


async def guarded_call(client: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The floor of a call that keeps anvia_nb's guarantees, with no code of anvia_nb's: the SDK
    ``Client``'s call under an ``asyncio.timeout_at`` deadline that each progress notification
    moves (``IDLE_SECONDS`` from it), never past the whole call's bound (``CEILING_SECONDS`` from
    the start), and the result dumped to JSON with wire keys (what every layer of anvia_nb reads),
    by the cheapest path to that JSON: the model's own serializer, which ``model_dump`` wraps in
    about 8k instructions of Python a call (benchmarks/README.md, *The per-call path, fifth pass*)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    ceiling = start + CEILING_SECONDS
    async with TIMEOUT_AT(min(start + IDLE_SECONDS, ceiling)) as deadline:

        async def alive(progress: float, total: float | None, message: str | None) -> None:
            deadline.reschedule(min(loop.time() + IDLE_SECONDS, ceiling))

        result = await client.call_tool(tool, arguments, progress_callback=alive)
    dumped: dict[str, Any] = type(result).__pydantic_serializer__.to_python(
        result, by_alias=True, mode="json", exclude_none=True
    )
    return dumped


def _connection(name: str, target: str | None, protocol: str | None = None) -> Any:
    from anvia_nb import mcp

    if target is None:
        command = server_command()
        return mcp.stdio(name=name, command=command[0], args=command[1:], protocol=protocol)
    return mcp.http(name=name, url=target, protocol=protocol)


def _anvia_async(
    target: str | None, protocol: str | None = None, servers: list[Any] | None = None
) -> Callable[[], contextlib.AbstractAsyncContextManager[Call]]:
    """The async API's calls on one connection (``servers``: given the connected ``McpServer``)."""

    @contextlib.asynccontextmanager
    async def opener() -> AsyncIterator[Call]:
        from anvia_nb import connect_mcp

        server = await connect_mcp(_connection(f"bench_async_{protocol or 'auto'}", target, protocol))
        if servers is not None:
            servers.append(server)
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


class _Shown:
    """What the bare magic returns: a result as small as a MIME bundle can be."""

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"text/plain": "done", "text/html": "<pre>done</pre>"}


class BareMagic:
    """The floor of any line magic that shows a call's result, with no code of anvia_nb's:
    ``%bare TOOL {JSON}`` parses its line, hands the SDK's ``ClientSession`` call to a loop on a
    thread of its own (the kernel's thread cannot run one while the cell runs) and returns an
    object with a two-entry MIME bundle, which IPython's formatter renders."""

    def __init__(self, target: str | None) -> None:
        from IPython.core.interactiveshell import InteractiveShell

        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        opened: concurrent.futures.Future[tuple[Call, asyncio.Event]] = concurrent.futures.Future()
        opener = _sdk_session(target)

        async def owner() -> None:  # the SDK's scopes end in the task that began them
            try:
                async with opener() as call:
                    done = asyncio.Event()
                    opened.set_result((call, done))
                    await done.wait()
            except BaseException as exc:
                if not opened.done():
                    opened.set_exception(exc)
                raise

        self._life = asyncio.run_coroutine_threadsafe(owner(), self.loop)
        call, self._done = opened.result(timeout=120)

        def bare(line: str) -> _Shown:
            tool, _, text = line.partition(" ")
            session_call = cast("Coroutine[Any, Any, Any]", call(tool, json.loads(text)))  # no layer of ours
            asyncio.run_coroutine_threadsafe(session_call, self.loop).result()
            return _Shown()

        self.shell = InteractiveShell.instance()
        register: Any = self.shell.register_magic_function  # typed by IPython's decorator, not its signature
        register(bare, "line", "bare")
        self._formatter: Any = self.shell.display_formatter  # IPython's formatter is untyped

    def call(self, tool: str, arguments: dict[str, Any]) -> None:
        """``%bare TOOL {arguments}`` and the rendering of what it returns."""
        self._formatter.format(self.shell.run_line_magic("bare", f"{tool} {json.dumps(arguments)}"))

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self._done.set)
        with contextlib.suppress(Exception):
            self._life.result(timeout=60)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=60)


def _bare_magic(target: str | None) -> Contender:
    bare = BareMagic(target)

    def timed(tool: str, arguments: dict[str, Any], calls: int) -> float:
        start = time.perf_counter()
        for _ in range(calls):
            bare.call(tool, arguments)
        return (time.perf_counter() - start) / calls

    return Contender(timed, bare.close, trivial_only=True)


def _async(loop: asyncio.AbstractEventLoop, opener: Callable[[], Any], trivial_only: bool = False) -> Contender:
    contender = AsyncContender(loop, opener).open()
    return Contender(contender.timed, contender.close, trivial_only)


def main_contenders(loop: asyncio.AbstractEventLoop, target: str | None) -> dict[str, Contender | str]:
    """Every contender of this venv, opened (``target``: an HTTP URL, or ``None`` for stdio);
    one that could not open is the reason, as text."""
    makers: dict[str, Callable[[], Contender]] = {
        "SDK ClientSession": lambda: _async(loop, _sdk_session(target)),
        "SDK Client": lambda: _async(loop, _sdk_client(target)),
        # The SDK Client plus exactly what anvia_nb guarantees on a call (no code of anvia_nb's):
        "floor: SDK Client + the call guarantees": lambda: _async(
            loop, _sdk_client(target, guarded=True), trivial_only=True
        ),
        "anvia_nb async API": lambda: _async(loop, _anvia_async(target)),
        # Like for like: ClientSession speaks the initialize handshake's protocol, 2025-11-25.
        "anvia_nb async API, protocol 2025-11-25": lambda: _async(loop, _anvia_async(target, "2025-11-25")),
        "anvia_nb sync runtime": lambda: _sync_runtime(target),
        "anvia_nb %mcp call, rendered": lambda: _magic(target),
        # What no line magic can go below (the trivial call only):
        "floor: a bare line magic over ClientSession, rendered": lambda: _bare_magic(target),
    }
    opened: dict[str, Contender | str] = {}
    for name, make in makers.items():
        try:
            opened[name] = make()
        except Exception as exc:  # a contender that cannot open is reported, not fatal
            opened[name] = f"could not open: {type(exc).__name__}: {exc}"[:160]
    return opened
