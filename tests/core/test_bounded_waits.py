"""Every connect and call from Python has a bounded default; an explicit ``None`` is no limit.

The defaults are shortened here (they are module settings) to ``SHORT_SECONDS``, so a mute server
shows the bound without the test waiting for it; the outer waits only prove nothing hangs.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.protocol import limits
from anvia_nb.errors import ConnectError, ToolTimeoutError

ROGUE = str(Path(__file__).parents[1] / "servers" / "rogue_server.py")
BOUND_SECONDS = 60.0
SHORT_SECONDS = 0.25


@pytest.fixture
def short_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "DEFAULT_CONNECT_TIMEOUT_SECONDS", SHORT_SECONDS)
    monkeypatch.setattr(limits, "DEFAULT_CALL_TIMEOUT_SECONDS", SHORT_SECONDS)


@pytest.fixture
def silent_http() -> Iterator[str]:
    """A URL whose server accepts connections and reads requests but never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"
    finally:
        stop.set()
        thread.join(10)
        for connection in held:
            connection.close()
        listener.close()


@pytest.mark.anyio
@pytest.mark.usefixtures("short_defaults")
async def test_connecting_to_a_mute_stdio_server_gives_up_by_default() -> None:
    mute = mcp.stdio(name="mute", command=sys.executable, args=[ROGUE, "mute"])
    with pytest.raises(ConnectError, match="did not finish connecting") as caught:
        await asyncio.wait_for(connect_mcp(mute), BOUND_SECONDS)
    caught.value.log.remove()


@pytest.mark.anyio
async def test_connecting_over_http_is_bounded_by_the_connections_own_timeout(silent_http: str) -> None:
    server = mcp.http(name="silent", url=silent_http, timeout_seconds=SHORT_SECONDS)
    with pytest.raises(ConnectError, match="did not finish connecting"):
        await asyncio.wait_for(connect_mcp(server), BOUND_SECONDS)


@pytest.mark.anyio
@pytest.mark.usefixtures("short_defaults")
async def test_a_call_that_is_never_answered_times_out_by_default() -> None:
    silent = mcp.stdio(name="silent", command=sys.executable, args=[ROGUE, "silent"])
    server = await asyncio.wait_for(connect_mcp(silent, timeout_seconds=BOUND_SECONDS), BOUND_SECONDS)
    # An explicit None is no limit: this call, started first, outlives the two below that the
    # default ends one after the other (with the default, it would have ended before either).
    unbounded = asyncio.ensure_future(server.tool("attack").call_outcome({}, timeout_seconds=None))
    try:
        with pytest.raises(ToolTimeoutError):
            await asyncio.wait_for(server.tool("attack").call({}), BOUND_SECONDS)
        outcome = await asyncio.wait_for(server.tool("attack").call_outcome({}), BOUND_SECONDS)
        assert outcome.status == "timeout"
        assert not unbounded.done()
    finally:
        unbounded.cancel()
        await asyncio.gather(unbounded, return_exceptions=True)
        await server.close()
