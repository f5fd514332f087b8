"""The SDK's warnings about a server go to that connection's log (masked, bounded, counted),
never to the cell's stderr nor to the root logger."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.policy import MASK
from tests.helpers.waiting import wait_until_async

ROGUE = str(Path(__file__).parents[1] / "servers" / "rogue_server.py")
SECRET = "sk-live-secret42"
NOISE = 2000
BOUND_SECONDS = 60.0


@pytest.mark.anyio
async def test_invalid_notifications_are_counted_in_the_connections_log_not_printed(
    caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    noisy = mcp.stdio(name="noisy", command=sys.executable, args=[ROGUE, "noise", str(NOISE)], env={"API_KEY": SECRET})
    server = await connect_mcp(noisy, timeout_seconds=BOUND_SECONDS)
    try:
        outcome = await asyncio.wait_for(server.tool("attack").call_outcome({}), BOUND_SECONDS)
        assert outcome.status == "ok"
        log = server.client.log
        # Every invalid notification is counted, once the ones still in flight are handled.
        await wait_until_async(lambda: log.sdk_records >= NOISE, "every notification counted", seconds=BOUND_SECONDS)
        lines = log.message_lines(1000)
        assert len(lines) <= 500
        assert any(" sdk " in line and "notifications/progress" in line for line in lines)
        assert all(SECRET not in line for line in lines)
        assert any(MASK in line for line in lines)
        assert all(len(line) < 1000 and "\n" not in line for line in lines)
    finally:
        await server.close()
    assert not [r for r in caplog.records if r.name.startswith("mcp")], "SDK records reached the root logger"
    out, err = capfd.readouterr()
    assert SECRET not in out + err
    assert "Traceback" not in err
