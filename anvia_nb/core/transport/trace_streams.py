"""A transport's read and write streams, recording every message that passes through them.

For the transports whose wire JSON anvia_nb does not see itself (streamable HTTP, in memory): each
message is recorded in the connection's :class:`~anvia_nb.core.exchange.trace.ProtocolTrace` as it passes.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from anvia_nb.core.exchange.trace import Direction, ProtocolTrace, record_safely

__all__ = ["traced", "traced_transport"]


def traced(trace: ProtocolTrace, read_stream: Any, write_stream: Any) -> tuple[Any, Any]:
    """The two streams of a transport, recording every message that passes through them."""
    return _TracedRead(read_stream, trace), _TracedWrite(write_stream, trace)


@contextlib.asynccontextmanager
async def traced_transport(transport: Any, trace: ProtocolTrace) -> AsyncIterator[tuple[Any, Any]]:
    """A transport (an async context manager yielding read and write streams) whose messages are traced."""
    async with transport as (read_stream, write_stream):
        yield traced(trace, read_stream, write_stream)


def _record(trace: ProtocolTrace, direction: Direction, item: Any) -> None:
    message = getattr(item, "message", None)
    if message is None:
        return  # an exception passed up the read stream: not a message
    record_safely(trace, direction, message)


class _TracedRead:
    """A read stream (``SessionMessage | Exception`` items) that records each message it yields."""

    def __init__(self, inner: Any, trace: ProtocolTrace) -> None:
        self._inner = inner
        self._trace = trace

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)  # last_context and other transport extras

    async def receive(self) -> Any:
        item = await self._inner.receive()
        _record(self._trace, "received", item)
        return item

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> _TracedRead:
        return self

    async def __anext__(self) -> Any:
        item = await self._inner.__anext__()
        _record(self._trace, "received", item)
        return item

    async def __aenter__(self) -> _TracedRead:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        result: bool | None = await self._inner.__aexit__(*exc)
        return result


class _TracedWrite:
    """A write stream that records each message before sending it."""

    def __init__(self, inner: Any, trace: ProtocolTrace) -> None:
        self._inner = inner
        self._trace = trace

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def send(self, item: Any, /) -> None:
        _record(self._trace, "sent", item)
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _TracedWrite:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        result: bool | None = await self._inner.__aexit__(*exc)
        return result
