"""Every error that quotes what a server sent is marked as server text, so ``hide_server_errors``
hides it: the SDK's own errors that quote a server (an unsupported protocol version it chose) and
an HTTP answer that is not HTTP (its bytes quoted by the HTTP parser)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.errors import AnviaError, ConnectError
from anvia_nb.policy import HIDDEN_SERVER_ERROR, ShowPolicy, quotes_a_server

SERVER_TEXT = "db password=hunter2 at 10.0.0.5"
BOUND_SECONDS = 30.0


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _answer(request: bytes, version: str) -> bytes:
    """An HTTP answer to ``request``: ``initialize`` answered with ``version`` as the protocol
    version, anything else refused as an unknown method."""
    body_in = request.split(b"\r\n\r\n", 1)[1]
    message = json.loads(body_in) if body_in.strip() else {}
    if message.get("method") == "initialize":
        info = {"protocolVersion": version, "capabilities": {}, "serverInfo": {"name": "odd", "version": "1"}}
        reply: dict[str, object] = {"jsonrpc": "2.0", "id": message.get("id"), "result": info}
    else:
        reply = {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": -32601, "message": "no such method"}}
    body = json.dumps(reply).encode()
    head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode() + body


def _read_request(conn: socket.socket) -> bytes:
    """One whole HTTP request: its head, then as many body bytes as it says."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


@pytest.fixture
def raw_http() -> Iterator[dict[str, bytes | str]]:
    """A socket on 127.0.0.1 that answers every request with ``state["answer"]``: bytes as given,
    or a string to answer ``initialize`` with as the protocol version."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    state: dict[str, bytes | str] = {"answer": b"", "url": f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"}

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                request = _read_request(conn)
                answer = state["answer"]
                if isinstance(answer, str):  # a protocol version to answer initialize with
                    answer = _answer(request, answer)
                conn.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        listener.close()
        thread.join(10)


async def refusal(url: str) -> AnviaError:
    with pytest.raises(AnviaError) as caught:
        await connect_mcp(mcp.http(name="odd", url=url, timeout_seconds=BOUND_SECONDS), timeout_seconds=BOUND_SECONDS)
    return caught.value


def assert_hidden_when_asked(error: AnviaError) -> None:
    assert SERVER_TEXT in str(error)  # shown by default: it explains the failure
    assert quotes_a_server(error)
    line = ShowPolicy(hide_server_errors=True).error_line(error)
    assert SERVER_TEXT not in line and "hunter2" not in line
    assert line == f"{type(error).__name__}: {HIDDEN_SERVER_ERROR}"


@pytest.mark.anyio
async def test_a_protocol_version_quoted_by_the_sdk_is_hidden_with_server_errors(
    raw_http: dict[str, bytes | str],
) -> None:
    raw_http["answer"] = SERVER_TEXT
    error = await refusal(str(raw_http["url"]))
    assert isinstance(error, ConnectError)
    assert_hidden_when_asked(error)


@pytest.mark.anyio
async def test_an_answer_that_is_not_http_is_hidden_with_server_errors(raw_http: dict[str, bytes | str]) -> None:
    raw_http["answer"] = f"{SERVER_TEXT}\r\n\r\n".encode()
    error = await refusal(str(raw_http["url"]))
    assert isinstance(error, ConnectError)
    assert_hidden_when_asked(error)


@pytest.mark.anyio
async def test_a_refused_connection_is_not_server_text(unused_port: int) -> None:
    error = await refusal(f"http://127.0.0.1:{unused_port}/mcp")
    assert not quotes_a_server(error)  # the operating system's words: shown even when hiding
    assert "Cannot reach 'odd'" in ShowPolicy(hide_server_errors=True).error_line(error)
