"""A server's error text inside a ``%mcp`` usage error: masked (secrets, escapes, bidi controls)
and kept to one line, and hidden with the other server errors when ``hide_server_errors`` is set."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from tests.helpers.magic import displayed, run

BAD_LISTING = f"--stdio {sys.executable} {Path(__file__).parents[1] / 'servers' / 'bad_listing_server.py'}"


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
