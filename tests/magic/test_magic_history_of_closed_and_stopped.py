"""``%mcp history`` and what reads it, when a call was interrupted or its connection closed since:
an interrupted call is a row of the history; a hint never names a closed connection; a test file
is written of the calls it can repeat, and says which were left out and why."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from anvia_nb.runtime import get_runtime
from tests.helpers.magic import DEMO_STDIO, run
from tests.helpers.waiting import wait_until


def test_an_interrupted_call_is_a_row_of_the_history(ip: InteractiveShell, demo: str) -> None:
    trace = get_runtime().server(demo).trace

    def sent_calls() -> int:
        return sum(1 for e in trace.entries() if e.direction == "sent" and e.method == "tools/call")

    before = sent_calls()

    def interrupt_once_it_is_sent() -> None:
        wait_until(lambda: sent_calls() > before, "the slow call to be sent", seconds=60)
        os.kill(os.getpid(), signal.SIGINT)  # the kernel's stop button

    watcher = threading.Thread(target=interrupt_once_it_is_sent, daemon=True)
    watcher.start()
    with pytest.raises(UsageError, match="was interrupted"):
        run(ip, f"call {demo}.slow steps=2000 delay_seconds=0.05")
    watcher.join(60)
    history = run(ip, "history")
    assert list(history["tool"]) == ["slow"]
    assert history["status"].iloc[0] == "cancelled"
    assert "interrupted" in history["error"].iloc[0]
    assert '"steps": 2000' in history["arguments"].iloc[0]


def test_a_trace_hint_never_names_a_closed_connection(ip: InteractiveShell, demo_http_url: str) -> None:
    run(ip, f"connect evr --http {demo_http_url}")
    run(ip, f"connect shut {DEMO_STDIO}")
    run(ip, "call evr.add a=1 b=2")
    run(ip, "call shut.add a=3 b=4")
    run(ip, "close shut")
    with pytest.raises(UsageError) as caught:
        run(ip, "trace evr --call -1")
    message = str(caught.value)
    assert "%mcp trace shut" not in message, message  # closed: its trace went with it
    assert message.endswith("%mcp trace evr --call -2."), message  # the last call that went to evr
    assert len(run(ip, "trace evr --call -2")) > 0  # and that hint works
    run(ip, "close evr")


def test_to_pytest_writes_the_calls_it_can_and_names_those_left_out(
    ip: InteractiveShell, tmp_path: Path, demo_http_url: str
) -> None:
    run(ip, f"connect kept --http {demo_http_url}")
    run(ip, f"connect gone {DEMO_STDIO}")
    run(ip, "call kept.add a=1 b=2")
    run(ip, "call gone.add a=3 b=4")
    run(ip, "call gone.echo message=hi")
    run(ip, "close gone")
    written = tmp_path / "test_session.py"
    with capture_output() as captured:
        run(ip, f"history --to-pytest {written}")
    source = written.read_text(encoding="utf-8")
    assert "runtime.call('kept', 'add', {'a': 1, 'b': 2})" in source
    assert "'gone'" not in source
    assert "wrote" in captured.stdout and "1 call as tests" in captured.stdout
    assert "left out 2 calls to gone: gone is closed" in captured.stdout
    run(ip, "close kept")
