"""``%mcp connect NAME --oauth --http URL`` in a real IPython shell, against a local authorization
server: the link is shown and the cell returns; the redirected URL is given back (the paste box's
Finish, or ``--oauth-redirect``); the cached token is used next time; ``%mcp logout`` forgets it."""

from __future__ import annotations

from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.core.transport.oauth.tokens import token_path
from anvia_nb.errors import AuthorizationRequiredError
from anvia_nb.runtime import get_runtime
from anvia_nb.widgets.prompts.oauth import AuthorizationPrompt
from tests.helpers.magic import run
from tests.helpers.oauth_magic import authorize, redirected
from tests.helpers.oauth_server import OAuthTestServer
from tests.helpers.waiting import wait_until


def _wait(prompt: AuthorizationPrompt) -> str:
    wait_until(lambda: prompt.box.disabled, "the background connect to end", seconds=60)
    return str(prompt.status.value)


def test_oauth_connect_shows_the_link_and_finishes_with_the_redirect(
    ip: InteractiveShell, oauth_server: OAuthTestServer, token_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prompt = run(ip, f"connect sec --oauth --http {oauth_server.url}")
    assert isinstance(prompt, AuthorizationPrompt)  # the cell returned: the kernel is free for the paste box
    assert "sec (127.0.0.1:" in prompt.text and f"authorize at 127.0.0.1:{oauth_server.port}" in prompt.text
    assert "nothing opens it for you" in prompt.text and "--oauth-redirect" in prompt.text
    html = prompt.link.value
    assert 'rel="noopener noreferrer"' in html and "tex2jax_ignore" in html and "<script" not in html
    link = next(line for line in prompt.text.splitlines() if line.startswith("http"))
    assert "sec" not in get_runtime().names()

    run(ip, f"connect sec --oauth-redirect {redirected(link)}")
    assert "sec: http" in capsys.readouterr().out
    assert run(ip, "call sec.add a=2 b=3").output == "5"
    assert prompt.box.disabled and "sec: http" in prompt.status.value

    # again, as after a kernel restart: the cached token, no link, no prompt
    run(ip, "close sec")
    assert run(ip, f"connect sec --oauth --http {oauth_server.url}") is None
    assert "sec: http" in capsys.readouterr().out
    assert oauth_server.authorizations == 1

    run(ip, "logout sec")
    assert "Forgot the OAuth tokens of sec" in capsys.readouterr().out
    assert not token_path(oauth_server.url, None, token_dir).exists()
    run(ip, "close sec")


def test_an_authorization_asked_while_connected_fails_the_call_and_says_what_to_type(
    ip: InteractiveShell, oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    """A running call blocks the kernel, so the link cannot be shown then: the call fails at once
    (it used to wait out its timeout, then say the server went away) and says how to see it."""
    authorize(ip, f"connect sec --oauth --http {oauth_server.url}")
    assert run(ip, "call sec.add a=2 b=3").output == "5"
    oauth_server.refresh_ok = False
    oauth_server.revoke_all()  # the token stops working and cannot be refreshed: a new login is needed

    error = run(ip, "call sec.add a=2 b=3").outcome.error
    assert isinstance(error, AuthorizationRequiredError)
    typed = f"%mcp connect sec --oauth --scope tools --http {oauth_server.url}"
    assert "asked to be authorized again while connected" in str(error) and typed in str(error)
    assert get_runtime().server("sec").status == "closed"

    authorize(ip, typed.removeprefix("%mcp "))  # what it says to type shows the link again
    assert run(ip, "call sec.add a=2 b=3").output == "5"
    run(ip, "close sec")


def test_a_step_up_while_connected_says_which_scope_to_connect_with_and_that_works(
    ip: InteractiveShell, oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    authorize(ip, f"connect sec --oauth --http {oauth_server.url}")
    oauth_server.step_up = {"add": "admin"}  # add now needs a scope the token lacks: 403 insufficient_scope

    error = run(ip, "call sec.add a=2 b=3").outcome.error
    typed = f"connect sec --oauth --scope 'tools admin' --http {oauth_server.url}"
    assert isinstance(error, AuthorizationRequiredError) and f"%mcp {typed}" in str(error)

    link = authorize(ip, typed)  # the cached token lacks admin: the link is shown again, asking for both
    assert "scope=tools+admin" in link
    assert run(ip, "call sec.add a=2 b=3").output == "5"
    run(ip, "close sec")


def test_the_paste_box_finishes_the_connect(
    ip: InteractiveShell, oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    prompt = run(ip, f"connect box --oauth --scope tools --http {oauth_server.url}")
    link = next(line for line in prompt.text.splitlines() if line.startswith("http"))
    assert "scope=tools" in link
    prompt.box.value = redirected(link)
    prompt.finish.click()
    assert prompt.box.value == ""  # the code does not stay on the page
    assert "box: http" in _wait(prompt)
    assert "box" in get_runtime().names()
    run(ip, "close box")


def test_a_pasted_url_of_another_flow_is_refused(
    ip: InteractiveShell, oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    prompt = run(ip, f"connect sec --oauth --http {oauth_server.url}")
    link = next(line for line in prompt.text.splitlines() if line.startswith("http"))
    with pytest.raises(UsageError, match="does not belong to this authorization"):
        run(ip, f"connect sec --oauth-redirect {redirected(link, state='not-this-one')}")
    assert "sec" not in get_runtime().names()
    with pytest.raises(UsageError, match="No authorization is waiting for 'sec'"):
        run(ip, "connect sec --oauth-redirect http://127.0.0.1:1/callback?code=x&state=y")


def test_a_protected_server_without_oauth_says_how(ip: InteractiveShell, oauth_server: OAuthTestServer) -> None:
    with pytest.raises(UsageError, match=r"needs authorization \(HTTP 401\): connect with %mcp connect plain --oauth"):
        run(ip, f"connect plain --http {oauth_server.url}")


def test_bad_oauth_lines_say_what_to_type(ip: InteractiveShell) -> None:
    with pytest.raises(UsageError, match="--oauth is for one --http connection"):
        run(ip, "connect x --oauth --stdio python -m anvia_nb.demo_server")
    with pytest.raises(UsageError, match="--client-id and --scope go with --oauth"):
        run(ip, "connect x --client-id abc --http http://127.0.0.1:1/mcp")
    with pytest.raises(UsageError, match="Usage: %mcp connect NAME --oauth-redirect URL"):
        run(ip, "connect x --oauth-redirect")
    with pytest.raises(UsageError, match="is not an OAuth connection of this kernel"):
        run(ip, "logout nobody")
