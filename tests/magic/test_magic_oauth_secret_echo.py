"""A failed connect with ``--oauth-client-credentials`` against a token endpoint that echoes what it
receives (a hostile or misconfigured authorization server on 127.0.0.1): the client secret read
from ``--secret-env`` is masked in the one-line error a person sees, in the full traceback
(``show_tracebacks``) with every error of its ``__cause__`` chain, in the connection's log (the
SDK logs the failure there), and from Python: as is, form-encoded (``client_secret_post``) and
inside ``Basic <base64 of id:secret>`` (``client_secret_basic``)."""

from __future__ import annotations

import asyncio
import base64
import json
import traceback
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from anvia_nb import connect_mcp, mcp
from anvia_nb.errors import AuthorizationError
from tests.helpers.magic import run
from tests.helpers.oauth_server import OAuthTestServer

SECRET = "echoed+secret/9f3a c1=77&x"  # a form and base64 change it: each form must be masked
VARIABLE = "ANVIA_TEST_ECHOED_SECRET"
METHODS = ["client_secret_basic", "client_secret_post"]


class EchoingTokenServer(OAuthTestServer):
    """The test server, whose token endpoint answers 400 with the headers and body it was sent."""

    async def _token(self, request: Request) -> Response:
        body = (await request.body()).decode()
        return JSONResponse({"error": "invalid_client", "error_description": f"{dict(request.headers)} {body}"}, 400)


@pytest.fixture
def echoing(monkeypatch: pytest.MonkeyPatch, token_dir: Path) -> Iterator[EchoingTokenServer]:
    server = EchoingTokenServer()
    server.start()
    monkeypatch.setenv(VARIABLE, SECRET)
    try:
        yield server
    finally:
        server.stop()


def leaked(text: str) -> list[str]:
    """The forms of the secret found in ``text``."""
    forms = {
        "as is": SECRET,
        "form-encoded": quote_plus(SECRET),
        "URL-encoded": quote(SECRET, safe=""),
        "JSON": json.dumps(SECRET)[1:-1],
        "Basic, percent-encoded (the SDK's)": base64.b64encode(f"svc:{quote(SECRET, safe='')}".encode()).decode(),
        "Basic, raw": base64.b64encode(f"svc:{SECRET}".encode()).decode(),
    }
    return [name for name, form in forms.items() if form in text]


def whole_traceback(error: BaseException) -> str:
    return "".join(traceback.format_exception(error))


@pytest.mark.parametrize("method", METHODS)
def test_the_echoed_secret_is_masked_in_the_line_and_in_the_full_traceback(
    ip: InteractiveShell, echoing: EchoingTokenServer, method: str
) -> None:
    line = (
        f"connect svc --oauth-client-credentials --client-id svc --secret-env {VARIABLE} "
        f"--auth-method {method} --http {echoing.url}"
    )
    with pytest.raises(UsageError, match="Authorizing with 'svc' failed while connecting") as raised:
        run(ip, line)
    shown = str(raised.value)
    assert "invalid_client" in shown and "••••" in shown  # the echo is shown, the secret in it masked
    assert leaked(shown) == [] and leaked(whole_traceback(raised.value)) == []
    ip.run_line_magic("config", "McpMagics.show_tracebacks = True")
    with pytest.raises(AuthorizationError) as full:
        run(ip, line)
    chain = whole_traceback(full.value)
    assert "OAuthTokenError" in chain and "The above exception was the direct cause" in chain
    assert leaked(chain) == [], chain
    ip.run_line_magic("config", "McpMagics.show_tracebacks = False")


@pytest.mark.parametrize("method", METHODS)
def test_from_python_the_error_and_its_cause_hold_no_form_of_the_secret(
    echoing: EchoingTokenServer, method: str
) -> None:
    auth = mcp.client_credentials(client_id="svc", client_secret_env=VARIABLE, auth_method=method)
    with pytest.raises(AuthorizationError) as raised:
        asyncio.run(connect_mcp(mcp.http(name="svc", url=echoing.url, auth=auth)))
    chain = whole_traceback(raised.value)
    assert raised.value.__cause__ is not None and "OAuthTokenError: Token exchange failed (400)" in chain
    assert "invalid_client" in chain and leaked(chain) == []
    log = raised.value.log  # the connection's log, where the SDK's own record of the failure went
    assert log is not None
    logged = "\n".join(log.message_lines(50))
    assert "OAuth flow error" in logged and "invalid_client" in logged and leaked(logged) == []
