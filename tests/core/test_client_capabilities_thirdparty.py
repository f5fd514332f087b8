"""Roots, sampling and tasks against servers nobody here wrote: server-filesystem takes its allowed
directories from the client's roots; server-everything asks for sampling and has a task-only tool
(protocol 2025-11-25: tasks/get, tasks/result, tasks/cancel). Cached by scripts/setup-test."""

from __future__ import annotations

from pathlib import Path

import pytest

from anvia_nb import TaskCancelledError, ToolResultError, connect_mcp, mcp
from anvia_nb.core.protocol.sampling import DECLINED_MESSAGE
from tests.helpers.support import npm_servers, require_setup
from tests.helpers.waiting import WAIT_SECONDS, wait_until_async

pytestmark = [pytest.mark.anyio, pytest.mark.thirdparty]


def npm_server(name: str) -> str:
    folder = npm_servers()
    require_setup(folder / "anvia-ready", "server-everything and server-filesystem")
    executable = folder / "node_modules" / ".bin" / name
    assert executable.exists(), f"{executable} is missing: run scripts/setup-test again"
    return str(executable)


async def test_server_filesystem_takes_its_allowed_directories_from_the_roots(tmp_path: Path) -> None:
    first, second = tmp_path / "notes", tmp_path / "data"
    first.mkdir()
    second.mkdir()
    connection = mcp.stdio(name="fs", command=npm_server("mcp-server-filesystem"), roots=[first, second])
    server = await connect_mcp(connection)
    try:
        listing = ""

        async def both_roots_listed() -> bool:  # the server asks for roots once the handshake is over
            nonlocal listing
            listing = str(await server.tool("list_allowed_directories").call({}))
            return str(second.resolve()) in listing

        await wait_until_async(both_roots_listed, lambda: f"the roots to reach the server; it lists {listing!r}")
        assert str(first.resolve()) in listing
        assert server.client.roots == (str(first.resolve()), str(second.resolve()))
    finally:
        await server.close()


async def test_server_everything_asks_for_sampling_and_is_declined() -> None:
    server = await connect_mcp(mcp.stdio(name="everything", command=npm_server("mcp-server-everything")))
    try:
        with pytest.raises(ToolResultError) as caught:
            await server.tool("trigger-sampling-request").call({"prompt": "hello"})
        assert DECLINED_MESSAGE in str(caught.value)
        assert server.client.declined_samplings == 1
    finally:
        await server.close()


async def test_server_everythings_task_only_tool_completes_and_is_cancelled_with_the_server_told() -> None:
    server = await connect_mcp(mcp.stdio(name="everything", command=npm_server("mcp-server-everything")))
    try:
        tool = server.tool("simulate-research-query")
        assert tool.task_support == "required" and server.client.protocol_version == "2025-11-25"
        call = tool.start({"topic": "tasks"})
        outcome = await call.wait(WAIT_SECONDS)
        assert isinstance(outcome.output, str) and "# Research Report: tasks" in outcome.output
        assert call.status == "completed" and call.task_id

        statuses: list[tuple[str, bool]] = []
        second = tool.start({"topic": "cancelled"})
        second.on_change(lambda c: statuses.append((c.status, c.done)))
        await wait_until_async(lambda: second.task_id is not None, "the task to be created")
        second.cancel()
        cancelled = await second.wait(WAIT_SECONDS)
        assert isinstance(cancelled.error, TaskCancelledError)
        assert ("cancelled", False) in statuses  # the server's own answer to tasks/cancel, before the end
    finally:
        await server.close()
