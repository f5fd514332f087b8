"""A view is held to what the widget showing it is held to (issue 39), against the real demo server:
a form's fixed arguments, the page's offer (its own ``ui://`` resource, not another view's), and on
a page for viewers no server error text in any answer the kernel sends the view."""

from __future__ import annotations

import sys
from typing import Any

import pytest

import anvia_nb
from anvia_nb import mcp
from anvia_nb.core.protocol.apps import AppRequestRefused
from anvia_nb.demo_server.account_app import ACCOUNT_APP_URI, ACCOUNT_LEAK
from anvia_nb.demo_server.apps import COUNTER_URI
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.demo_server.hostile_app import HOSTILE_APP_URI
from anvia_nb.display import RenderSettings
from anvia_nb.policy import HIDDEN_SERVER_ERROR
from anvia_nb.runtime import Runtime
from anvia_nb.runtime.app_bridge import AppBridge, PageOffer
from anvia_nb.widgets import ToolForm, form
from anvia_nb.widgets.apps.view import AppView
from tests.helpers.support import DEMO_ARGS
from tests.helpers.waiting import wait_until

VIEWERS = RenderSettings(hide_server_errors=True)


@pytest.fixture
def demo(runtime: Runtime) -> Runtime:
    runtime.connect(mcp.memory(name="demo", server=build_server()))
    return runtime


def _called_form(runtime: Runtime, settings: RenderSettings | None = None, **fixed: Any) -> ToolForm:
    made = form("demo.account_view", runtime=runtime, settings=settings, readonly_arguments=fixed)
    assert isinstance(made, ToolForm)
    assert made.call() and made.wait() is not None
    assert made.app.view is not None
    return made


def _refused(view: AppView, method: str, params: dict[str, Any]) -> str:
    with pytest.raises(AppRequestRefused) as caught:
        view.bridge.handle(method, params)
    return caught.value.message


@pytest.mark.parametrize("settings", [None, VIEWERS])
def test_a_forms_view_calls_its_tool_with_the_forms_fixed_arguments(demo: Runtime, settings: Any) -> None:
    view = _called_form(demo, settings, account="alice").app.view
    assert view is not None
    for sent in ({"account": "mallory"}, {}, None):
        answer = view.bridge.handle("tools/call", {"name": "account_view", "arguments": sent})
        assert answer["structuredContent"] == {"account": "alice"}
    from_view = [c.arguments for c in demo.calls() if c.requested_by == f"app {ACCOUNT_APP_URI}"]
    assert from_view == [{"account": "alice"}] * 3  # what reached the server, as the history keeps it


def test_a_view_without_fixed_arguments_sends_what_it_sends(demo: Runtime) -> None:
    view = anvia_nb.app("demo.account_view", {"account": "bob"}, runtime=demo)
    answer = view.bridge.handle("tools/call", {"name": "account_view", "arguments": {"account": "carol"}})
    assert answer["structuredContent"] == {"account": "carol"}


def test_for_viewers_no_answer_to_a_view_carries_the_servers_error_text(demo: Runtime) -> None:
    offer = PageOffer(tools=frozenset({"account_view"}), resources=frozenset({"demo://nothing-here"}))
    opened = ToolForm(demo.server("demo").tool("account_view"), runtime=demo, settings=VIEWERS, app_offer=offer)
    opened.arguments.set_value({"account": "alice", "fail": True})
    assert opened.call() and opened.wait() is not None
    view = opened.app.view
    assert view is not None
    cancelled = [m["params"] for m in view.frame._sent if m["method"] == "ui/notifications/tool-cancelled"]
    assert cancelled == [{"reason": f"account_view failed: {HIDDEN_SERVER_ERROR}"}]
    failing = {"name": "account_view", "arguments": {"account": "a", "fail": True}}
    assert _refused(view, "tools/call", failing) == f"account_view failed: {HIDDEN_SERVER_ERROR}"
    error_result = view.bridge.handle("tools/call", {"name": "account_ledger", "arguments": {}})
    assert error_result == {"content": [{"type": "text", "text": HIDDEN_SERVER_ERROR}], "isError": True}
    read = _refused(view, "resources/read", {"uri": "demo://nothing-here"})
    assert read == f"reading 'demo://nothing-here' failed: {HIDDEN_SERVER_ERROR}"
    assert "Unknown resource" not in read


def test_for_the_author_the_view_reads_the_servers_words(demo: Runtime) -> None:
    view = anvia_nb.app("demo.account_view", {"account": "alice"}, runtime=demo)
    failing = {"name": "account_view", "arguments": {"account": "a", "fail": True}}
    assert ACCOUNT_LEAK in _refused(view, "tools/call", failing)
    error_result = view.bridge.handle("tools/call", {"name": "account_ledger", "arguments": {}})
    assert error_result["content"][0]["text"] == ACCOUNT_LEAK


def test_on_a_viewer_page_a_view_reads_its_own_ui_resource_and_no_other_views(demo: Runtime) -> None:
    view = anvia_nb.app("demo.account_view", {"account": "alice"}, runtime=demo, settings=VIEWERS)
    assert view.bridge.handle("resources/read", {"uri": ACCOUNT_APP_URI})["contents"][0]["uri"] == ACCOUNT_APP_URI
    for uri in (HOSTILE_APP_URI, COUNTER_URI, "demo://notes/1"):
        assert _refused(view, "resources/read", {"uri": uri}) == f"this page does not offer the resource {uri!r}"
    author = anvia_nb.app("demo.account_view", {"account": "alice"}, runtime=demo)
    assert author.bridge.handle("resources/read", {"uri": HOSTILE_APP_URI})["contents"][0]["uri"] == HOSTILE_APP_URI


def test_for_viewers_a_server_that_exited_is_said_in_a_viewers_words(runtime: Runtime) -> None:
    runtime.connect(mcp.stdio(name="gone", command=sys.executable, args=DEMO_ARGS))
    server = runtime.server("gone")
    for_viewers = AppBridge(runtime, server, "counter_app", COUNTER_URI, policy=VIEWERS.policy())
    for_author = AppBridge(runtime, server, "counter_app", COUNTER_URI)
    runtime.run(server.tool("crash").call_outcome({}))
    wait_until(lambda: not server.is_open, "the crashed server to be seen as gone")
    with pytest.raises(AppRequestRefused) as viewer:
        for_viewers.handle("tools/call", {"name": "counter_step", "arguments": {"count": 1}})
    assert viewer.value.message == "The server “gone” is not available right now."
    with pytest.raises(AppRequestRefused, match=r"is server exited \(status"):
        for_author.handle("tools/call", {"name": "counter_step", "arguments": {"count": 1}})
