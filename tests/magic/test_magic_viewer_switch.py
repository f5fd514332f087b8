"""One switch makes a page a page for viewers (issue 39): after ``%config McpMagics.hide_server_errors
= True`` a form, a panel and a view built from Python without ``settings=`` are the viewer's, as the
README's dashboard line builds them, and the form's view is held to its tool and fixed arguments."""

from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell

import anvia_nb
from anvia_nb.core.protocol.apps import AppRequestRefused
from anvia_nb.display import RenderSettings
from anvia_nb.policy import HIDDEN_SERVER_ERROR
from anvia_nb.runtime.app_bridge import PageOffer
from anvia_nb.widgets import ToolForm, form, panel
from anvia_nb.widgets.viewer_page import kernel_for_viewers


def test_a_form_built_without_settings_on_a_viewer_page_is_the_viewers(ip: InteractiveShell, demo: str) -> None:
    assert not kernel_for_viewers()
    ip.run_line_magic("config", "McpMagics.hide_server_errors = True")
    assert kernel_for_viewers()
    made = form(f"{demo}.account_view", readonly_arguments={"account": "alice"})  # as the README writes it
    assert isinstance(made, ToolForm) and made.policy.for_viewers
    assert made.call() and made.wait() is not None
    view = made.app.view
    assert view is not None and view.settings.hide_server_errors
    assert view.bridge.offer == PageOffer(tools=frozenset({"account_view"}))
    with pytest.raises(AppRequestRefused, match="does not offer the tool 'echo'"):
        view.bridge.handle("tools/call", {"name": "echo", "arguments": {"message": "x"}})
    sent = view.bridge.handle("tools/call", {"name": "account_view", "arguments": {"account": "mallory"}})
    assert sent["structuredContent"] == {"account": "alice"}
    with pytest.raises(AppRequestRefused) as failed:
        view.bridge.handle("tools/call", {"name": "account_view", "arguments": {"fail": True}})
    assert failed.value.message == f"account_view failed: {HIDDEN_SERVER_ERROR}"


def test_settings_that_say_otherwise_do_not_turn_the_switch_off(ip: InteractiveShell, demo: str) -> None:
    ip.run_line_magic("config", "McpMagics.hide_server_errors = True")
    author = RenderSettings(hide_server_errors=False, max_output_chars=500)
    made = form(f"{demo}.echo", settings=author)
    assert made.settings == RenderSettings(hide_server_errors=True, max_output_chars=500)
    assert panel(settings=author).policy.for_viewers
    view = anvia_nb.app(f"{demo}.counter_app", settings=author)
    assert view.policy.for_viewers and view.bridge.offer == PageOffer(tools=frozenset({"counter_app"}))


def test_with_the_switch_off_a_form_built_without_settings_is_the_authors(ip: InteractiveShell, demo: str) -> None:
    made = form(f"{demo}.account_view", readonly_arguments={"account": "alice"})
    assert isinstance(made, ToolForm) and not made.policy.for_viewers
    assert made.call() and made.wait() is not None
    assert made.app.view is not None and made.app.view.bridge.offer is None
