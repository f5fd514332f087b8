"""A recording is untrusted input: read line by line under the live message limit, checked as the
live path checks a server's messages (the SDK's parser and models), and every problem is the one
``RecordingFileError`` naming the file and the line (``mcp.replay`` says it as a ``ConnectError``
whose cause is that error). Each hostile recording is written here, in ``tmp_path``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from anvia_nb import ConnectError, connect_mcp, mcp
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.versions import HANDSHAKE
from anvia_nb.core.recording.reading import read_recording
from anvia_nb.errors import RecordingFileError

pytestmark = pytest.mark.anyio

Record = dict[str, object]
HEADER: Record = {"type": "recording", "format": 1, "name": "demo", "transport": "stdio", "command": "demo"}
SERVER: Record = {
    "type": "server",
    "protocolVersion": HANDSHAKE,
    "serverInfo": {"name": "demo", "version": "1"},
    "capabilities": {"tools": {}},
    "instructions": None,
}
TOOL: Record = {"name": "echo", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}}}
TOOLS: Record = {"type": "listing", "kind": "tools", "items": [TOOL]}
CALL: Record = {
    "type": "call",
    "tool": "echo",
    "arguments": {"message": "hi"},
    "progress": [[1, 2, "half"]],
    "result": {"content": [{"type": "text", "text": "hi"}]},
}


def write(path: Path, *records: object) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records), encoding="utf-8")
    return path


def refused(path: Path, line: int, words: str) -> RecordingFileError:
    with pytest.raises(RecordingFileError) as info:
        read_recording(path)
    message = str(info.value)
    assert f"{path}:{line}" in message and words in message, message
    assert len(message.splitlines()) == 1
    return info.value


async def test_a_sound_recording_replays(tmp_path: Path) -> None:
    path = write(tmp_path / "ok.jsonl", HEADER, SERVER, TOOLS, CALL)
    async with await connect_mcp(mcp.replay(name="demo", path=path)) as server:
        outcome = await server.tool("echo").call_outcome({"message": "hi"})
    assert outcome.output == "hi" and outcome.progress == ((1, 2, "half"),)


def test_a_line_nested_200000_deep_is_a_recording_error_not_a_recursion_error(tmp_path: Path) -> None:
    deep = '{"type": "call", "tool": "echo", "arguments": {"x": ' + "[" * 200_000 + "]" * 200_000 + "}}"
    refused(write(tmp_path / "deep.jsonl", HEADER, deep), 2, "recursion limit")


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ({**CALL, "tool": 7}, "without a tool name"),
        ({**CALL, "arguments": [1, 2]}, "arguments are not an object"),
        ({**CALL, "progress": "lots"}, "progress is not a list"),
        ({**CALL, "progress": [[True, None, None]]}, "progress is not a list"),
        ({**CALL, "progress": [["1", None, 3]]}, "progress is not a list"),
        ({**CALL, "result": {"content": "not a list"}}, "the call's result is not valid"),
        ({**CALL, "result": [1]}, "the call's result is not valid"),
        ({**CALL, "result": None, "error": "boom"}, "error is not an object"),
        ({**CALL, "result": None, "error": {"class": "ProtocolError", "message": "x", "code": "12"}}, "error code"),
        ({**CALL, "result": None, "error": {"class": ["x"], "message": 1}}, "class and message"),
        ({**TOOLS, "items": {"name": "echo"}}, "items are not a list"),
        ({**TOOLS, "items": [{"name": "echo", "inputSchema": "object"}]}, "tools item 0 is not valid"),
        ({**TOOLS, "items": [{"name": 3, "inputSchema": {"type": "object"}}]}, "tools item 0 is not valid"),
        ({**TOOLS, "kind": None}, "a listing without a kind"),
        ({**SERVER, "capabilities": [1]}, "capabilities is not valid"),
        ({**SERVER, "capabilities": {"tools": "yes"}}, "capabilities is not valid"),
        ({**SERVER, "serverInfo": "demo"}, "info is not an object"),
        ({**SERVER, "protocolVersion": 2025}, "protocol version is not text"),
        ({**SERVER, "instructions": ["a"]}, "instructions are not text"),
        ("[1, 2, 3]", "not a recording line"),
        ('{"type": 5}', "not a recording line"),
        ("{not json", "not JSON"),
    ],
)
def test_wrong_types_are_a_recording_error_with_the_line(tmp_path: Path, record: object, words: str) -> None:
    refused(write(tmp_path / "bad.jsonl", HEADER, SERVER, TOOLS, record), 4, words)


def test_a_wrong_header_or_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    refused(write(tmp_path / "format.jsonl", {**HEADER, "format": True}), 1, "has format True")
    raw = tmp_path / "bytes.jsonl"
    raw.write_bytes(json.dumps(HEADER).encode() + b"\n" + b'{"type": "call", "tool": "\xff\xfe"}\n')
    refused(raw, 2, "not JSON")


async def test_replay_says_the_recording_error_as_a_connect_error(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.jsonl", HEADER, SERVER, {**TOOLS, "items": [{"name": "echo"}]})
    with pytest.raises(ConnectError, match=f"Cannot replay 'demo': {path}:3: tools item 0 is not valid") as info:
        await connect_mcp(mcp.replay(name="demo", path=path))
    assert isinstance(info.value.__cause__, RecordingFileError)


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> int:
    """The live message limit lowered (limits.py: change it there, before connecting)."""
    monkeypatch.setattr(limits, "MAX_MESSAGE_BYTES", 64 * 1024)
    return limits.MAX_MESSAGE_BYTES


def big_text_lines(count: int, size: int) -> Iterator[str]:
    for index in range(count):
        result = {"content": [{"type": "text", "text": "x" * size}]}
        yield json.dumps({**CALL, "arguments": {"message": str(index)}, "result": result})


def test_a_line_over_the_message_limit_is_refused_without_reading_it_whole(tmp_path: Path, small_limit: int) -> None:
    path = tmp_path / "large.jsonl"
    with path.open("w", encoding="utf-8") as file:
        file.write(json.dumps(HEADER) + "\n" + json.dumps(TOOLS) + "\n")
        for line in big_text_lines(3, small_limit // 2):  # under the limit: kept as where to read them
            file.write(line + "\n")
        file.write(next(big_text_lines(1, small_limit * 4)) + "\n")  # line 6: over it
    refused(path, 6, f"longer than the message limit ({small_limit} bytes")


async def test_a_recording_larger_than_the_limit_in_all_is_read_a_message_at_a_time(
    tmp_path: Path, small_limit: int
) -> None:
    """Forty lines of half the limit each (twenty times the limit in all): each line is under the
    limit, so the recording replays; the calls are kept as where their answers are, not as answers."""
    path = tmp_path / "many.jsonl"
    with path.open("w", encoding="utf-8") as file:
        file.write(json.dumps(HEADER) + "\n" + json.dumps(TOOLS) + "\n")
        for line in big_text_lines(40, small_limit // 2):
            file.write(line + "\n")
    assert path.stat().st_size > 20 * small_limit
    recording = read_recording(path)
    assert len(recording.calls) == 40 and all(
        set(call) == {"tool", "arguments", "line", "offset"} for call in recording.calls
    )
    async with await connect_mcp(mcp.replay(name="demo", path=path)) as server:
        out = await server.tool("echo").call({"message": "39"})
    assert out == "x" * (small_limit // 2)
