"""Failures that explain themselves in the cell: a failed connect shows why and where its whole log
is, closes quietly, hides server text when asked; -32042 shows its URL as text and as a link the
person may follow; ``key=value`` with a JSON value sends that JSON. Real servers over stdio: one
that exits at once (exiting_server.py) and one answering -32042 with the URL it is given
(url_server.py), whose connection the module's tests share."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic.subcommands import help_text
from anvia_nb.policy import HIDDEN_SERVER_ERROR, MASK
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import displayed, kept_open, open_kept, run
from tests.helpers.support import URL_SERVER, forked

FATAL = f"--stdio {sys.executable} {Path(__file__).parents[1] / 'servers' / 'exiting_server.py'}"
URL_STDIO = f"--stdio {sys.executable} {' '.join(forked(URL_SERVER))}"
TOKEN = "tok-5e7c1d9a2b8f"
SIGN_IN = "https://auth.example.com/sign-in?session=abc"


def _fatal(ip: InteractiveShell, name: str = "typo") -> str:
    """``%mcp connect`` of a server that exits at once; the cell's error text."""
    with pytest.raises(UsageError) as caught:
        run(ip, f"connect {name} --env DEMO_TOKEN={TOKEN} {FATAL}")
    return str(caught.value)


@pytest.fixture(scope="module")
def _url_server_scope(shell: InteractiveShell) -> Iterator[str]:
    with kept_open("m") as name:
        yield name


@pytest.fixture
def url_server(ip: InteractiveShell, _url_server_scope: str) -> str:
    """``m``: url_server.py over stdio, with the secret ``API_TOKEN`` in its env; opened once for the module."""
    open_kept(ip, _url_server_scope, f"--env API_TOKEN={TOKEN} {URL_STDIO}")
    return _url_server_scope


def _needs_url(ip: InteractiveShell, name: str, url: str = SIGN_IN) -> dict[str, str]:
    """``%mcp call NAME.needs_url``, answered with -32042 and ``url``; the result's bundle."""
    view = run(ip, f"call {name}.needs_url {json.dumps({'url': url})}")
    assert view.status == "failed"
    bundle: dict[str, str] = view._repr_mimebundle_()
    return bundle


# -- a failed connect ------------------------------------------------------------------------


def test_a_failed_connect_shows_the_servers_last_words_masked_and_one_line_saying_where_the_log_is(
    ip: InteractiveShell,
) -> None:
    shown = _fatal(ip)
    assert "fatal: missing API key" in shown
    assert TOKEN not in shown and MASK in shown
    assert shown.splitlines()[-1] == "%mcp log typo shows the whole log."
    assert shown.count("%mcp log") == 1
    run(ip, "close typo")


