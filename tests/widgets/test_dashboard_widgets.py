"""Forms and the panel on a dashboard: fixed arguments, a panel's chosen tools, a connection that
never opened, and what a viewer reads when a server is closed or dies.

The demo server runs in-process where nothing kills it, and over stdio where it must really die.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from anvia_nb import ConnectError, UnknownToolError, mcp
from anvia_nb.display import RenderSettings
from anvia_nb.errors import InvalidTypeError, InvalidValueError
from anvia_nb.runtime import Runtime
from anvia_nb.widgets import UnavailableForm, form, panel
from anvia_nb.widgets.forms.tool_form import ToolForm
from tests.helpers.support import DEMO_ARGS
from tests.helpers.waiting import WAIT_SECONDS

FOR_VIEWERS = RenderSettings(hide_server_errors=True)
BROKEN = mcp.stdio(name="broken", command=sys.executable, args=["-c", "import sys; sys.exit('/srv/x: bad key')"])


def _result(tool_form: ToolForm) -> str:
    text: str = tool_form.output.outputs[0]["data"]["text/plain"]
    return text


def _tool_form(value: Any) -> ToolForm:
    assert isinstance(value, ToolForm)
    return value


# -- readonly_arguments -----------------------------------------------------------------------


def test_a_fixed_argument_is_shown_disabled_not_editable_and_always_sent(demo_runtime: Runtime) -> None:
    add = _tool_form(form("demo.add", runtime=demo_runtime, readonly_arguments={"b": 100}))
    assert add.arguments.field("a") is not None
    with pytest.raises(KeyError):
        add.arguments.field("b")  # only a is a field a viewer fills
    box = add.arguments.widget.children[1]
    shown = [child.children[1] for child in box.children[1:]]
    assert [(t.value, t.disabled) for t in shown] == [("100", True)]
    add.arguments.field("a").input.value = "2"
    assert add.arguments.will_send_text == 'will send: {"a": 2, "b": 100}'
    assert add.call() and add.wait(WAIT_SECONDS) is not None
    assert add.last_outcome is not None and add.last_outcome.arguments == {"a": 2, "b": 100}
    assert "102" in _result(add)


def test_json_mode_cannot_change_a_fixed_argument(demo_runtime: Runtime) -> None:
    add = _tool_form(form("demo.add", runtime=demo_runtime, readonly_arguments={"b": 100}))
    add.arguments.mode.value = "JSON"
    add.arguments.json_text.value = '{"a": 1, "b": -5}'
    assert add.arguments.value == {"a": 1, "b": 100}
    add.arguments.set_value({"a": 3, "b": 7})  # refilled (the panel's Run again): b stays fixed
    assert add.arguments.value == {"a": 3, "b": 100}


@pytest.mark.parametrize(
    ("fixed", "error", "words"),
    [
        ({"c": 1}, InvalidValueError, "readonly_arguments for demo.add: it takes no argument 'c'. It takes: a, b."),
        ({"b": "many"}, InvalidValueError, "readonly_arguments for demo.add do not fit its inputSchema: b:"),
        ({"b": float("nan")}, InvalidValueError, "must be JSON values"),
        ([("b", 1)], InvalidTypeError, "readonly_arguments takes a dict of argument names to values, not list."),
    ],
)
def test_an_unknown_or_invalid_fixed_argument_is_a_clear_error_when_the_form_is_made(
    demo_runtime: Runtime, fixed: Any, error: type[Exception], words: str
) -> None:
    with pytest.raises(error) as raised:
        form("demo.add", runtime=demo_runtime, readonly_arguments=fixed)
    assert words in str(raised.value)
    assert demo_runtime.calls() == []  # nothing reached the server


# -- panel(tools=...) -------------------------------------------------------------------------


def test_a_panel_with_chosen_tools_offers_those_and_no_other(demo_runtime: Runtime) -> None:
    explorer = panel(runtime=demo_runtime, connection="demo", tools=["echo", "add"])
    assert explorer.tool_names() == ["echo", "add"]
    assert explorer.count.value == "2 of 2 tools"
    explorer.filter.value = "crash"
    assert explorer.tool_names() == []
    with pytest.raises(UnknownToolError, match="This panel does not offer the tool 'crash'"):
        explorer.select("demo", "crash")
    assert explorer.form is None


def test_a_panel_given_a_tool_no_connection_has_is_an_error_when_made(demo_runtime: Runtime) -> None:
    with pytest.raises(UnknownToolError, match=r"panel\(tools=...\): 'demo' has no tool 'ech'"):
        panel(runtime=demo_runtime, connection="demo", tools=["ech"])
    with pytest.raises(InvalidTypeError, match="takes a list of tool names"):
        panel(runtime=demo_runtime, tools="echo")


# -- a connection that never opened -----------------------------------------------------------


def _failed(runtime: Runtime) -> None:
    with pytest.raises(ConnectError):
        runtime.connect(BROKEN, timeout_seconds=WAIT_SECONDS)


def test_a_form_and_a_panel_of_a_connection_that_never_opened_say_it_is_unavailable(runtime: Runtime) -> None:
    _failed(runtime)
    for_author = form("broken.echo", runtime=runtime)
    assert isinstance(for_author, UnavailableForm) and for_author.closed
    assert "broken is not connected: connecting it failed (%mcp log broken says why)" in for_author.text()
    for_viewer = form("broken.echo", runtime=runtime, settings=FOR_VIEWERS)
    assert isinstance(for_viewer, UnavailableForm)
    assert for_viewer.text() == "The server “broken” is not available right now."
    assert "/srv/x" not in for_viewer.notice.value
    explorer = panel(runtime=runtime, connection="broken", settings=FOR_VIEWERS)
    assert "The server “broken” is not available right now." in explorer.notice.value
    assert "%mcp" not in explorer.notice.value + explorer.text()


def test_an_unavailable_form_becomes_the_tools_form_when_the_connection_opens(runtime: Runtime) -> None:
    from anvia_nb.demo_server.handlers import build_server

    _failed(runtime)
    waiting = form("broken.echo", runtime=runtime, settings=FOR_VIEWERS)
    assert isinstance(waiting, UnavailableForm)
    runtime.connect(mcp.memory(name="broken", server=build_server()))
    assert waiting.form is not None and not waiting.closed
    assert waiting.widget.children == (waiting.form.widget,)
    waiting.form.arguments.field("message").input.value = "back"
    assert waiting.form.call() and waiting.form.wait(WAIT_SECONDS) is not None
    assert "back" in _result(waiting.form)


def test_a_never_connected_name_is_still_an_error_for_the_author(runtime: Runtime) -> None:
    with pytest.raises(KeyError, match="No connection named 'nowhere'"):
        form("nowhere.echo", runtime=runtime, settings=FOR_VIEWERS)


# -- what a viewer reads ----------------------------------------------------------------------


def test_a_viewer_reads_that_a_closed_server_is_not_available_with_nothing_to_type(demo_runtime: Runtime) -> None:
    echo = _tool_form(form("demo.echo", runtime=demo_runtime, settings=FOR_VIEWERS))
    explorer = panel(runtime=demo_runtime, settings=FOR_VIEWERS)
    explorer.select("demo", "echo")
    demo_runtime.close("demo")
    assert "The server “demo” is not available right now." in echo.status.value
    assert echo.problems() == ["The server “demo” is not available right now."]
    assert "The server “demo” is not available right now." in explorer.notice.value
    assert "%mcp" not in echo.status.value + echo.reason.value + explorer.notice.value
    empty = panel(runtime=demo_runtime, settings=FOR_VIEWERS)
    assert "No server is available on this page right now." in empty.notice.value
    assert "%mcp" not in empty.notice.value + empty.text()


def test_a_viewer_reads_that_a_server_that_died_mid_call_stopped(runtime: Runtime) -> None:
    runtime.connect(mcp.stdio(name="fragile", command=sys.executable, args=DEMO_ARGS))
    crash = _tool_form(form("fragile.crash", runtime=runtime, settings=FOR_VIEWERS))
    assert crash.call()
    outcome = crash.wait(WAIT_SECONDS)
    shown = crash.output.outputs[0]["data"]
    assert "The server “fragile” stopped, so this is not available now." in shown["text/plain"]
    assert "reported an error" not in shown["text/plain"] and "Error" not in shown["text/plain"].split("\n", 1)[1]
    assert outcome is not None and "went away" in str(outcome.error)  # the author's details stay in Python
