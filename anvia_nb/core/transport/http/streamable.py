"""Streamable HTTP through the SDK's transport, with a JSON answer read as stdio reads a line.

The SDK's ``streamable_http_client`` reads a JSON answer with ``response.aread()``, which keeps the
body on the response, and hands the parsed message on without its bytes, so a trace had to
serialize it again (twice the work of the parse, for a 2,000-character head). Here
:class:`WireTransport` reads the body's bytes once into one ``bytes``, validates them once, and
gives them to the trace with the message
(:class:`~anvia_nb.core.transport.sdk.trace_streams.Wires`). An SSE answer to a POST is read from
its bytes too (:mod:`~anvia_nb.core.transport.http.sse_bytes`): each event's data is joined once, as
``bytes``, validated once and given to the trace the same way. Everything else is the SDK's
``StreamableHTTPTransport``, unchanged (the methods here keep its answers, word for word, to what
cannot be parsed or read; the GET stream and reconnection read events with the SDK's
``EventSource``, whose data is text, and :meth:`WireTransport._handle_sse_event` takes both).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing, asynccontextmanager
from typing import Any

import anyio
import httpx2
from httpx2 import ServerSentEvent
from mcp.client.streamable_http import RequestContext, StreamableHTTPTransport
from mcp.shared._compat import resync_tracer
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage
from mcp_types import (
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCRequest,
    JSONRPCResponse,
)
from pydantic import ValidationError

from anvia_nb.core.transport.http.sse_bytes import ByteEvent, byte_events, reads_as_utf8
from anvia_nb.core.transport.sdk.messages import parse_message
from anvia_nb.core.transport.sdk.trace_streams import Wires

__all__ = ["WireTransport", "wire_http_client"]

logger = logging.getLogger("mcp.client.streamable_http")
"""The SDK transport's logger: the lines logged here are its own."""


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
            message = parse_message(body)
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

    async def _handle_sse_response(self, response: httpx2.Response, ctx: RequestContext) -> None:
        """The SDK's reading of an SSE answer to a POST, its events read from the bytes
        (:func:`~anvia_nb.core.transport.http.sse_bytes.byte_events`) instead of httpx2's text."""
        if not reads_as_utf8(response):  # a charset other than UTF-8: httpx2 decodes it
            await super()._handle_sse_response(response, ctx)
            return
        last_event_id: str | None = None
        retry_interval_ms: int | None = None
        assert isinstance(ctx.session_message.message, JSONRPCRequest)
        original_request_id = ctx.session_message.message.id
        try:
            async with aclosing(byte_events(response, self.max_sse_event_size)) as events:
                async for sse in events:
                    if sse.id:
                        last_event_id = sse.id
                    if sse.retry is not None:
                        retry_interval_ms = sse.retry
                    is_complete = await self._handle_sse_event(
                        sse,
                        ctx.read_stream_writer,
                        original_request_id=original_request_id,
                        resumption_callback=(ctx.metadata.on_resumption_token_update if ctx.metadata else None),
                    )
                    del sse  # its data: the message sent up holds what it needs
                    if is_complete:
                        await response.aclose()
                        return
        except httpx2.SSEError as exc:
            await self._resolve_abandoned_request(
                ctx.read_stream_writer, original_request_id, f"SSE stream failed: {exc}"
            )
            return
        except Exception:
            logger.debug("SSE stream ended", exc_info=True)
        if last_event_id is not None:
            logger.info("SSE stream disconnected, reconnecting...")
            await self._handle_reconnection(ctx, last_event_id, retry_interval_ms)
        else:
            await self._resolve_abandoned_request(
                ctx.read_stream_writer, original_request_id, "SSE stream ended without a response"
            )

    async def _handle_sse_event(
        self,
        sse: ServerSentEvent | ByteEvent,
        read_stream_writer: Any,
        original_request_id: Any = None,
        resumption_callback: Callable[[str], Awaitable[None]] | None = None,
    ) -> bool:
        """The SDK's handling of one SSE event (its data as bytes from :meth:`_handle_sse_response`,
        as text from the SDK's GET stream and reconnection), with its data noted for the trace, and
        without the debug line that formatted the whole message (a second copy of a 250 MB log
        message, made whether debug logging was on or not)."""
        if sse.event != "message":
            return False
        if not sse.data:  # a priming event: only its id, for resuming
            if sse.id and resumption_callback:
                await resumption_callback(sse.id)
            return False
        try:
            message = _parse(sse.data)
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


def _parse(data: str | bytes) -> JSONRPCMessage:
    """One message from an event's data. Bytes that do not parse are read again as the text httpx2
    would have made of them (invalid UTF-8 replaced), so what parsed then parses now, and what
    failed fails with the same words."""
    try:
        return parse_message(data)
    except ValidationError:
        if isinstance(data, str):
            raise
    return parse_message(data.decode("utf-8", "replace"))


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
            transport.post_writer,
            http_client,
            write_stream_reader,
            read_stream_writer,
            write_stream,
            start_get_stream,
            tg,
        )
        try:
            yield read_stream, write_stream
        finally:
            if transport.session_id:
                await transport.terminate_session(http_client)
            tg.cancel_scope.cancel()
    await resync_tracer()
