"""A result's line in the trace counts its content by kind, in the order they came, whether the answer
is kept whole (its line made when read) or too large to keep (made when recorded, from the answer
itself, since only its head is kept): what ``%mcp trace`` shows a person first."""

from __future__ import annotations

from mcp_types import JSONRPCRequest, JSONRPCResponse

from anvia_nb.core.exchange.trace import ProtocolTrace
from anvia_nb.core.protocol import limits

MIXED = [
    {"type": "text", "text": "a"},
    {"type": "image", "data": "AAAA", "mimeType": "image/png"},
    {"type": "text", "text": "b"},
    {"type": "resource_link", "uri": "file:///x", "name": "x"},
]


def _answer(ident: int, content: list[dict[str, str]], **more: object) -> tuple[JSONRPCResponse, bytes]:
    answer = JSONRPCResponse(jsonrpc="2.0", id=ident, result={"content": content, **more})
    return answer, answer.model_dump_json(by_alias=True, exclude_unset=True).encode()


def _called(trace: ProtocolTrace, ident: int) -> None:
    request = JSONRPCRequest(jsonrpc="2.0", id=ident, method="tools/call", params={"name": "t", "arguments": {}})
    trace.record("sent", request, request.model_dump_json(by_alias=True, exclude_unset=True))


def test_a_kept_and_a_cut_answer_count_their_content_by_kind_in_order() -> None:
    trace = ProtocolTrace("kinds")
    _called(trace, 1)
    trace.record("received", *_answer(1, MIXED))
    _called(trace, 2)
    big = [{"type": "text", "text": "x" * (limits.TRACE_MESSAGE_CHARS + 10)}, *MIXED]
    trace.record("received", *_answer(2, big, isError=True, structuredContent={"n": 1}))
    whole, cut = [e for e in trace.entries() if e.kind == "result"]
    assert not whole.truncated and whole.summary == "result: 2 text, image, resource_link"
    assert cut.truncated and cut.summary == "result isError: 3 text, image, resource_link +structuredContent"
