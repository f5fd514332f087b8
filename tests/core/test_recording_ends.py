"""How a recording ends when its connection does not end normally, against the bundled demo server.

A recording file is created with its header when the client is made (so a path that cannot be
written fails at once); a client closed without ever being opened, or whose connect is cancelled
before its session is opened, leaves no such stub. A call the server's death ends is written as
its caller hears it: "connection closed" with the server's last stderr lines.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Coroutine, Generator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from anvia_nb import mcp
from anvia_nb.errors import ConnectionClosedError
from tests.helpers.support import DEMO_ARGS

pytestmark = pytest.mark.anyio
T = TypeVar("T")


async def later(coro: Coroutine[Any, Any, T]) -> T:
    """``coro`` once the loop has time for it: never here, the connect is cancelled first."""
    try:
        await asyncio.Event().wait()
    except BaseException:
        coro.close()  # it never ran
        raise
    return await coro


def recorded_connection(path: Path) -> Any:
    return mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS, record=path)


async def test_a_client_closed_without_being_opened_leaves_no_recording(tmp_path: Path) -> None:
    path = tmp_path / "never.jsonl"
    client = recorded_connection(path).client()
    assert path.exists()  # the header, written when the client is made
    await client.close()
    assert not path.exists()


async def test_a_connect_cancelled_before_its_session_opens_leaves_no_recording(tmp_path: Path) -> None:
    """The loop is busy: the task that would open the session has not started when the connect is
    cancelled (held here until it is cancelled, as a loop busy with other cells would)."""
    path = tmp_path / "cancelled.jsonl"
    client = recorded_connection(path).client()
    loop = asyncio.get_running_loop()
    held: list[object] = []

    def hold(
        loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T] | Generator[Any, None, T], /, **kwargs: Any
    ) -> asyncio.Task[T]:
        assert isinstance(coro, Coroutine)
        held.append(coro)
        return asyncio.Task(later(coro), loop=loop, **kwargs)

    opening = asyncio.ensure_future(client.open(timeout_seconds=30))
    loop.set_task_factory(hold)
    try:
        await asyncio.sleep(0)  # the connect has started the task that opens the session
    finally:
        loop.set_task_factory(None)
    assert len(held) == 1
    opening.cancel()
    with pytest.raises(asyncio.CancelledError):
        await opening
    assert not path.exists()
    await client.close()


async def test_a_call_the_server_s_death_ends_is_recorded_with_its_stderr_lines(tmp_path: Path) -> None:
    path = tmp_path / "crash.jsonl"
    client = await recorded_connection(path).client().open(timeout_seconds=30)
    try:
        await client.list_tools()
        with pytest.raises(ConnectionClosedError) as heard:
            await client.call_tool("crash", {}, timeout_seconds=30)
    finally:
        await client.close()
    assert "crash requested" in str(heard.value)  # what the caller heard: the server's last words
    calls = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    error = next(record["error"] for record in calls if record["type"] == "call")
    assert error["class"] == "ConnectionClosedError"
    assert error["message"] == str(heard.value)
