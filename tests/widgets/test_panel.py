"""The explorer panel without a browser: choose a connection, filter, select, call, re-run."""

from __future__ import annotations

import gc
import threading
import weakref
from typing import Any

import mcp_types as types
import pytest
from mcp.server.lowlevel import Server

from anvia_nb import mcp
from anvia_nb.core.protocol.types import CallOutcome
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.runtime import Runtime
from anvia_nb.widgets import panel
from anvia_nb.widgets.explorer.panel_text import HOW_TO_CONNECT
from anvia_nb.widgets.forms.tool_form import ToolForm
from tests.helpers.waiting import WAIT_SECONDS

BIG = 2_000_000


async def no_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[])


def connect_demo(rt: Runtime, name: str = "demo") -> None:
    rt.connect(mcp.memory(name=name, server=build_server()))


def test_with_no_connection_the_panel_says_how_to_connect(runtime: Runtime) -> None:
    explorer = panel(runtime=runtime)
    assert explorer.connection.options == ()
    assert explorer.tool_names() == [] and explorer.form is None
    assert "No open connections" in explorer.notice.value and "%mcp connect" in explorer.notice.value
    assert explorer.rerun() is False

    connect_demo(runtime)
    explorer.refresh_button.click()
    assert explorer.connection.value == "demo"
    assert explorer.notice.value == ""
    assert "echo" in explorer.tool_names()
    assert HOW_TO_CONNECT.startswith("No open connections")


def test_choosing_a_connection_lists_its_tools_and_the_filter_narrows_them(runtime: Runtime) -> None:
    connect_demo(runtime, "alpha")
    connect_demo(runtime, "beta")
    explorer = panel(runtime=runtime)
    assert [value for _label, value in explorer.connection.options] == ["alpha", "beta"]
    explorer.connection.value = "beta"
    assert explorer.server is not None and explorer.server.name == "beta"
    for_cells = [tool.name for tool in runtime.server("beta").tools if tool.info.for_cells]
    views_only = {tool.name for tool in runtime.server("beta").tools if not tool.info.for_cells}
    assert explorer.tool_names() == for_cells and views_only == {"counter_step", "hostile_app_only", "account_ledger"}
    # connect counted every tool: the panel says why it lists fewer (tools/list's app-only ones)
    assert (
        explorer.count.value
        == f"{len(for_cells)} of {len(for_cells)} tools ({len(views_only)} only a view may call: hidden)"
    )
    assert explorer.history_select.description == "Panel calls" and "%mcp history" in explorer.history_select.tooltip

    explorer.filter.value = "ECHO"  # names, titles and descriptions, any case
    assert explorer.tool_names() == ["echo", "echo_arguments", "form_showcase"]
    explorer.filter.value = "echo_arg"
    assert explorer.tool_names() == ["echo_arguments"]
    explorer.filter.value = "progress"  # matches the description of slow
    assert explorer.tool_names() == ["slow"]
    explorer.filter.value = "no such tool"
    assert explorer.tool_names() == [] and explorer.form is None


def test_selecting_a_tool_shows_its_form_with_header_and_destructive_warning(runtime: Runtime) -> None:
    connect_demo(runtime)
    explorer = panel(runtime=runtime)
    explorer.tools.value = "crash"
    assert explorer.form is not None and explorer.form.tool_name == "crash"
    assert explorer.form_box.children == (explorer.form.widget,)
    assert "Warning: destructive tool." in explorer.form.warning.value
    assert "Crash" in explorer.form.header.value
    labels = dict((value, label) for label, value in explorer.tools.options)
    assert labels["crash"] == "crash — Crash"


def test_a_call_from_the_panel_lands_in_its_history_and_can_be_run_again(runtime: Runtime) -> None:
    connect_demo(runtime)
    explorer = panel(runtime=runtime)
    explorer.filter.value = "add"
    explorer.tools.value = "add"
    add = explorer.form
    assert add is not None
    add.arguments.field("a").input.value = "2"
    add.arguments.field("b").input.value = "3"
    add.call_button.click()
    first = add.wait(WAIT_SECONDS)
    assert first is not None and first.output == "5"
    assert explorer.history == [first.summary()]  # what the runtime keeps: not the result
    label, index = explorer.history_select.options[0]
    assert index == 0 and "demo · add  ok" in label and "{'a': 2, 'b': 3}" in label
    assert not explorer.rerun_button.disabled

    add.arguments.field("a").input.value = "10"  # the person changed the form since
    explorer.history_select.value = 0
    explorer.rerun_button.click()
    second = add.wait(WAIT_SECONDS)
    assert second is not None and second.output == "5" and second.arguments == {"a": 2, "b": 3}
    assert add.arguments.value == {"a": 2, "b": 3}
    assert [(o.status, o.arguments) for o in explorer.history] == [("ok", {"a": 2, "b": 3})] * 2
    assert [value for _label, value in explorer.history_select.options] == [1, 0]


