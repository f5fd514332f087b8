"""DPoP from Python against the local authorization server with ``dpop = True``
(tests/helpers/oauth_server.py, which checks proofs with tests/helpers/dpop_proofs.py): the token
is bound to a key this client holds, every MCP request carries a fresh proof for it, and the key is
cached with the tokens, so a restarted kernel, and a refresh, go on with the same key.
The MCP conformance suite's ``auth/dpop`` and ``auth/dpop-nonce`` check nonces and the proofs'
details (tests/conformance/test_conformance_auth.py)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.transport.oauth import forget_tokens
from anvia_nb.core.transport.oauth_tokens import token_path
from tests.helpers.oauth_magic import redirected
from tests.helpers.oauth_server import OAuthTestServer

pytestmark = pytest.mark.anyio


async def _calls(server_url: str, auth: object, count: int) -> None:
    server = await connect_mcp(mcp.http(name="bound", url=server_url, auth=auth))
    try:
        for n in range(count):
            assert await server.tool("add").call({"a": n, "b": 1}) == str(n + 1)
    finally:
        await server.close()


async def test_the_token_is_bound_to_a_key_kept_with_it_across_a_restart_and_a_refresh(
    oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    oauth_server.dpop = True
    await _calls(oauth_server.url, mcp.oauth(on_authorize=redirected), 3)
    assert oauth_server.authorizations == 1 and len(oauth_server.bound) == 2  # the access and refresh tokens
    assert oauth_server.proofs.refusals == [] and len(oauth_server.proofs.jtis) >= 5  # the token request, each MCP one
    cached = token_path(oauth_server.url, None, token_dir)
    assert "PRIVATE KEY" in json.loads(cached.read_text())["dpop_key"]
    assert stat.S_IMODE(cached.stat().st_mode) == 0o600

    # A restarted kernel: nobody to ask, the cached token and its key.
    await _calls(oauth_server.url, mcp.oauth(), 1)
    assert oauth_server.authorizations == 1 and oauth_server.proofs.refusals == []

    # The token expired while the kernel was down: the bound refresh token is used, with a proof by the same key.
    data = json.loads(cached.read_text())
    data["expires_at"] = 0
    cached.write_text(json.dumps(data))
    oauth_server.revoke_all()
    await _calls(oauth_server.url, mcp.oauth(), 1)
    assert oauth_server.refreshes == 1 and oauth_server.authorizations == 1 and oauth_server.proofs.refusals == []

    assert forget_tokens(oauth_server.url) and not cached.exists()  # %mcp logout: the key goes with the tokens


async def test_a_server_without_dpop_gets_bearer_tokens_and_no_key_is_kept(
    oauth_server: OAuthTestServer, token_dir: Path
) -> None:
    await _calls(oauth_server.url, mcp.oauth(on_authorize=redirected), 1)
    assert oauth_server.bound == {} and oauth_server.proofs.jtis == []
    assert "dpop_key" not in json.loads(token_path(oauth_server.url, None, token_dir).read_text())
