"""The background runtime: sessions by name, interrupts, leaks, and interpreter exit."""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable

import pytest

from anvia_nb import UnknownConnectionError, mcp
from anvia_nb.core import StdioConnection
from anvia_nb.runtime import Runtime
from tests.helpers.lite_server import LITE_ARGS
from tests.helpers.support import DEMO_ARGS
from tests.helpers.waiting import wait_until

DEMO = DEMO_ARGS


def demo(name: str = "demo") -> StdioConnection:
    """The bundled demo server: for the test here that follows the real server's life."""
    return mcp.stdio(name=name, command=sys.executable, args=DEMO)


def lite(name: str = "demo") -> StdioConnection:
    """A standard-library server with the demo's echo, fail, slow and crash: it starts in
    milliseconds, for the tests whose subject is the process's life, not the demo's tools."""
    return mcp.stdio(name=name, command=sys.executable, args=LITE_ARGS)


def test_reconnecting_a_name_replaces_the_old_session_and_its_process(
    runtime: Runtime, live_children: Callable[[], set[int]]
) -> None:
    # The replaced server is the real demo server, so its own way of ending is covered here; the
    # replacement only has to start.
    before = live_children()
    first = runtime.connect(demo()).server
    first_pids = live_children() - before
    assert first_pids
    second = runtime.connect(lite())
    assert second.warnings == []
    assert not first.is_open
    assert second.server.is_open
    assert not (live_children() & first_pids)
    assert runtime.names() == ["demo"]


def test_unknown_connection_names_the_open_ones(runtime: Runtime) -> None:
    runtime.connect(lite("alpha"))
    with pytest.raises(UnknownConnectionError, match="alpha"):
        runtime.server("alpah")


def test_calls_are_recorded_in_the_history(runtime: Runtime) -> None:
    runtime.connect(lite())
    runtime.call("demo", "echo", {"message": "one"})
    runtime.call("demo", "fail", {"message": "two"})
    assert [(o.tool, o.status) for o in runtime.history] == [("echo", "ok"), ("fail", "tool error")]


def test_a_kernel_interrupt_cancels_the_call_and_the_server_is_told(runtime: Runtime) -> None:
    server = runtime.connect(lite()).server
    stop = threading.Event()

    def interrupt_once_started() -> None:  # as a person pressing stop once the server is at work
        wait_until(
            lambda: stop.is_set() or "slow started" in server.client.log.stderr_text(), "the server's 'slow started'"
        )
        if not stop.is_set():
            os.kill(os.getpid(), signal.SIGINT)

    pressing = threading.Thread(target=interrupt_once_started)
    pressing.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            runtime.call("demo", "slow", {"steps": 600, "delay_seconds": 0.1})
    finally:
        stop.set()
        pressing.join()
    # The session survives the interrupt and the server logged the cancellation.
    assert runtime.call("demo", "echo", {"message": "after"}).output == "after"
    # Written before it answered the echo, but stderr is another pipe, read on its own: wait for it.
    sent = [entry.method for entry in server.client.trace.entries() if entry.direction == "sent"]
    assert "notifications/cancelled" in sent, f"the server was never told; sent: {sent}"
    wait_until(lambda: "slow cancelled" in server.client.log.stderr_text(), what="the server's 'slow cancelled'")


def test_closing_everything_stops_every_server(runtime: Runtime, live_children: Callable[[], set[int]]) -> None:
    before = live_children()
    for name in ("a", "b", "c"):
        runtime.connect(lite(name))
    assert len(live_children() - before) >= 3
    assert runtime.close_all() == []
    assert live_children() <= before


def test_a_dead_server_is_reported_not_hung(runtime: Runtime) -> None:
    runtime.connect(lite())
    outcome = runtime.call("demo", "crash", {}, timeout_seconds=30)
    assert outcome.is_error
    assert runtime.close("demo") == []


SCRIPT_EXIT = """
import sys
LITE_ARGS = sys.argv[1:]
from anvia_nb import mcp
from anvia_nb.runtime import get_runtime
from anvia_nb.core.api.server import connect_mcp
import asyncio

rt = get_runtime()
rt.connect(mcp.stdio(name="kept", command=sys.executable, args=LITE_ARGS))

async def leak():
    # A session opened on a loop that then ends, never closed: the atexit hook must kill it.
    await connect_mcp(mcp.stdio(name="leaked", command=sys.executable, args=LITE_ARGS))

loop = asyncio.new_event_loop()
loop.run_until_complete(leak())
import contextlib
import os
print(" ".join(l for l in os.popen(f"pgrep -P {os.getpid()}").read().split()))
"""


