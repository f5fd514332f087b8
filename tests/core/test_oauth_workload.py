"""Workload identity federation from Python, ``mcp.workload_identity(...)``, against the local
authorization server (tests/helpers/oauth_server.py): the token a platform writes for the workload
is the grant (jwt-bearer, no client secret), read anew when the server wants a new access token,
masked wherever it would show, and named, never carried, when the connection goes to a Dask worker."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.transport.oauth.grants import ClientCredentials, IdentityAssertion, WorkloadIdentity
from anvia_nb.core.transport.oauth.tokens import GRANTS, MEMORY
from anvia_nb.errors import AuthorizationError, InvalidValueError, SecretNotPortableError
from tests.helpers.oauth_server import OAuthTestServer

pytestmark = pytest.mark.anyio

FIRST = "platform-token-one-3f9c2a71"
SECOND = "platform-token-two-8e06b4d5"


async def test_the_platforms_token_is_the_grant_and_a_rotated_file_is_read_again(
    oauth_server: OAuthTestServer, tmp_path: Path
) -> None:
    oauth_server.workloads.update({FIRST: "reports-job", SECOND: "reports-job"})
    token_file = tmp_path / "token"
    token_file.write_text(FIRST + "\n")
    auth = mcp.workload_identity(client_id="reports-job", token_file=str(token_file), token_dir=str(tmp_path))
    server = await connect_mcp(mcp.http(name="job", url=oauth_server.url, auth=auth))
    try:
        assert await server.tool("add").call({"a": 2, "b": 3}) == "5"
        assert oauth_server.workload_grants == [FIRST] and oauth_server.authorizations == 0
        assert FIRST in server.connection.secrets() and FIRST not in repr(server.connection)

        token_file.write_text(SECOND)  # the platform rotates it
        oauth_server.revoke_all()  # and the access token stops working
        assert await server.tool("add").call({"a": 1, "b": 1}) == "2"
        assert oauth_server.workload_grants == [FIRST, SECOND] and not oauth_server.refusals
        assert SECOND in server.connection.secrets()  # what every display masks, read when shown
    finally:
        await server.close()


async def test_a_missing_token_file_is_named_and_a_token_for_another_client_is_refused(
    oauth_server: OAuthTestServer, tmp_path: Path
) -> None:
    missing = tmp_path / "not-written-yet"
    auth = mcp.workload_identity(client_id="reports-job", token_file=str(missing), token_dir=str(tmp_path))
    with pytest.raises(AuthorizationError, match=f"workload token from the file {missing}, which cannot be read"):
        await connect_mcp(mcp.http(name="job", url=oauth_server.url, auth=auth))

    oauth_server.workloads[FIRST] = "another-job"
    missing.write_text(FIRST)
    with pytest.raises(AuthorizationError) as refused:
        await connect_mcp(mcp.http(name="job", url=oauth_server.url, auth=auth))
    assert "\n" not in str(refused.value) and FIRST not in str(refused.value)
    assert oauth_server.refusals == ["workload token for 'reports-job'"]


def test_every_grant_has_a_token_file_that_logout_forgets() -> None:
    names = {grant.name for grant in (ClientCredentials, WorkloadIdentity, IdentityAssertion)}
    assert names <= set(GRANTS)


def test_values_are_refused_and_a_file_travels_as_its_name(oauth_server: OAuthTestServer) -> None:
    with pytest.raises(InvalidValueError, match="needs token_file=PATH"):
        mcp.workload_identity(client_id="reports-job")
    with pytest.raises(InvalidValueError, match="a literal workload token would stay in the notebook"):
        mcp.workload_identity(client_id="reports-job", token=FIRST)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="as token_env=NAME or token_file=PATH, not both"):
        mcp.workload_identity(client_id="reports-job", token_file="/t", token_env="T")

    auth = mcp.workload_identity(client_id="reports-job", token_file="/var/run/secrets/tokens/mcp")
    sent = pickle.dumps(mcp.http(name="job", url=oauth_server.url, auth=auth))
    assert b"/var/run/secrets/tokens/mcp" in sent
    received = pickle.loads(sent)
    assert received.auth.grant == auth.grant and received.auth.token_dir == MEMORY
    calls = mcp.workload_identity(client_id="reports-job", token=lambda audience: FIRST)
    with pytest.raises(SecretNotPortableError, match="mcp.workload_identity"):
        pickle.dumps(mcp.http(name="fn", url=oauth_server.url, auth=calls))
