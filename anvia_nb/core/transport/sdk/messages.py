"""Answers a transport must not lose: requests still waiting, and lines that fail to parse.

Every message a server sends is parsed by :func:`parse_message`: the JSON by pydantic-core's own
parser (``from_json``), then the SDK's model of a JSON-RPC message (``validate_python``). The
same parse as the SDK's ``validate_json`` (the same JSON, models and errors), at a fraction of its
memory: ``validate_json`` of one large text holds about 3.3 times the text besides the bytes it
reads, ``from_json`` about 1.5 (benchmarks/README.md, *Peak RSS under one large message*).

The SDK drops a message it cannot parse, so a request whose answer was unreadable (nested too
deep, not MCP) would wait for ever. Here the transport keeps the ids it sent, finds the id of an
unreadable answer, and answers that request itself with an error marked as ours
(``data["anvia_nb"]``), which :func:`anvia_nb.core.transport.sdk.errors.error_from_exception` turns into a
:class:`~anvia_nb.errors.ProtocolError` naming the server.
"""

from __future__ import annotations

import gc
import json
import re
from typing import Any

import pydantic
import pydantic_core
from mcp.shared.message import SessionMessage
from mcp_types import (
    INTERNAL_ERROR,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)

__all__ = ["MARK", "Outstanding", "json_value", "parse_message", "read_line"]

MARK = "anvia_nb"
"""The key in ``error.data`` that says the error was made here, not sent by the server."""

_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\]]')
_ID_VALUE = re.compile(rb'\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')


class Outstanding:
    """Ids of the requests sent to the server and not yet answered."""

    def __init__(self) -> None:
        self._ids: set[int | str] = set()

    def sent(self, message: Any) -> None:  # any: an SDK message or its request id
        if isinstance(message, JSONRPCRequest):
            self._ids.add(message.id)
        elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
            cancelled = (message.params or {}).get("requestId")
            if isinstance(cancelled, int | str):
                self._ids.discard(cancelled)  # given up: its answer, if any, is ignored

    def answered(self, message: Any) -> None:  # any: an SDK message or its request id
        if isinstance(message, JSONRPCResponse | JSONRPCError) and message.id is not None:
            self._ids.discard(message.id)

    def waiting(self, request_id: Any) -> bool:  # any: an SDK message or its request id
        return isinstance(request_id, int | str) and not isinstance(request_id, bool) and request_id in self._ids

    def fail(self, request_id: int | str, message: str, kind: str) -> SessionMessage:
        """An error answer to one waiting request, marked as made here."""
        self._ids.discard(request_id)
        code = PARSE_ERROR if kind == "unreadable" else INTERNAL_ERROR
        error = ErrorData(code=code, message=message, data={MARK: kind})
        return SessionMessage(JSONRPCError(jsonrpc="2.0", id=request_id, error=error))

    def fail_all(self, message: str, kind: str) -> list[SessionMessage]:
        return [self.fail(request_id, message, kind) for request_id in list(self._ids)]


def json_value(data: bytes | bytearray | str) -> Any:  # any: a JSON value
    """``data``'s JSON value by pydantic-core's ``from_json``, with the garbage collector paused: it
    would otherwise walk the containers of a message of millions of small values again and again
    while they are made (half the parse's time). ``ValueError`` when it is not JSON.

    Parameters
    ----------
    data : bytes, bytearray or str
        JSON text.

    Returns
    -------
    Any
        The value, as ``json.loads`` would give it.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return pydantic_core.from_json(data)
    finally:
        if collecting:
            gc.enable()


def parse_message(data: bytes | bytearray | str) -> JSONRPCMessage:
    """One JSON-RPC message from its JSON, as the SDK's ``validate_json`` parses it, with less
    memory (see the module docstring).

    Parameters
    ----------
    data : bytes, bytearray or str
        The message's JSON (a stdio line, an HTTP body, an SSE event's data).

    Returns
    -------
    JSONRPCMessage
        The SDK's model of it.

    Raises
    ------
    pydantic.ValidationError
        Not JSON or not a JSON-RPC message, in the SDK's words.
    """
    try:
        value = json_value(data)
    except ValueError:  # not JSON: the SDK's own parse raises the error it always raised, in its words
        return jsonrpc_message_adapter.validate_json(data, by_name=False)
    return jsonrpc_message_adapter.validate_python(value, by_name=False)


def read_line(line: bytes, outstanding: Outstanding) -> tuple[SessionMessage | Exception, bool]:
    """One line from the server: a message, an error answer to the request it was meant to
    answer, or the parse error (a line answering nothing we wait for); and whether that is the
    line's own message (``False``: an answer made here, or no message)."""
    try:
        return SessionMessage(parse_message(line)), True
    except pydantic.ValidationError as exc:
        request_id = answer_id(line)
        if outstanding.waiting(request_id):
            message = f"sent an answer that could not be read ({reason(exc)})"
            return outstanding.fail(request_id, message, "unreadable"), False
        return exc, False


def reason(exc: pydantic.ValidationError) -> str:
    """The first problem, without the server's data pydantic quotes."""
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    if not errors:
        return "not valid JSON-RPC"
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ()))
    text = str(first.get("msg", "invalid"))[:200]
    more = f"; {len(errors) - 1} more problem(s)" if len(errors) > 1 else ""
    return f"{where}: {text}{more}" if where else f"{text}{more}"


def answer_id(line: bytes) -> Any:
    """The ``id`` of a line that looks like an answer (has ``result`` or ``error``), else ``None``."""
    try:
        value = json.loads(line)
    except RecursionError:
        return _top_level_id(line)
    except ValueError:
        return None
    if isinstance(value, dict) and ("result" in value or "error" in value):
        return value.get("id")
    return None


def _top_level_id(line: bytes) -> Any:
    """The top-level ``"id"`` of a JSON object too deep for :func:`json.loads`, by a linear scan."""
    depth = 0
    for token in _TOKEN.finditer(line):
        text = token.group()
        if text in (b"{", b"["):
            depth += 1
        elif text in (b"}", b"]"):
            depth -= 1
        elif depth == 1 and text == b'"id"':
            value = _ID_VALUE.match(line, token.end())
            if value is not None:
                try:
                    return json.loads(value.group(1))
                except ValueError:
                    return None
    return None
