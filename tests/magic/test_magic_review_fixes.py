"""Behaviour a code review found missing: masked error lines, typed key=value, settings reaching
forms and panels, and lines split at any white space."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from magic_helpers import displayed, run

from anvia_nb.display import ResultView

BAD_LISTING = f"--stdio {sys.executable} {Path(__file__).with_name('bad_listing_server.py')}"


def test_a_server_error_in_a_usage_error_is_masked_and_made_visible(ip: InteractiveShell) -> None:
    with pytest.raises(UsageError) as info:
        run(ip, f"connect bad --env API_TOKEN=tok-very-secret-1 {BAD_LISTING}")
    message = str(info.value)
    assert "listing failed" in message
    assert "tok-very-secret-1" not in message
    assert "\x1b" not in message
    assert "\u202e" not in message
    assert len(message.splitlines()) == 1


def test_hiding_server_errors_also_hides_them_in_usage_errors(ip: InteractiveShell) -> None:
    ip.magics_manager.registry["McpMagics"].hide_server_errors = True
    _, bundles = displayed(ip, f"connect bad {BAD_LISTING}")  # for viewers: a notice, not an error
    assert "/srv/internal/path" not in str(bundles)
    assert bundles[0]["text/plain"].startswith("The server “bad” could not be started")


def test_key_value_digits_stay_text_when_the_tool_wants_a_string(ip: InteractiveShell, demo: str) -> None:
    view = run(ip, "call demo.echo message=123")
    assert isinstance(view, ResultView)
    assert view.output == "123"
    assert run(ip, "call demo.add a=2 b=3").structured == {"sum": 5}


def test_forms_and_panels_from_the_magic_use_its_settings(ip: InteractiveShell, demo: str) -> None:
    magics = ip.magics_manager.registry["McpMagics"]
    magics.hide_server_errors = True
    magics.timeout_seconds = 7.0
    form = run(ip, "form demo.fail")
    assert form.settings.hide_server_errors is True
    assert form.timeout_seconds == 7.0
    panel = run(ip, "panel")
    assert panel.settings.hide_server_errors is True
    assert panel.timeout_seconds == 7.0


def test_a_tab_separates_words_like_a_space(ip: InteractiveShell, demo: str) -> None:
    assert run(ip, "call\tdemo.echo\tmessage=tabbed").output == "tabbed"
