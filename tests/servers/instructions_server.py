"""An MCP server whose initialize instructions are long and carry markup, escapes and a secret."""

from __future__ import annotations

import os
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

INSTRUCTIONS = (
    "<b>Use me</b> \x1b[31mred\x1b[0m \u202eevil token="
    + os.environ.get("API_TOKEN", "")
    + " "
    + "more words " * 500
    + "THE-END"
)


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[])


async def main() -> None:
    server = Server("chatty", instructions=INSTRUCTIONS, on_list_tools=list_tools)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
