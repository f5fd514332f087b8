"""Faults and leaks: hung, killed, noisy, huge and vanishing servers, and many connect/close cycles.

Every wait here is bounded; every server is a real process over our stdio transport (or the SDK's
in-memory transport for the fast leak cycles). Misbehaving servers come from ``fault_servers.py``;
the well-behaved one is ``lite_server.py``, with the demo server's echo, slow and large in a
process that starts in milliseconds: these tests are about processes and pipes, not the demo's tools.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from anvia_nb import ConnectionClosedError, ToolTimeoutError, connect_mcp, mcp
from anvia_nb.core import McpServer
from anvia_nb.core.api.connections import StdioConnection
from anvia_nb.core.protocol import limits
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.runtime import Runtime
from tests.helpers.lite_server import LITE_ARGS
from tests.helpers.waiting import wait_until, wait_until_async

FAULT_SERVERS = str(Path(__file__).parents[1] / "servers" / "fault_servers.py")
SHORT_SECONDS = 0.25
"""The timeouts and grace periods a test sets when it waits for one to pass."""
Children = Callable[..., set[int]]


def fault(name: str, mode: str) -> StdioConnection:
    return mcp.stdio(name=name, command=sys.executable, args=[FAULT_SERVERS, mode])


def other_tasks() -> set[asyncio.Task[object]]:
    current = asyncio.current_task()
    return {t for t in asyncio.all_tasks() if t is not current and not t.done()}


@pytest.fixture
async def lite() -> AsyncIterator[McpServer]:
    server = await connect_mcp(mcp.stdio(name="lite", command=sys.executable, args=LITE_ARGS))
    try:
        yield server
    finally:
        await server.close()


# -- 1. a server that never answers the handshake ------------------------------------------------


@pytest.mark.anyio
async def test_a_connect_to_a_mute_server_cancelled_by_wait_for_leaves_no_process_and_no_task(
    live_children: Children,
) -> None:
    before_children, before_tasks = live_children(), other_tasks()

    async def connect_cancelled_once_the_server_runs() -> None:
        connect = asyncio.ensure_future(connect_mcp(fault("mute", "mute")))
        await wait_until_async(lambda: bool(live_children() - before_children), "the mute server to start")
        with pytest.raises(TimeoutError):  # the server is up and mute: only wait_for ends this
            await asyncio.wait_for(connect, SHORT_SECONDS)

    await asyncio.wait_for(connect_cancelled_once_the_server_runs(), 60)  # the clean-up does not hang
    assert live_children() <= before_children
    wait_until(lambda: other_tasks() <= before_tasks, "the session's tasks to end")


def test_a_kernel_interrupt_during_a_hung_connect_leaves_no_process(
    runtime: Runtime, live_children: Children, pid_alive: Callable[[int], bool]
) -> None:
    runtime.loop.loop()
    before = live_children()
    seen: set[int] = set()

    def interrupt_once_started() -> None:
        seen.update(wait_until(lambda: live_children() - before, "the mute server to start"))
        os.kill(os.getpid(), signal.SIGINT)

    watcher = threading.Thread(target=interrupt_once_started, daemon=True)
    watcher.start()
    with pytest.raises(KeyboardInterrupt):  # not the connect timeout: the interrupt ended it
        runtime.connect(fault("mute", "mute"))
    watcher.join(30)
    assert seen, "the mute server never started"
    wait_until(lambda: not any(pid_alive(p) for p in seen), "the mute server to be stopped")
    assert runtime.names() == []
    tasks = runtime.loop.submit(_count_tasks()).result(30)
    assert tasks == 0, "the interrupted connect left tasks on the runtime loop"


async def _count_tasks() -> int:
    return len(other_tasks())


# -- 2. a server that hangs on a call and ignores EOF and SIGTERM --------------------------------


@pytest.mark.anyio
async def test_a_call_the_server_never_answers_times_out_and_close_escalates_to_sigkill(
    live_children: Children, pid_alive: Callable[[int], bool]
) -> None:
    # close waits its real graces (seconds) after the end of stdin, then after SIGTERM, then SIGKILLs
    before = live_children()
    server = await connect_mcp(fault("stubborn", "swallow-calls"))
    started = live_children() - before
    assert started
    call = server.tool("echo").call_outcome({"message": "x"}, timeout_seconds=SHORT_SECONDS)
    outcome = await asyncio.wait_for(call, 60)
    assert isinstance(outcome.error, ToolTimeoutError)
    assert outcome.status == "timeout"
    await asyncio.wait_for(server.close(), 60)  # a server that ignores EOF and SIGTERM is killed
    assert not any(pid_alive(p) for p in started)


# -- 3. a server killed from outside in the middle of a call -------------------------------------


@pytest.mark.anyio
async def test_a_server_killed_mid_call_ends_the_call_and_later_calls_fail_fast(live_children: Children) -> None:
    before = live_children()
    server = await connect_mcp(mcp.stdio(name="victim", command=sys.executable, args=LITE_ARGS))
    (pid,) = live_children() - before
    progressed = asyncio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        progressed.set()

    call = asyncio.create_task(
        server.tool("slow").call_outcome({"steps": 300, "delay_seconds": 0.1}, on_progress=on_progress)
    )
    await asyncio.wait_for(progressed.wait(), 30)
    os.kill(pid, signal.SIGKILL)
    outcome = await asyncio.wait_for(call, 60)  # the 30 s call ends with the server, not on its own
    assert outcome.status == "failed"
    assert isinstance(outcome.error, ConnectionClosedError)
    assert "victim" in str(outcome.error)

    later = await asyncio.wait_for(server.tool("echo").call_outcome({"message": "x"}), 30)
    assert isinstance(later.error, ConnectionClosedError)  # failed at once, not a timeout
    assert "victim" in str(later.error)
    await asyncio.wait_for(server.close(), 30)
    assert live_children() <= before


# -- 4. garbage on stdout, and one 30 MB line ----------------------------------------------------


@pytest.mark.anyio
async def test_lines_that_are_not_json_between_messages_do_not_break_the_session() -> None:
    server = await connect_mcp(fault("noisy", "garbage"))
    try:
        for i in range(5):
            assert await asyncio.wait_for(server.tool("echo").call({"message": f"m{i}"}), 30) == f"m{i}"
        outcome = await asyncio.wait_for(server.tool("slow").call_outcome({"steps": 3, "delay_seconds": 0.01}), 30)
        assert outcome.status == "ok"
        assert len(outcome.progress) == 3
    finally:
        await server.close()


@pytest.mark.anyio
async def test_a_thirty_megabyte_result_line_arrives_intact_in_bounded_time(lite: McpServer) -> None:
    out = await asyncio.wait_for(lite.tool("large").call({"size_chars": 30_000_000}), 120)
    assert isinstance(out, str)
    assert len(out) == 30_000_000
    assert out == ("0123456789abcdef" * 1_875_000)[:30_000_000]
    assert await lite.tool("echo").call({"message": "after"}) == "after"


# -- 5. leaks over many connect/close cycles on one runtime --------------------------------------


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _open_log_files() -> list[str]:
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if "anvia_nb-logs" in target:
            found.append(target)
    return found


def _snapshot(runtime: Runtime, live_children: Children) -> tuple[int, int, set[int], int]:
    tasks = runtime.loop.submit(_count_tasks()).result(30)
    return threading.active_count(), _open_fds(), live_children(), tasks


@pytest.mark.slow
def test_hundreds_of_connect_close_cycles_leak_no_thread_fd_process_or_task(
    runtime: Runtime, live_children: Children
) -> None:
    def memory_cycle(i: int) -> None:
        runtime.connect(mcp.memory(name="mem", server=build_server()))
        assert runtime.call("mem", "echo", {"message": f"m{i}"}).output == f"m{i}"
        assert runtime.close("mem") == []

    def stdio_cycle(i: int) -> None:
        server = runtime.connect(mcp.stdio(name="proc", command=sys.executable, args=LITE_ARGS)).server
        assert runtime.call("proc", "echo", {"message": f"s{i}"}).output == f"s{i}"
        assert runtime.close("proc") == []
        assert not server.is_open

    memory_cycle(-1)  # warm up: the loop thread, the schema validators, the SDK's lazy imports
    stdio_cycle(-1)
    threads, fds, children, tasks = _snapshot(runtime, live_children)
    for i in range(200):
        memory_cycle(i)
    for i in range(10):  # a leak of one fd or thread per cycle still shows, past the slack of 3
        stdio_cycle(i)
    threads_after, fds_after, children_after, tasks_after = _snapshot(runtime, live_children)
    assert threads_after <= threads
    assert fds_after <= fds + 3
    assert children_after <= children
    assert tasks_after <= tasks
    assert _open_log_files() == []
    assert len(runtime.history) == 212  # the memory and stdio calls, the warm-up included


# -- 6. many calls in flight on one session ------------------------------------------------------


@pytest.mark.anyio
async def test_as_many_concurrent_calls_as_a_session_allows_run_side_by_side(lite: McpServer) -> None:
    """Each call lasts 30 s, so sixteen calls (the default bound of calls in flight) all report
    progress only if none waits for another."""
    count = limits.DEFAULT_MAX_CALLS_IN_FLIGHT
    slow = lite.tool("slow")
    progressed: set[int] = set()
    all_progressed = asyncio.Event()

    def reporter(index: int) -> Callable[[float, float | None, str | None], Awaitable[None]]:
        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            progressed.add(index)
            if len(progressed) == count:
                all_progressed.set()

        return on_progress

    calls = [
        asyncio.create_task(slow.call_outcome({"steps": 300, "delay_seconds": 0.1}, on_progress=reporter(i)))
        for i in range(count)
    ]
    try:
        await asyncio.wait_for(all_progressed.wait(), 60)
        assert not any(call.done() for call in calls)
    finally:
        for call in calls:
            call.cancel()
        await asyncio.gather(*calls, return_exceptions=True)
    outcome = await asyncio.wait_for(slow.call_outcome({"steps": 2, "delay_seconds": 0}), 30)
    assert outcome.status == "ok"  # the session is still usable


# -- 7. a server that exits right after the handshake --------------------------------------------


@pytest.mark.anyio
async def test_the_first_call_to_a_server_gone_after_the_handshake_says_so_and_where_to_look(
    live_children: Children,
) -> None:
    before = live_children()
    server = await connect_mcp(fault("brief", "exit-after-tools"))
    try:
        wait_until(lambda: live_children() <= before, "the server to exit by itself")
        outcome = await asyncio.wait_for(server.tool("echo").call_outcome({"message": "x"}), 30)
        assert isinstance(outcome.error, ConnectionClosedError)  # at once, not after the call timeout
        assert "'brief'" in str(outcome.error)
        assert "exiting after the handshake" in str(outcome.error)  # its last stderr line
        assert "%mcp" not in str(outcome.error)  # Python users are not told to run a magic
    finally:
        await asyncio.wait_for(server.close(), 30)
