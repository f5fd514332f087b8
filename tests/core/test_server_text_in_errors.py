"""Every error that quotes what a server sent is marked as server text, so ``hide_server_errors``
hides it: the SDK's own errors that quote a server (an unsupported protocol version it chose) and
an HTTP answer that is not HTTP (its bytes quoted by the HTTP parser)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.errors import AnviaError, ConnectError
from anvia_nb.policy import ShowPolicy, quotes_a_server
from tests.helpers.attack_servers import RawHttp, initialize_with_version, not_http

SERVER_TEXT = "db password=hunter2 at 10.0.0.5"
BOUND_SECONDS = 30.0


@pytest.fixture
def raw_http() -> Iterator[Callable[[Any], RawHttp]]:
    """``raw_http(answer)``: a socket on 127.0.0.1 answering with the bytes ``answer`` writes."""
    started: list[RawHttp] = []

    def start(answer: Any) -> RawHttp:
        started.append(RawHttp(answer))
        return started[-1]

    yield start
    for server in started:
        server.stop()


async def refusal(url: str) -> AnviaError:
    with pytest.raises(AnviaError) as caught:
        await connect_mcp(mcp.http(name="odd", url=url, timeout_seconds=BOUND_SECONDS), timeout_seconds=BOUND_SECONDS)
    return caught.value


def assert_hidden_when_asked(error: AnviaError) -> None:
    assert SERVER_TEXT in str(error)  # shown by default: it explains the failure
    assert quotes_a_server(error)
    line = ShowPolicy(hide_server_errors=True).error_line(error)
    assert SERVER_TEXT not in line and "hunter2" not in line
    assert line == ShowPolicy(hide_server_errors=True).viewer_line(error)  # a viewer's words, naming "odd"
    assert "“odd”" in line


@pytest.mark.anyio
async def test_a_protocol_version_quoted_by_the_sdk_is_hidden_with_server_errors(
    raw_http: Callable[[Any], RawHttp],
) -> None:
    error = await refusal(raw_http(initialize_with_version(SERVER_TEXT)).url)
    assert isinstance(error, ConnectError)
    assert_hidden_when_asked(error)


@pytest.mark.anyio
async def test_an_answer_that_is_not_http_is_hidden_with_server_errors(raw_http: Callable[[Any], RawHttp]) -> None:
    error = await refusal(raw_http(not_http(SERVER_TEXT)).url)
    assert isinstance(error, ConnectError)
    assert_hidden_when_asked(error)


@pytest.mark.anyio
async def test_a_refused_connection_is_not_server_text(unused_port: int) -> None:
    error = await refusal(f"http://127.0.0.1:{unused_port}/mcp")
    assert not quotes_a_server(error)  # the operating system's words, not the server's
    assert "Cannot reach 'odd'" in ShowPolicy().error_line(error)
    assert "could not be started" in ShowPolicy(hide_server_errors=True).error_line(error)  # for a viewer
