"""Streamable HTTP through the SDK's transport, with a JSON answer read as stdio reads a line.

The SDK's ``streamable_http_client`` reads a JSON answer with ``response.aread()``, which keeps the
body on the response, and hands the parsed message on without its bytes, so a trace had to
serialize it again (twice the work of the parse, for a 2,000-character head). Here
:class:`WireTransport` reads the body's bytes once into one ``bytes``, validates them once, and
gives them to the trace with the message (:class:`Wires`); an SSE event's data goes to the trace
the same way. Everything else is the SDK's ``StreamableHTTPTransport``, unchanged (the two
methods here keep its answers, word for word, to what cannot be parsed).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
from httpx2 import ServerSentEvent
from mcp.client.streamable_http import StreamableHTTPTransport
from mcp.shared._compat import resync_tracer
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage
from mcp_types import PARSE_ERROR, ErrorData, JSONRPCError, JSONRPCResponse, jsonrpc_message_adapter
from pydantic import ValidationError

__all__ = ["WireTransport", "Wires", "wire_http_client"]


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


class WireTransport(StreamableHTTPTransport):
    """The SDK's streamable HTTP transport, reading a JSON answer once and keeping its wire text."""

    def __init__(self, url: str, *, max_sse_event_size: int | None, wires: Wires | None) -> None:
        super().__init__(url, max_sse_event_size=max_sse_event_size)
        self.wires = wires

    async def _handle_json_response(
        self, response: httpx2.Response, read_stream_writer: Any, *, request_id: Any
    ) -> None:
        """The body's bytes, joined once and not kept on the response, validated in one parse."""
        try:
            body = b"".join([chunk async for chunk in response.aiter_bytes()])
            message = jsonrpc_message_adapter.validate_json(body, by_name=False)
        except (httpx2.StreamError, ValidationError) as exc:  # as the SDK answers it
            error = ErrorData(code=PARSE_ERROR, message=f"Failed to parse JSON response: {exc}")
            await read_stream_writer.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=request_id, error=error)))
            return
        item = SessionMessage(message)
        if self.wires is not None:
            self.wires.note(item, body)
        del body, message  # the trace takes the bytes from ``wires``; nothing here keeps them
        await self._send(read_stream_writer, item)

    async def _send(self, read_stream_writer: Any, item: SessionMessage) -> None:
        """Send ``item`` up the read stream; if it cannot go, its noted wire text goes too."""
        try:
            await read_stream_writer.send(item)
        except BaseException:
            if self.wires is not None:
                self.wires.take(item)
            raise

    async def _handle_sse_event(
        self,
        sse: ServerSentEvent,
        read_stream_writer: Any,
        original_request_id: Any = None,
        resumption_callback: Callable[[str], Awaitable[None]] | None = None,
    ) -> bool:
        """The SDK's handling of one SSE event, with its data noted for the trace, and without the
        debug line that formatted the whole message (a second copy of a 250 MB log message, made
        whether debug logging was on or not)."""
        if sse.event != "message":
            return False
        if not sse.data:  # a priming event: only its id, for resuming
            if sse.id and resumption_callback:
                await resumption_callback(sse.id)
            return False
        try:
            message = jsonrpc_message_adapter.validate_json(sse.data, by_name=False)
            if original_request_id is not None and isinstance(message, JSONRPCResponse | JSONRPCError):
                message.id = original_request_id
            item = SessionMessage(message)
            if self.wires is not None:
                self.wires.note(item, sse.data)
            await self._send(read_stream_writer, item)
            if sse.id and resumption_callback:
                await resumption_callback(sse.id)
            return isinstance(message, JSONRPCResponse | JSONRPCError)
        except Exception as exc:  # as the SDK answers it
            if original_request_id is not None:
                error = ErrorData(code=PARSE_ERROR, message=f"Failed to parse SSE message: {exc}")
                await read_stream_writer.send(
                    SessionMessage(JSONRPCError(jsonrpc="2.0", id=original_request_id, error=error))
                )
                return True
            await read_stream_writer.send(exc)
            return False


@asynccontextmanager
async def wire_http_client(
    url: str, *, http_client: httpx2.AsyncClient, max_sse_event_size: int | None, wires: Wires | None
) -> AsyncGenerator[tuple[Any, Any], None]:
    """``mcp.client.streamable_http.streamable_http_client`` with :class:`WireTransport` (the
    client is the caller's: it is not closed here)."""
    transport = WireTransport(url, max_sse_event_size=max_sse_event_size, wires=wires)
    read_stream_writer, read_stream = create_context_streams[SessionMessage | Exception](0)
    write_stream, write_stream_reader = create_context_streams[SessionMessage](0)
    async with (
        read_stream_writer,
        read_stream,
        write_stream,
        write_stream_reader,
        anyio.create_task_group() as tg,
    ):

        def start_get_stream() -> None:
            tg.start_soon(transport.handle_get_stream, http_client, read_stream_writer)

        tg.start_soon(
            transport.post_writer, http_client, write_stream_reader, read_stream_writer, write_stream,
            start_get_stream, tg,
        )
        try:
            yield read_stream, write_stream
        finally:
            if transport.session_id:
                await transport.terminate_session(http_client)
            tg.cancel_scope.cancel()
    await resync_tracer()
