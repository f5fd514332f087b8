"""A hostile server cannot exhaust the kernel's memory: messages have a maximum size, a call keeps
a bounded tail of its progress, and the history keeps what ``%mcp history`` shows, not results."""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core import StdioConnection
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import CallRecord
from anvia_nb.errors import ProtocolError
from anvia_nb.magic.output.tables import history_frame
from anvia_nb.runtime import Runtime
from tests.helpers.lite_server import LITE_ARGS
from tests.helpers.waiting import wait_until

ROGUE = str(Path(__file__).parents[1] / "servers" / "rogue_server.py")
BOUND_SECONDS = 30.0
BIG = 2_000_000


def demo() -> StdioConnection:
    """The demo server's ``large`` and ``fail``, served by a process that starts in milliseconds."""
    return mcp.stdio(name="demo", command=sys.executable, args=LITE_ARGS)


@pytest.mark.anyio
async def test_a_line_over_the_maximum_message_size_ends_the_call_with_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(limits, "MAX_MESSAGE_BYTES", 1_000_000)
    huge = mcp.stdio(name="huge", command=sys.executable, args=[ROGUE, "huge", "5000000"])
    server = await connect_mcp(huge, timeout_seconds=BOUND_SECONDS)
    try:
        outcome = await asyncio.wait_for(server.tool("attack").call_outcome({}), BOUND_SECONDS)
        assert isinstance(outcome.error, ProtocolError)
        assert "huge.attack" in str(outcome.error)
        assert "larger than the limit of 1,000,000 bytes" in str(outcome.error)
    finally:
        await server.close()


@pytest.mark.anyio
async def test_a_call_keeps_only_a_bounded_tail_of_its_progress() -> None:
    noisy = mcp.stdio(name="noisy", command=sys.executable, args=[ROGUE, "progress", "1000"])
    server = await connect_mcp(noisy, timeout_seconds=BOUND_SECONDS)
    try:
        outcome = await asyncio.wait_for(server.tool("attack").call_outcome({}), BOUND_SECONDS)
        assert outcome.status == "ok"
        assert outcome.progress_count > limits.PROGRESS_KEPT
        assert len(outcome.progress) == limits.PROGRESS_KEPT
        # The tail is the last ones received, in order.
        assert [p for p, _, _ in outcome.progress] == sorted(p for p, _, _ in outcome.progress)
    finally:
        await server.close()


def test_the_history_keeps_what_history_shows_and_frees_the_results(runtime: Runtime) -> None:
    runtime.connect(demo(), timeout_seconds=BOUND_SECONDS)
    ok = runtime.call("demo", "large", {"size_chars": BIG})
    failed = runtime.call("demo", "fail", {"message": "x" * BIG})
    assert ok.status == "ok" and failed.status == "tool error"
    dropped_result, dropped_error = weakref.ref(ok), weakref.ref(failed.error)
    del ok, failed
    # The loop thread may still hold the finished call for a moment after the caller wakes up:
    # wait (bounded) for both to be freed; a result the history pins is never freed.
    wait_until(lambda: gc.collect() >= 0 and dropped_result() is None, "the dropped result to be freed")
    wait_until(lambda: gc.collect() >= 0 and dropped_error() is None, "the dropped error to be freed")

    rows = history_frame(runtime.calls())
    assert list(rows["tool"]) == ["large", "fail"]
    assert list(rows["status"]) == ["ok", "tool error"]
    assert rows["output_chars"][0] == BIG
    assert rows["error"][1].startswith("x") and len(rows["error"][1]) < 10_000
    assert len(rows["arguments"][1]) < 10_000  # the arguments are kept, bounded
    assert rows["time"].notna().all()
    for kept in runtime.calls():
        assert isinstance(kept, CallRecord) and kept.seen == {}  # too large to keep: measured only
        assert kept.error is None or getattr(kept.error, "raw", None) is None
