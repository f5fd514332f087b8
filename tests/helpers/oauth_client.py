"""The client the MCP conformance suite runs for its ``auth/*`` scenarios: anvia_nb's OAuth,
driven through ``on_authorize`` as a person's browser would (follow the link, give back the
redirect). ``python oauth_client.py SERVER_URL``; the scenario's pre-registered credentials, if
any, come in ``MCP_CONFORMANCE_CONTEXT``. Exit status 0 when it connected and called a tool."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile

import httpx2

from anvia_nb import connect_mcp, mcp

# The client ID metadata document the suite's auth/basic-cimd scenario expects a client to use.
CIMD_URL = "https://conformance-test.local/client-metadata.json"


def follow(authorization_url: str) -> str:
    answer = httpx2.get(authorization_url, follow_redirects=False)
    return answer.headers.get("location", "")


async def main(url: str) -> int:
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    with tempfile.TemporaryDirectory() as token_dir:
        settings = mcp.oauth(
            client_id=context.get("client_id"),
            client_secret=context.get("client_secret"),
            on_authorize=follow,
            token_dir=token_dir,
            client_metadata_url=CIMD_URL if os.environ.get("MCP_CONFORMANCE_SCENARIO") == "auth/basic-cimd" else None,
        )
        server = await connect_mcp(mcp.http(name="conformance", url=url, auth=settings))
        try:
            if server.tools:
                await server.tools[0].call_outcome({})
        finally:
            await server.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
