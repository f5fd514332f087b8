"""What a hostile or careless server's text can do at connect time and in the DataFrames.

A server that refuses the handshake quoting its own database password, secrets too short to be
masked (said at connect), and frames whose HTML a front end's MathJax must leave alone.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from tests.helpers.magic import DEMO_STDIO, displayed, run

FAILING_INIT = f"--stdio {sys.executable} {Path(__file__).parents[1] / 'servers' / 'failing_init_server.py'}"


def test_hide_server_errors_hides_what_a_server_says_when_it_refuses_to_connect(ip: InteractiveShell) -> None:
    with pytest.raises(UsageError) as shown:
        run(ip, f"connect refusing {FAILING_INIT}")
    assert "hunter2" in str(shown.value)  # by default the server's words are shown (made visible)
    assert "\x1b" not in str(shown.value)
    ip.magics_manager.registry["McpMagics"].hide_server_errors = True
    _, bundles = displayed(ip, f"connect refusing {FAILING_INIT}")  # a notice, not an error
    message = str(bundles)
    assert "hunter2" not in message
    assert "10.0.0.5" not in message
    assert bundles[0]["text/plain"].startswith("The server “refusing” could not be started")


def test_hide_server_errors_hides_the_stderr_of_a_server_that_dies_while_connecting(ip: InteractiveShell) -> None:
    with pytest.raises(UsageError) as shown:
        run(ip, f"connect dying {FAILING_INIT} --stderr")
    assert "hunter2" in str(shown.value)  # by default its last stderr lines say why
    ip.magics_manager.registry["McpMagics"].hide_server_errors = True
    _, bundles = displayed(ip, f"connect dying {FAILING_INIT} --stderr")
    assert "hunter2" not in str(bundles)
    assert "could not be started" in bundles[0]["text/plain"]


def test_connect_says_which_secrets_are_too_short_to_mask(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    run(ip, f"connect shorty --env AUTH_ENABLED=1 --env API_TOKEN=tok-1234567 {DEMO_STDIO}")
    out = capsys.readouterr().out
    assert "env AUTH_ENABLED" in out
    assert "not masked" in out
    assert "API_TOKEN" not in out
    view = run(ip, "call shorty.echo message='add 20 + 1, token tok-1234567'")
    plain = view._repr_mimebundle_()["text/plain"]
    assert "add 20 + 1" in plain
    assert "tok-1234567" not in plain


def test_every_frame_keeps_mathjax_away_from_server_text(ip: InteractiveShell, demo: str) -> None:
    run(ip, "call demo.echo message=hello")
    for command in ("servers", "tools", "history"):
        frame = run(ip, command)
        html = frame._repr_html_()
        assert "mathjax_ignore" in html, command
        assert "mathjax_ignore" in frame.head(1)._repr_html_(), command
    import pandas as pd

    assert pd.get_option("display.html.use_mathjax") is True  # the person's own option is untouched
