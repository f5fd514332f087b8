"""The panel's Server, Log and Trace tabs, and its tool list following a server whose tools change,
against the demo server over a wire (an in-memory connection has none to trace): sessions on the
shared HTTP demo server, and a stdio process of its own for the test that changes the tool list
(the listing is per process)."""

from __future__ import annotations

import sys

from anvia_nb import mcp
from anvia_nb.policy import MASK, NOT_MATH_CLASSES
from anvia_nb.runtime import Runtime
from anvia_nb.widgets import panel
from anvia_nb.widgets.explorer.exchange_tabs import TAB_TITLES
from tests.helpers.support import DEMO_ARGS
from tests.helpers.waiting import wait_until

TOKEN = "sk-live-tabs-3e8b21"


def _connect_http(runtime: Runtime, url: str, name: str = "demo", headers: dict[str, str] | None = None) -> None:
    runtime.connect(mcp.http(name=name, url=url, headers=headers), log_level="debug")


def test_the_tabs_show_the_server_its_log_and_the_exchange(runtime: Runtime, demo_http_url: str) -> None:
    _connect_http(runtime, demo_http_url)
    explorer = panel(runtime=runtime)
    tabs = explorer.exchange
    titles = list(explorer.tabs.titles)
    assert titles[-3:] == list(TAB_TITLES)
    assert explorer.tabs.children[titles.index("Log")] is tabs.pages[1]
    server = tabs.server_view.value
    assert "protocol version: 2026-07-28" in server and "server: anvia-demo" in server
    assert "capabilities: {" in server and "listChanged" in server
    assert "instructions: The demo server bundled with anvia_nb" in server
    assert NOT_MATH_CLASSES.split()[0] in server

    form = explorer.select("demo", "log_levels")
    assert form is not None and form.call()
    # The tabs are refreshed from the loop's thread when the call's outcome arrives, one view after
    # the other: each is waited for, not read the moment the first one shows the call.
    wait_until(lambda: "info: hello from the demo server" in tabs.log_view.value, what="the log tab to show the call")
    assert "server log debug demo.logs: debug: hello from the demo server" in tabs.log_view.value
    wait_until(
        lambda: all(
            line in tabs.trace_view.value for line in ("tools/call log_levels", "← notification notifications/message")
        ),
        what="the trace tab to show the call",
    )


def test_the_panel_lists_the_tools_again_when_the_server_changes_them(runtime: Runtime) -> None:
    runtime.connect(mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS), log_level="debug")
    explorer = panel(runtime=runtime)
    assert "bonus" not in explorer.tool_names()
    runtime.call("demo", "change_tools")
    wait_until(lambda: "bonus" in explorer.tool_names(), what="the panel to list the new tool")
    wait_until(lambda: "added bonus" in explorer.exchange.server_view.value, what="the server tab to say so")
    runtime.call("demo", "change_tools")
    wait_until(lambda: "bonus" not in explorer.tool_names(), what="the panel to drop the tool")


def test_hostile_log_lines_and_summaries_are_escaped_and_secrets_masked(runtime: Runtime, demo_http_url: str) -> None:
    _connect_http(runtime, demo_http_url, "hostile", {"X-Api-Key": TOKEN})  # the connection's secret
    explorer = panel(runtime=runtime)
    runtime.call("hostile", "log_levels", {"hostile": True, "message": TOKEN})
    runtime.call("hostile", "echo", {"message": TOKEN})  # the server answers with the secret
    explorer.exchange.refresh()
    for view in (explorer.exchange.log_view, explorer.exchange.trace_view):
        html = view.value
        assert "<img src=x" not in html and "<script" not in html and "<iframe" not in html
        assert "&lt;img src=x" in html
        assert "\u202e" not in html and "\x1b" not in html and "⟨U+202E⟩" in html
        assert TOKEN not in html
    assert MASK in explorer.exchange.log_view.value
    assert TOKEN not in explorer.exchange.text()
