"""The protocol trace holds what went over the wire, masked and bounded; a call's own messages can
be picked out of it. Real demo servers over stdio and HTTP (a session of its own per test on the
session's shared HTTP process: the trace wraps any transport's streams), and the buffer on its own."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.exchange.trace import ProtocolTrace, call_entries
from anvia_nb.policy import MASK
from tests.helpers.support import DEMO_ARGS

SECRET = "sk-live-trace-9f3a1c"


def _stdio(**env: str) -> Any:
    return mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS, env=env)


def _http(url: str, **headers: str) -> Any:
    return mcp.http(name="web", url=url, headers=headers)


@pytest.mark.anyio
async def test_the_trace_shows_the_handshake_listing_and_a_call_with_its_progress() -> None:
    async with await connect_mcp(_stdio()) as server:
        outcome = await server.tool("slow").call_outcome({"steps": 3, "delay_seconds": 0.01})
        entries = server.trace.entries()
    methods = [e.method for e in entries if e.direction == "sent" and e.kind == "request"]
    assert methods[0] in ("server/discover", "initialize")
    assert "tools/list" in methods and "tools/call" in methods
    assert [e.seq for e in entries] == sorted(e.seq for e in entries)
    answer = next(e for e in entries if e.kind == "result" and e.method == "tools/call")
    assert answer.direction == "received" and answer.summary == "result: text"
    assert answer.message()["result"]["content"][0]["text"] == "done after 3 steps"
    assert all(e.size == len(e.json) for e in entries if not e.truncated)
    assert outcome.trace_span is not None
    own = call_entries(entries, *outcome.trace_span, "slow")
    assert [e.kind for e in own] == ["request", "notification", "notification", "notification", "result"]
    assert [e.summary.split(" ")[0] for e in own[1:4]] == ["progress"] * 3
    assert own[1].summary == "progress 1/3 step 1 of 3"


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["stdio", "http"])  # stdio keeps small messages as tuples until read
async def test_a_call_that_asks_for_input_shows_each_round(transport: str, demo_http_url: str) -> None:
    async def confirm(request: dict[str, Any]) -> dict[str, Any]:
        return {"action": "accept", "content": {"confirm": True}}

    async with await connect_mcp(_stdio() if transport == "stdio" else _http(demo_http_url)) as server:
        server.client.set_elicitation_handler(confirm)
        outcome = await server.tool("confirm_action").call_outcome({"action": "deploy"})
        assert outcome.output == "Confirmed: deploy"
        assert outcome.trace_span is not None
        own = call_entries(server.trace.entries(), *outcome.trace_span, "confirm_action")
    summaries = [e.summary for e in own]
    if any(s.startswith("input required") for s in summaries):  # 2026-07-28
        assert [e.kind for e in own] == ["request", "result", "request", "result"]
        assert summaries[1] == "input required: confirm"
        assert summaries[2].endswith("(with input responses)")
    else:  # the server asks in the middle of the call
        assert any(e.method == "elicitation/create" for e in own)
    assert summaries[-1] == "result: text"


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_secrets_are_masked_in_the_trace(transport: str, demo_http_url: str) -> None:
    if transport == "stdio":
        connection: Any = _stdio(API_TOKEN=SECRET)
    else:
        connection = _http(demo_http_url, Authorization=f"Bearer {SECRET}")
    async with await connect_mcp(connection) as server:
        await server.tool("echo").call_outcome({"message": f"the token is {SECRET}"})
        entries = server.trace.entries()
    everything = json.dumps([[e.json, e.summary] for e in entries], ensure_ascii=False)
    assert SECRET not in everything
    assert MASK in everything
    call = next(e for e in entries if e.method == "tools/call" and e.kind == "request")
    assert call.message()["params"]["arguments"]["message"] == f"the token is {MASK}"


@pytest.mark.anyio
async def test_a_huge_message_is_kept_as_a_summary_with_its_size(demo_http_url: str) -> None:
    async with await connect_mcp(_http(demo_http_url)) as server:
        await server.tool("large").call_outcome({"size_chars": 500_000})
        trace = server.trace
        answer = [e for e in trace.entries() if e.method == "tools/call" and e.kind == "result"][-1]
    assert answer.truncated and trace.truncated == 1
    assert answer.size > 500_000
    assert len(answer.json) < 5_000
    kept = answer.message()
    assert kept["truncated"] is True and kept["size"] == answer.size and kept["method"] == "tools/call"


def test_the_trace_is_bounded_in_messages_and_characters() -> None:
    trace = ProtocolTrace("t", max_messages=100, max_message_chars=10_000, max_total_chars=200_000)
    for index in range(5_000):
        trace.record("sent", {"jsonrpc": "2.0", "id": index, "method": "tools/call", "params": {"name": "x"}})
    assert len(trace) == 100 and trace.dropped == 4_900 and trace.recorded == 5_000
    assert [e.seq for e in trace.entries(3)] == [4_998, 4_999, 5_000]
    for index in range(200):  # just under the per-message limit: kept whole, so the total bounds them
        trace.record("received", {"jsonrpc": "2.0", "id": index, "result": {"text": "y" * 9_900}})
    assert trace.kept_chars <= 200_000
    assert sum(len(e.json) for e in trace.entries()) == trace.kept_chars
    for index in range(50):  # far over it: a summary each
        trace.record("received", {"jsonrpc": "2.0", "id": index, "result": {"text": "z" * 3_000_000}})
    assert trace.truncated == 50 and trace.kept_chars <= 200_000


def test_answers_are_named_after_the_request_they_answer_and_notifications_after_their_request() -> None:
    trace = ProtocolTrace("t")
    trace.record("sent", {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "slow"}})
    trace.record(
        "received",
        {
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": 7, "progress": 1, "total": 2},
        },
    )
    trace.record("sent", {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}})
    trace.record("received", {"jsonrpc": "2.0", "id": 7, "error": {"code": -32800, "message": "cancelled"}})
    entries = trace.entries()
    assert [e.kind for e in entries] == ["request", "notification", "notification", "error"]
    assert entries[-1].method == "tools/call" and entries[-1].summary == "error -32800: cancelled"
    assert [e.seq for e in call_entries(entries, 1, 4, "slow")] == [1, 2, 3, 4]
    assert entries[2].summary == "cancelled request 7"
