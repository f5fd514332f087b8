"""Tools with an interactive view (MCP Apps) in a real IPython shell: the ``app`` column of
``%mcp tools``, the one-line refusal of a tool only its view may call, ``%mcp app``, the help line,
and a call a view made, marked in ``%mcp history`` and ``%mcp trace --call``.

The tests that show a view need the front end's frame (``anvia_nb.widgets.apps.frame``); the others
drive the view's side through its :class:`AppBridge`, as the frame does."""

from __future__ import annotations

import pandas as pd
import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.demo_server.apps import COUNTER_URI
from anvia_nb.runtime import get_runtime
from anvia_nb.runtime.app_bridge import AppBridge
from anvia_nb.widgets import form, panel
from anvia_nb.widgets.forms.tool_form import ToolForm
from tests.helpers.magic import displayed, run


def test_tools_say_which_have_a_view_and_which_are_for_their_view_only(ip: InteractiveShell, demo: str) -> None:
    tools = run(ip, "tools demo").set_index("name")
    assert tools.loc["counter_app", "app"] == "view"
    assert tools.loc["counter_step", "app"] == "view only"
    assert tools.loc["counter_reset", "app"] == "view"  # it has a view; cells (not the view) may call it
    assert pd.isna(tools.loc["echo", "app"])


def test_a_tool_for_its_view_only_is_refused_to_cells_in_one_line(ip: InteractiveShell, demo: str) -> None:
    with pytest.raises(UsageError) as caught:
        run(ip, "call demo.counter_step count=1")
    message = str(caught.value)
    assert "demo.counter_step is for its interactive view only" in message
    assert "%mcp app demo.counter_app" in message and "\n" not in message
    with pytest.raises(UsageError, match="for its interactive view only"):
        run(ip, "app demo.counter_step count=1")
    ip.user_ns["_anvia_test_counts"] = pd.DataFrame({"count": [1, 2]})
    with pytest.raises(UsageError, match="for its interactive view only"):
        run(ip, "map demo.counter_step --frame _anvia_test_counts")
    assert get_runtime().calls() == []  # nothing was sent


def test_forms_and_the_panel_do_not_offer_a_tool_for_its_view_only(ip: InteractiveShell, demo: str) -> None:
    with pytest.raises(ValueError, match="for its interactive view only"):
        form("demo.counter_step")
    explorer = panel(connection="demo")
    assert "counter_step" not in explorer.tool_names() and "counter_app" in explorer.tool_names()
    shown = form("demo.counter_app")
    assert isinstance(shown, ToolForm) and "%mcp app demo.counter_app" in shown.header.value


def test_app_refuses_a_tool_without_a_view_and_a_background_call(ip: InteractiveShell, demo: str) -> None:
    with pytest.raises(UsageError, match="demo.echo has no interactive view: call it with %mcp call"):
        run(ip, "app demo.echo message=hi")
    with pytest.raises(UsageError, match="no --background"):
        run(ip, "app --background demo.counter_app start=1")
    assert get_runtime().calls() == []


def test_help_says_how_to_open_a_view(ip: InteractiveShell, capsys: pytest.CaptureFixture[str]) -> None:
    run(ip, "help")
    with_view = [line for line in capsys.readouterr().out.splitlines() if "%mcp app NAME.TOOL" in line]
    assert with_view and "interactive view" in with_view[0]


def test_a_call_the_view_made_is_marked_in_history_and_trace(
    ip: InteractiveShell, demo: str, capsys: pytest.CaptureFixture[str]
) -> None:
    runtime = get_runtime()
    run(ip, "call demo.echo message=hi")
    bridge = AppBridge(runtime, runtime.server("demo"), "counter_app", COUNTER_URI)
    bridge.handle("tools/call", {"name": "counter_step", "arguments": {"count": 1}})
    history = run(ip, "history")
    assert list(history["tool"]) == ["echo", "counter_step"]
    assert pd.isna(history["requested_by"][0])
    assert history["requested_by"][1] == f"app {COUNTER_URI}"
    capsys.readouterr()
    trace = run(ip, "trace demo --call -1")
    assert "asked for by a tool's interactive view (app ui://anvia-demo/counter.html)" in capsys.readouterr().out
    assert trace["method"].iloc[0] == "tools/call"
    whole = run(ip, "trace demo")
    note = capsys.readouterr().out
    asked = whole[(whole["method"] == "tools/call") & (whole["kind"] == "request")].index[-1]
    assert f"note: demo: the calls in messages {asked} were asked for by a tool's interactive view" in note


def test_app_returns_the_view_with_the_result_shown_above_it(ip: InteractiveShell, demo: str) -> None:
    from anvia_nb.widgets.apps.view import AppView

    view, shown = displayed(ip, "app demo.counter_app start=3")
    assert isinstance(view, AppView)
    structured = None if view.result is None else view.result.structured
    assert isinstance(structured, dict) and structured["count"] == 3
    assert any("count: 3" in bundle.get("text/plain", "") for bundle in shown)
    assert "needs a live kernel" in view._repr_mimebundle_()["text/plain"]
    assert get_runtime().calls()[-1].requested_by is None  # the cell's own call


def test_call_of_a_tool_with_a_view_shows_the_view_beside_the_result(ip: InteractiveShell, demo: str) -> None:
    result, shown = displayed(ip, "call demo.counter_app start=2")
    assert result.structured["count"] == 2
    assert any("needs a live kernel" in bundle.get("text/plain", "") for bundle in shown)


def test_app_completes_only_the_tools_a_cell_may_open_a_view_of(ip: InteractiveShell, demo: str) -> None:
    from anvia_nb.magic.subcommands import TABLE

    offered = TABLE["app"].complete([""], get_runtime())
    assert "demo.counter_app" in offered and "demo.counter_reset" in offered
    assert "demo.counter_step" not in offered and "demo.echo" not in offered
    assert "start=" in TABLE["app"].complete(["demo.counter_app", ""], get_runtime())
