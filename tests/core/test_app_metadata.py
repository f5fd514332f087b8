"""What a tool's and a view resource's ``_meta.ui`` say, read as the MCP Apps extension defines it."""

from __future__ import annotations

from anvia_nb.core.protocol.apps import AppCsp, ToolApp, app_csp, app_permissions, tool_app


def test_a_tool_names_its_view_and_is_visible_to_both_by_default() -> None:
    app = tool_app({"ui": {"resourceUri": "ui://demo/view.html"}})
    assert app == ToolApp("ui://demo/view.html", ("model", "app"))
    assert app.for_cells and app.for_app


def test_a_tool_only_for_its_view_is_not_for_cells() -> None:
    app = tool_app({"ui": {"resourceUri": "ui://demo/v", "visibility": ["app"]}})
    assert app is not None
    assert not app.for_cells
    assert app.for_app


def test_the_older_flat_key_is_read() -> None:
    assert tool_app({"ui/resourceUri": "ui://old/v"}) == ToolApp("ui://old/v")


def test_metadata_a_server_got_wrong_means_no_app() -> None:
    assert tool_app(None) is None
    assert tool_app({"ui": {"resourceUri": "https://evil.example/app.html"}}) is None
    assert tool_app({"ui": {"resourceUri": 7}}) is None
    odd = tool_app({"ui": {"resourceUri": "ui://a/b", "visibility": "model"}})
    assert odd == ToolApp("ui://a/b")


def test_csp_domains_and_permissions_are_read_and_unknown_ones_dropped() -> None:
    meta = {
        "csp": {"connectDomains": ["https://api.example"], "resourceDomains": ["x", 3]},
        "permissions": {"camera": {}, "filesystem": {}},
    }
    assert app_csp(meta) == AppCsp(("https://api.example",), ("x",))
    assert app_permissions(meta) == frozenset({"camera"})
    assert app_csp({"csp": "open"}) == AppCsp()
    assert app_permissions(None) == frozenset()
