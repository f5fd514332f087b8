"""Server-sent events read from a response's bytes: an event's data written once, kept as bytes.

httpx2's ``EventSource`` decodes the stream to text, keeps the pieces of a line as ``str``, joins
them, partitions the line and slices its value, then joins the data lines: a 40 MB event existed
as text three or four times before the JSON parse, which then read a ``str``. :class:`EventReader`
reads the same events from the bytes: a line's pieces are views of the chunks read, and a data
line's value is written, as it arrives, into the event's one buffer (:class:`io.BytesIO`, whose
``getvalue`` hands it over as ``bytes`` without a copy) for one parse: a 200 MB event is held once,
never as its chunks (which stayed in the heap once freed) and their join beside them. Field names,
``event``, ``id`` and ``retry`` are small, and decoded as UTF-8 with ``errors="replace"``, as
httpx2's ``aiter_text`` decodes ``text/event-stream``.

It is httpx2's parser (``httpx2/_sse.py``) otherwise, quirks included, so nothing reads
differently: lines end at ``\\n``, ``\\r\\n`` or ``\\r`` (a ``\\r\\n`` split across two chunks too);
a line starting with ``:`` is a comment; a field with no colon has an empty value; one space after
the colon is dropped; several ``data`` lines are joined with ``\\n``; an ``id`` holding NUL is
ignored; a ``retry`` that ``int()`` refuses is ignored; a blank line dispatches an event (the last
``id`` stays for the next ones); a stream that ends with ``\\r`` dispatches the pending event (httpx2
reads the ``\\r`` as a line end followed by a blank line); any other unterminated line at the end
is dropped. The bound is httpx2's too, counted in bytes: the event's lines other than comments plus
the line not yet ended, checked after each chunk, raising ``httpx2.SSEError`` with httpx2's message.
(httpx2 counts the UTF-8 of decoded text: the counts differ only for invalid UTF-8, where each
replaced byte counted three.)

Used by :class:`~anvia_nb.core.transport.http.streamable.WireTransport` for a POST's answer (a response
whose charset is not UTF-8 is left to the SDK, as httpx2 decodes it). The GET stream
(``handle_get_stream``), resumption and reconnection (``_handle_reconnection``) stay on the SDK's
``EventSource``: each opens its stream with ``sse_within_origin`` inside a method of the SDK that
cannot be switched without copying it. What they carry (a server's messages outside any call, on
2025-11-25; a resumed answer) is read as text, as before.
"""

from __future__ import annotations

import codecs
import io
from collections.abc import AsyncGenerator, Iterator
from contextlib import aclosing
from dataclasses import dataclass

import httpx2

__all__ = ["ByteEvent", "EventReader", "byte_events", "reads_as_utf8"]


@dataclass(frozen=True)
class ByteEvent:
    """One server-sent event, its data as the bytes that came (httpx2's ``ServerSentEvent``)."""

    event: str = "message"
    data: bytes = b""
    id: str = ""
    retry: int | None = None


def _text(pieces: list[memoryview]) -> str:
    return b"".join(pieces).decode("utf-8", "replace")


