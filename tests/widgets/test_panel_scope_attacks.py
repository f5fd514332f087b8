"""A dashboard's panel and form against what a viewer's browser may send of its own, without a
browser: each update is applied as ipywidgets applies a comm message from the page
(``widget.set_state``), read-only traits included, and the kernel still offers nothing the author
did not name: no other connection, tool, resource, prompt, or value of a fixed argument.
(tests/browser/test_dashboard_viewer_attacks_browser.py sends the same from a real page.)"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from traitlets import TraitError

from anvia_nb import mcp
from anvia_nb.demo_server.handlers import build_server
from anvia_nb.display import RenderSettings
from anvia_nb.errors import InvalidTypeError, InvalidValueError
from anvia_nb.runtime import Runtime
from anvia_nb.runtime.app_bridge import PageOffer
from anvia_nb.widgets import form, panel
from anvia_nb.widgets.forms.tool_form import ToolForm
from tests.helpers.waiting import WAIT_SECONDS

FOR_VIEWERS = RenderSettings(hide_server_errors=True)


def from_the_browser(widget: Any, **state: Any) -> None:
    """What a comm message from the page does in the kernel; a refused one raises there, and
    ipywidgets logs it (the page gets nothing)."""
    with contextlib.suppress(TraitError, IndexError, ValueError):
        widget.set_state(state)


@pytest.fixture
def two_servers(demo_runtime: Runtime) -> Runtime:
    demo_runtime.connect(mcp.memory(name="admin", server=build_server()))
    return demo_runtime


def test_tools_with_two_connections_open_and_none_named_is_one_line(two_servers: Runtime) -> None:
    with pytest.raises(InvalidValueError, match=r"offers one connection's tools and 2 are open: name it") as refused:
        panel(runtime=two_servers, tools=["add"])
    assert "\n" not in str(refused.value)
    with pytest.raises(InvalidValueError, match="2 are open"):
        panel(runtime=two_servers, prompts=["greet"])
    with pytest.raises(InvalidTypeError, match="takes a list of URIs or uriTemplates"):
        panel(runtime=two_servers, connection="demo", resources="demo://readme")


def test_the_only_open_connection_is_the_one_a_scoped_panel_lists(demo_runtime: Runtime) -> None:
    explorer = panel(runtime=demo_runtime, tools=["add"])
    assert explorer.scope.connection == "demo"
    demo_runtime.connect(mcp.memory(name="admin", server=build_server()))
    explorer.refresh()
    assert [value for _label, value in explorer.connection.options] == ["demo"]  # opened later: not listed


def test_another_connection_or_tool_sent_from_the_browser_chooses_nothing(two_servers: Runtime) -> None:
    explorer = panel(runtime=two_servers, connection="demo", tools=["echo", "add"], settings=FOR_VIEWERS)
    assert [value for _label, value in explorer.connection.options] == ["demo"]
    from_the_browser(explorer.connection, _options_labels=["demo", "admin"], index=1)
    assert explorer.connection.value == "demo" and explorer.server is not None and explorer.server.name == "demo"
    for attempt in ({"_options_labels": ["echo", "add", "drop_table"], "index": 2}, {"index": 7}):
        from_the_browser(explorer.tools, **attempt)
        assert explorer.form is None  # no form for a tool the page did not offer
    with pytest.raises(Exception, match="does not offer the tool 'crash'"):
        explorer.select("demo", "crash")
    assert explorer.tabs.titles == ("Tools", "Audit", "Server", "Log", "Trace")


def test_a_resource_or_prompt_the_page_did_not_offer_is_not_read(demo_runtime: Runtime) -> None:
    explorer = panel(runtime=demo_runtime, connection="demo", resources=["demo://readme"], prompts=["greet"])
    assert explorer.tabs.titles == ("Resources", "Prompts", "Server", "Log", "Trace")
    assert explorer.tool_names() == []
    tab = explorer.resources_tab
    assert tab.listing is not None
    tab.listing.result(WAIT_SECONDS)
    assert [r["uri"] for r in tab.resources] == ["demo://readme"] and tab.templates == []
    tab.select("demo://notes/1")  # as code would: an item not offered is not there to choose
    assert tab.resource_list.value is None and tab.read() is None
    from_the_browser(tab.resource_list, _options_labels=["readme", "notes"], index=1)
    from_the_browser(tab.template_list, _options_labels=["notes"], index=0)
    assert tab.read() is None  # nothing offered was chosen: nothing read
    tab.select("demo://readme")
    read = tab.read()
    assert read is not None and [c.get("uri") for c in read.contents] == ["demo://readme"]
    prompts = explorer.prompts_tab
    assert prompts.listing is not None
    prompts.listing.result(WAIT_SECONDS)
    assert [p["name"] for p in prompts.prompts] == ["greet"]


def test_a_fixed_argument_changed_from_the_browser_is_still_sent_as_fixed(demo_runtime: Runtime) -> None:
    add = form("demo.add", runtime=demo_runtime, readonly_arguments={"b": 100}, settings=FOR_VIEWERS)
    assert isinstance(add, ToolForm)
    box = add.arguments.widget.children[1]
    fixed_field = box.children[1].children[1]
    from_the_browser(fixed_field, disabled=False, value="-5")
    from_the_browser(add.arguments.mode, index=1)  # JSON mode
    from_the_browser(add.arguments.json_text, value='{"a": 1, "b": -5}')
    add.call_button.click()  # as the page's click message does
    outcome = add.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.arguments == {"a": 1, "b": 100}


def test_a_panel_for_viewers_has_no_widget_that_writes_files(demo_runtime: Runtime) -> None:
    explorer = panel(runtime=demo_runtime, settings=FOR_VIEWERS)
    export = explorer.export
    assert export.widget.children == () and not hasattr(export, "button")
    author = panel(runtime=demo_runtime)
    assert author.export.button.description == "Save as pytest"


def test_a_form_too_long_to_show_whole_tells_viewers_nothing_to_type() -> None:
    from anvia_nb.widgets.fields.completing import _left_out_line

    for ref in (("prompt", "greet"), ("template", "demo://notes/{id}")):
        assert "%mcp" in _left_out_line(3, 400, ref)
        assert "%mcp" not in _left_out_line(3, 400, ref, for_viewers=True)
        assert "3 more" in _left_out_line(3, 400, ref, for_viewers=True)


def test_a_view_opened_from_a_scoped_panel_reaches_only_what_the_panel_offers(demo_runtime: Runtime) -> None:
    explorer = panel(runtime=demo_runtime, tools=["counter_app", "add"], settings=FOR_VIEWERS)
    explorer.tools.value = "counter_app"
    assert explorer.form is not None
    assert explorer.form.app_offer == PageOffer(tools=frozenset({"counter_app", "add"}))
    author = panel(runtime=demo_runtime)  # the author's own explorer: a view reaches its server
    author.tools.value = "counter_app"
    assert author.form is not None and author.form.app_offer is None
