"""A secret with quotes or backslashes in it is masked however it is escaped: as Python's repr
writes it (a connection's repr, ``server.connection`` in a cell), as HTML, JSON or a URL does."""

from __future__ import annotations

import html
import json
from urllib.parse import quote

import pytest

from anvia_nb.core.api.factories import mcp
from anvia_nb.policy import MASK, ShowPolicy

TOKENS = ['ab"c\\def-123456', "ab'c\\def-123456", "q'uo\"te\\s-123456", "tab\there-123456", "é-ñ'\\-123456"]


def every_escaping(secret: str) -> list[str]:
    """The forms a secret takes in text a person may see."""
    body = repr(secret)[1:-1]
    both = repr(secret + "'\"")[1:-4]  # repr's form when a string holds both quotes: ' escaped
    forms = [secret, body, both, both.replace("\\'", "'"), ascii(secret)[1:-1]]
    forms += [html.escape(f) for f in list(forms)] + [json.dumps(secret)[1:-1], quote(secret, safe="")]
    return forms


@pytest.mark.parametrize("token", TOKENS)
def test_repr_of_an_http_connection_never_shows_a_quoted_or_backslashed_token(token: str) -> None:
    connection = mcp.http(name="h", url="https://h.example/mcp", headers={"Authorization": f"Bearer {token}"})
    shown = repr(connection)
    for form in every_escaping(token):
        assert form not in shown, f"the token shows in {shown!r}"
    assert MASK in shown and "Authorization" in shown


@pytest.mark.parametrize("token", TOKENS)
def test_repr_of_a_stdio_connection_never_shows_a_quoted_or_backslashed_env_secret(token: str) -> None:
    connection = mcp.stdio(name="s", command="python", env={"API_TOKEN": token, "OTHER": f"x {token} 'y\""})
    shown = repr(connection)
    for form in every_escaping(token):
        assert form not in shown, f"the secret shows in {shown!r}"


@pytest.mark.parametrize("token", TOKENS)
def test_the_policy_masks_a_secret_in_every_escaping(token: str) -> None:
    policy = ShowPolicy().with_secrets([token])
    for form in every_escaping(token):
        assert policy.mask(f"<{form}>") == f"<{MASK}>", form
        assert form not in policy.visible(repr({"k": [token, form]}))


def test_what_a_client_launches_never_shows_its_secrets_in_a_repr() -> None:
    token = "sk-live-launch-0123456789"
    url = f"https://user:{token}@example.invalid/mcp?sig={token}"
    http = mcp.http(name="remote", url=url, headers={"Authorization": f"Bearer {token}"})
    stdio = mcp.stdio(name="local", command="server", args=["--api-key", token], env={"API_TOKEN": token})
    for connection in (http, stdio):
        client = connection.client()
        try:
            assert token not in repr(client.opener)
            assert token not in repr(client)
        finally:
            client.log.remove()
