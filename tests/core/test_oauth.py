"""OAuth from Python against a local authorization server and an OAuth-protected demo server:
``on_authorize`` drives the flow as a person would (follow the link, give back the redirect)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import httpx2
import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.transport.oauth.tokens import token_path
from anvia_nb.errors import (
    AuthorizationDeniedError,
    AuthorizationError,
    AuthorizationRequiredError,
    AuthorizationStateError,
    ConnectError,
    TokenExpiredError,
)
from anvia_nb.policy import ShowPolicy
from tests.helpers.oauth_server import PRE_REGISTERED, OAuthTestServer

pytestmark = pytest.mark.anyio


class Person:
    """Follows the authorization link and gives back the URL the browser was redirected to."""

    def __init__(self, change: dict[str, str] | None = None) -> None:
        self.asked: list[str] = []
        self.change = change or {}

    def __call__(self, authorization_url: str) -> str:
        self.asked.append(authorization_url)
        answer = httpx2.get(authorization_url, follow_redirects=False)
        assert answer.status_code == 302, answer.text
        redirected = httpx2.URL(answer.headers["location"])
        return str(redirected.copy_merge_params(self.change)) if self.change else str(redirected)


def _file(server: OAuthTestServer, directory: Path, client_id: str | None = None) -> Path:
    return token_path(server.url, client_id, directory)


async def test_connect_call_cache_and_reuse_without_a_prompt(oauth_server: OAuthTestServer, token_dir: Path) -> None:
    person = Person()
    connection = mcp.http(name="secure", url=oauth_server.url, auth=mcp.oauth(on_authorize=person))
    server = await connect_mcp(connection)
    try:
        assert await server.tool("add").call({"a": 2, "b": 3}) == "5"
    finally:
        await server.close()
    assert len(person.asked) == 1
    link = httpx2.URL(person.asked[0])
    assert link.params["code_challenge_method"] == "S256" and link.params["scope"] == "tools"
    assert link.params["resource"] == oauth_server.url
    assert oauth_server.registrations == 1 and oauth_server.authorizations == 1

    cached = _file(oauth_server, token_dir)
    assert stat.S_IMODE(cached.stat().st_mode) == 0o600
    assert stat.S_IMODE(token_dir.stat().st_mode) == 0o700
    token = json.loads(cached.read_text())["tokens"]["access_token"]
    assert token in oauth_server.access
    assert token not in repr(connection) and token not in repr(connection.auth)

    # a new kernel: same URL, nobody to ask; the cached token is used and nobody is prompted
    again = await connect_mcp(mcp.http(name="secure", url=oauth_server.url, auth=mcp.oauth()))
    try:
        assert await again.tool("add").call({"a": 1, "b": 1}) == "2"
    finally:
        await again.close()
    assert oauth_server.authorizations == 1 and oauth_server.registrations == 1


async def test_a_token_about_to_expire_is_refreshed_before_it_is_sent(
    oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    await (await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=Person())))).close()
    cached = _file(oauth_server, token_dir)
    data = json.loads(cached.read_text())
    old = data["tokens"]["access_token"]
    data["expires_at"] = 0  # the token expired while the kernel was down
    cached.write_text(json.dumps(data))
    oauth_server.revoke_all()

    server = await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth()))
    try:
        assert await server.tool("add").call({"a": 1, "b": 2}) == "3"
    finally:
        await server.close()
    assert oauth_server.refreshes == 1 and oauth_server.authorizations == 1
    assert json.loads(cached.read_text())["tokens"]["access_token"] not in (old, None)


async def test_an_expired_token_that_cannot_refresh_says_so(oauth_server: OAuthTestServer, token_dir: Path) -> None:
    await (await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=Person())))).close()
    cached = _file(oauth_server, token_dir)
    data = json.loads(cached.read_text())
    data["expires_at"] = 0
    cached.write_text(json.dumps(data))
    oauth_server.revoke_all()
    oauth_server.refresh_ok = False

    with pytest.raises(TokenExpiredError, match=r"'s'.*expired and could not be refreshed.*--oauth"):
        await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth()))


async def test_a_token_that_stops_working_while_connected_fails_the_call_saying_why(
    oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    """The HTTP transport dies with the failed authorization, so the call once heard only "the
    connection closed: the server went away". It now hears why, and what to do."""
    await (await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=Person())))).close()
    server = await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth()))  # the cached token
    try:
        assert await server.tool("add").call({"a": 1, "b": 2}) == "3"
        oauth_server.revoke_all()
        oauth_server.refresh_ok = False
        with pytest.raises(TokenExpiredError, match=r"'s'.*expired and could not be refreshed.*--oauth"):
            await server.tool("add").call({"a": 1, "b": 2})
        assert not server.is_open
    finally:
        await server.close()  # quiet: the call already said why the connection ended


def _scope_asked(authorization_url: str) -> str:
    return str(httpx2.URL(authorization_url).params.get("scope", ""))


async def test_the_scopes_asked_for_are_asked_even_when_the_server_names_fewer(
    oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    """The SDK takes the scope from the server's 401 challenge ("tools"), which dropped the ones
    asked for; and a cached token without one of them is not used: the person authorizes again."""
    person = Person()
    connection = mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=person))
    await (await connect_mcp(connection)).close()
    assert [_scope_asked(url) for url in person.asked] == ["tools"]

    wider = Person()
    connection = mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=wider, scopes="tools admin"))
    await (await connect_mcp(connection)).close()
    assert [_scope_asked(url) for url in wider.asked] == ["tools admin"]
    assert "tools admin" in oauth_server.granted.values()

    again = Person()  # now the cached token has both: nobody is asked
    await (
        await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=again, scopes="admin")))
    ).close()
    assert again.asked == []


