"""A hostile stdio server cannot freeze a call: unreadable answers and dead servers are reported
at once. The waits here are generous bounds that only prove nothing hangs."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core import McpServer
from anvia_nb.errors import ConnectionClosedError, ProtocolError
from tests.helpers.waiting import wait_until

ROGUE = str(Path(__file__).parents[1] / "servers" / "rogue_server.py")
BOUND_SECONDS = 30.0


def rogue(mode: str, *extra: str, name: str = "rogue") -> object:
    return mcp.stdio(name=name, command=sys.executable, args=[ROGUE, mode, *extra])


@contextlib.asynccontextmanager
async def connected(mode: str, *extra: str) -> AsyncIterator[McpServer]:
    server = await connect_mcp(rogue(mode, *extra), timeout_seconds=BOUND_SECONDS)  # type: ignore[arg-type]
    try:
        yield server
    finally:
        await server.close()


def pids_in_stderr(server: McpServer, word: str) -> list[int]:
    return [int(pid) for pid in re.findall(rf"{word} pid=(\d+)", server.client.log.stderr_text())]


def kill(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.anyio
async def test_an_answer_nested_too_deep_is_a_protocol_error_naming_the_server_at_once() -> None:
    async with connected("deep") as server:
        outcome = await asyncio.wait_for(server.tool("attack").call_outcome({}), BOUND_SECONDS)
        assert isinstance(outcome.error, ProtocolError)
        assert outcome.status == "failed"
        assert "rogue.attack" in str(outcome.error) and "could not be read" in str(outcome.error)
        with pytest.raises(ProtocolError):
            await asyncio.wait_for(server.tool("attack").call({}), BOUND_SECONDS)
        # The connection is still usable: only that answer was lost.
        assert server.is_open


@pytest.mark.anyio
async def test_a_crashed_server_whose_child_holds_its_stdout_is_reported_gone(pid_alive: Callable[[int], bool]) -> None:
    children: list[int] = []
    try:
        async with connected("crash") as server:
            outcome = await asyncio.wait_for(server.tool("attack").call_outcome({}), BOUND_SECONDS)
            children = pids_in_stderr(server, "child")
            assert isinstance(outcome.error, ConnectionClosedError), outcome.error
            assert children and pid_alive(children[0])  # it still holds the pipe
        wait_until(lambda: not pid_alive(children[0]), "the orphaned child to be stopped at close")
    finally:
        kill(children)


@pytest.mark.anyio
async def test_a_process_that_left_its_group_with_setsid_is_stopped_at_close(pid_alive: Callable[[int], bool]) -> None:
    escapees: list[int] = []
    try:
        async with connected("setsid") as server:
            wait_until(lambda: bool(pids_in_stderr(server, "escapee")), "the escapee to start")
            escapees = pids_in_stderr(server, "escapee")
            assert os.getsid(escapees[0]) != os.getsid(os.getpid())
            assert pid_alive(escapees[0])
        wait_until(lambda: not pid_alive(escapees[0]), "the escapee to be stopped at close")
    finally:
        kill(escapees)