class EventReader:
    """Events from chunks of bytes: :meth:`feed` each chunk, then :meth:`finish` at the end."""

    def __init__(self, max_event_size: int | None = None) -> None:
        self._max_event_size = max_event_size
        # The event so far.
        self._event = ""
        self._data = io.BytesIO()  # handed over by getvalue() without a copy
        self._data_lines = 0
        self._last_event_id = ""
        self._retry: int | None = None
        self._pending = False
        self._event_size = 0
        # The line so far: its name's pieces until the colon, then its value's pieces.
        self._name: list[memoryview] = []
        self._value: list[memoryview] | None = None
        self._line_size = 0
        self._streaming = False  # a data line: its value goes straight into the event's data
        self._space_pending = False  # its first byte not yet seen: one space there is dropped
        self._trailing_cr = False

    def feed(self, chunk: bytes) -> Iterator[ByteEvent]:
        """The events this chunk completes, each as soon as it is read (so those before a line
        past the bound still come); raises ``httpx2.SSEError`` past the bound."""
        if self._trailing_cr:
            chunk = b"\r" + chunk
            self._trailing_cr = False
        if chunk.endswith(b"\r"):
            self._trailing_cr = True
            chunk = chunk[:-1]
        if b"\r" in chunk:
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        view = memoryview(chunk)
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            self._add(chunk, view, start, end)
            start = end + 1
            if (event := self._end_line()) is not None:
                yield event
                del event
        self._add(chunk, view, start, len(chunk))
        self._check(self._line_size)

    def finish(self) -> Iterator[ByteEvent]:
        """The event a final ``\\r`` dispatches (as httpx2 reads it), if any: any other line not
        ended cannot complete an event."""
        if self._trailing_cr:
            self._trailing_cr = False
            for _ in range(2):  # the line the ``\r`` ends, then a blank line
                if (event := self._end_line()) is not None:
                    yield event

    def _add(self, chunk: bytes, view: memoryview, start: int, end: int) -> None:
        """Add ``chunk[start:end]`` (no line end in it) to the line, as views of ``chunk``."""
        if start == end:
            return
        self._line_size += end - start
        if self._streaming:
            self._write_value(view[start:end])
            return
        if self._value is not None:
            self._value.append(view[start:end])
            return
        colon = chunk.find(b":", start, end)
        if colon < 0:
            self._name.append(view[start:end])
        elif b"".join([*self._name, view[start:colon]]) == b"data":
            self._name.append(view[start:colon])
            self._streaming, self._space_pending = True, True
            if self._data_lines:
                self._data.write(b"\n")
            self._write_value(view[colon + 1 : end])
        else:
            self._name.append(view[start:colon])
            self._value = [view[colon + 1 : end]]

    def _write_value(self, piece: memoryview) -> None:
        """A piece of a data line's value, into the event's data (copied once: the chunk it came in
        is freed when read, so a 200 MB event is held once, not as its chunks and their join)."""
        if not len(piece):
            return
        if self._space_pending:
            self._space_pending = False
            if piece[0] == 0x20:
                piece = piece[1:]
        self._data.write(piece)

    def _end_line(self) -> ByteEvent | None:
        name, value, size, streamed = self._name, self._value, self._line_size, self._streaming
        self._name, self._value, self._line_size, self._streaming = [], None, 0, False
        if not size:
            return self._dispatch()
        if streamed:  # a data line, already in the event's data
            self._event_size += size
            self._check()
            self._data_lines += 1
            self._pending = True
            return None
        field = b"".join(name)
        if not field and value is not None:
            return None  # a comment
        self._event_size += size
        self._check()
        pieces = [piece for piece in value or [] if len(piece)]
        if pieces and pieces[0][0] == 0x20:
            pieces[0] = pieces[0][1:]
        if field == b"data":  # without a colon: an empty value
            if self._data_lines:
                self._data.write(b"\n")
            for piece in pieces:
                self._data.write(piece)
            self._data_lines += 1
            self._pending = True
        elif field == b"event":
            self._event = _text(pieces)
            self._pending = True
        elif field == b"id":
            ident = _text(pieces)
            if "\0" not in ident:
                self._last_event_id = ident
                self._pending = True
        elif field == b"retry":
            try:
                self._retry = int(_text(pieces))
                self._pending = True
            except ValueError:
                pass
        return None

    def _dispatch(self) -> ByteEvent | None:
        self._event_size = 0
        if not self._pending:
            return None
        data, self._data, self._data_lines = self._data.getvalue(), io.BytesIO(), 0
        event = ByteEvent(event=self._event or "message", data=data, id=self._last_event_id, retry=self._retry)
        self._event, self._retry, self._pending = "", None, False
        return event

    def _check(self, pending: int = 0) -> None:
        if self._max_event_size is not None and self._event_size + pending > self._max_event_size:
            raise httpx2.SSEError(f"Server-sent event exceeded the {self._max_event_size} byte limit.")


def reads_as_utf8(response: httpx2.Response) -> bool:
    """Whether httpx2 decodes this response as UTF-8 (so its bytes read as its text would)."""
    try:
        return codecs.lookup(response.encoding or "utf-8").name == "utf-8"
    except LookupError:
        return False


async def byte_events(response: httpx2.Response, max_event_size: int | None) -> AsyncGenerator[ByteEvent, None]:
    """The events of ``response``, as httpx2's ``EventSource`` yields them (its content-type check
    first, its ``SSEError`` past the bound), with their data as bytes."""
    content_type, _, _ = response.headers.get("content-type", "").partition(";")
    if content_type.strip().lower() != "text/event-stream":
        raise httpx2.SSEError(
            f"Expected response with content type 'text/event-stream', got {content_type.strip()!r}.",
            request=response.request,
        )
    reader = EventReader(max_event_size)
    try:
        async with aclosing(response.aiter_bytes()) as chunks:
            async for chunk in chunks:
                for event in reader.feed(chunk):
                    yield event
                    del event  # nothing here holds an event once it is handed on
            for event in reader.finish():
                yield event
    except httpx2.SSEError as exc:
        exc.request = response.request
        raise
