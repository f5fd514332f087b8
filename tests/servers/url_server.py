"""A stdio MCP server (the SDK's ``MCPServer``, protocol 2026-07-28) whose tool ``needs_url``
answers MCP error -32042 (URL elicitation required) with the URL it is given, so one server
process serves every URL a test module tries."""

from __future__ import annotations

from mcp import UrlElicitationRequiredError
from mcp.server.mcpserver import MCPServer
from mcp_types import ElicitRequestURLParams


def main() -> None:
    server = MCPServer("url-server")

    @server.tool()
    async def needs_url(url: str) -> str:
        """Answer MCP error -32042: the person must open ``url`` first."""
        params = ElicitRequestURLParams(
            mode="url", message="Sign in to the files service", url=url, elicitation_id="sign-in-1"
        )
        raise UrlElicitationRequiredError([params], "MCP error -32042: Authorization required")

    server.run("stdio")


if __name__ == "__main__":
    main()