@pytest.mark.slow
def test_interpreter_exit_closes_every_session_and_process(pid_alive: Callable[[int], bool]) -> None:
    # Servers that outlive the end of their stdin: only the exit hook's signal ends them.
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCRIPT_EXIT), *LITE_ARGS, "--ignore-eof"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) >= 2

    def all_gone() -> bool:
        return not any(pid_alive(pid) for pid in pids)

    try:
        wait_until(all_gone, what="the servers to exit with the interpreter")
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


SCRIPT_NEST = """
import asyncio, sys
LITE_ARGS = sys.argv[1:]
import nest_asyncio
nest_asyncio.apply()
from anvia_nb import connect_mcp, mcp
from anvia_nb.runtime import get_runtime

rt = get_runtime()
rt.connect(mcp.stdio(name="demo", command=sys.executable, args=LITE_ARGS))
print(rt.call("demo", "echo", {"message": "sync"}).output)

async def cell():
    server = await connect_mcp(mcp.memory(name="mem", server=__import__("anvia_nb.demo_server.handlers",
        fromlist=["build_server"]).build_server()))
    out = await server.tool("echo").call({"message": "nested"})
    inner = asyncio.run(asyncio.sleep(0, result="inner"))  # what nest_asyncio users do
    await server.close()
    return out, inner

print(*asyncio.run(cell()))
print(rt.close("demo"))
"""


@pytest.mark.slow
def test_it_works_in_a_process_where_nest_asyncio_was_applied() -> None:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCRIPT_NEST), *LITE_ARGS], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == ["sync", "nested inner", "[]"]


def test_closing_also_ends_what_the_server_started_itself(
    runtime: Runtime,
    live_children: Callable[[], set[int]],
    pid_alive: Callable[[int], bool],
) -> None:
    before = live_children()
    # The server leaves a grandchild behind in its process group, as npx/uvx wrappers do.
    wrapper = f"sleep 300 & exec {shlex.join([sys.executable, *LITE_ARGS])}"
    runtime.connect(mcp.stdio(name="wrapped", command="sh", args=["-c", wrapper]))
    started = live_children() - before
    assert len(started) >= 2
    assert runtime.close("wrapped") == []
    # By pid: an orphaned grandchild is re-parented and would no longer count as our descendant.
    wait_until(lambda: not any(pid_alive(p) for p in started), what="the grandchild to end")


def test_two_concurrent_connects_of_one_name_leave_one_session_and_one_server(
    runtime: Runtime, live_children: Callable[[], set[int]]
) -> None:
    import asyncio

    before = live_children()

    async def both() -> None:
        await asyncio.gather(runtime.connect_async(lite("twin")), runtime.connect_async(lite("twin")))

    asyncio.run(both())
    assert runtime.names() == ["twin"]
    assert len(live_children() - before) == 1
    assert runtime.close_all() == []
    assert live_children() <= before


def test_the_history_can_be_read_while_calls_are_recorded(runtime: Runtime) -> None:
    runtime.connect(lite())
    runtime.set_history_limit(3)
    for word in "abcd":
        runtime.call("demo", "echo", {"message": word})
    assert [o.arguments for o in runtime.calls()] == [{"message": w} for w in "bcd"]


SCRIPT_TIMED_OUT_CONNECT = """
from IPython.testing.globalipapp import start_ipython
ip = start_ipython()
ip.run_line_magic("load_ext", "anvia_nb")
ip.run_line_magic("config", "McpMagics.connect_timeout_seconds = 2")
try:
    ip.run_line_magic("mcp", "connect sleepy --stdio python -c 'import time; time.sleep(60)'")
except Exception as exc:
    print("connect failed:", exc)
ip.run_line_magic("mcp", "close --all")
print("closed")
"""


@pytest.mark.slow  # a fresh interpreter and a connect that times out
def test_a_connect_that_timed_out_leaves_no_stray_loop_line_at_close_or_exit() -> None:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCRIPT_TIMED_OUT_CONNECT)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "connect failed:" in done.stdout and "closed" in done.stdout
    assert "that handles pid" not in done.stderr
    assert "is closed" not in done.stderr
