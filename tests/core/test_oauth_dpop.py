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
from mcp.shared.auth import OAuthToken

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.transport.oauth.settings import OAuth, forget_tokens
from anvia_nb.core.transport.oauth.tokens import TokenFile, token_path
from tests.helpers.oauth_magic import redirected
from tests.helpers.oauth_server import OAuthTestServer

pytestmark = pytest.mark.anyio


async def _calls(server_url: str, auth: OAuth, count: int) -> None:
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


async def test_a_key_is_written_with_the_tokens_it_binds_so_two_kernels_cannot_cross_them(tmp_path: Path) -> None:
    # Two kernels' stores of one server's file. Kernel A's token response arrives, then B's; B's
    # tokens are stored first. A key written on its own when its response arrived would leave
    # A's token beside B's key, and a restarted kernel would prove A's token with the wrong key.
    path = tmp_path / "server.json"
    kernel_a, kernel_b = TokenFile(path), TokenFile(path)
    kernel_a.bind_next_tokens("KEY-A")
    kernel_b.bind_next_tokens("KEY-B")
    await kernel_b.set_tokens(OAuthToken(access_token="TOKEN-B", token_type="Bearer"))
    await kernel_a.set_tokens(OAuthToken(access_token="TOKEN-A", token_type="Bearer"))
    data = json.loads(path.read_text())
    assert (data["tokens"]["access_token"], data["dpop_key"]) == ("TOKEN-A", "KEY-A")

    # A Bearer token after all (the server stopped binding): its key goes in the same write.
    kernel_b.bind_next_tokens(None)
    await kernel_b.set_tokens(OAuthToken(access_token="TOKEN-C", token_type="Bearer"))
    assert "dpop_key" not in json.loads(path.read_text())
