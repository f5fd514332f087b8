"""One default for every call and every connect, from core/protocol/limits.py; ``None`` is no limit.

Against the demo server's slow tools (``slow`` sleeps between steps, ``long_job`` runs only as a
task): each call entry point (``Tool.call``, ``call_outcome``, ``start``, ``call_task``) ends a
call that outlives its timeout with a ``ToolTimeoutError``; given none, it takes the documented
default, shown by shortening that setting (limits.py says to change it there); an explicit
``None`` lets a call outlive the default. Each connect entry point takes the connect default the
same way, seen on a server that never answers its handshake. Outer waits only keep a broken
bound from hanging the suite: nothing here measures time.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.api.connections import HttpConnection, StdioConnection
from anvia_nb.core.api.memory import MemoryConnection
from anvia_nb.core.api.server import McpServer
from anvia_nb.core.api.tool import Tool
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import CallOutcome
from anvia_nb.core.recording.replay import ReplayConnection
from anvia_nb.errors import AnviaError, ConnectError, ToolTimeoutError
from tests.helpers.support import DEMO_ARGS

pytestmark = pytest.mark.anyio

ROGUE = str(Path(__file__).parents[1] / "servers" / "rogue_server.py")
SHORT = 0.25
"""A timeout far below how long the slow calls take (they sleep 30 s)."""
OUTER = 60.0
SLOW = {"slow": {"steps": 1, "delay_seconds": 30}, "long_job": {"steps": 1, "delay_seconds": 30}}


@pytest.fixture
async def demo() -> AsyncIterator[McpServer]:
    server = await connect_mcp(mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS), timeout_seconds=OUTER)
    try:
        yield server
    finally:
        await server.close()


async def _started(tool: Tool, arguments: Mapping[str, object], **timeout: object) -> CallOutcome:
    return await tool.start(arguments, **timeout).wait(OUTER)  # type: ignore[arg-type]


async def _outcome(call: Awaitable[object]) -> AnviaError | None:
    """The error a call ended with, raised or kept on its outcome (``None``: it succeeded)."""
    try:
        result = await asyncio.wait_for(call, OUTER)
    except AnviaError as exc:
        return exc
    return result.error if isinstance(result, CallOutcome) else None


def _entry_points(demo: McpServer) -> dict[str, Callable[..., Awaitable[object]]]:
    slow, job = demo.tool("slow"), demo.tool("long_job")
    return {
        "call": lambda **t: slow.call(SLOW["slow"], **t),
        "call_outcome": lambda **t: slow.call_outcome(SLOW["slow"], **t),
        "start": lambda **t: _started(slow, SLOW["slow"], **t),
        "call_task": lambda **t: job.call_task(SLOW["long_job"], **t),
    }


def test_every_call_and_connect_entry_point_defaults_to_the_documented_limit() -> None:
    calls: list[Callable[..., object]] = [Tool.call, Tool.call_outcome, Tool.start, Tool.call_task]
    connects: list[Callable[..., object]] = [
        connect_mcp,
        StdioConnection.connect,
        HttpConnection.connect,
        MemoryConnection.connect,
        ReplayConnection.connect,
    ]
    for entry in calls + connects:
        assert inspect.signature(entry).parameters["timeout_seconds"].default is limits.DEFAULT, entry.__qualname__
    assert (limits.DEFAULT_CALL_TIMEOUT_SECONDS, limits.DEFAULT_CONNECT_TIMEOUT_SECONDS) == (60.0, 30.0)


async def test_a_call_past_its_timeout_ends_as_a_timeout_at_every_entry_point(demo: McpServer) -> None:
    for name, call in _entry_points(demo).items():
        error = await _outcome(call(timeout_seconds=SHORT))
        assert isinstance(error, ToolTimeoutError), (name, error)
        assert "did not answer in time" in str(error), name
    assert (await demo.tool("echo").call({"message": "still here"})) == "still here"


async def test_without_a_timeout_every_entry_point_takes_the_documented_default(
    demo: McpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "DEFAULT_CALL_TIMEOUT_SECONDS", SHORT)
    for name, call in _entry_points(demo).items():
        error = await _outcome(call())
        assert isinstance(error, ToolTimeoutError), (name, error)


async def test_none_is_no_limit_at_every_entry_point(demo: McpServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "DEFAULT_CALL_TIMEOUT_SECONDS", 0.01)  # the short calls below outlive it
    slow, job = demo.tool("slow"), demo.tool("long_job")
    short = {"steps": 2, "delay_seconds": 0.1}
    calls = {
        "call": slow.call(short, timeout_seconds=None),
        "call_outcome": slow.call_outcome(short, timeout_seconds=None),
        "start": _started(slow, short, timeout_seconds=None),
        "call_task": job.call_task(short, timeout_seconds=None),
    }
    for name, call in calls.items():
        assert await _outcome(call) is None, name


async def test_connecting_takes_the_documented_default_or_the_limit_given(monkeypatch: pytest.MonkeyPatch) -> None:
    mute = mcp.stdio(name="mute", command=sys.executable, args=[ROGUE, "mute"])
    monkeypatch.setattr(limits, "DEFAULT_CONNECT_TIMEOUT_SECONDS", SHORT)
    for connect, limit in (
        (mute.connect(), SHORT),
        (mute.connect(timeout_seconds=0.2), 0.2),
        (connect_mcp(mute), SHORT),
    ):
        with pytest.raises(ConnectError, match=f"did not finish connecting within {limit:g} s") as caught:
            await asyncio.wait_for(connect, OUTER)
        caught.value.log.remove()
