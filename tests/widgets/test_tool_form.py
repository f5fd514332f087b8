"""ToolForm without a browser: fill fields as a person would, click, wait, read the result area.

The demo server runs in-process (the SDK's in-memory transport) for speed, once over stdio, and
once on the session's shared HTTP demo server (a connection with a secret); calls go through a
fresh Runtime's background loop, exactly as in a kernel.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import mcp_types as types
import pytest
from mcp.server.lowlevel import Server

from anvia_nb import UnknownConnectionError, UnknownToolError, mcp
from anvia_nb.core import Tool
from anvia_nb.core.protocol.types import ToolInfo
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.display import ResultView
from anvia_nb.runtime import Runtime
from anvia_nb.widgets.forms.tool_form import ToolForm, remembered_arguments
from tests.helpers.support import DEMO_ARGS
from tests.helpers.waiting import WAIT_SECONDS, wait_until
from tests.helpers.widgets import form


def result_text(tool_form: ToolForm) -> str:
    outputs = tool_form.output.outputs
    assert len(outputs) == 1, outputs
    text: str = outputs[0]["data"]["text/plain"]
    return text


async def no_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[])


def fill(tool_form: ToolForm, **values: Any) -> None:
    for name, value in values.items():
        tool_form.arguments.field(name).input.value = value


def test_an_untouched_required_field_disables_call_and_says_why(demo_runtime: Runtime) -> None:
    echo = form("demo.echo", runtime=demo_runtime)
    assert echo.call_button.disabled
    assert echo.reason.value == "Cannot call yet: message: required, but empty"
    assert echo.call() is False and echo.last_outcome is None
    fill(echo, message="hi")
    assert not echo.call_button.disabled and echo.reason.value == ""
    fill(echo, message="")
    assert echo.call_button.disabled and "message: required, but empty" in echo.reason.value


def test_an_invalid_value_disables_call_with_the_problem_as_reason(demo_runtime: Runtime) -> None:
    add = form("demo.add", runtime=demo_runtime)
    fill(add, a="2", b="x")
    assert add.call_button.disabled
    assert add.reason.value.startswith("Cannot call yet: b:")
    fill(add, b="3")
    assert not add.call_button.disabled


def test_clicking_call_shows_the_result_with_provenance_in_the_result_area(demo_runtime: Runtime) -> None:
    add = form("demo", "add", runtime=demo_runtime)
    fill(add, a="2", b="3")
    add.call_button.click()
    outcome = add.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.output == "5"
    assert isinstance(add.result, ResultView) and add.result.outcome is outcome
    text = result_text(add)
    assert text.startswith("[MCP demo · add] ok")
    assert "5" in text
    html = add.output.outputs[0]["data"]["text/html"]
    assert "anvia-header" in html
    recorded = list(demo_runtime.history)[-1]
    assert (recorded.tool, recorded.started_at, recorded.status) == ("add", outcome.started_at, "ok")
    assert add.progress.bar_style == "success" and not add.running


def test_server_text_in_a_result_is_escaped_in_the_result_area(demo_runtime: Runtime) -> None:
    echo = form("demo.echo", runtime=demo_runtime)
    fill(echo, message='<img src=x onerror="window.__anvia_pwned=1">')
    echo.call()
    echo.wait(WAIT_SECONDS)
    html = echo.output.outputs[0]["data"]["text/html"]
    assert "<img" not in html
    assert "&lt;img src=x onerror=" in html


def test_the_click_handler_returns_at_once_while_the_call_runs(demo_runtime: Runtime) -> None:
    slow = form("demo.slow", runtime=demo_runtime)
    fill(slow, steps="600", delay_seconds="0.1")  # a minute: a click that waited for it would show it done
    slow.call_button.click()
    assert slow.running
    assert slow.call_button.disabled and not slow.cancel_button.disabled
    assert slow.reason.value == "A call is running…"
    slow.cancel_button.click()
    slow.wait(WAIT_SECONDS)
    assert slow.cancel_button.disabled and not slow.call_button.disabled


def test_the_progress_bar_follows_the_server_and_reaches_its_total(demo_runtime: Runtime) -> None:
    slow = form("demo.slow", runtime=demo_runtime)
    fill(slow, steps="5", delay_seconds="0.02")
    slow.call()
    outcome = slow.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.output == "done after 5 steps"
    assert len(outcome.progress) == 5
    assert slow.progress.max == 5.0 and slow.progress.value == 5.0
    assert slow.progress.description == "5/5"
    assert slow.progress.layout.display is None


def test_cancel_stops_a_long_call_promptly_tells_the_server_and_the_session_stays_usable(
    demo_runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="anvia_nb.demo_server")
    slow = form("demo.slow", runtime=demo_runtime)
    fill(slow, steps="2000", delay_seconds="0.05")  # 100 s: only the cancel can end it within the wait
    slow.call()
    wait_until(lambda: slow.progress.value >= 1, "the first progress step")
    slow.cancel_button.click()
    slow.wait(30)
    assert result_text(slow).startswith("Cancelled: the call to demo · slow")
    assert slow.last_outcome is None and not slow.running
    wait_until(lambda: "slow cancelled after" in caplog.text, "the server to see the cancellation")

    echo = form("demo.echo", runtime=demo_runtime)
    fill(echo, message="still here")
    echo.call()
    outcome = echo.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.output == "still here"
    slow.call()  # the cancelled form itself calls again
    assert slow.cancel_button.disabled is False
    slow.cancel()
    slow.wait(30)


def slow_form_running(runtime: Runtime) -> ToolForm:
    """A form of demo.slow whose long call has reported its first step."""
    slow = form("demo.slow", runtime=runtime)
    fill(slow, steps="2000", delay_seconds="0.05")
    slow.call()
    wait_until(lambda: slow.progress.value >= 1, "the first progress step")
    return slow


def test_a_cancelled_call_has_ended_when_wait_returns_so_the_form_hosts_no_more_prompts(demo_runtime: Runtime) -> None:
    from anvia_nb.widgets.prompts.elicitation import _host_for

    slow = slow_form_running(demo_runtime)
    client = demo_runtime.server("demo").client
    assert _host_for(client) is slow  # while it runs, the server's requests for input show in it
    slow.cancel()
    slow.wait(30)
    assert _host_for(client) is None and not slow.running
    # So a later call that asks for input is not routed to this finished form (where it would wait
    # for a click until its prompt timed out): outside a notebook it is cancelled at once, and counted.
    before = client.unanswered_elicitations
    outcome = demo_runtime.call("demo", "confirm_action", {"action": "rotate the keys"}, timeout_seconds=30)
    assert outcome.error is None and client.unanswered_elicitations == before + 1


def test_a_blocking_call_that_asks_for_input_while_a_form_calls_is_not_prompted_in_that_form(
    demo_runtime: Runtime,
) -> None:
    slow = slow_form_running(demo_runtime)
    client = demo_runtime.server("demo").client
    before = client.unanswered_elicitations
    try:
        # What %mcp call does: its caller blocks until the call ends, so its request for input can
        # only be cancelled (and counted, for the magic's note), not shown in the slow form (where
        # nobody would look, and the call would wait until its timeout).
        outcome = demo_runtime.call("demo", "confirm_action", {"action": "rotate the keys"}, timeout_seconds=20)
        assert outcome.error is None and outcome.output is not None
        assert "Cancelled: rotate the keys" in str(outcome.output)
        assert client.unanswered_elicitations == before + 1
        assert slow.prompts.shown == [] and slow.prompts.refused == 0 and slow.running
    finally:
        slow.cancel()
        slow.wait(30)


def test_a_task_started_during_a_forms_call_does_not_route_prompts_to_it_after_the_call(
    demo_runtime: Runtime,
) -> None:
    from anvia_nb.widgets.prompts.elicitation import _current_host, _host_for

    echo = form("demo.echo", runtime=demo_runtime)
    fill(echo, message="hi")
    echo.call()
    assert echo.wait(WAIT_SECONDS) is not None
    client = demo_runtime.server("demo").client
    token = _current_host.set(echo)  # the context such a task copied while the call ran
    try:
        assert _host_for(client) is None  # the call ended: the form shows no more prompts
    finally:
        _current_host.reset(token)


def test_a_new_form_for_the_same_tool_starts_with_the_last_arguments(demo_runtime: Runtime) -> None:
    first = form("demo.add", runtime=demo_runtime)
    fill(first, a="1.5", b="4")
    first.call()
    first.wait(WAIT_SECONDS)
    assert remembered_arguments("demo", "add") == {"a": 1.5, "b": 4}
    second = form("demo.add", runtime=demo_runtime)
    assert second.arguments.value == {"a": 1.5, "b": 4}
    assert not second.call_button.disabled
    assert form("demo.echo", runtime=demo_runtime).arguments.field("message").input.value == ""


def test_a_destructive_tool_warns_before_it_is_called(demo_runtime: Runtime) -> None:
    crash = form("demo.crash", runtime=demo_runtime)
    assert crash.warning.layout.display is None
    assert "Warning: destructive tool." in crash.warning.value
    assert "demo · crash declares destructiveHint: true" in crash.warning.value
    assert crash.call_button.description == "Call (destructive)"
    assert crash.call_button.button_style == "danger"
    assert "hints from the server: may change things, destructive" in crash.header.value

    echo = form("demo.echo", runtime=demo_runtime)
    assert echo.warning.value == "" and echo.warning.layout.display == "none"
    assert echo.call_button.description == "Call"


def test_a_servers_title_and_description_are_shown_escaped_in_the_header(demo_runtime: Runtime) -> None:
    server = demo_runtime.server("demo")
    info = ToolInfo(
        server="demo",
        name="echo",
        title="<b>bold</b>",
        description='<img src=x onerror="window.__anvia_pwned=1">\u202eevil',
        annotations={"destructiveHint": True},
    )
    tool_form = ToolForm(Tool(info, server), runtime=demo_runtime)
    header = tool_form.header.value
    assert "<img" not in header and "<b>bold" not in header
    assert "&lt;img src=x onerror=" in header and "&lt;b&gt;bold&lt;/b&gt;" in header
    assert "\u202e" not in header and "U+202E" in header
    assert "description from server demo" in header


def test_a_tool_error_is_shown_as_an_error(demo_runtime: Runtime) -> None:
    fail = form("demo.fail", runtime=demo_runtime)
    fill(fail, message="it broke")
    fail.call()
    outcome = fail.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.is_error
    assert result_text(fail).startswith("[MCP demo · fail] tool error")
    assert fail.progress.bar_style == "danger"


def test_a_form_whose_connection_closed_says_so_in_place_and_recovers_when_the_name_reconnects(
    demo_runtime: Runtime,
) -> None:
    echo = form("demo.echo", runtime=demo_runtime)
    fill(echo, message="hi")
    old = demo_runtime.server("demo")
    demo_runtime.close("demo")  # what a notebook ending with %mcp close does after Run All
    assert echo.closed and echo.status.layout.display is None
    assert "demo is closed: reconnect with %mcp connect demo" in echo.status.value
    assert echo.call_button.disabled and echo.reason.value == "Cannot call yet: the connection demo is closed"
    assert echo.call() is False and echo.last_error is None and echo.output.outputs == ()
    assert "demo is closed" in echo._repr_mimebundle_()["text/plain"]

    demo_runtime.connect(mcp.memory(name="demo", server=build_server()))
    new = demo_runtime.server("demo")
    assert new is not old
    assert not echo.closed and echo.status.value == "" and echo.status.layout.display == "none"
    assert not echo.call_button.disabled and echo.arguments.value == {"message": "hi"}
    echo.call_button.click()
    outcome = echo.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.output == "hi" and echo.last_error is None
    assert demo_runtime.calls()[-1].started_at == outcome.started_at  # the history keeps its summary


def test_a_reconnected_name_without_the_tool_says_so_and_keeps_call_disabled(demo_runtime: Runtime) -> None:
    echo = form("demo.echo", runtime=demo_runtime)
    fill(echo, message="hi")
    server = build_server()
    demo_runtime.close("demo")
    demo_runtime.connect(mcp.memory(name="other", server=server))  # another name changes nothing
    assert echo.closed and "demo is closed" in echo.status.value
    bare = Server("bare", on_list_tools=no_tools)  # a server under the same name, without the tool
    demo_runtime.connect(mcp.memory(name="demo", server=bare))
    assert echo.closed and echo.status.value.count("demo is connected again, but has no tool echo") == 1
    assert echo.call_button.disabled


def test_without_widgets_a_form_reads_as_what_it_is_for_with_its_tool_and_server(
    live_children: Callable[[], set[int]], demo_http_url: str
) -> None:
    before = live_children()
    rt = Runtime()
    secret = "sk-live-51HqMASKME"
    try:  # the secret is a header of the connection: a session on the shared HTTP demo server
        rt.connect(mcp.http(name="demo", url=demo_http_url, headers={"X-Api-Key": secret}))
        server = rt.server("demo")
        hostile = Tool(
            ToolInfo(
                server="demo",
                name="leaky",
                title="Title\u202e " + secret,
                description="Uses " + secret + " " + "d" * 50_000,
                input_schema={"type": "object"},
            ),
            server,
        )
        bundle = ToolForm(hostile, runtime=rt)._repr_mimebundle_()
        text = bundle["text/plain"]
        assert "application/vnd.jupyter.widget-view+json" in bundle
        assert text.startswith("anvia_nb form: calls the tool leaky of the MCP server demo.")
        assert "VBox" not in text and "<div" not in text
        assert secret not in text and "\u202e" not in text and "••••••" in text and "⟨U+202E⟩" in text
        assert len(text) < 1_000 and "press Call in a live notebook" in text
    finally:
        rt.shutdown()
    assert live_children() <= before


def test_unknown_names_raise_one_line_errors(demo_runtime: Runtime) -> None:
    with pytest.raises(UnknownConnectionError, match="No connection named 'dmeo'.*Did you mean demo"):
        form("dmeo.echo", runtime=demo_runtime)
    with pytest.raises(UnknownToolError, match="has no tool 'ecko'"):
        form("demo.ecko", runtime=demo_runtime)
    with pytest.raises(UnknownToolError, match=r"NAME\.TOOL"):
        form("demo", runtime=demo_runtime)
    with pytest.raises(UnknownToolError) as caught:
        form(("demo", "nope"), runtime=demo_runtime)
    assert "\n" not in str(caught.value)


def test_a_tool_object_or_a_pair_names_the_same_tool(demo_runtime: Runtime) -> None:
    tool = demo_runtime.server("demo").tool("echo")
    by_object = form(tool, runtime=demo_runtime)
    by_pair = form(("demo", "echo"), runtime=demo_runtime)
    assert by_object.info == by_pair.info == tool.info
    fill(by_object, message="object")
    by_object.call()
    outcome = by_object.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.output == "object"


def test_a_form_calls_a_server_over_stdio(live_children: Callable[[], set[int]]) -> None:
    before = live_children()  # session-wide servers of other tests may be running
    rt = Runtime()
    try:
        rt.connect(mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS))
        slow = form("demo.slow", runtime=rt)
        fill(slow, steps="3", delay_seconds="0.01")
        slow.call_button.click()
        outcome = slow.wait(WAIT_SECONDS)
        assert outcome is not None and outcome.output == "done after 3 steps"
        assert slow.progress.value == slow.progress.max == 3.0
    finally:
        rt.shutdown()
    assert live_children() <= before


def test_importing_the_package_and_its_pure_part_loads_no_ipywidgets_and_form_stays_a_function() -> None:
    # Only the first half needs a fresh interpreter (this one has ipywidgets loaded), and that
    # half loads no SDK and no Jupyter, so it costs a fraction of a second.
    code = (
        "import sys, anvia_nb, anvia_nb.widgets, anvia_nb.widgets.spec\n"
        "assert 'ipywidgets' not in sys.modules, 'ipywidgets imported'\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr
    # The second half holds whatever order the submodules were imported in: here, after them all.
    import anvia_nb.widgets as w
    from anvia_nb.widgets.explorer.panel import Panel
    from anvia_nb.widgets.forms.tool_form import ToolForm

    assert ToolForm.__module__ == "anvia_nb.widgets.forms.tool_form"
    assert Panel.__module__ == "anvia_nb.widgets.explorer.panel"
    assert callable(w.form) and w.form.__module__ == "anvia_nb.widgets", w.form
    assert callable(w.panel) and w.panel.__module__ == "anvia_nb.widgets", w.panel
