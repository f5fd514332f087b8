"""``protocol=`` of ``mcp.stdio``/``mcp.http``/``mcp.memory``: the demo server speaks both generations, and a
connection speaks the one it was asked for (``server.client.protocol_version``), with the
server's real capabilities; an unknown value is refused by the factory, before anything starts.
``lite_server.py`` (standard library, starts in milliseconds) shows the handshake-only connection
never sends ``server/discover``, and what a discover-only connection says to a server that refuses it."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest

from anvia_nb import ConnectError, connect_mcp, mcp
from anvia_nb.core import McpServer
from anvia_nb.errors import InvalidValueError
from tests.helpers.lite_server import LITE_ARGS
from tests.helpers.support import DEMO_ARGS
from tests.helpers.waiting import wait_until

pytestmark = pytest.mark.anyio

GENERATIONS = ["2025-11-25", "2026-07-28"]


async def _check_demo(server: McpServer, protocol: str) -> None:
    try:
        assert server.client.protocol_version == protocol
        # the server's own capabilities, not an empty made-up set: resources and prompts work
        assert {"tools", "resources", "prompts"} <= set(server.client.capabilities)
        assert server.client.server_info.get("name") == "anvia-demo"
        assert await server.tool("echo").call({"message": protocol}) == protocol
    finally:
        await server.close()


async def test_over_stdio_the_demo_speaks_the_generation_asked_for() -> None:
    for protocol in GENERATIONS:
        connection = mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS, protocol=protocol)
        await _check_demo(await connect_mcp(connection), protocol)


@pytest.mark.parametrize("protocol", GENERATIONS)
async def test_in_memory_the_demo_speaks_the_generation_asked_for(protocol: str) -> None:
    from anvia_nb.demo_server.handlers import build_server

    await _check_demo(await connect_mcp(mcp.memory(name="mem", server=build_server(), protocol=protocol)), protocol)


@pytest.mark.parametrize("protocol", GENERATIONS)
async def test_over_http_the_demo_speaks_the_generation_asked_for(demo_http_url: str, protocol: str) -> None:
    await _check_demo(await connect_mcp(mcp.http(name="web", url=demo_http_url, protocol=protocol)), protocol)


async def test_the_handshake_only_never_sends_discover_and_discover_only_never_falls_back(
    live_children: Callable[..., set[int]],
) -> None:
    before = live_children()
    # lite_server answers server/discover: the default would speak 2026-07-28 with it
    both = await connect_mcp(mcp.stdio(name="lite", command=sys.executable, args=LITE_ARGS, protocol="2025-11-25"))
    try:
        assert both.client.protocol_version == "2025-11-25"
    finally:
        await both.close()
    # with --legacy it refuses server/discover: the handshake-only connection does not ask
    legacy_args = [*LITE_ARGS, "--legacy"]
    legacy = await connect_mcp(mcp.stdio(name="old", command=sys.executable, args=legacy_args, protocol="2025-11-25"))
    try:
        assert legacy.client.protocol_version == "2025-11-25"
        assert await legacy.tool("echo").call({"message": "hi"}) == "hi"
    finally:
        await legacy.close()
    with pytest.raises(ConnectError, match="refused server/discover.*protocol '2025-11-25'") as refused:
        await connect_mcp(mcp.stdio(name="old", command=sys.executable, args=legacy_args, protocol="2026-07-28"))
    assert "does not speak protocol 2026-07-28" in str(refused.value).splitlines()[0]
    wait_until(lambda: live_children() == before, what="the refused server's process to end")


@pytest.mark.parametrize("bad", ["2025-06-18", "2026", "", "legacy", "auto", 2025, True])
async def test_an_unknown_protocol_is_refused_before_anything_starts(
    bad: object, live_children: Callable[..., set[int]]
) -> None:
    before = live_children()
    for factory in (
        lambda: mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS, protocol=bad),  # type: ignore[arg-type]
        lambda: mcp.http(name="web", url="http://127.0.0.1:9/mcp", protocol=bad),  # type: ignore[arg-type]
        lambda: mcp.memory(name="mem", server=object(), protocol=bad),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidValueError) as refused:
            factory()
        message = str(refused.value)
        assert "\n" not in message
        assert "'2025-11-25'" in message and "'2026-07-28'" in message and "None" in message
    assert live_children() == before
