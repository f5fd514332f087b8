"""A tool re-listed with another ``inputSchema`` (after ``notifications/tools/list_changed``) is checked
against the schema the server lists now: an argument the new schema adds is sent, one it takes away
is refused before anything is sent (``call_outcome`` checks, as ``%mcp call``, the forms and the
panel do; ``call`` leaves that to the server, docs/mapping.md rule 9). A real low-level SDK server,
in this process, over the SDK's in-memory transport; its tool changes when ``widen`` is called, as
a server's tools change."""

from __future__ import annotations

from typing import Any

import mcp_types as types
import pytest
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from anvia_nb import ArgumentValidationError, connect_mcp, mcp

pytestmark = pytest.mark.anyio

_NARROW = {"type": "object", "properties": {"x": {"type": "integer"}}, "additionalProperties": False}
_WIDE = {
    "type": "object",
    "properties": {"x": {"type": "integer"}, "factor": {"type": "integer"}},
    "required": ["factor"],
    "additionalProperties": False,
}


def _scale_server() -> tuple[Server[Any], list[dict[str, Any]]]:
    """A server with ``scale`` (its schema narrow, then wide) and ``widen``; what ``scale`` received."""
    state = {"schema": _NARROW}
    received: list[dict[str, Any]] = []

    async def list_tools(_ctx: ServerRequestContext[Any], _params: Any) -> types.ListToolsResult:
        tools = [
            {"name": "scale", "inputSchema": state["schema"]},
            {"name": "widen", "inputSchema": {"type": "object"}},
        ]
        return types.ListToolsResult.model_validate({"tools": tools})

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name == "widen":
            state["schema"] = _WIDE
            await ctx.session.send_tool_list_changed()
        else:
            received.append(dict(params.arguments or {}))
        return types.CallToolResult.model_validate({"content": [{"type": "text", "text": "ok"}]})

    return Server("scales", on_list_tools=list_tools, on_call_tool=call_tool), received


async def test_a_relisted_tool_is_checked_against_its_new_schema() -> None:
    server_object, received = _scale_server()
    server = await connect_mcp(mcp.memory(name="scales", server=server_object, protocol="2025-11-25"))
    try:
        scale = server.tool("scale")
        with pytest.raises(ArgumentValidationError, match="factor"):
            await scale.call_outcome({"x": 2, "factor": 3})  # not in the schema listed at first
        assert received == []

        await server.tool("widen").call({})
        await server.changes.settled()
        assert server.tool("scale") is scale  # the same object, re-listed
        assert scale.input_schema == _WIDE

        assert scale.check_arguments({"x": 2, "factor": 3}) == []
        outcome = await scale.call_outcome({"x": 2, "factor": 3})
        assert (outcome.status, outcome.output) == ("ok", "ok")
        assert received == [{"x": 2, "factor": 3}]
        with pytest.raises(ArgumentValidationError, match="factor"):
            await scale.call_outcome({"x": 2})  # now required: refused here, never sent
        assert received == [{"x": 2, "factor": 3}]
    finally:
        await server.close()
