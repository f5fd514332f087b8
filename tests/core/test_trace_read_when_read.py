"""A small message is kept as it came while it passes, and read when read: its entry says what the
message said (kind, id, method, size in characters, target, the id it refers to), an answer keeps
its request's method after the request left the buffer, a secret learned later is masked without
the entry forgetting what it was, and the counts stay exact. The SDK's own message models, with
their JSON as a transport hands it over (text written, bytes read)."""

from __future__ import annotations

from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

from anvia_nb.core.exchange.trace import ProtocolTrace
from anvia_nb.policy import MASK

SECRET = "nS3cr3t-learned-later-91f2"
"""Starts with ``n``: in JSON after a backslash (``\\n``), masking it leaves an invalid escape."""


def _wire(message: JSONRPCRequest | JSONRPCResponse | JSONRPCError | JSONRPCNotification) -> str:
    return message.model_dump_json(by_alias=True, exclude_unset=True)


def _call(ident: int, tool: str, text: str = "hi") -> JSONRPCRequest:
    params = {"name": tool, "arguments": {"message": text}}
    return JSONRPCRequest(jsonrpc="2.0", id=ident, method="tools/call", params=params)


def _progress(token: int, progress: int) -> JSONRPCNotification:
    params = {"progressToken": token, "progress": progress, "total": 9}
    return JSONRPCNotification(jsonrpc="2.0", method="notifications/progress", params=params)


def _answer(ident: int, text: str) -> JSONRPCResponse:
    return JSONRPCResponse(jsonrpc="2.0", id=ident, result={"content": [{"type": "text", "text": text}]})


def test_each_kind_of_message_reads_as_its_model_said_with_its_size_in_characters() -> None:
    trace = ProtocolTrace("t")
    call, progress, answer = _call(4, "echo", "é日"), _progress(4, 1), _answer(4, "日本語 é")
    error = JSONRPCError.model_validate({"jsonrpc": "2.0", "id": 5, "error": {"code": -32602, "message": "bad"}})
    trace.record("sent", call, _wire(call))  # text, as stdio writes it
    trace.record("received", progress, _wire(progress).encode())  # bytes, as stdio reads them
    trace.record("received", answer, _wire(answer).encode())
    trace.record("sent", _call(5, "other"), _wire(_call(5, "other")))
    trace.record("received", error, _wire(error).encode())
    sent, told, answered, _, failed = trace.entries()
    assert (sent.kind, sent.id, sent.method, sent.target) == ("request", 4, "tools/call", "echo")
    assert (told.kind, told.id, told.method, told.refers_to) == ("notification", None, "notifications/progress", 4)
    assert (answered.kind, answered.id, answered.method) == ("result", 4, "tools/call")
    assert answered.json == _wire(answer) and answered.size == len(_wire(answer)) < len(_wire(answer).encode())
    assert answered.summary == "result: text" and told.summary == "progress 1/9"
    assert (failed.kind, failed.id, failed.method, failed.summary) == ("error", 5, "tools/call", "error -32602: bad")
    assert [e.seq for e in trace.entries()] == [1, 2, 3, 4, 5] and trace.last_seq == 5
    assert trace.entry(3) == answered and trace.kept_chars == sum(e.size for e in trace.entries())


def test_an_answer_keeps_its_requests_method_after_the_request_left_the_buffer() -> None:
    trace = ProtocolTrace("t", max_messages=3)
    call = _call(1, "slow")
    trace.record("sent", call, _wire(call))
    for step in range(5):
        trace.record("received", _progress(1, step), _wire(_progress(1, step)).encode())
    trace.record("received", _answer(1, "done"), _wire(_answer(1, "done")).encode())
    kept = trace.entries()
    assert [e.seq for e in kept] == [5, 6, 7] and trace.dropped == 4 and trace.recorded == 7
    assert (kept[-1].kind, kept[-1].method, kept[-1].summary) == ("result", "tools/call", "result: text")


def test_a_secret_learned_later_is_masked_and_each_entry_still_says_what_it_was() -> None:
    trace = ProtocolTrace("t")
    call = _call(7, "login", "x\n" + SECRET[1:])  # its JSON holds "x\\nS3cr3t…": masked, a broken escape
    answer = _answer(7, f"token {SECRET}")
    trace.record("sent", call, _wire(call))
    trace.record("received", answer, _wire(answer).encode())
    before = [(e.kind, e.id, e.method, e.size) for e in trace.entries()]
    trace.add_secrets([SECRET])
    after = trace.entries()
    assert (
        [(e.kind, e.id, e.method, e.size) for e in after]
        == before
        == [
            ("request", 7, "tools/call", len(_wire(call))),
            ("result", 7, "tools/call", len(_wire(answer))),
        ]
    )
    assert all(SECRET not in e.json and MASK in e.json for e in after)
    assert trace.kept_chars == sum(len(e.json) for e in after) and SECRET not in after[1].summary


def test_dropped_counts_what_was_let_go_or_cleared() -> None:
    trace = ProtocolTrace("t", max_messages=3)
    for ident in range(5):
        trace.record("sent", _call(ident, "x"), _wire(_call(ident, "x")))
    assert (len(trace), trace.dropped, trace.recorded) == (3, 2, 5)
    trace.clear()
    assert (len(trace), trace.dropped, trace.kept_chars) == (0, 5, 0)
    trace.record("sent", _call(9, "x"), _wire(_call(9, "x")))
    assert [e.seq for e in trace.entries()] == [6] and trace.dropped == 5 and trace.last_seq == 6
