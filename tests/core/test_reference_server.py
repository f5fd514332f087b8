"""The result mapping (docs/mapping.md) against a server no one here wrote: the MCP project's own TypeScript
"everything" reference server (npm), over stdio and streamable HTTP on 127.0.0.1."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from anvia_nb import ToolResultError, UnsupportedContentError, connect_mcp, mcp
from anvia_nb.core import McpConnection, McpServer
from tests.helpers.ports import free_port
from tests.helpers.support import npm_servers, require_setup

pytestmark = [pytest.mark.anyio, pytest.mark.thirdparty]

# The server listens on every interface; this preload pins every listen() to loopback.
LOOPBACK_ONLY = """
const net = require('net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const cb = args.find((a) => typeof a === 'function');
  if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    return listen.call(this, {port: Number(args[0]), host: '127.0.0.1'}, cb);
  }
  if (args[0] && typeof args[0] === 'object') args[0].host = '127.0.0.1';
  return listen.apply(this, args);
};
"""


@pytest.fixture(scope="session")
def everything_entry() -> Path:
    """The server scripts/setup-test installed (the tests install nothing)."""
    require_setup(npm_servers() / "anvia-ready", "server-everything")
    return npm_servers() / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"


@pytest.fixture(scope="session")
def loopback_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    preload = tmp_path_factory.mktemp("node") / "loopback-only.cjs"
    preload.write_text(LOOPBACK_ONLY)
    return preload


@pytest.fixture(scope="session")
def everything_http_url(everything_entry: Path, loopback_only: Path) -> Iterator[str]:
    port = free_port()
    env = dict(os.environ, PORT=str(port), NODE_OPTIONS=f"--require {loopback_only}")
    process = subprocess.Popen(
        ["node", str(everything_entry), "streamableHttp"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        for line in process.stderr:  # bounded by the server's own start-up; it exits on failure
            if "listening on port" in line:
                break
        else:
            raise RuntimeError("the reference server did not start")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@pytest.fixture(params=["stdio", "http"])
async def everything(request: pytest.FixtureRequest, everything_entry: Path) -> AsyncIterator[McpServer]:
    if request.param == "stdio":
        connection: McpConnection = mcp.stdio(name="everything", command="node", args=[str(everything_entry), "stdio"])
    else:
        connection = mcp.http(name="everything", url=request.getfixturevalue("everything_http_url"))
    server = await connect_mcp(connection)
    try:
        yield server
    finally:
        await server.close()


async def test_echo_text_is_returned_directly(everything: McpServer) -> None:
    assert await everything.tool("echo").call({"message": "héllo <b>"}) == "Echo: héllo <b>"


async def test_image_with_texts_becomes_parts_in_server_order(everything: McpServer) -> None:
    out = await everything.tool("get-tiny-image").call({})
    assert isinstance(out, list)
    assert [p["type"] for p in out] == ["text", "file", "text"]
    image = out[1]
    assert image["mediaType"] == "image/png"
    assert set(image["data"]) == {"type", "data"}
    assert base64.b64decode(image["data"]["data"]).startswith(b"\x89PNG")


@pytest.mark.parametrize(("kind", "field"), [("Text", "text"), ("Blob", "blob")])
async def test_embedded_resource_is_serialized_between_the_texts(everything: McpServer, kind: str, field: str) -> None:
    out = await everything.tool("get-resource-reference").call({"resourceType": kind, "resourceId": 2})
    assert isinstance(out, str)
    start = out.index("{")
    decoder = json.JSONDecoder()
    resource, end = decoder.raw_decode(out, start)
    assert out[:start].startswith("Returning resource reference for Resource 2:")
    assert out[end:].startswith("You can access this resource using the URI:")
    assert {"uri", "mimeType", field} <= set(resource)


async def test_resource_links_are_unsupported(everything: McpServer) -> None:
    with pytest.raises(UnsupportedContentError, match="^Unsupported MCP tool result content type: resource_link"):
        await everything.tool("get-resource-links").call({"count": 1})


async def test_structured_content_is_validated_against_its_output_schema(everything: McpServer) -> None:
    outcome = await everything.tool("get-structured-content").call_outcome({"location": "Chicago"})
    assert outcome.error is None
    assert outcome.schema_problems == []
    assert isinstance(outcome.structured, dict) and outcome.structured["temperature"] == 36


async def test_a_thrown_tool_error_rejects_with_its_text(everything: McpServer) -> None:
    with pytest.raises(ToolResultError, match="resourceType"):
        await everything.tool("get-resource-reference").call({"resourceType": "Nope", "resourceId": 1})


async def test_progress_reaches_the_caller(everything: McpServer) -> None:
    seen: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(progress)

    outcome = await everything.tool("trigger-long-running-operation").call_outcome(
        {"duration": 1, "steps": 3}, on_progress=on_progress
    )
    assert outcome.error is None
    assert len(seen) == 3


async def test_elicitation_is_answered_by_the_installed_handler(everything_entry: Path) -> None:
    server = await connect_mcp(mcp.stdio(name="everything", command="node", args=[str(everything_entry), "stdio"]))
    asked: list[dict[str, object]] = []

    async def answer(request: dict[str, object]) -> dict[str, object]:
        asked.append(request)
        return {"action": "accept", "content": {"name": "Ada"}}

    server.client.set_elicitation_handler(answer)
    try:
        out = await server.tool("trigger-elicitation-request").call({})
    finally:
        await server.close()
    assert asked
    assert asked[0]["server"] == "everything"
    assert "requestedSchema" in asked[0]
    assert "Ada" in str(out)


def test_python_used_by_the_suite_is_the_package_one() -> None:
    assert Path(sys.executable).exists()