async def test_a_scope_the_server_would_not_grant_is_not_asked_at_every_connect(
    oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    oauth_server.refused = {"admin"}
    for asked in (["tools admin"], []):  # the first connect asks; the next ones use the token
        person = Person()
        connection = mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=person, scopes="tools admin"))
        await (await connect_mcp(connection)).close()
        assert [_scope_asked(url) for url in person.asked] == asked
    assert oauth_server.authorizations == 1


async def test_a_step_up_asks_the_person_again_and_the_call_goes_through(
    oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    person = Person()
    server = await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=person)))
    try:
        assert await server.tool("add").call({"a": 1, "b": 2}) == "3"
        oauth_server.step_up = {"add": "admin"}  # now add needs more: 403 insufficient_scope
        assert await server.tool("add").call({"a": 2, "b": 2}) == "4"
        assert [_scope_asked(url) for url in person.asked] == ["tools", "tools admin"]
    finally:
        await server.close()


async def test_logout_forgets_the_tokens(oauth_server: OAuthTestServer, token_dir: Path) -> None:
    connection = mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=Person()))
    await (await connect_mcp(connection)).close()
    assert _file(oauth_server, token_dir).exists()
    assert mcp.oauth_logout(connection) is True
    assert not _file(oauth_server, token_dir).exists()
    assert mcp.oauth_logout(connection) is False
    with pytest.raises(AuthorizationRequiredError, match="needs OAuth authorization.*--oauth"):
        await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth()))


async def test_a_redirect_with_a_foreign_state_is_refused(oauth_server: OAuthTestServer, token_dir: Path) -> None:
    person = Person(change={"state": "someone-elses-state"})
    with pytest.raises(AuthorizationStateError, match="does not belong to this authorization") as caught:
        await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=person)))
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, ConnectError)
    assert oauth_server.access == set()  # the code was never exchanged
    assert "tokens" not in json.loads(_file(oauth_server, token_dir).read_text())


async def test_a_denial_is_reported(oauth_server: OAuthTestServer, token_dir: Path) -> None:
    oauth_server.deny = True
    with pytest.raises(AuthorizationDeniedError, match=r"was denied \(access_denied\)"):
        await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=Person())))


async def test_an_authorization_server_naming_another_issuer_is_refused(
    oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    oauth_server.issuer = "http://127.0.0.2:9"  # the resource names the real origin; this metadata another
    person = Person()
    with pytest.raises(AuthorizationError, match="Authorizing with 's' failed.*issuer"):
        await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=person)))
    assert person.asked == [] and oauth_server.registrations == 0


async def test_a_plain_connect_to_a_protected_server_says_how_to_authorize(oauth_server: OAuthTestServer) -> None:
    with pytest.raises(AuthorizationRequiredError, match=r"needs authorization \(HTTP 401\).*--oauth"):
        await connect_mcp(mcp.http(name="s", url=oauth_server.url))


async def test_a_token_echoed_by_the_server_is_masked(oauth_server: OAuthTestServer, token_dir: Path) -> None:
    server = await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=Person())))
    try:
        token = json.loads(_file(oauth_server, token_dir).read_text())["tokens"]["access_token"]
        outcome = await server.tool("echo").call_outcome({"message": f"I saw {token}"})
    finally:
        await server.close()
    assert token in str(outcome.output)
    shown = ShowPolicy().with_secrets(outcome.secrets).mask(str(outcome.output))
    assert token not in shown and "I saw" in shown


async def test_the_local_callback_completes_without_a_paste(oauth_server: OAuthTestServer, token_dir: Path) -> None:
    followed: list[int] = []

    def browser(authorization_url: str) -> None:  # a local browser: follows the redirect to the kernel
        followed.append(httpx2.get(authorization_url, follow_redirects=True).status_code)

    server = await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=browser)))
    try:
        assert await server.tool("add").call({"a": 4, "b": 4}) == "8"
    finally:
        await server.close()
    assert followed == [200]


async def test_a_pre_registered_client_does_not_register(oauth_server: OAuthTestServer, token_dir: Path) -> None:
    settings = mcp.oauth(client_id=PRE_REGISTERED, scopes=["tools"], on_authorize=Person())
    server = await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=settings))
    await server.close()
    assert oauth_server.registrations == 0 and oauth_server.authorizations == 1
    assert _file(oauth_server, token_dir, PRE_REGISTERED).exists()
    assert not _file(oauth_server, token_dir).exists()  # cached per client


def test_token_files_are_not_readable_by_others_even_with_a_loose_umask(tmp_path: Path) -> None:
    import anyio
    from mcp.shared.auth import OAuthToken

    from anvia_nb.core.transport.oauth.tokens import TokenFile

    old = os.umask(0)
    try:
        store = TokenFile(tmp_path / "d" / "t.json")
        anyio.run(store.set_tokens, OAuthToken(access_token="a-long-access-token", expires_in=60))
    finally:
        os.umask(old)
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert store.secrets() == ("a-long-access-token",)


async def test_an_on_authorize_that_raises_ends_the_connect_with_its_own_error(
    oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    def closed(authorization_url: str) -> str:
        raise AuthorizationDeniedError("the person closed the prompt", "s")

    with pytest.raises(AuthorizationDeniedError, match="^the person closed the prompt$"):
        await connect_mcp(mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=closed)))
