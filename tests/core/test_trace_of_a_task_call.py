"""``%mcp trace NAME --call N`` of a call that became a task: the task's polls (``tasks/get``,
``tasks/result``), its status notifications and their answers belong to the call, in both
generations of the protocol (2026-07-28: ``resultType: task``; before: ``task: {ttl}`` asked and
``{"task": {...}}`` answered), and nothing of another task or call does."""

from __future__ import annotations

import sys

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.exchange.trace import ProtocolTrace, call_entries
from tests.helpers.support import DEMO_ARGS

pytestmark = pytest.mark.anyio

TASK = "task-1"
OTHER = "task-2"


def _request(trace: ProtocolTrace, ident: int, method: str, params: dict[str, object]) -> None:
    trace.record("sent", {"jsonrpc": "2.0", "id": ident, "method": method, "params": params})


def _answer(trace: ProtocolTrace, ident: int, result: dict[str, object]) -> None:
    trace.record("received", {"jsonrpc": "2.0", "id": ident, "result": result})


def test_a_task_call_before_2026_07_28_keeps_its_polls_status_and_result() -> None:
    trace = ProtocolTrace("t")
    _request(trace, 1, "tools/call", {"name": "job", "task": {"ttl": 60_000}, "arguments": {}})  # 1
    _answer(trace, 1, {"task": {"taskId": TASK, "status": "working"}})  # 2
    _request(trace, 2, "tools/call", {"name": "other", "arguments": {}})  # 3: another call meanwhile
    _answer(trace, 2, {"task": {"taskId": OTHER, "status": "working"}})  # 4
    trace.record(
        "received",
        {
            "jsonrpc": "2.0",
            "method": "notifications/tasks/status",
            "params": {"taskId": TASK, "status": "working", "statusMessage": "half"},
        },
    )  # 5
    trace.record(
        "received",
        {"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": {"taskId": OTHER, "status": "working"}},
    )  # 6
    _request(trace, 3, "tasks/get", {"taskId": TASK})  # 7
    _answer(trace, 3, {"taskId": TASK, "status": "completed"})  # 8
    _request(trace, 4, "tasks/get", {"taskId": OTHER})  # 9
    _answer(trace, 4, {"taskId": OTHER, "status": "working"})  # 10
    _request(trace, 5, "tasks/result", {"taskId": TASK})  # 11
    _answer(trace, 5, {"content": [{"type": "text", "text": "done"}]})  # 12
    picked = call_entries(trace.entries(), 1, 12, "job")
    assert [e.seq for e in picked] == [1, 2, 5, 7, 8, 11, 12]
    assert [e.summary for e in picked][1:] == [
        "result: task task-1 working",
        "task task-1 working: half",
        'tasks/get {"taskId":"task-1"}',
        "result: task task-1 completed",
        'tasks/result {"taskId":"task-1"}',
        "result: text",
    ]


async def test_a_task_call_on_2026_07_28_shows_its_polls_and_its_result() -> None:
    server = await connect_mcp(mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS))
    try:
        outcome = await server.tool("long_job").call_outcome({"steps": 3, "delay_seconds": 0.05})
        await server.tool("echo").call({"message": "after"})
        assert outcome.output == "done after 3 steps" and outcome.trace_span is not None
        picked = call_entries(server.trace.entries(), *outcome.trace_span, "long_job")
    finally:
        await server.close()
    summaries = [e.summary for e in picked]
    assert summaries[0].startswith("tools/call long_job") and summaries[1].startswith("result: task ")
    assert "tasks/get" in {e.method for e in picked[2:] if e.kind == "request"}
    assert summaries[-1].endswith("completed: done after 3 steps; result: text"), summaries
    assert all(e.target != "echo" for e in picked)
