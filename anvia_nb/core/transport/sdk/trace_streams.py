"""A transport's read and write streams, recording every message that passes through them.

For the transports whose wire JSON anvia_nb does not read line by line itself (streamable HTTP):
each message is recorded in the connection's :class:`~anvia_nb.core.exchange.trace.ProtocolTrace` as
it passes, with the wire text the transport noted for it when it has one (:class:`Wires`, which
:mod:`~anvia_nb.core.transport.http.streamable` fills), so a received message is not serialized again.

Every transport's read stream also lets go of the last answer it handed on: the SDK's read loop
keeps its last item in a local until the next one arrives, so without this a 20 MB result stayed
alive until the connection's next message. An answer's result is handed to its waiting caller as
soon as the loop has it, so when the loop asks for the next item, the previous answer's ``result``
is replaced by an empty dict (the caller keeps the dict it was given).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any, TypeVar

from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCResponse

from anvia_nb.core.exchange.trace import Direction, ProtocolTrace, record_safely

__all__ = ["Wires", "traced", "traced_transport"]


class Wires:
    """The wire text of messages a transport parsed, until the read stream hands each one on.

    Keyed by the identity of the ``SessionMessage`` sent up the read stream (alive until it is
    received, so the key cannot be reused meanwhile)."""

    def __init__(self) -> None:
        self._wires: dict[int, str | bytes] = {}

    def note(self, item: SessionMessage, wire: str | bytes) -> None:
        self._wires[id(item)] = wire

    def take(self, item: object) -> str | bytes | None:
        return self._wires.pop(id(item), None)

    def __len__(self) -> int:
        return len(self._wires)


def traced(
    trace: ProtocolTrace | None,
    read_stream: Any,  # any: the SDK's anyio streams, wrapped untouched
    write_stream: Any,  # any: the SDK's anyio streams, wrapped untouched
    wires: Wires | None = None,
) -> tuple[Any, Any]:
    """The two streams of a transport, recording every message that passes through them (with
    ``trace``; without, the read stream only lets go of the last answer)."""
    read = _TracedRead(read_stream, trace, wires)
    return read, write_stream if trace is None else _TracedWrite(write_stream, trace)


@contextlib.asynccontextmanager
async def traced_transport(
    transport: Any,  # any: the SDK transport, wrapped untouched
    trace: ProtocolTrace | None,
    wires: Wires | None = None,
) -> AsyncIterator[tuple[Any, Any]]:
    """A transport (an async context manager yielding read and write streams) whose messages are
    traced (``trace``: ``None`` for one that records them itself), and whose read stream lets go
    of the last answer it handed on."""
    async with transport as (read_stream, write_stream):
        yield traced(trace, read_stream, write_stream, wires)


def _record(trace: ProtocolTrace, direction: Direction, item: Any, wire: str | bytes | None = None) -> None:
    message = getattr(item, "message", None)
    if message is None:
        return  # an exception passed up the read stream: not a message
    record_safely(trace, direction, message, wire)


class _Wrapped:
    """An SDK stream wrapped: what the wrapper does not change passes to ``inner`` (the transport's
    extras, closing, entering and exiting)."""

    def __init__(self, inner: Any) -> None:  # any: an SDK stream, wrapped untouched
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)  # last_context and other transport extras

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self: _Stream) -> _Stream:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        result: bool | None = await self._inner.__aexit__(*exc)
        return result


_Stream = TypeVar("_Stream", bound=_Wrapped)


class _TracedRead(_Wrapped):
    """A read stream (``SessionMessage | Exception`` items) that records each message it yields."""

    def __init__(self, inner: Any, trace: ProtocolTrace | None, wires: Wires | None = None) -> None:
        super().__init__(inner)
        self._trace = trace
        self._wires = wires
        self._answer: JSONRPCResponse | None = None

    def _let_go(self) -> None:
        """The previous answer's result is its caller's now: the message stops holding it."""
        answer, self._answer = self._answer, None
        if answer is not None:
            answer.__dict__["result"] = {}

    def _passed(self, item: Any) -> Any:
        wire = self._wires.take(item) if self._wires is not None else None
        if self._trace is not None:
            _record(self._trace, "received", item, wire)
        message = getattr(item, "message", None)
        if isinstance(message, JSONRPCResponse):
            self._answer = message
        return item

    async def receive(self) -> Any:
        self._let_go()
        return self._passed(await self._inner.receive())

    def __aiter__(self) -> _TracedRead:
        return self

    async def __anext__(self) -> Any:
        self._let_go()
        return self._passed(await self._inner.__anext__())


class _TracedWrite(_Wrapped):
    """A write stream that records each message before sending it."""

    def __init__(self, inner: Any, trace: ProtocolTrace) -> None:
        super().__init__(inner)
        self._trace = trace

    async def send(self, item: Any, /) -> None:
        _record(self._trace, "sent", item)
        await self._inner.send(item)
