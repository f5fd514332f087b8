"""The demo server as a real process: over stdio and over streamable HTTP on 127.0.0.1.

The HTTP servers are started by the fixtures of tests/conftest.py, which read the announced URL
from stderr with a bounded wait and stop every process they started: the session's shared
``demo_http_url`` (its announced free port is checked here), and ``http_demo_factory`` for a
server of this test's own (one that requires a header).
"""

from __future__ import annotations

import base64
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp
import mcp_types as types
import pytest
from mcp.client.session import ClientRequestContext
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from anvia_nb.demo_server.catalog import TOOLS
from tests.helpers.demo import MODES, list_all_tools, texts

pytestmark = pytest.mark.anyio


async def confirm(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content={"confirm": True})


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.slow  # a fresh demo server process, not a forked one
async def test_over_stdio_tools_and_elicitation_work_and_crash_ends_the_process(mode: str, tmp_path: Path) -> None:
    parameters = mcp.StdioServerParameters(command=sys.executable, args=["-m", "anvia_nb.demo_server"])
    errlog_path = tmp_path / "server-stderr.log"
    with errlog_path.open("w") as errlog:
        transport = stdio_client(parameters, errlog=errlog)
        async with mcp.Client(transport, mode=mode, elicitation_callback=confirm) as client:
            tools, pages = await list_all_tools(client)
            assert [tool.name for tool in tools] == [tool["name"] for tool in TOOLS]
            assert pages > 1
            echo = await client.call_tool("echo", {"message": "over stdio"})
            assert texts(echo) == ["over stdio"]
            confirmed = await client.call_tool("confirm_action", {"action": "ship"})
            assert texts(confirmed) == ["Confirmed: ship"]
            with anyio.fail_after(30), pytest.raises(MCPError):
                await client.call_tool("crash", {})
    assert "crash requested: exiting with code 3" in errlog_path.read_text()


async def test_over_http_a_free_port_is_announced_and_progress_and_elicitation_work(demo_http_url: str) -> None:
    url = demo_http_url
    assert url.startswith("http://127.0.0.1:")
    assert url.endswith("/mcp")
    reported: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        reported.append(progress)

    async with mcp.Client(url) as client:
        tools, _ = await list_all_tools(client)
        image = await client.call_tool("image", {"kind": "gif"})
        slow = await client.call_tool("slow", {"steps": 2, "delay_seconds": 0.01}, progress_callback=on_progress)
    async with mcp.Client(url, mode="legacy", elicitation_callback=confirm) as legacy:
        confirmed = await legacy.call_tool("confirm_action", {"action": "ship"})
    assert len(tools) == len(TOOLS)
    assert isinstance(image.content[1], types.ImageContent)
    assert base64.b64decode(image.content[1].data).startswith(b"GIF89a")
    assert texts(slow) == ["done after 2 steps"]
    assert reported == [1, 2]
    assert texts(confirmed) == ["Confirmed: ship"]


async def test_over_http_a_required_header_is_enforced_with_401(http_demo_factory: Callable[..., Any]) -> None:
    url: str = http_demo_factory("--require-header", "X-Demo-Token: s3cret").url
    async with httpx2.AsyncClient(timeout=60) as plain:
        refused = await plain.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "server/discover"})
        wrong = await plain.post(url, json={}, headers={"X-Demo-Token": "guess"})
    assert refused.status_code == 401
    assert wrong.status_code == 401
    assert "s3cret" not in refused.text
    async with (
        httpx2.AsyncClient(headers={"X-Demo-Token": "s3cret"}, timeout=60) as authorised,
        mcp.Client(streamable_http_client(url, http_client=authorised)) as client,
    ):
        result = await client.call_tool("echo", {"message": "let in"})
    assert texts(result) == ["let in"]
