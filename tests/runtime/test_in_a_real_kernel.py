"""anvia_nb inside a real ipykernel, driven over ZMQ like a notebook: cells that connect and close
in different cells, nest_asyncio applied by the user, and no orphan server after a restart."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from queue import Empty
from typing import Any

import pytest
from jupyter_client.manager import KernelManager

from tests.helpers.lite_server import LITE_ARGS, LITE_STDIO
from tests.helpers.waiting import wait_until

pytestmark = pytest.mark.slow  # each test starts a real kernel: left out of scripts/test --quick

TIMEOUT_SECONDS = 90


class Kernel:
    def __init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
        # The native "python3" kernel is this interpreter's ipykernel.
        self.manager = KernelManager(kernel_name="python3")
        self.manager.start_kernel(env=env)
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=TIMEOUT_SECONDS)

    @property
    def pid(self) -> int:
        provisioner = self.manager.provisioner
        assert provisioner is not None
        return int(provisioner.process.pid)  # type: ignore[attr-defined]

    def run(self, code: str) -> str:
        """Run one cell; return its stdout and text results; fail on an error."""
        msg_id = self.client.execute(code)
        texts: list[str] = []
        while True:
            try:
                msg = self.client.get_iopub_msg(timeout=TIMEOUT_SECONDS)
            except Empty:
                raise AssertionError(f"no answer from the kernel for {code!r}") from None
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                texts.append(content["text"])
            elif kind in ("execute_result", "display_data"):
                texts.append(str(content["data"].get("text/plain", "")))
            elif kind == "error":
                raise AssertionError(f"{content['ename']}: {content['evalue']}")
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(texts)

    def restart(self) -> None:
        self.manager.restart_kernel(now=False)
        self.client.wait_for_ready(timeout=TIMEOUT_SECONDS)

    def stop(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=False)


@pytest.fixture
def kernel() -> Iterator[Kernel]:
    k = Kernel()
    try:
        yield k
    finally:
        k.stop()


# The kernel's servers are ``lite_server.py`` (the demo's echo and slow, started in milliseconds)
# where a test follows processes and cells; the demo server where it uses the demo's own tools.
CONNECT = (
    "import sys\nfrom anvia_nb import connect_mcp, mcp\n"
    f"server = await connect_mcp(mcp.stdio(name='demo', command=sys.executable, args={LITE_ARGS!r}))"
)


def test_connect_in_one_cell_call_in_another_and_close_in_a_third(kernel: Kernel) -> None:
    kernel.run(CONNECT)
    assert kernel.run("print(await server.tool('echo').call({'message': 'from cell two'}))") == "from cell two\n"
    kernel.run("await server.close()")
    assert kernel.run("print(server.is_open)") == "False\n"


def test_the_magic_works_after_the_user_applied_nest_asyncio(kernel: Kernel) -> None:
    kernel.run("import nest_asyncio\nnest_asyncio.apply()\n%load_ext anvia_nb")
    line = kernel.run("%mcp connect demo --stdio python -m anvia_nb.demo_server")
    assert line.startswith("demo: stdio · anvia-demo")
    assert kernel.run("r = %mcp call demo.add a=2 b=3\nprint(r.structured)") == "{'sum': 5}\n"
    kernel.run(CONNECT.replace("'demo'", "'direct'"))  # the awaitable API beside it
    assert kernel.run("print(await server.tool('echo').call({'message': 'nested'}))") == "nested\n"
    kernel.run("await server.close()\n%mcp close demo")


def test_a_kernel_restart_leaves_no_server_process(
    kernel: Kernel,
    live_children: Callable[[int], set[int]],
    pid_alive: Callable[[int], bool],
) -> None:
    kernel.run(f"%load_ext anvia_nb\n%mcp connect demo {LITE_STDIO}")
    kernel.run(CONNECT.replace("'demo'", "'unclosed'"))  # never closed by the user
    servers = live_children(kernel.pid)
    assert len(servers) >= 2
    kernel.restart()

    def gone() -> bool:
        return not any(pid_alive(pid) for pid in servers)

    wait_until(gone, what="the servers of the old kernel to exit")


def _interrupt(kernel: Kernel, msg_id: str) -> tuple[str, list[dict[str, Any]], str]:
    """Interrupt the running cell ``msg_id``: its reply status, its tracebacks and its stderr."""
    kernel.manager.interrupt_kernel()
    errors: list[dict[str, Any]] = []
    stderr: list[str] = []
    while True:
        msg = kernel.client.get_iopub_msg(timeout=TIMEOUT_SECONDS)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "error":
            errors.append(msg["content"])
        elif msg["msg_type"] == "stream" and msg["content"]["name"] == "stderr":
            stderr.append(msg["content"]["text"])
        elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
    reply = kernel.client.get_shell_msg(timeout=TIMEOUT_SECONDS)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kernel.client.get_shell_msg(timeout=TIMEOUT_SECONDS)
    return str(reply["content"]["status"]), errors, "".join(stderr)


# A server that never answers the handshake; it writes its pid to the file given, so a test knows
# when the connect is under way and which process must be gone after it.
SLOW_START = (
    "--stdio python -c \"import os, sys, time; p = sys.argv[1]; open(p + '.tmp', 'w').write(str(os.getpid())); "
    "os.replace(p + '.tmp', p); time.sleep(120)\""
)


def test_a_kernel_interrupt_during_a_connect_stops_the_server_and_says_so_in_one_line(
    kernel: Kernel, tmp_path: Path, pid_alive: Callable[[int], bool]
) -> None:
    kernel.run("%load_ext anvia_nb")
    pid_file = tmp_path / "pid"
    msg_id = kernel.client.execute(f"%mcp connect slow {SLOW_START} {pid_file}")
    wait_until(pid_file.exists, what="the server to start")
    pid = int(pid_file.read_text())
    status, errors, stderr = _interrupt(kernel, msg_id)
    assert status == "error"  # so "Run all" stops here
    assert errors == []  # no traceback
    assert stderr.strip() == "UsageError: connect to slow was interrupted; the server was stopped."
    wait_until(lambda: not pid_alive(pid), what="the server to exit")
    assert "slow" not in kernel.run("print(get_ipython().run_line_magic('mcp', 'servers'))")


def test_a_kernel_interrupt_stops_a_running_call_and_the_server_is_told(kernel: Kernel) -> None:
    kernel.run(f"%load_ext anvia_nb\n%mcp connect demo {LITE_STDIO}")
    log = kernel.run(
        "from anvia_nb.runtime import get_runtime\nprint(get_runtime().server('demo').client.log.stderr_path)"
    )
    msg_id = kernel.client.execute("%mcp call demo.slow steps=600 delay_seconds=0.1")
    # Interrupt once the server is working on the call, as a person pressing stop would.
    wait_until(lambda: "slow started" in Path(log.strip()).read_text(), what="the call to start")
    status, errors, stderr = _interrupt(kernel, msg_id)
    assert status == "error"  # so "Run all" stops here
    assert errors == []  # no traceback
    assert stderr.strip() == "UsageError: demo.slow was interrupted: the call was cancelled on the server."
    wait_until(lambda: "slow cancelled" in kernel.run("%mcp log demo"), what="the cancellation")
    assert kernel.run("r = %mcp call demo.echo message=alive\nprint(r.output)") == "alive\n"


@pytest.mark.parametrize("protocol", ["2026-07-28", "2025-11-25"])
def test_a_request_for_input_during_a_blocking_call_is_cancelled_at_once_with_a_note(
    kernel: Kernel, protocol: str
) -> None:
    # 2026-07-28 asks in the call's own task; 2025-11-25 sends elicitation/create, which the
    # session's reader delivers from outside any call.
    kernel.run(f"%load_ext anvia_nb\n%mcp connect demo --protocol {protocol} --stdio python -m anvia_nb.demo_server")
    # What a form does before its first call: install the handler that shows prompts.
    kernel.run("from anvia_nb.widgets import enable_elicitation\nrouter = enable_elicitation('demo')")
    shown = kernel.run("r = %mcp call demo.confirm_action action=deploy\nprint(r.output)")
    # A prompt in this cell could never receive its click while the magic holds the kernel.
    assert "Cancelled: deploy" in shown
    assert "use %mcp form demo.confirm_action" in shown
    assert "asked for input" in kernel.run("%mcp log demo")
