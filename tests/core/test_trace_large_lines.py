"""A large received line is traced by what a person reads of it, without decoding all of it: kept
whole when its characters fit (whatever its bytes), otherwise kept as its head with its size in
bytes, the summary and the head as they were, a secret across the head's cut left out whole. The
demo server over stdio (its lines are UTF-8 as written), and the buffer on its own with the SDK's
own message models."""

from __future__ import annotations

import sys

import pytest
from mcp_types import JSONRPCRequest, JSONRPCResponse

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.exchange.trace import ProtocolTrace
from anvia_nb.core.protocol import limits
from anvia_nb.policy import MASK
from tests.helpers.support import DEMO_ARGS

KEPT = limits.TRACE_MESSAGE_CHARS
HEAD = limits.TRACE_HEAD_CHARS
SECRET = "sk-live-cut-4b7e2d" + "9c1f" * 150
"""As long as a signed token: the head must be decoded that far past its cut to find it."""


def _line(text: str, ident: int = 1) -> tuple[JSONRPCResponse, bytes]:
    """An answer of one text item, and its line as a server writes it (UTF-8, not escaped)."""
    answer = JSONRPCResponse(jsonrpc="2.0", id=ident, result={"content": [{"type": "text", "text": text}]})
    return answer, answer.model_dump_json(by_alias=True, exclude_unset=True).encode()


@pytest.mark.anyio
async def test_over_stdio_a_long_answer_in_three_byte_characters_is_whole_until_its_characters_exceed() -> None:
    async with await connect_mcp(mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS)) as server:
        for chars in (KEPT - 4_000, KEPT + 6_000):  # both lines far over KEPT bytes (three bytes each)
            await server.tool("echo").call({"message": "日" * chars})
        whole, cut = [e for e in server.trace.entries() if e.kind == "result" and e.method == "tools/call"]
    assert not whole.truncated and whole.size == len(whole.json) < KEPT < len(whole.json.encode())
    assert whole.message()["result"]["content"][0]["text"] == "日" * (KEPT - 4_000)
    assert cut.truncated and cut.summary == "result: text"
    kept = cut.message()
    assert kept["size"] == cut.size > 3 * (KEPT + 6_000)  # its bytes: its characters are about a third
    head = kept["head"]
    assert len(head) == HEAD and head.startswith('{"jsonrpc":"2.0","id":') and head.endswith("日日日")


def test_a_line_kept_as_its_head_states_its_bytes_and_the_same_head_and_summary() -> None:
    trace = ProtocolTrace("t")
    call = JSONRPCRequest(jsonrpc="2.0", id=1, method="tools/call", params={"name": "payload"})
    trace.record("sent", call, call.model_dump_json(by_alias=True, exclude_unset=True))
    text = 'row é 日本 "quoted" \\ <tag>\n' * 10_000  # as the benchmark's payload: some of everything
    answer, line = _line(text)
    trace.record("received", answer, line)
    entry = trace.entries()[-1]
    assert entry.truncated and trace.truncated == 1
    assert entry.size == len(line)  # bytes, as they came; its characters would be fewer
    assert len(line.decode()) < entry.size
    assert entry.message()["head"] == line.decode()[:HEAD]
    assert entry.summary == "result: text" and entry.method == "tools/call"


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_the_bound_is_in_characters_at_every_width_of_character(extra: int) -> None:
    for char in ("x", "é", "日", "😀"):
        trace = ProtocolTrace("t")
        shell = len(_line("")[1])
        answer, line = _line(char * (KEPT - shell + extra))
        trace.record("received", answer, line)
        entry = trace.entries()[-1]
        assert entry.truncated is (extra > 0), (char, extra)
        if entry.truncated:
            assert entry.size == len(line) and entry.message()["head"] == line.decode()[:HEAD]
        else:
            assert entry.size == len(entry.json) == len(line.decode()) and entry.json == line.decode()


def test_a_secret_across_the_heads_cut_is_left_out_whole_and_one_inside_it_masked() -> None:
    trace = ProtocolTrace("t", secrets=[SECRET])
    answer, line = _line("x" * (HEAD - 70) + SECRET + "x" * 300_000)
    written = line.decode()
    at = written.index(SECRET)
    assert at < HEAD < at + len(SECRET)
    trace.record("received", answer, line)
    assert trace.entries()[-1].message()["head"] == written[:at]
    answer, line = _line(SECRET + "日" * 100_000)
    trace.record("received", answer, line)
    entry = trace.entries()[-1]
    assert entry.truncated and MASK in entry.message()["head"] and SECRET not in entry.json
