"""Resource subscriptions: subscribe to the demo's ``demo://counter`` (protocol 2026-07-28, over a
``subscriptions/listen`` stream), bump it, count the updates, unsubscribe; a server without
``resources.subscribe`` gives a one-line error and is sent nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.errors import NotOfferedError
from tests.helpers.support import DEMO_ARGS, npm_servers, require_setup
from tests.helpers.waiting import wait_until_async

LOG_SERVER = str(Path(__file__).parents[1] / "servers" / "log_server.py")
COUNTER = "demo://counter"


@pytest.mark.anyio
async def test_subscribe_bump_count_and_unsubscribe_on_2026_07_28() -> None:
    demo = mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS)
    async with await connect_mcp(demo) as server:
        assert server.client.protocol_version == "2026-07-28"
        heard: list[tuple[str, str]] = []
        server.subscriptions.on_update(lambda name, uri: heard.append((name, uri)))
        await server.subscribe(COUNTER)
        assert server.subscriptions.subscribed == [COUNTER]
        await server.tool("bump").call_outcome({})
        await wait_until_async(lambda: COUNTER in server.resource_updates(), "the first update")
        await server.tool("bump").call_outcome({})
        await wait_until_async(lambda: server.resource_updates()[COUNTER].count == 2, "the second update")
        assert heard == [("demo", COUNTER), ("demo", COUNTER)]
        assert server.resource_updates()[COUNTER].last > 0
        await server.unsubscribe(COUNTER)
        assert server.subscriptions.subscribed == []
        await server.tool("bump").call_outcome({})
        await server.resources()
        read = await server.read_resource(COUNTER)  # the stream is closed: no update can follow
        assert read.raw["contents"][0]["text"] == "counter: 3"
        assert server.resource_updates()[COUNTER].count == 2


@pytest.mark.anyio
async def test_a_server_without_subscriptions_gives_a_one_line_error_and_is_sent_nothing() -> None:
    legacy = mcp.stdio(name="legacy", command=sys.executable, args=[LOG_SERVER, "legacy"])
    async with await connect_mcp(legacy) as server:
        with pytest.raises(NotOfferedError) as caught:
            await server.subscribe("demo://counter")
        assert "\n" not in str(caught.value)
        assert "does not offer resource subscriptions" in str(caught.value)
        sent = [entry for entry in server.trace.entries() if "subscri" in str(entry.message)]
        assert sent == []


@pytest.mark.anyio
@pytest.mark.thirdparty
async def test_server_everything_on_an_older_protocol_version_with_resources_subscribe() -> None:
    require_setup(npm_servers() / "anvia-ready", "server-everything")
    command = str(npm_servers() / "node_modules" / ".bin" / "mcp-server-everything")
    async with await connect_mcp(mcp.stdio(name="everything", command=command, args=["stdio"])) as server:
        assert server.client.protocol_version < "2026-07-28"
        uri = str((await server.resources())[0]["uri"])
        await server.subscribe(uri)
        await server.tool("toggle-subscriber-updates").call_outcome({})
        await wait_until_async(lambda: uri in server.resource_updates(), "an update of the subscribed resource")
        await server.unsubscribe(uri)
        methods = [e.method for e in server.trace.entries() if e.kind == "request"]
        assert "resources/subscribe" in methods and "resources/unsubscribe" in methods
