"""An SSE answer to a POST (protocol 2025-11-25, or any call whose server sends a notification
first), read from its bytes, arrives as it did when httpx2 read it as text: results, log messages,
odd framing, and what fails, failing with the same words.

The servers: the benchmark's (``benchmarks/bench_server.py --http``, the SDK's own server) for a
large result and log message, and a hand-written one, here, whose ``attack`` tool answers as the
URL's last path segment says (see :data:`STREAMS`)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core import McpServer
from anvia_nb.core.protocol import limits
from anvia_nb.errors import ProtocolError
from tests.helpers.bench_http import bench_http_url
from tests.helpers.hand_http import McpHandler, Served
from tests.helpers.waiting import wait_until_async

pytestmark = pytest.mark.anyio

BOUND_SECONDS = 30.0
BOUND_BYTES = 1_000_000
TOOL = {"name": "attack", "description": "Answers as the URL says.", "inputSchema": {"type": "object"}}


def _log(text: str) -> bytes:
    params = {"level": "info", "logger": "odd", "data": text}
    return json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": params}).encode()


def _answer(ident: Any, text: str) -> bytes:
    result = {"content": [{"type": "text", "text": text}]}
    return json.dumps({"jsonrpc": "2.0", "id": ident, "result": result}, ensure_ascii=False).encode()


def _odd(ident: Any) -> list[bytes]:
    """Every kind of line, CRLF and lone CR line ends, a log message with invalid UTF-8 in it, the
    answer on three data lines, written in pieces cut inside a character."""
    answer = _answer(ident, "odd ü 日本").replace(b', "result"', b',\ndata:  "result"')
    body = (
        b": a comment first\r\nretry: 50\r\n"
        b"id: prime-1\r\ndata:\r\n\r\n"
        b'event: other\r\ndata: {"ignored": true}\r\n\r\n'
        + b"data: "
        + _log("before \u00e9 \x00").replace(b"\\u00e9", "é".encode()).replace(b"\\u0000", b"\xff")
        + b"\r\r"
        + b"id: 2\nnothing here\ndata: "
        + answer.replace(b'"id": ', b'"id":\ndata: ')
        + b"\n\n"
    )
    cut = body.index("日".encode()) + 1
    return [body[:cut], body[cut:]]


STREAMS = {
    "odd": _odd,
    "past": lambda ident: [b"data: " + b"x" * (BOUND_BYTES + 10) + b"\n\n"],
    "cut": lambda ident: [b"data: " + _log("and then nothing") + b"\n\n"],
    "garbled": lambda ident: [b"data: not json\n\n"],
    "cr-end": lambda ident: [b"data: " + _answer(ident, "ended by a CR") + b"\r"],
    "latin-1": lambda ident: [b"data: " + _answer(ident, "caf\u00e9").replace("é".encode(), b"\xe9") + b"\n\n"],
}
"""What the ``attack`` tool's answer stream holds, by mode (the answer's id given)."""
CONTENT_TYPES = {"latin-1": "text/event-stream; charset=latin-1"}


class _Handler(McpHandler):
    def do_POST(self) -> None:
        message = self.read_json()
        method, ident = message.get("method"), message.get("id")
        mode = self.path.rstrip("/").rsplit("/", 1)[-1]
        if ident is None:
            self.reply(202)
        elif method == "tools/call":
            self.send_response(200)
            self.send_header("Content-Type", CONTENT_TYPES.get(mode, "text/event-stream"))
            self.end_headers()  # no length: the stream ends when the connection closes
            try:
                for piece in STREAMS[mode](ident):
                    self.wfile.write(piece)
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped reading (past the bound)
        else:
            result: Any = {}
            if method == "initialize":
                result = {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {"tools": {}, "logging": {}},
                    "serverInfo": {"name": f"sse-{mode}", "version": "1"},
                }
            elif method == "tools/list":
                result = {"tools": [TOOL]}
            body = json.dumps({"jsonrpc": "2.0", "id": ident, "result": result}).encode()
            self.reply(200, b"event: message\ndata: " + body + b"\n\n", "text/event-stream")


@pytest.fixture(scope="module")
def odd_url() -> Iterator[str]:
    served = Served(_Handler)
    try:
        yield served.url()
    finally:
        served.stop()


async def _connect(url: str) -> McpServer:
    connection = mcp.http(name="odd", url=url, protocol="2025-11-25")
    return await connect_mcp(connection, log_level="info", timeout_seconds=BOUND_SECONDS)


async def test_odd_framing_reads_as_httpx2_read_it(odd_url: str) -> None:
    server = await _connect(f"{odd_url}/odd")
    try:
        assert await asyncio.wait_for(server.tool("attack").call({}), BOUND_SECONDS) == "odd ü 日本"
        logged = [entry.data for entry in server.client.log.entries if entry.logger == "odd"]
        assert logged == ["before é \ufffd"]  # invalid UTF-8 replaced, as httpx2's decoder did
        answer = [e for e in server.trace.entries() if e.method == "tools/call" and e.kind == "result"]
        assert len(answer) == 1 and '"result"' in answer[0].json and "odd ü 日本" in answer[0].json
    finally:
        await server.close()


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("past", f"SSE stream failed: Server-sent event exceeded the {BOUND_BYTES} byte limit."),
        ("cut", "SSE stream ended without a response"),
        ("garbled", "Failed to parse SSE message: 1 validation error"),
        ("garbled", "input_value='not json', input_type=str]"),  # the words of a parse of text
    ],
)
async def test_what_fails_fails_with_the_same_words(
    odd_url: str, mode: str, words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_MESSAGE_BYTES", BOUND_BYTES)
    server = await _connect(f"{odd_url}/{mode}")
    try:
        outcome = await asyncio.wait_for(server.tool("attack").call_outcome({}), BOUND_SECONDS)
        assert isinstance(outcome.error, ProtocolError)
        error = [e for e in server.trace.entries() if e.kind == "error"][-1]  # the call's answer
        assert words in json.loads(error.json)["error"]["message"]
    finally:
        await server.close()


@pytest.mark.parametrize(("mode", "text"), [("cr-end", "ended by a CR"), ("latin-1", "café")])
async def test_a_stream_ended_by_a_cr_or_in_another_charset_reads_as_before(odd_url: str, mode: str, text: str) -> None:
    server = await _connect(f"{odd_url}/{mode}")
    try:
        assert await asyncio.wait_for(server.tool("attack").call({}), BOUND_SECONDS) == text
    finally:
        await server.close()


CHARS = 1_000_000


@pytest.fixture(scope="module")
def bench_url() -> Iterator[str]:
    with bench_http_url() as url:
        yield url


async def test_a_large_result_and_log_message_over_sse_arrive_whole(bench_url: str) -> None:
    server = await connect_mcp(
        mcp.http(name="bench", url=bench_url, protocol="2025-11-25"), log_level="info", timeout_seconds=BOUND_SECONDS
    )
    try:
        text = await asyncio.wait_for(server.tool("payload").call({"size_chars": CHARS}), BOUND_SECONDS)
        assert len(text) == CHARS and "日本語" in text and 'row "quoted" \\ back' in text
        answer = [e for e in server.trace.entries() if e.method == "tools/call" and e.kind == "result"][-1]
        assert answer.truncated and answer.size > CHARS  # its size: the bytes of the event's data
        assert json.loads(answer.json)["head"].startswith('{"jsonrpc":"2.0"')
        assert await asyncio.wait_for(server.tool("shout").call({"size_chars": CHARS}), BOUND_SECONDS) == "shouted"
        await wait_until_async(
            lambda: any(entry.logger == "bench" for entry in server.client.log.entries), "the log message"
        )
        shouted = [entry for entry in server.client.log.entries if entry.logger == "bench"]
        assert len(shouted) == 1 and str(shouted[0].data).startswith('row "quoted"')
    finally:
        await server.close()
