"""OAuth with no person from Python: ``mcp.client_credentials(...)`` and
``mcp.identity_assertion(...)`` against the local authorization server
(tests/helpers/oauth_server.py); secrets named, never held; what pickles; tokens per grant."""

from __future__ import annotations

import os
import pickle
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.api.portable import portable
from anvia_nb.core.transport.oauth.grants import ClientCredentials
from anvia_nb.core.transport.oauth.settings import forget_tokens
from anvia_nb.core.transport.oauth.tokens import MEMORY, token_path
from anvia_nb.errors import AuthorizationError, InvalidValueError, SecretNotPortableError
from tests.helpers.oauth_server import OAuthTestServer

pytestmark = pytest.mark.anyio

SECRET = "python-secret-0e4b91d7c2"
VARIABLE = "ANVIA_TEST_PY_SECRET"


@pytest.fixture
def service(oauth_server: OAuthTestServer, monkeypatch: pytest.MonkeyPatch) -> OAuthTestServer:
    oauth_server.secrets["svc"] = SECRET
    monkeypatch.setenv(VARIABLE, SECRET)
    return oauth_server


async def test_a_token_the_server_stops_taking_is_asked_for_again_and_each_is_masked(
    service: OAuthTestServer, tmp_path: Path
) -> None:
    service.uses_per_token = 2  # the server decides: two requests per token
    auth = mcp.client_credentials(client_id="svc", client_secret_env=VARIABLE, token_dir=str(tmp_path))
    server = await connect_mcp(mcp.http(name="svc", url=service.url, auth=auth))
    try:
        for n in range(4):
            assert await server.tool("add").call({"a": n, "b": 1}) == str(n + 1)
        assert len(service.issued) >= 3 and service.authorizations == 0
        latest = service.issued[-1][1]
        assert latest in server.connection.secrets() and SECRET in server.connection.secrets()
        assert SECRET not in repr(server.connection) and SECRET not in repr(auth)
    finally:
        await server.close()
    path = token_path(service.url, "svc", tmp_path, "client_credentials")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert forget_tokens(service.url, "svc", token_dir=str(tmp_path)) and not path.exists()


async def test_a_secret_from_a_file_and_one_that_is_missing(service: OAuthTestServer, tmp_path: Path) -> None:
    secret_file = tmp_path / "secret"
    secret_file.write_text(SECRET + "\n")
    auth = mcp.client_credentials(client_id="svc", client_secret_file=str(secret_file), token_dir=str(tmp_path))
    server = await connect_mcp(mcp.http(name="svc", url=service.url, auth=auth))
    await server.close()
    nowhere = str(tmp_path / "nope")
    missing = mcp.client_credentials(client_id="svc", client_secret_file=nowhere, token_dir=str(tmp_path))
    with pytest.raises(AuthorizationError, match=r"from the file .*nope, which cannot be read") as raised:
        await connect_mcp(mcp.http(name="svc", url=service.url, auth=missing))
    assert "\n" not in str(raised.value)
    service.secrets["svc"] = "another-secret-value"
    forget_tokens(service.url, "svc", token_dir=str(tmp_path))
    with pytest.raises(AuthorizationError, match="Authorizing with 'svc' failed") as refused:
        await connect_mcp(mcp.http(name="svc", url=service.url, auth=auth))
    assert SECRET not in str(refused.value)


def test_values_are_refused_and_places_must_be_said() -> None:
    with pytest.raises(InvalidValueError, match="give client_secret_env=NAME"):
        mcp.client_credentials(client_id="svc", client_secret=SECRET)
    with pytest.raises(InvalidValueError, match="never its value in the notebook"):
        mcp.client_credentials(client_id="svc")
    with pytest.raises(InvalidValueError, match="the NAME of an environment variable"):
        mcp.client_credentials(client_id="svc", client_secret_env=f"X={SECRET}")
    with pytest.raises(InvalidValueError, match="not both"):
        mcp.client_credentials(client_id="svc", client_secret_env="A", client_secret_file="b")
    with pytest.raises(InvalidValueError, match="key_alg must be one of"):
        mcp.client_credentials(client_id="svc", key_env="K", key_alg="none")
    with pytest.raises(InvalidValueError, match="give assertion_env=NAME or assertion_file=PATH instead"):
        mcp.client_credentials(client_id="svc", assertion="eyJhbGciOi.literal.jwt")  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="exactly one"):
        mcp.identity_assertion(client_id="c", issuer="https://as.example", client_secret_env="S")
    with pytest.raises(InvalidValueError, match="idp_token_endpoint"):
        mcp.identity_assertion(client_id="c", issuer="https://as.example", client_secret_env="S", id_token_env="T")
    grant = mcp.client_credentials(client_id="svc", key_file="k.pem").grant
    assert isinstance(grant, ClientCredentials) and grant.auth_method == "private_key_jwt"


