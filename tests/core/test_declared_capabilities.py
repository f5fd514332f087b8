"""What a connection tells its server it can answer (docs/client-capabilities.md, "What anvia_nb
declares"), read from the requests as the protocol trace shows them sent over streamable HTTP: the
same on every request of 2026-07-28, whether a handler is installed or not; on 2025-11-25 the
handshake's, without the tasks extension (tasks are part of that protocol)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.exchange.trace import TraceEntry
from tests.helpers.bench_http import bench_http_url

BOUND_SECONDS = 30.0
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
APPS = {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}
DECLARED = {
    "sampling": {},
    "elicitation": {"form": {}, "url": {}},
    "extensions": {"io.modelcontextprotocol/tasks": {}, **APPS},
}
pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with bench_http_url() as found:
        yield found


def _sent_requests(entries: list[TraceEntry]) -> list[dict[str, Any]]:
    return [entry.message() for entry in entries if entry.direction == "sent" and entry.kind == "request"]


async def test_every_request_of_2026_07_28_declares_the_same_capabilities(url: str) -> None:
    server = await connect_mcp(mcp.http(name="web", url=url), timeout_seconds=BOUND_SECONDS)
    try:
        await server.tool("echo").call({"message": "hi"})
        await server.tool("echo").call({"message": "again"})
        sent = _sent_requests(server.trace.entries())
    finally:
        await server.close()
    calls = [message for message in sent if message["method"] == "tools/call"]
    assert len(calls) == 2
    assert all(message["params"]["_meta"][CAPABILITIES_KEY] == DECLARED for message in sent)


async def test_the_2025_11_25_handshake_declares_them_without_the_tasks_extension(url: str) -> None:
    server = await connect_mcp(mcp.http(name="web", url=url, protocol="2025-11-25"), timeout_seconds=BOUND_SECONDS)
    try:
        sent = _sent_requests(server.trace.entries())
    finally:
        await server.close()
    handshake = [message for message in sent if message["method"] == "initialize"]
    assert len(handshake) == 1
    assert handshake[0]["params"]["capabilities"] == {**DECLARED, "extensions": APPS}


async def test_roots_are_declared_only_by_a_connection_that_offers_them(url: str, tmp_path: Path) -> None:
    server = await connect_mcp(mcp.http(name="web", url=url, roots=[tmp_path]), timeout_seconds=BOUND_SECONDS)
    try:
        await server.tool("echo").call({"message": "hi"})
        sent = _sent_requests(server.trace.entries())
    finally:
        await server.close()
    declared = sent[-1]["params"]["_meta"][CAPABILITIES_KEY]
    assert declared == {**DECLARED, "roots": {"listChanged": True}}