def test_run_again_switches_back_to_the_entrys_tool(runtime: Runtime) -> None:
    connect_demo(runtime)
    explorer = panel(runtime=runtime)
    echo = explorer.select("demo", "echo")
    assert echo is not None
    echo.arguments.field("message").input.value = "again"
    echo.call()
    echo.wait(WAIT_SECONDS)
    explorer.select(tool="slow")
    assert explorer.form is not None and explorer.form.tool_name == "slow"
    assert explorer.rerun(0) is True
    assert explorer.form is echo and explorer.tools.value == "echo"
    outcome = echo.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.output == "again"
    assert len(explorer.history) == 2


def test_a_closed_connection_disappears_on_refresh_and_the_same_tool_stays_selected(runtime: Runtime) -> None:
    connect_demo(runtime, "alpha")
    connect_demo(runtime, "beta")
    explorer = panel(runtime=runtime)
    explorer.connection.value = "beta"
    explorer.tools.value = "echo"
    runtime.close("beta")
    explorer.refresh()
    assert explorer.connection.value == "alpha"
    assert explorer.form is not None and explorer.form.server_name == "alpha" and explorer.form.tool_name == "echo"
    runtime.close("alpha")
    explorer.refresh()
    assert explorer.connection.value is None and explorer.form is None and explorer.tool_names() == []
    assert "No open connections" in explorer.notice.value


def test_a_panel_whose_connection_closed_says_so_in_place_and_follows_the_reconnect(runtime: Runtime) -> None:
    connect_demo(runtime)
    explorer = panel(runtime=runtime)
    echo = explorer.select("demo", "echo")
    assert echo is not None
    echo.arguments.field("message").input.value = "back"
    old = runtime.server("demo")

    runtime.close("demo")  # no refresh: the runtime's event reaches the panel
    assert explorer.connection.options == (("demo (closed)", "demo"),) and explorer.connection.value == "demo"
    assert "demo is closed: reconnect with %mcp connect demo" in explorer.notice.value
    assert explorer.tools.disabled and explorer.count.value == "closed"
    assert explorer.form is echo and echo.closed and echo.call_button.disabled
    assert explorer.rerun() is False

    connect_demo(runtime)
    assert runtime.server("demo") is not old
    assert explorer.connection.options == (("demo", "demo"),) and explorer.notice.value == ""
    assert explorer.server is runtime.server("demo") and not explorer.tools.disabled
    assert explorer.tool_names() == [tool.name for tool in runtime.server("demo").tools if tool.info.for_cells]
    assert explorer.form is echo and not echo.closed and explorer.tools.value == "echo"
    echo.call_button.click()
    outcome = echo.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.output == "back" and explorer.history == [outcome.summary()]


def test_a_connection_opened_after_the_panel_appears_without_refresh(runtime: Runtime) -> None:
    explorer = panel(runtime=runtime)
    assert "No open connections" in explorer.notice.value
    assert "get_runtime" not in HOW_TO_CONNECT and "%mcp connect NAME" in HOW_TO_CONNECT
    connect_demo(runtime)
    assert explorer.connection.value == "demo" and explorer.notice.value == ""
    assert "echo" in explorer.tool_names()


def test_the_server_view_shows_its_instructions_escaped_and_bounded(runtime: Runtime) -> None:
    connect_demo(runtime)
    explorer = panel(runtime=runtime)
    assert explorer.instructions.layout.display is None
    assert "instructions from server demo" in explorer.instructions.value
    assert "The demo server bundled with anvia_nb" in explorer.instructions.value

    hostile = Server(
        "hostile", instructions="<script>window.__anvia_pwned=1</script>" + "i" * 100_000, on_list_tools=no_tools
    )
    runtime.connect(mcp.memory(name="hostile", server=hostile))
    explorer.connection.value = "hostile"
    shown = explorer.instructions.value
    assert "<script" not in shown and "&lt;script&gt;" in shown
    assert len(shown) < 5_000 and "i" * 1_500 in shown
    explorer.connection.value = "demo"
    assert "The demo server bundled" in explorer.instructions.value


