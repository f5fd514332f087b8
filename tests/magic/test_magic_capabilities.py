"""%mcp and what a server may ask of the client: --root, --background, the task column, sampling notes."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic.parse.call import parse_call
from anvia_nb.magic.parse.connect import parse_connect
from anvia_nb.runtime import get_runtime
from anvia_nb.widgets.background_view import BackgroundCallView
from tests.helpers.magic import DEMO_STDIO, run
from tests.helpers.waiting import WAIT_SECONDS, wait_until


def test_root_and_background_parse() -> None:
    command = parse_connect("fs --root /a --root=/b --stdio srv /a")
    assert command.roots == ("/a", "/b") and command.args == ("/a",)  # type: ignore[union-attr]
    call = parse_call("--background demo.long_job steps=2")
    assert call.background and call.arguments == {"steps": 2}
    assert not parse_call("demo.echo message=hi").background


def test_a_missing_root_is_one_line_and_nothing_connects(ip: InteractiveShell, tmp_path: Path) -> None:
    with pytest.raises(UsageError) as caught:
        run(ip, f"connect fs --root {tmp_path / 'nowhere'} {DEMO_STDIO}")
    assert "does not exist: give an existing directory" in str(caught.value)
    assert "\n" not in str(caught.value)
    assert "fs" not in get_runtime().names()


def test_roots_show_in_servers_and_the_task_column_in_tools(
    ip: InteractiveShell, tmp_path: Path, demo_http_url: str
) -> None:
    run(ip, f"connect rooted --root {tmp_path} --http {demo_http_url}")
    servers = run(ip, "servers")
    assert servers.set_index("name").loc["rooted", "roots"] == [str(tmp_path.resolve())]
    tools = run(ip, "tools rooted").set_index("name")
    assert tools.loc["long_job", "task"] == "required"
    assert pd.isna(tools.loc["echo", "task"])  # the server said nothing: forbidden


def test_a_background_call_returns_at_once_and_its_view_ends_with_the_result(ip: InteractiveShell, demo: str) -> None:
    view = run(ip, f"call --background {demo}.long_job steps=2 delay_seconds=0.01")
    assert isinstance(view, BackgroundCallView)
    result = view.wait(WAIT_SECONDS)
    assert result.output == "done after 2 steps"
    wait_until(lambda: view.result is not None, "the view to show the result")
    assert "completed" in view.status_line.value and view.cancel_button.disabled
    assert "done after 2 steps" in view.output.outputs[0]["data"]["text/html"]
    wait_until(lambda: len(get_runtime().calls()) == 1, "the history to record it")
    assert get_runtime().calls()[0].tool == "long_job"


def test_the_cancel_button_cancels_a_background_task(ip: InteractiveShell, demo: str) -> None:
    view = run(ip, f"call --background {demo}.long_job steps=10000 delay_seconds=0.01")
    wait_until(lambda: view.call.task_id is not None, "the task to be created")
    view.cancel_button.click()
    result = view.wait(WAIT_SECONDS)
    assert result.status == "cancelled" and "tasks/cancel" in str(result.error)
    wait_until(lambda: "cancelled" in view.status_line.value, "the view to say so")


def test_a_background_call_is_bounded_like_every_call(ip: InteractiveShell, demo: str) -> None:
    """No --timeout: the %config timeout bounds it, as it bounds a call in the foreground."""
    ip.run_line_magic("config", "McpMagics.timeout_seconds = 0.3")
    try:
        view = run(ip, f"call --background {demo}.slow steps=1 delay_seconds=60")  # silent: progress keeps alive
        assert view.wait(WAIT_SECONDS).status == "timeout"
        unbounded = run(ip, f"call --background {demo}.slow steps=3 delay_seconds=0.2 --timeout none")
        assert unbounded.wait(WAIT_SECONDS).status == "ok"
    finally:
        ip.run_line_magic("config", "McpMagics.timeout_seconds = 60.0")


def test_a_foreground_call_of_a_task_only_tool_waits_for_the_task(ip: InteractiveShell, demo: str) -> None:
    assert run(ip, f"call {demo}.long_job steps=2 delay_seconds=0").output == "done after 2 steps"


def test_a_declined_sampling_request_is_noted_in_the_cell(
    ip: InteractiveShell, demo: str, capsys: pytest.CaptureFixture[str]
) -> None:
    result = run(ip, f'call {demo}.ask_model question="2+2?"')
    assert result.status == "failed" and "declined the sampling request" in str(result.error)
    assert "asked for sampling" in capsys.readouterr().err
