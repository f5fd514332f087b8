"""A tool's interactive view (MCP Apps) survives a recording: a replayed connection still says which
tools have a view and who may call them; the view itself is a resource read, which a recording does
not hold, and the replay says so in one line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.demo_server.apps import COUNTER_HTML, COUNTER_URI
from anvia_nb.errors import NotOfferedError
from tests.helpers.support import DEMO_ARGS

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_a_replay_keeps_which_tools_have_a_view(tmp_path: Path) -> None:
    path = tmp_path / "apps.jsonl"
    async with await connect_mcp(mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS, record=path)) as live:
        assert (await live.app("counter_app")).html == COUNTER_HTML
    async with await connect_mcp(mcp.replay(name="demo", path=path)) as replayed:
        app = replayed.tool("counter_app").info.app
        assert app is not None and app.resource_uri == COUNTER_URI and app.for_cells
        assert not replayed.tool("counter_step").info.for_cells
        assert replayed.tool("echo").info.app is None
        with pytest.raises(NotOfferedError, match="not resource reads"):
            await replayed.app("counter_app")
