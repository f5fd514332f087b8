"""The bundled demo server's tools, driven in-memory by the real MCP SDK client.

Each test checks what a person using the demo would check: what came back (content types, texts,
mime types, decodable bytes), that the listing must be walked page by page, that progress arrives
and cancellation stops the work, and that elicitation round-trips in both protocol eras. The
hostile corpus and the real transports have their own files.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import wave
import zlib

import anyio
import jsonschema
import mcp
import mcp_types as types
import pytest
from mcp.client.session import ClientRequestContext
from mcp.shared.exceptions import MCPError

import anvia_nb
from anvia_nb.demo_server.catalog import TOOLS, TOOLS_BY_NAME
from anvia_nb.demo_server.handlers import PAGE_SIZE, SERVER_NAME, build_server
from tests.helpers.demo import MODES, list_all_tools, texts, wire

pytestmark = pytest.mark.anyio


# --- listing and identity ------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
async def test_tools_list_takes_several_pages_and_reaches_every_tool(mode: str) -> None:
    async with mcp.Client(build_server(), mode=mode) as client:
        tools, pages = await list_all_tools(client)
    assert pages == -(-len(TOOLS) // PAGE_SIZE) > 1
    assert [tool.name for tool in tools] == [tool["name"] for tool in TOOLS]
    assert len({tool.name for tool in tools}) == len(TOOLS)


async def test_a_forged_cursor_is_rejected_as_invalid_params() -> None:
    async with mcp.Client(build_server()) as client:
        with pytest.raises(MCPError) as caught:
            await client.list_tools(cursor="not-a-cursor")
    assert caught.value.code == types.INVALID_PARAMS


async def test_every_tool_has_a_title_description_object_schema_and_annotations() -> None:
    async with mcp.Client(build_server()) as client:
        tools, _ = await list_all_tools(client)
    for tool in tools:
        assert tool.title, tool.name
        assert tool.description, tool.name
        assert tool.input_schema["type"] == "object", tool.name
        assert tool.annotations is not None, tool.name
        assert tool.annotations.read_only_hint is not None, tool.name
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
    by_name = {tool.name: tool for tool in tools}
    assert by_name["crash"].annotations is not None
    assert by_name["crash"].annotations.destructive_hint is True
    assert by_name["echo_arguments"].output_schema is None
    assert by_name["add"].output_schema == TOOLS_BY_NAME["add"]["outputSchema"]


@pytest.mark.parametrize("mode", MODES)
async def test_the_server_names_itself_anvia_demo_with_version_and_instructions(mode: str) -> None:
    async with mcp.Client(build_server(), mode=mode) as client:
        if mode == "legacy":
            assert client.server_info is not None
            assert (client.server_info.name, client.server_info.version) == (SERVER_NAME, anvia_nb.__version__)
        assert client.instructions is not None
        assert "crash" in client.instructions


# --- one tool per kind of result -------------------------------------------------------------


async def test_echo_returns_the_message_as_one_text_item() -> None:
    async with mcp.Client(build_server()) as client:
        result = await client.call_tool("echo", {"message": "héllo <b>"})
    assert [wire(item) for item in result.content] == [{"type": "text", "text": "héllo <b>"}]
    assert result.is_error is False


async def test_echo_arguments_returns_sorted_json_text_and_the_arguments_as_structured_content() -> None:
    arguments = {"zeta": [1, 2], "alpha": {"nested": None}, "mid": "x"}
    async with mcp.Client(build_server()) as client:
        result = await client.call_tool("echo_arguments", arguments)
    assert texts(result) == [json.dumps(arguments, sort_keys=True)]
    assert result.structured_content == arguments


async def test_add_returns_the_sum_as_text_and_structured_content_that_matches_its_schema() -> None:
    async with mcp.Client(build_server()) as client:
        result = await client.call_tool("add", {"a": 2, "b": 0.5})
    assert texts(result) == ["2.5"]
    assert result.structured_content == {"sum": 2.5}
    jsonschema.validate(result.structured_content, TOOLS_BY_NAME["add"]["outputSchema"])


async def test_concat_texts_returns_one_text_item_per_part_in_order() -> None:
    async with mcp.Client(build_server()) as client:
        result = await client.call_tool("concat_texts", {"parts": ["a", "", "b c", "\n"]})
    assert [item.type for item in result.content] == ["text"] * 4
    assert texts(result) == ["a", "", "b c", "\n"]


MAGIC = {
    "png": (b"\x89PNG\r\n\x1a\n", "image/png"),
    "jpeg": (b"\xff\xd8\xff", "image/jpeg"),
    "gif": (b"GIF89a", "image/gif"),
    "webp": (b"RIFF", "image/webp"),
    "svg": (b"<svg", "image/svg+xml"),
}


@pytest.mark.parametrize("kind", list(MAGIC))
async def test_image_returns_a_caption_and_valid_bytes_of_the_declared_type(kind: str) -> None:
    async with mcp.Client(build_server()) as client:
        result = await client.call_tool("image", {"kind": kind})
    caption, image = result.content
    assert isinstance(caption, types.TextContent)
    assert kind in caption.text
    assert isinstance(image, types.ImageContent)
    magic, mime_type = MAGIC[kind]
    assert image.mime_type == mime_type
    data = base64.b64decode(image.data, validate=True)
    assert data.startswith(magic)
    if kind == "png":
        idat = data.index(b"IDAT")
        length = int.from_bytes(data[idat - 4 : idat], "big")
        assert len(zlib.decompress(data[idat + 4 : idat + 4 + length])) == 8 * (1 + 3 * 8)
    if kind == "jpeg":
        assert data.endswith(b"\xff\xd9")
    if kind == "gif":
        assert data.endswith(b";")
    if kind == "webp":
        assert data[8:12] == b"WEBP"
        assert int.from_bytes(data[4:8], "little") == len(data) - 8


async def test_audio_returns_a_wav_that_the_wave_module_can_read() -> None:
    async with mcp.Client(build_server()) as client:
        result = await client.call_tool("audio", {})
    (audio,) = result.content
    assert isinstance(audio, types.AudioContent)
    assert audio.mime_type == "audio/wav"
    with wave.open(io.BytesIO(base64.b64decode(audio.data))) as sound:
        assert sound.getnframes() > 0
        assert sound.getnchannels() == 1


async def test_resource_link_and_embedded_resources_carry_uri_mime_type_and_payload() -> None:
    async with mcp.Client(build_server()) as client:
        link = (await client.call_tool("resource_link", {})).content
        text = (await client.call_tool("embedded_text_resource", {})).content
        blob = (await client.call_tool("embedded_blob_resource", {})).content
    assert isinstance(link[0], types.ResourceLink)
    assert (str(link[0].uri), link[0].mime_type) == ("demo://notes/1", "text/plain")
    assert link[0].name
    assert isinstance(text[0], types.EmbeddedResource)
    assert isinstance(text[0].resource, types.TextResourceContents)
    assert text[0].resource.uri == "demo://notes/1"
    assert "milk" in text[0].resource.text
    assert isinstance(blob[0], types.EmbeddedResource)
    assert isinstance(blob[0].resource, types.BlobResourceContents)
    assert base64.b64decode(blob[0].resource.blob) == bytes(range(16))


async def test_structured_only_sends_empty_content_beside_valid_structured_content() -> None:
    async with mcp.Client(build_server()) as client:
        result = await client.call_tool("structured_only", {})
    assert result.content == []
    assert result.structured_content == {"temperature": 21.5, "unit": "C"}


@pytest.mark.parametrize("mode", MODES)
async def test_schema_mismatch_really_delivers_data_that_breaks_its_output_schema(mode: str) -> None:
    request = types.CallToolRequest(params=types.CallToolRequestParams(name="schema_mismatch", arguments={}))
    async with mcp.Client(build_server(), mode=mode) as client:
        await list_all_tools(client)
        raw = await client.session.send_request(request, types.CallToolResult)
        with pytest.raises(RuntimeError, match="Invalid structured content"):
            await client.call_tool("schema_mismatch", {})
    assert raw.structured_content == {"count": "three"}
    assert texts(raw) == ["count: three"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(raw.structured_content, TOOLS_BY_NAME["schema_mismatch"]["outputSchema"])


async def test_fail_returns_is_error_with_its_message_and_fail_silently_with_no_content() -> None:
    async with mcp.Client(build_server()) as client:
        failed = await client.call_tool("fail", {"message": "disk on fire"})
        default = await client.call_tool("fail", {})
        silent = await client.call_tool("fail_silently", {})
    assert failed.is_error
    assert texts(failed) == ["disk on fire"]
    assert default.is_error
    assert texts(default) == ["the demo tool failed on purpose"]
    assert silent.is_error
    assert silent.content == []


async def test_arguments_that_break_the_input_schema_come_back_as_a_readable_tool_error() -> None:
    async with mcp.Client(build_server()) as client:
        result = await client.call_tool("add", {"a": 1, "b": "two"})
    assert result.is_error
    assert texts(result) == ["Invalid arguments for add: b: 'two' is not of type 'number'"]


async def test_an_unknown_tool_is_a_protocol_error_not_a_result() -> None:
    async with mcp.Client(build_server(), mode="legacy") as client:
        with pytest.raises(MCPError, match="Unknown tool: nope"):
            await client.call_tool("nope", {})


async def test_large_returns_exactly_the_requested_number_of_characters() -> None:
    async with mcp.Client(build_server()) as client:
        result = await client.call_tool("large", {"size_chars": 1_000_003})
        empty = await client.call_tool("large", {"size_chars": 0})
        too_big = await client.call_tool("large", {"size_chars": 60_000_001})
    assert len(texts(result)) == 1
    assert len(texts(result)[0]) == 1_000_003
    assert texts(empty) == [""]
    assert too_big.is_error


async def test_env_value_echoes_the_server_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANVIA_DEMO_API_TOKEN", "s3cret-value")
    monkeypatch.delenv("ANVIA_DEMO_UNSET", raising=False)
    async with mcp.Client(build_server()) as client:
        present = await client.call_tool("env_value", {"name": "ANVIA_DEMO_API_TOKEN"})
        missing = await client.call_tool("env_value", {"name": "ANVIA_DEMO_UNSET"})
    assert texts(present) == ["s3cret-value"]
    assert missing.is_error


async def test_form_showcase_echoes_valid_arguments_and_rejects_a_pattern_violation() -> None:
    schema = TOOLS_BY_NAME["form_showcase"]["inputSchema"]
    for key in ("$defs", "required"):
        assert key in schema
    valid = {
        "name": "Ada Lovelace",
        "email": "ada@example.org",
        "count": 3,
        "size": "m",
        "toppings": ["olives"],
        "address": {"city": "London", "postcode": "12345"},
        "nickname": None,
        "score": None,
        "options": {"verbose": True, "level": 2},
    }
    async with mcp.Client(build_server()) as client:
        ok = await client.call_tool("form_showcase", valid)
        bad = await client.call_tool("form_showcase", {**valid, "name": "4da", "email": "no-at-sign"})
    assert ok.is_error is False
    assert json.loads(texts(ok)[0]) == valid
    assert ok.structured_content == valid
    assert bad.is_error
    assert "name" in texts(bad)[0]
    assert "email" in texts(bad)[0]


# --- progress and cancellation ---------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
async def test_slow_reports_progress_for_every_step_then_says_done(mode: str) -> None:
    reported: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        reported.append((progress, total, message))

    async with mcp.Client(build_server(), mode=mode) as client:
        arguments = {"steps": 3, "delay_seconds": 0.01}
        result = await client.call_tool("slow", arguments, progress_callback=on_progress)
    assert texts(result) == ["done after 3 steps"]
    assert reported == [(1, 3, "step 1 of 3"), (2, 3, "step 2 of 3"), (3, 3, "step 3 of 3")]


class _RecordEvent(logging.Handler):
    """Sets an event when the server logs that ``slow`` was cancelled (same loop, same thread)."""

    def __init__(self) -> None:
        super().__init__()
        self.event = anyio.Event()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("slow cancelled"):
            self.messages.append(record.getMessage())
            self.event.set()


@pytest.mark.parametrize("mode", MODES)
async def test_cancelling_slow_stops_the_work_on_the_server_promptly(
    mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="anvia_nb.demo_server")
    recorder = _RecordEvent()
    logging.getLogger("anvia_nb.demo_server").addHandler(recorder)
    first_progress = anyio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        first_progress.set()

    try:
        async with mcp.Client(build_server(), mode=mode) as client, anyio.create_task_group() as group:
            arguments = {"steps": 3000, "delay_seconds": 0.02}
            group.start_soon(lambda: client.call_tool("slow", arguments, progress_callback=on_progress))
            with anyio.fail_after(30):
                await first_progress.wait()
            group.cancel_scope.cancel()
            with anyio.CancelScope(shield=True), anyio.fail_after(30):
                await recorder.event.wait()
    finally:
        logging.getLogger("anvia_nb.demo_server").removeHandler(recorder)
    done = int(recorder.messages[0].split()[3])
    assert 1 <= done < 3000


# --- elicitation -----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (types.ElicitResult(action="accept", content={"confirm": True, "reason": "tested"}), "Confirmed: deploy"),
        (types.ElicitResult(action="accept", content={"confirm": False}), "Not confirmed: deploy"),
        (types.ElicitResult(action="decline"), "Declined: deploy"),
        (types.ElicitResult(action="cancel"), "Cancelled: deploy"),
    ],
)
async def test_confirm_action_asks_by_elicitation_and_reports_the_answer(
    mode: str, answer: types.ElicitResult, expected: str
) -> None:
    asked: list[types.ElicitRequestParams] = []

    async def elicit(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params)
        return answer

    async with mcp.Client(build_server(), mode=mode, elicitation_callback=elicit) as client:
        result = await client.call_tool("confirm_action", {"action": "deploy"})
    assert len(asked) == 1
    assert isinstance(asked[0], types.ElicitRequestFormParams)
    assert "deploy" in asked[0].message
    assert asked[0].requested_schema["properties"]["confirm"]["type"] == "boolean"
    assert result.is_error is False
    assert texts(result)[0].startswith(expected)
    if answer.content and answer.content.get("reason"):
        assert "tested" in texts(result)[0]


@pytest.mark.parametrize("mode", MODES)
async def test_confirm_action_without_an_elicitation_capable_client_is_a_tool_error(mode: str) -> None:
    async with mcp.Client(build_server(), mode=mode) as client:
        result = await client.call_tool("confirm_action", {"action": "deploy"})
    assert result.is_error
    assert "elicitation" in texts(result)[0]


@pytest.mark.parametrize("argv", [["--no-such-option"], ["--require-header", "X-Token: t"], ["--port", "x"]])
def test_a_wrong_option_is_refused_before_the_sdk_is_imported(argv: list[str]) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "anvia_nb.demo_server", *argv],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "usage: anvia-demo-server" in done.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "argparse" in imported and not {"mcp", "mcp_types", "anyio"} & imported


def test_no_tool_description_addresses_the_notebook_author() -> None:
    # A description reaches every reader of the server's words (a dashboard's viewers, a model):
    # "Open it with %mcp app ..." is the client's to say, not the server's.
    assert [tool["name"] for tool in TOOLS if "%mcp" in str(tool.get("description", ""))] == []
