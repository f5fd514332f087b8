"""An MCP server whose answer is read from a file at each call, so a test can change it.

``python changing_server.py ANSWER_FILE``: the tool ``reading`` returns the file's text as its text
content and ``{"value": <text>, "time": <now>, "id": <a new uuid>}`` as structuredContent (with an
outputSchema): ``time`` and ``id`` differ on every call, ``value`` only when the file changes.
"""

from __future__ import annotations

import sys
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

ANSWER = Path(sys.argv[1])
SCHEMA = {
    "type": "object",
    "properties": {"value": {"type": "string"}, "time": {"type": "string"}, "id": {"type": "string"}},
    "required": ["value", "time", "id"],
}


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    tool = types.Tool(
        name="reading",
        description="The current reading of the answer file.",
        input_schema={"type": "object", "properties": {"unit": {"type": "string"}}},
        output_schema=SCHEMA,
    )
    return types.ListToolsResult(tools=[tool])


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    value = ANSWER.read_text(encoding="utf-8").strip()
    unit = (params.arguments or {}).get("unit", "")
    structured = {"value": value + unit, "time": datetime.now(timezone.utc).isoformat(), "id": str(uuid.uuid4())}
    text = types.TextContent(type="text", text=value + unit)
    return types.CallToolResult(content=[text], structured_content=structured)


async def main() -> None:
    server = Server("changing", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
