"""The adapter's API against the bundled demo server, as a new user would call it, over stdio,
streamable HTTP on 127.0.0.1, and the SDK's in-memory transport. The tests of a stdio process's
life (a crash, closing twice, a missing directory) start ``lite_server.py``, which has the demo's
echo and crash and starts in milliseconds."""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from anvia_nb import (
    ArgumentError,
    ConnectError,
    ConnectionClosedError,
    OutputSchemaError,
    ToolResultError,
    ToolTimeoutError,
    UnknownToolError,
    UnsupportedContentError,
    connect_mcp,
    mcp,
)
from anvia_nb.core import McpConnection, McpServer
from anvia_nb.demo_server.handlers import build_server
from tests.helpers.lite_server import LITE_ARGS
from tests.helpers.support import DEMO_ARGS

pytestmark = pytest.mark.anyio

DEMO = DEMO_ARGS


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """One event loop for the module, so one session per transport serves all its tests."""
    return "asyncio"


@pytest.fixture(scope="module", params=["stdio", "http", "memory"])
async def server(request: pytest.FixtureRequest, demo_http_url: str) -> AsyncIterator[McpServer]:
    """One connection per transport, shared by the tests that only call tools on it."""
    if request.param == "stdio":
        connection: McpConnection = mcp.stdio(name="demo", command=sys.executable, args=DEMO)
    elif request.param == "http":
        connection = mcp.http(name="demo", url=demo_http_url)
    else:
        connection = mcp.memory(name="demo", server=build_server())
    srv = await connect_mcp(connection)
    try:
        yield srv
    finally:
        await srv.close()


async def test_connect_lists_every_page_of_tools(server: McpServer) -> None:
    names = {t.name for t in server.tools}
    # The demo server pages tools/list 8 at a time; these come from later pages.
    assert {"echo", "add", "form_showcase", "crash", "untrusted_all"} <= names
    assert len(names) == len(server.tools) > 16


async def test_tool_metadata_is_adapted(server: McpServer) -> None:
    add = server.tool("add")
    assert add.input_schema["required"] == ["a", "b"]
    assert add.output_schema is not None
    assert add.title
    assert add.annotations is not None and add.annotations.get("readOnlyHint") is True


async def test_text_call_returns_the_text(server: McpServer) -> None:
    assert await server.tool("echo").call({"message": "hi <b>"}) == "hi <b>"


async def test_several_texts_are_concatenated_without_separator(server: McpServer) -> None:
    assert await server.tool("concat_texts").call({"parts": ["a", "b", "c"]}) == "abc"


async def test_image_becomes_a_file_part_with_real_png_bytes(server: McpServer) -> None:
    out = await server.tool("image").call({"kind": "png"})
    assert isinstance(out, list)
    files = [p for p in out if p["type"] == "file"]
    assert files[0]["mediaType"] == "image/png"
    assert base64.b64decode(files[0]["data"]["data"]).startswith(b"\x89PNG\r\n\x1a\n")
    assert out[0]["type"] == "text"


async def test_embedded_resources_become_serialized_strings(server: McpServer) -> None:
    text_out = await server.tool("embedded_text_resource").call({})
    blob_out = await server.tool("embedded_blob_resource").call({})
    assert isinstance(text_out, str) and isinstance(blob_out, str)
    assert {"uri", "text"} <= set(json.loads(_last_json(text_out)))
    assert {"uri", "blob"} <= set(json.loads(_last_json(blob_out)))


def _last_json(text: str) -> str:
    return text[text.index("{") :]


@pytest.mark.parametrize("tool", ["audio", "resource_link"])
async def test_audio_and_resource_link_reject_with_the_unsupported_message(server: McpServer, tool: str) -> None:
    with pytest.raises(UnsupportedContentError, match="^Unsupported MCP tool result content type"):
        await server.tool(tool).call({})


async def test_structured_only_result_is_its_json(server: McpServer) -> None:
    out = await server.tool("structured_only").call({})
    assert isinstance(out, str)
    assert json.loads(out) == {"temperature": 21.5, "unit": "C"}


async def test_is_error_rejects_with_the_text(server: McpServer) -> None:
    with pytest.raises(ToolResultError, match="^boom$"):
        await server.tool("fail").call({"message": "boom"})


async def test_is_error_without_text_rejects_with_default_message(server: McpServer) -> None:
    with pytest.raises(ToolResultError, match="^MCP tool returned an error$"):
        await server.tool("fail_silently").call({})


async def test_schema_mismatch_raises_and_keeps_the_raw_result(server: McpServer) -> None:
    with pytest.raises(OutputSchemaError) as caught:
        await server.tool("schema_mismatch").call({})
    assert caught.value.raw is not None
    assert caught.value.raw["structuredContent"] == {"count": "three"}
    assert any("count" in p for p in caught.value.problems)


async def test_valid_structured_output_passes_the_schema(server: McpServer) -> None:
    outcome = await server.tool("add").call_outcome({"a": 2, "b": 3})
    assert outcome.error is None
    assert outcome.schema_problems == []
    assert outcome.structured == {"sum": 5}


async def test_non_object_arguments_are_refused_before_any_call(server: McpServer) -> None:
    with pytest.raises(ArgumentError):
        await server.tool("echo").call(["hi"])  # type: ignore[arg-type]
    assert await server.tool("echo").call({"message": "still alive"}) == "still alive"


async def test_text_no_transport_can_encode_is_refused_before_it_is_sent(server: McpServer) -> None:
    """A lone surrogate (what a bad decode leaves) used to reach HTTP's encoder and close the
    connection as if the server had gone; it is refused, naming where it stood, and nothing is lost."""
    with pytest.raises(ArgumentError, match=r"Argument 'message' holds a lone surrogate .* errors='replace'"):
        await server.tool("echo").call({"message": "caf\udce9"})
    assert await server.tool("echo").call({"message": "caf\u00e9 \U0001f600"}) == "caf\u00e9 \U0001f600"


