"""A page for viewers (``hide_server_errors``) signs nobody in with OAuth: the author's cached token
would make every viewer act as the author, and a viewer's sign-in would be cached for the next
viewer. The connect is refused before anything is sent, in one line that names the grant to use;
a service account (client credentials) connects as it does for the author."""

from __future__ import annotations

from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb import mcp
from anvia_nb.dashboard import soft_connect
from anvia_nb.display import RenderSettings
from anvia_nb.errors import InvalidValueError
from anvia_nb.runtime import get_runtime
from anvia_nb.widgets.prompts.oauth import AuthorizationPrompt
from tests.helpers.magic import run
from tests.helpers.oauth_magic import authorize
from tests.helpers.oauth_server import OAuthTestServer

SECRET = "viewer-page-secret-5d1e"
VARIABLE = "ANVIA_TEST_VIEWER_PAGE_SECRET"
FOR_VIEWERS = RenderSettings(hide_server_errors=True)


def test_a_page_for_viewers_refuses_a_persons_sign_in_even_with_the_authors_token_cached(
    ip: InteractiveShell, oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    authorize(ip, f"connect sec --oauth --http {oauth_server.url}")  # the author, in their own notebook
    run(ip, "close sec")
    assert oauth_server.authorizations == 1 and any(token_dir.iterdir())

    ip.run_line_magic("config", "McpMagics.hide_server_errors = True")
    with pytest.raises(UsageError) as refused:
        run(ip, f"connect sec --oauth --http {oauth_server.url}")
    line = str(refused.value)
    assert "\n" not in line and "'sec' signs a person in with OAuth" in line
    assert "every viewer would act as whoever signed in" in line and "--oauth-client-credentials" in line
    assert "sec" not in get_runtime().names()  # the cached token was not used
    assert oauth_server.authorizations == 1 and oauth_server.registrations == 1  # and no link was made


def test_a_page_for_viewers_connects_a_service_account(
    ip: InteractiveShell,
    oauth_server: OAuthTestServer,
    token_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    oauth_server.secrets["svc"] = SECRET
    monkeypatch.setenv(VARIABLE, SECRET)
    ip.run_line_magic("config", "McpMagics.hide_server_errors = True")
    line = f"connect svc --oauth-client-credentials --client-id svc --secret-env {VARIABLE} --http {oauth_server.url}"
    assert not isinstance(run(ip, line), AuthorizationPrompt)
    assert capsys.readouterr().out.strip().startswith("svc: http · ")
    assert run(ip, "call svc.add a=2 b=3").output == "5" and oauth_server.authorizations == 0
    run(ip, "close svc")


def test_soft_connect_for_viewers_refuses_a_persons_sign_in_and_takes_a_service_account(
    ip: InteractiveShell, oauth_server: OAuthTestServer, token_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    person = mcp.http(name="sec", url=oauth_server.url, auth=mcp.oauth())
    with pytest.raises(InvalidValueError, match="'sec' signs a person in with OAuth, and this page is for viewers"):
        soft_connect(person, settings=FOR_VIEWERS)
    assert oauth_server.registrations == 0 and "sec" not in get_runtime().names()

    oauth_server.secrets["svc"] = SECRET
    monkeypatch.setenv(VARIABLE, SECRET)
    service = mcp.http(
        name="svc", url=oauth_server.url, auth=mcp.client_credentials(client_id="svc", client_secret_env=VARIABLE)
    )
    notice = soft_connect(service, settings=FOR_VIEWERS)
    assert notice.ok and notice.text.startswith("svc: http · ")
    get_runtime().close("svc")
