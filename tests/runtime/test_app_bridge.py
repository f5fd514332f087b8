"""The kernel side of MCP Apps, in pure Python against the real demo server: the client declares the
extension, a tool's view is fetched and checked, and :class:`AppBridge` carries out each request a
view may make and refuses the rest, with the JSON-RPC error codes the view receives.

One runtime with one demo connection serves the module (a view's requests go through it exactly as
they would from the frame: ``bridge.handle(method, params)``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from anvia_nb import mcp
from anvia_nb.core import McpServer
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.apps import (
    APP_MIME_TYPE,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    AppRequestRefused,
)
from anvia_nb.demo_server.apps import COUNTER_HTML, COUNTER_URI
from anvia_nb.errors import InvalidValueError
from anvia_nb.policy import MASK
from anvia_nb.runtime import Runtime
from anvia_nb.runtime.app_bridge import AppBridge, PageOffer
from tests.helpers.support import DEMO_ARGS


@pytest.fixture(scope="module")
def runtime() -> Iterator[Runtime]:
    rt = Runtime()
    try:
        rt.connect(
            mcp.stdio(
                name="demo",
                command=sys.executable,
                args=DEMO_ARGS,
                secret_env=["APP_TOKEN"],
                env={"APP_TOKEN": "s3cret-app-token-value"},
            )
        )
        yield rt
    finally:
        rt.shutdown()


@pytest.fixture
def demo(runtime: Runtime) -> McpServer:
    return runtime.server("demo")


@pytest.fixture
def bridge(runtime: Runtime, demo: McpServer) -> AppBridge:
    return AppBridge(runtime, demo, "counter_app", COUNTER_URI)


def refused(bridge: AppBridge, method: str, params: dict[str, object]) -> AppRequestRefused:
    with pytest.raises(AppRequestRefused) as caught:
        bridge.handle(method, params)
    assert "\n" not in caught.value.message
    return caught.value


@pytest.mark.parametrize("protocol", ["2025-11-25", None])
def test_the_server_sees_the_extension_in_the_client_capabilities(runtime: Runtime, protocol: str | None) -> None:
    name = f"caps-{protocol}"
    runtime.connect(mcp.stdio(name=name, command=sys.executable, args=DEMO_ARGS, protocol=protocol))
    try:
        outcome = runtime.call(name, "counter_app", {"start": 2})
        assert outcome.structured == {"count": 2, "hostDeclaresApps": True}
    finally:
        runtime.close(name)


def test_a_tools_metadata_names_its_view_and_who_may_call_it(demo: McpServer) -> None:
    app = demo.tool("counter_app").info.app
    assert app is not None and app.resource_uri == COUNTER_URI and app.for_cells and app.for_app
    step = demo.tool("counter_step").info
    assert step.app is not None and not step.for_cells and step.app.for_app
    assert demo.tool("echo").info.app is None and demo.tool("echo").info.for_cells


def test_the_view_is_read_from_the_tools_own_server_and_checked(runtime: Runtime, demo: McpServer) -> None:
    resource = runtime.run(demo.app("counter_app"))
    assert resource.uri == COUNTER_URI
    assert resource.html == COUNTER_HTML
    assert resource.csp.connect_domains == () and resource.permissions == frozenset()
    assert resource.prefers_border is True
    with pytest.raises(InvalidValueError, match="has no interactive view"):
        runtime.run(demo.app("echo"))


def test_a_resource_that_is_not_a_view_is_refused_with_one_line(runtime: Runtime, demo: McpServer) -> None:
    from anvia_nb.core.api.apps import read_app
    from anvia_nb.core.protocol.apps import ToolApp

    with pytest.raises(InvalidValueError, match=f"not {APP_MIME_TYPE}") as caught:
        runtime.run(read_app(demo, ToolApp("demo://readme")))
    assert "\n" not in str(caught.value)


def test_a_call_from_the_view_goes_through_the_client_and_is_marked_in_the_history(
    runtime: Runtime, bridge: AppBridge
) -> None:
    before = len(runtime.calls())
    result = bridge.handle("tools/call", {"name": "counter_step", "arguments": {"count": 4}})
    assert result["structuredContent"]["count"] == 5
    assert result["content"] == [{"type": "text", "text": "count: 5"}]
    record = runtime.calls()[-1]
    assert len(runtime.calls()) == before + 1
    assert (record.tool, record.status, record.requested_by) == ("counter_step", "ok", f"app {COUNTER_URI}")
    assert record.trace_span is not None


def test_a_tool_for_cells_only_an_unknown_tool_and_bad_arguments_are_refused(
    runtime: Runtime, bridge: AppBridge
) -> None:
    before = len(runtime.calls())
    assert refused(bridge, "tools/call", {"name": "counter_reset"}).code == INVALID_PARAMS
    assert "not for views" in refused(bridge, "tools/call", {"name": "counter_reset"}).message
    assert "no tool" in refused(bridge, "tools/call", {"name": "other.echo"}).message
    wrong = refused(bridge, "tools/call", {"name": "counter_step", "arguments": {"count": "many"}})
    assert wrong.code == INVALID_PARAMS and "inputSchema" in wrong.message
    assert refused(bridge, "tools/call", {"name": "counter_step", "arguments": [1]}).code == INVALID_PARAMS
    assert refused(bridge, "tools/call", {}).code == INVALID_PARAMS
    assert len(runtime.calls()) == before  # nothing was sent
    assert bridge.refused == 6


def test_a_tool_without_app_metadata_may_be_called_and_its_result_is_masked(bridge: AppBridge) -> None:
    result = bridge.handle("tools/call", {"name": "env_value", "arguments": {"name": "APP_TOKEN"}})
    assert "s3cret-app-token-value" not in str(result)
    assert result["content"][0]["text"] == MASK  # the server did send it: the view gets it masked


def test_resources_are_read_from_the_views_own_server(bridge: AppBridge) -> None:
    result = bridge.handle("resources/read", {"uri": "demo://notes/2"})
    assert result["contents"][0]["text"] == "Water the plants.\n"
    failed = refused(bridge, "resources/read", {"uri": "demo://nothing-here"})
    assert failed.code == INTERNAL_ERROR
    assert refused(bridge, "resources/read", {"uri": 3}).code == INVALID_PARAMS


def test_links_are_kept_for_the_person_and_only_http_or_https(bridge: AppBridge) -> None:
    assert bridge.handle("ui/open-link", {"url": "https://example.org/a?b=1"}) == {}
    for url in ("javascript:alert(1)", "data:text/html,<script>x</script>", "file:///etc/passwd", "https://a b", 7):
        assert refused(bridge, "ui/open-link", {"url": url}).code == INVALID_PARAMS
    assert list(bridge.links) == ["https://example.org/a?b=1"]


def test_messages_and_model_context_are_kept_bounded(bridge: AppBridge) -> None:
    told: list[str] = []
    bridge.on_change(told.append)
    text = {"type": "text", "text": "The count is 5."}
    assert bridge.handle("ui/message", {"role": "user", "content": [text]}) == {}
    assert list(bridge.messages) == [{"role": "user", "content": [text]}]
    assert bridge.handle("ui/update-model-context", {"content": [text], "structuredContent": {"count": 5}}) == {}
    assert bridge.model_context == {"content": [text], "structuredContent": {"count": 5}}
    assert told == ["messages", "model_context"]
    for number in range(limits.APP_MESSAGES_KEPT + 20):
        bridge.handle("ui/message", {"role": "user", "content": [{"type": "text", "text": f"m{number}"}]})
    assert len(bridge.messages) == limits.APP_MESSAGES_KEPT
    assert bridge.messages[-1]["content"][0]["text"] == f"m{limits.APP_MESSAGES_KEPT + 19}"
    long = bridge.handle("ui/message", {"content": [{"type": "text", "text": "x" * 50_000}]})
    assert long == {} and len(bridge.messages[-1]["content"][0]["text"]) < 2_000
    assert refused(bridge, "ui/message", {"content": "not a list"}).code == INVALID_PARAMS


def test_ping_is_answered_and_anything_else_is_refused_as_unknown(bridge: AppBridge) -> None:
    assert bridge.handle("ping", {}) == {}
    for method in ("tools/list", "sampling/createMessage", "ui/request-display-mode", "notebook/run"):
        assert refused(bridge, method, {}).code == METHOD_NOT_FOUND


def test_a_torn_down_view_is_answered_nothing(bridge: AppBridge) -> None:
    bridge.close()
    assert refused(bridge, "ping", {}).code == INVALID_PARAMS
    assert refused(bridge, "tools/call", {"name": "counter_step", "arguments": {"count": 1}}).code == INVALID_PARAMS


def test_on_a_page_for_viewers_a_view_reaches_only_what_the_author_named(runtime: Runtime, demo: McpServer) -> None:
    """A view shown by a scoped panel (or under viewer mode) is held to the page's offer: a viewer's
    browser can speak for the view, so the view must not reach a tool or resource the page did not
    offer. Tools only for views, and the view's own ``ui://`` resource (not another view's), stay
    within reach."""
    offer = PageOffer(tools=frozenset({"counter_app", "add"}), resources=frozenset({"demo://notes/2"}))
    page = AppBridge(runtime, demo, "counter_app", COUNTER_URI, offer=offer)
    before = len(runtime.calls())
    for name in ("echo", "env_value"):
        assert "does not offer the tool" in refused(page, "tools/call", {"name": name, "arguments": {}}).message
    assert "does not offer the resource" in refused(page, "resources/read", {"uri": "demo://notes/1"}).message
    assert len(runtime.calls()) == before  # nothing was sent
    assert page.handle("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})["structuredContent"] == {"sum": 3}
    stepped = page.handle("tools/call", {"name": "counter_step", "arguments": {"count": 1}})
    assert stepped["structuredContent"]["count"] == 2
    assert page.handle("resources/read", {"uri": "demo://notes/2"})["contents"][0]["text"] == "Water the plants.\n"
    assert page.handle("resources/read", {"uri": COUNTER_URI})["contents"][0]["text"] == COUNTER_HTML
    other_view = "ui://anvia-demo/hostile-view.html"
    assert "does not offer the resource" in refused(page, "resources/read", {"uri": other_view}).message