async def test_unknown_tool_suggests_close_names(server: McpServer) -> None:
    with pytest.raises(UnknownToolError, match="echo"):
        server.tool("ecko")


async def test_progress_notifications_reach_the_caller(server: McpServer) -> None:
    seen: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(progress)

    outcome = await server.tool("slow").call_outcome({"steps": 3, "delay_seconds": 0.01}, on_progress=on_progress)
    assert outcome.error is None
    assert len(seen) == 3
    assert len(outcome.progress) == 3


async def test_a_timeout_cancels_the_call_and_the_session_stays_usable(server: McpServer) -> None:
    outcome = await server.tool("slow").call_outcome({"steps": 1, "delay_seconds": 30}, timeout_seconds=0.3)
    assert isinstance(outcome.error, ToolTimeoutError)
    assert outcome.status == "timeout"
    assert await server.tool("echo").call({"message": "after"}) == "after"


async def test_secrets_of_the_connection_travel_with_the_outcome() -> None:
    connection = mcp.stdio(
        name="demo", command=sys.executable, args=DEMO, env={"API_TOKEN": "s3cr3t-value", "LOG_LEVEL": "debug"}
    )
    srv = await connect_mcp(connection)
    try:
        outcome = await srv.tool("env_value").call_outcome({"name": "API_TOKEN"})
        assert outcome.output == "s3cr3t-value"  # exact in Python
        assert outcome.secrets == ("s3cr3t-value",)  # masked by every display
    finally:
        await srv.close()


async def test_connect_to_a_missing_command_names_the_server() -> None:
    with pytest.raises(ConnectError, match="nope") as caught:
        await connect_mcp(mcp.stdio(name="nope", command="/no/such/anvia-server"))
    assert caught.value.server == "nope"


async def test_connect_to_a_closed_port_names_the_server(unused_port: int) -> None:
    with pytest.raises(ConnectError, match="lost"):
        await connect_mcp(mcp.http(name="lost", url=f"http://127.0.0.1:{unused_port}/mcp", timeout_seconds=5))


async def test_a_server_that_exits_during_handshake_fails_clearly() -> None:
    with pytest.raises(ConnectError, match="quits"):
        await connect_mcp(mcp.stdio(name="quits", command=sys.executable, args=["-c", "print('not mcp')"]))


@pytest.mark.parametrize(("options", "era"), [([], "2026-07-28"), (["--legacy"], "2025-11-25")])
async def test_a_stdio_server_of_either_protocol_era_connects_and_answers(
    options: list[str], era: str, live_children: Callable[[], set[int]]
) -> None:
    """``--legacy`` refuses ``server/discover``: the client falls back to the initialize handshake."""
    before = live_children()
    srv = await connect_mcp(mcp.stdio(name="era", command=sys.executable, args=[*LITE_ARGS, *options]))
    try:
        assert srv.client.protocol_version == era
        assert await srv.tool("echo").call({"message": "either"}) == "either"
    finally:
        await srv.close()
    assert live_children() <= before


async def test_a_crashed_server_fails_the_call_and_later_calls(live_children: Callable[[], set[int]]) -> None:
    before = live_children()
    srv = await connect_mcp(mcp.stdio(name="crashy", command=sys.executable, args=LITE_ARGS))
    try:
        outcome = await srv.tool("crash").call_outcome({}, timeout_seconds=20)
        assert outcome.error is not None
        assert outcome.status in ("failed", "timeout")
        later = await srv.tool("echo").call_outcome({"message": "x"}, timeout_seconds=20)
        assert later.error is not None
    finally:
        await srv.close()
    assert live_children() <= before


async def test_secret_header_reaches_an_http_server_that_requires_it(
    http_demo_factory: Callable[..., object],
) -> None:
    guarded = http_demo_factory("--require-header", "Authorization: Bearer tok-123456")
    url = guarded.url  # type: ignore[attr-defined]
    with pytest.raises(ConnectError, match="401"):
        await connect_mcp(mcp.http(name="guarded", url=url))
    srv = await connect_mcp(mcp.http(name="guarded", url=url, headers={"Authorization": "Bearer tok-123456"}))
    try:
        assert srv.secrets and "tok-123456" in srv.secrets
        assert "tok-123456" not in srv.connection.target()
        assert await srv.tool("echo").call({"message": "in"}) == "in"
    finally:
        await srv.close()


async def test_closed_server_refuses_calls_with_a_clear_error() -> None:
    srv = await connect_mcp(mcp.memory(name="demo", server=build_server()))
    await srv.close()
    with pytest.raises(ConnectionClosedError, match="closed"):
        await srv.tool("echo").call({"message": "x"})


def test_closing_twice_even_from_another_event_loop_is_harmless() -> None:
    import asyncio

    srv = asyncio.run(connect_mcp(mcp.stdio(name="twice", command=sys.executable, args=LITE_ARGS)))
    log = srv.client.log.stderr_path
    asyncio.run(srv.close())
    asyncio.run(srv.close())
    assert not srv.is_open
    assert log is not None
    assert not Path(log).exists()  # a cleanly closed server's log does not pile up


async def test_a_missing_working_directory_is_named_as_such() -> None:
    with pytest.raises(ConnectError, match="working directory /no/such/dir does not exist"):
        await connect_mcp(mcp.stdio(name="nowhere", command=sys.executable, args=LITE_ARGS, cwd="/no/such/dir"))