def test_without_widgets_the_panel_reads_as_an_explorer_with_its_connections(runtime: Runtime) -> None:
    empty = panel(runtime=runtime)._repr_mimebundle_()
    assert empty["text/plain"].startswith("anvia_nb panel: an MCP explorer")
    assert "No open connections" in empty["text/plain"] and "VBox" not in empty["text/plain"]
    connect_demo(runtime)
    explorer = panel(runtime=runtime)
    explorer.select("demo", "add")
    text = explorer._repr_mimebundle_()["text/plain"]
    assert f"Connections: demo ({len(runtime.server('demo').tools)} tools)." in text
    assert "Chosen tool: demo · add." in text and "<" not in text
    runtime.close("demo")
    assert "demo (closed)" in explorer._repr_mimebundle_()["text/plain"]


def test_wait_returns_only_once_everything_showing_the_call_is_up_to_date(runtime: Runtime) -> None:
    """The panel's history and Run again are updated by an on_outcome listener: wait() must not
    return while listeners still run (it used to return first, and Run again was still disabled)."""
    connect_demo(runtime)
    explorer = panel(runtime=runtime)
    add = explorer.select("demo", "add")
    assert add is not None
    add.arguments.field("a").input.value = "1"
    add.arguments.field("b").input.value = "1"
    entered, release = threading.Event(), threading.Event()

    def slow_listener(_form: ToolForm, _outcome: CallOutcome | None) -> None:
        entered.set()
        release.wait(WAIT_SECONDS)

    add.on_outcome(slow_listener)
    # A fast call may end before click() returns, and then the listeners run in the clicking
    # thread: click from a thread of its own so this one can look while the listener holds.
    clicker = threading.Thread(target=add.call_button.click)
    clicker.start()
    assert entered.wait(WAIT_SECONDS)
    with pytest.raises(TimeoutError):
        add.wait(0)  # a listener still runs: the call is not settled yet
    release.set()
    clicker.join(WAIT_SECONDS)
    outcome = add.wait(WAIT_SECONDS)
    assert outcome is not None and explorer.history == [outcome.summary()] and not explorer.rerun_button.disabled


def test_the_history_keeps_summaries_so_a_dropped_result_is_freed_and_run_again_works(runtime: Runtime) -> None:
    connect_demo(runtime)
    explorer = panel(runtime=runtime)
    large = explorer.select("demo", "large")
    assert large is not None
    large.arguments.set_value({"size_chars": BIG})
    assert large.call()
    first = large.wait(WAIT_SECONDS)
    assert first is not None and first.output_chars == BIG
    dropped = weakref.ref(first)
    del first
    assert explorer.rerun(0) is True  # the next call replaces the form's result: the first is dropped
    second = large.wait(WAIT_SECONDS)
    assert second is not None and second.output_chars == BIG and second.arguments == {"size_chars": BIG}
    gc.collect()
    assert dropped() is None, "the panel's history pins a dropped result"
    assert [(o.tool, o.status, o.output_chars) for o in explorer.history] == [("large", "ok", BIG)] * 2


def test_a_server_with_thousands_of_tools_lists_a_bounded_number_and_the_filter_finds_the_others(
    runtime: Runtime,
) -> None:
    async def many_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[types.Tool(name=f"tool_{i:05d}", input_schema={"type": "object"}) for i in range(3_000)]
        )

    runtime.connect(mcp.memory(name="many", server=Server("many", on_list_tools=many_tools)))
    explorer = panel(runtime=runtime)
    explorer.connection.value = "many"
    limit = explorer.policy.limits.choices
    assert len(explorer.tools.options) == limit < 3_000
    assert explorer.count.value.startswith("3000 of 3000 tools; the first")
    assert "type in the filter" in explorer.count.value
    explorer.filter.value = "tool_02999"
    assert explorer.tool_names() == ["tool_02999"] and explorer.count.value == "1 of 3000 tools"
