"""The client the MCP conformance suite runs for its ``auth/*`` scenarios, through anvia_nb's
public API only. ``python oauth_client.py SERVER_URL``; the scenario's name comes in
``MCP_CONFORMANCE_SCENARIO`` and its credentials, if any, in ``MCP_CONFORMANCE_CONTEXT``. Exit
status 0 when it connected and called a tool.

- The authorization code (every core scenario): ``mcp.oauth(on_authorize=...)`` driven as a
  person's browser would (follow the link, give back the redirect).
- ``auth/client-credentials-*``: ``mcp.client_credentials(...)``, the secret or the PEM key put
  in an environment variable first, as a deployment would (the API takes no value).
- ``auth/wif-jwt-bearer``: ``mcp.workload_identity(...)`` with the workload's token in a file, as a
  platform writes it.
- ``auth/enterprise-managed-authorization``: ``mcp.identity_assertion(...)`` with the ID token
  (in an environment variable) and the identity provider's token endpoint. The MCP server's
  authorization server is configuration for this flow, never discovered by the client; the
  scenario does not say it, so this harness reads it from the server's protected-resource
  metadata, as the person deploying it would look it up once.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from typing import Any
from urllib.parse import urlsplit

import httpx2

from anvia_nb import connect_mcp, mcp

# The client ID metadata document the suite's auth/basic-cimd scenario expects a client to use.
CIMD_URL = "https://conformance-test.local/client-metadata.json"


def follow(authorization_url: str) -> str:
    answer = httpx2.get(authorization_url, follow_redirects=False)
    return answer.headers.get("location", "")


def authorization_server(url: str) -> str:
    """The first authorization server the MCP server's protected-resource metadata names."""
    parts = urlsplit(url)
    metadata = httpx2.get(f"{parts.scheme}://{parts.netloc}/.well-known/oauth-protected-resource{parts.path}").json()
    return str(metadata["authorization_servers"][0])


def settings(scenario: str, context: dict[str, Any], url: str, token_dir: str) -> Any:
    if scenario == "auth/client-credentials-basic":
        os.environ["CONFORMANCE_CLIENT_SECRET"] = context["client_secret"]
        return mcp.client_credentials(
            client_id=context["client_id"], client_secret_env="CONFORMANCE_CLIENT_SECRET", token_dir=token_dir
        )
    if scenario == "auth/client-credentials-jwt":
        os.environ["CONFORMANCE_PRIVATE_KEY"] = context["private_key_pem"]
        return mcp.client_credentials(
            client_id=context["client_id"],
            key_env="CONFORMANCE_PRIVATE_KEY",
            key_alg=context.get("signing_algorithm", "RS256"),
            token_dir=token_dir,
        )
    if scenario == "auth/wif-jwt-bearer":
        token_file = os.path.join(token_dir, "workload-token")  # where a platform writes it
        with open(token_file, "w") as written:
            written.write(context["valid_jwt"])
        return mcp.workload_identity(client_id=context["client_id"], token_file=token_file, token_dir=token_dir)
    if scenario == "auth/enterprise-managed-authorization":
        os.environ["CONFORMANCE_CLIENT_SECRET"] = context["client_secret"]
        os.environ["CONFORMANCE_ID_TOKEN"] = context["idp_id_token"]
        return mcp.identity_assertion(
            client_id=context["client_id"],
            issuer=authorization_server(url),
            client_secret_env="CONFORMANCE_CLIENT_SECRET",
            id_token_env="CONFORMANCE_ID_TOKEN",
            idp_token_endpoint=context["idp_token_endpoint"],
            idp_client_id=context.get("idp_client_id"),
            token_dir=token_dir,
        )
    return mcp.oauth(
        client_id=context.get("client_id"),
        client_secret=context.get("client_secret"),
        on_authorize=follow,
        token_dir=token_dir,
        client_metadata_url=CIMD_URL if scenario == "auth/basic-cimd" else None,
    )


async def main(url: str) -> int:
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    with tempfile.TemporaryDirectory() as token_dir:
        auth = await asyncio.to_thread(settings, scenario, context, url, token_dir)
        server = await connect_mcp(mcp.http(name="conformance", url=url, auth=auth))
        try:
            if server.tools:
                await server.tools[0].call_outcome({})
        finally:
            await server.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
