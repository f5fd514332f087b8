"""``AppView`` without a browser, against the demo server in this process: opened from Python and
from a form, what the view says shown under it as escaped server text, and torn down when its
connection closes; on a page for viewers, held to the one tool it was opened for."""

from __future__ import annotations

import pytest

import anvia_nb
from anvia_nb import mcp
from anvia_nb.core.protocol.apps import AppRequestRefused
from anvia_nb.demo_server.apps import COUNTER_URI
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.display import RenderSettings
from anvia_nb.errors import InvalidValueError
from anvia_nb.runtime import Runtime
from anvia_nb.runtime.app_bridge import PageOffer
from anvia_nb.widgets import form


@pytest.fixture
def demo(runtime: Runtime) -> Runtime:
    runtime.connect(mcp.memory(name="demo", server=build_server()))
    return runtime


def test_app_from_python_calls_the_tool_and_opens_its_view(demo: Runtime) -> None:
    view = anvia_nb.app("demo.counter_app", {"start": 3}, runtime=demo)
    assert view.resource.uri == COUNTER_URI and not view.torn_down
    assert view.result is not None and view.result.structured == {"count": 3, "hostDeclaresApps": True}
    assert [(c.tool, c.requested_by) for c in demo.calls()] == [("counter_app", None)]
    assert "needs a live kernel" in view._repr_mimebundle_()["text/plain"]
    with pytest.raises(InvalidValueError, match="has no interactive view"):
        anvia_nb.app("demo.echo", runtime=demo)
    with pytest.raises(InvalidValueError, match="for its interactive view only"):
        anvia_nb.app("demo.counter_step", {"count": 1}, runtime=demo)


def test_what_the_view_says_is_shown_under_it_as_escaped_text(demo: Runtime) -> None:
    view = anvia_nb.app("demo.counter_app", runtime=demo)
    assert view.links.value == "" and view.notes.value == ""
    view.bridge.handle("ui/open-link", {"url": "https://example.org/?a=<b>"})
    said = {"type": "text", "text": "<img src=x onerror=alert(1)> hi"}
    view.bridge.handle("ui/message", {"content": [said]})
    view.bridge.handle("ui/update-model-context", {"content": [{"type": "text", "text": "count is 4"}]})
    assert '<a href="https://example.org/?a=&lt;b&gt;" rel="noopener noreferrer" target="_blank">' in view.links.value
    assert "&lt;img src=x onerror=alert(1)&gt; hi" in view.notes.value and "<img" not in view.notes.value
    assert "count is 4" in view.notes.value
    assert view.app_messages == [{"role": "user", "content": [said]}]
    assert view.model_context == {"content": [{"type": "text", "text": "count is 4"}]}
    assert view.offered_links == ["https://example.org/?a=<b>"]


def test_closing_the_connection_tears_the_view_down(demo: Runtime) -> None:
    view = anvia_nb.app("demo.counter_app", runtime=demo)
    demo.close("demo")
    assert view.torn_down and "was closed" in view.status.value
    with pytest.raises(AppRequestRefused, match="torn down"):
        view.bridge.handle("tools/call", {"name": "counter_step", "arguments": {"count": 1}})


def test_a_forms_call_shows_the_view_above_the_result(demo: Runtime) -> None:
    counter = form("demo.counter_app", runtime=demo)
    assert not isinstance(counter, anvia_nb.widgets.UnavailableForm)
    counter.arguments.field("start").input.value = "5"
    assert counter.call()
    outcome = counter.wait()
    assert outcome is not None and outcome.structured == {"count": 5, "hostDeclaresApps": True}
    assert counter.app.view is not None and counter.app.view.resource.uri == COUNTER_URI
    shown = [output["data"]["text/plain"] for output in counter.output.outputs]
    assert "needs a live kernel" in shown[0] and shown[1].startswith("[MCP demo · counter_app] ok")
    echo = form("demo.echo", runtime=demo)
    assert not isinstance(echo, anvia_nb.widgets.UnavailableForm)
    echo.arguments.field("message").input.value = "hi"
    assert echo.call() and echo.wait() is not None
    assert echo.app.view is None and len(echo.output.outputs) == 1


def test_a_view_on_a_page_for_viewers_reaches_only_its_own_tool(demo: Runtime) -> None:
    view = anvia_nb.app("demo.counter_app", runtime=demo, settings=RenderSettings(hide_server_errors=True))
    assert view.bridge.offer == PageOffer(tools=frozenset({"counter_app"}))
    with pytest.raises(AppRequestRefused, match="does not offer the tool 'echo'"):
        view.bridge.handle("tools/call", {"name": "echo", "arguments": {"message": "x"}})
    assert view.bridge.handle("tools/call", {"name": "counter_step", "arguments": {"count": 1}})["structuredContent"]