def test_a_grant_pickles_as_names_and_keeps_its_tokens_in_the_receiving_process(
    service: OAuthTestServer, tmp_path: Path
) -> None:
    auth = mcp.client_credentials(client_id="svc", client_secret_env=VARIABLE, token_dir=str(tmp_path))
    connection = mcp.http(name="svc", url=service.url, auth=auth)
    sent = pickle.dumps(connection)
    assert SECRET.encode() not in sent and VARIABLE.encode() in sent
    received = pickle.loads(sent)
    assert received.auth.token_dir == MEMORY and received.auth.grant == auth.grant
    assert portable(connection).values  # the same description the Dask map sends
    calls = mcp.client_credentials(client_id="svc", assertion=lambda audience: "a.b.c")
    with pytest.raises(SecretNotPortableError, match="cannot be sent to another process"):
        pickle.dumps(mcp.http(name="fn", url=service.url, auth=calls))


async def test_an_identity_assertion_is_sent_to_the_configured_issuer_only(
    service: OAuthTestServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The configured issuer's metadata is read and the ID-JAG goes to its token endpoint, which
    this server refuses (it has no jwt-bearer grant): the connect fails with one line, no secret."""
    monkeypatch.setenv("ANVIA_TEST_ID_JAG", "header.payload.signature-of-an-id-jag")
    auth = mcp.identity_assertion(
        client_id="svc",
        issuer=service.base,
        client_secret_env=VARIABLE,
        assertion_env="ANVIA_TEST_ID_JAG",
        token_dir=str(tmp_path),
    )
    with pytest.raises(AuthorizationError, match=r"Token exchange failed \(400\)") as raised:
        await connect_mcp(mcp.http(name="ema", url=service.url, auth=auth))
    assert SECRET not in str(raised.value) and "signature-of-an-id-jag" not in str(raised.value)
    assert os.environ["ANVIA_TEST_ID_JAG"] in auth.secrets(service.url)


async def test_a_key_that_cannot_sign_with_its_algorithm_is_said_in_one_line(
    service: OAuthTestServer, tmp_path: Path
) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    pem = tmp_path / "svc.pem"
    pem.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    auth = mcp.client_credentials(client_id="svc-key", key_file=str(pem), key_alg="RS256", token_dir=str(tmp_path))
    with pytest.raises(AuthorizationError, match=r"cannot sign with RS256 .*--key-alg") as raised:
        await connect_mcp(mcp.http(name="svc", url=service.url, auth=auth))
    assert "\n" not in str(raised.value) and "PRIVATE KEY" not in str(raised.value)


async def test_an_id_token_is_exchanged_at_the_identity_provider_for_an_id_jag_then_a_token(
    service: OAuthTestServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service.id_tokens.add("id-token-of-ada-3f7a19")
    monkeypatch.setenv("ANVIA_TEST_ID_TOKEN", "id-token-of-ada-3f7a19")
    auth = mcp.identity_assertion(
        client_id="svc",
        issuer=service.base,
        client_secret_env=VARIABLE,
        id_token_env="ANVIA_TEST_ID_TOKEN",
        idp_token_endpoint=f"{service.base}/idp/token",
        idp_client_id="notebook",
        token_dir=str(tmp_path),
    )
    server = await connect_mcp(mcp.http(name="ema", url=service.url, auth=auth))
    try:
        assert await server.tool("add").call({"a": 2, "b": 3}) == "5"
    finally:
        await server.close()
    assert service.exchanges == 1 and service.issued[-1][0] == "svc" and not service.refusals
    assert "id-token-of-ada-3f7a19" in server.connection.secrets()
    assert token_path(service.url, "svc", tmp_path, "jwt-bearer").exists()