def test_closing_a_failed_connect_is_quiet_and_forgets_its_log(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    _fatal(ip)
    capsys.readouterr()
    assert any("fatal: missing API key" in text for text in run(ip, "log typo")["text"])
    run(ip, "close typo")
    assert capsys.readouterr() == ("", "")
    with pytest.raises(UsageError, match="No connection named 'typo'"):
        run(ip, "log typo")
    with pytest.raises(UsageError, match="No connection named 'typo'"):
        run(ip, "close typo")  # once forgotten, it is unknown again


def test_with_server_errors_hidden_a_failed_connect_is_a_notice_for_viewers_with_none_of_the_servers_stderr(
    ip: InteractiveShell,
) -> None:
    ip.run_line_magic("config", "McpMagics.hide_server_errors = True")
    value, bundles = displayed(ip, f"connect typo --env DEMO_TOKEN={TOKEN} {FATAL}")
    assert value is None and len(bundles) == 1  # no error: the notebook goes on
    shown = bundles[0]["text/plain"] + bundles[0]["text/html"]
    assert "fatal" not in shown and "starting up" not in shown and "API key" not in shown
    assert "%mcp" not in shown and "Error" not in shown  # nothing to type, no class names
    assert bundles[0]["text/plain"] == (
        "The server “typo” could not be started, so the parts of this page that use it are not available."
    )
    assert "fatal: missing API key" in get_runtime().log("typo").stderr_text(10_000)  # the author's details
    run(ip, "close typo")


# -- MCP error -32042: a URL the person may open ------------------------------------------------


def test_url_elicitation_shows_the_url_as_text_and_as_a_link_that_opens_nothing_by_itself(
    ip: InteractiveShell, url_server: str
) -> None:
    bundle = _needs_url(ip, url_server)
    assert SIGN_IN in bundle["text/plain"]
    html = bundle["text/html"]
    assert html.count("<a ") == 1
    assert f'<a href="{SIGN_IN}" rel="noopener noreferrer" target="_blank"' in html
    assert "<script" not in html and "window.open" not in html and "<iframe" not in html


def test_a_url_link_is_escaped_and_masked(ip: InteractiveShell, url_server: str) -> None:
    url = f'https://auth.example.com/in?a=1&b="x"><script>alert(1)</script>&t={TOKEN}'
    bundle = _needs_url(ip, url_server, url)  # TOKEN is the connection's API_TOKEN: a secret
    html = bundle["text/html"]
    assert TOKEN not in html and TOKEN not in bundle["text/plain"]
    assert "<script" not in html
    assert 'href="https://auth.example.com/in?a=1&amp;b=&quot;x&quot;&gt;&lt;script&gt;' in html
    assert MASK in html


@pytest.mark.parametrize("url", ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,<b>hi</b>"])
def test_only_http_and_https_urls_become_links(ip: InteractiveShell, url_server: str, url: str) -> None:
    bundle = _needs_url(ip, url_server, url)
    assert "<a " not in bundle["text/html"]
    assert url in bundle["text/plain"]


def test_with_server_errors_hidden_the_url_is_not_shown(ip: InteractiveShell, url_server: str) -> None:
    ip.run_line_magic("config", "McpMagics.hide_server_errors = True")
    bundle = _needs_url(ip, url_server)
    assert "auth.example.com" not in str(bundle) and "<a " not in bundle["text/html"]
    assert HIDDEN_SERVER_ERROR in bundle["text/plain"]


# -- key=value with a JSON value ---------------------------------------------------------------


def test_a_json_object_or_list_after_key_equals_reaches_the_server_as_that_json(
    ip: InteractiveShell, demo: str
) -> None:
    view = run(
        ip,
        f'call {demo}.echo_arguments address={{"city":"Oslo", "zip": "0150"}} tags=["a b","c"] '
        'name=\'two words\' quote={"said":"it\'s"} n=3',
    )
    assert view.structured == {
        "address": {"city": "Oslo", "zip": "0150"},
        "tags": ["a b", "c"],
        "name": "two words",
        "quote": {"said": "it's"},
        "n": 3,
    }


def test_a_value_that_only_looks_like_json_stays_text(ip: InteractiveShell, demo: str) -> None:
    view = run(ip, f"call {demo}.echo_arguments pattern=[a-z]+ pair=[1]x quoted='{{\"a\": 1}}'")
    assert view.structured == {"pattern": "[a-z]+", "pair": "[1]x", "quoted": {"a": 1}}


# -- help --------------------------------------------------------------------------------------


def test_help_says_how_to_pass_a_token_and_where_a_failed_connects_log_is() -> None:
    text = help_text()
    assert "--secret-env NAME" in text
    failed = [line for line in text.splitlines() if "failed" in line and "%mcp log NAME" in line]
    assert failed, text


def test_json_values_keep_their_spaces_and_nesting_beside_options() -> None:
    from anvia_nb.magic.parse.commands import CallCommand
    from anvia_nb.magic.subcommands import parse_command

    command = parse_command('call demo.t a={"x": {"y": [1, 2]}} --timeout=5 b=[{"c": "d e"}] f=\'g h\'')
    assert isinstance(command, CallCommand)
    assert command.arguments == {"a": {"x": {"y": [1, 2]}}, "b": [{"c": "d e"}], "f": "g h"}
    assert command.timeout_seconds == 5
    whole = parse_command('call demo.t {"a": {"b": 1}} --timeout 3')
    assert isinstance(whole, CallCommand)
    assert whole.arguments == {"a": {"b": 1}}
