"""A stdio server's stdout read as lines, with as few copies and wake-ups as the OS allows.

The pipe is made as wide as Linux allows (1 MiB instead of 64 KiB), so a large answer arrives in
a few large reads; the bytes of each read are split into lines where they arrive (an asyncio
protocol, no stream buffer copying them again), and an unfinished line is copied once into one
growing buffer (:class:`io.BytesIO`, whose ``getvalue`` hands over its bytes without a copy) that
becomes the line when its newline arrives: a 200 MB line is held once while it arrives, never as
its pieces and their join beside them, and as one memory mapping of its own, given back to the
system when it is freed (pieces of a megabyte would stay in the heap, the process's size).
A line longer than the limit stops the reading (what came before it is still delivered). Reading
pauses while lines wait to be taken.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import io
import os

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]  # the stdlib stubs know no platform without fcntl

from anvia_nb.core.protocol import limits

__all__ = ["LineReader", "open_line_reader", "wide_pipe"]


def wide_pipe() -> tuple[int, int]:
    """``(read_end, write_end)`` of a pipe of up to :data:`~anvia_nb.core.protocol.limits.PIPE_BYTES`
    (Linux; elsewhere the default)."""
    read_end, write_end = os.pipe()
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None)
    if set_size is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(write_end, set_size, limits.PIPE_BYTES)
    return read_end, write_end


class LineReader(asyncio.Protocol):
    """Lines of a pipe, blank ones left out; ``too_large`` once a line passed ``limit`` bytes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.too_large = False
        self._ended = False
        self._pending = io.BytesIO()
        self._lines: collections.deque[bytes] = collections.deque()
        self._waiting_bytes = 0
        self._waiter: asyncio.Future[None] | None = None
        self._transport: asyncio.ReadTransport | None = None
        self._paused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.ReadTransport)
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        if self.too_large:
            return
        start = 0
        newline = data.find(b"\n")
        while newline != -1:
            if self._pending.tell() + newline - start > self.limit:
                self._stop()
                return
            if self._pending.tell():
                self._pending.write(memoryview(data)[start:newline])
                line, self._pending = self._pending.getvalue(), io.BytesIO()
            else:
                line = data[start:newline]
            if line and not line.isspace():
                self._lines.append(line)
                self._waiting_bytes += len(line)
            start = newline + 1
            newline = data.find(b"\n", start)
        if start < len(data):
            if self._pending.tell() + len(data) - start > self.limit:
                self._stop()
                return
            self._pending.write(memoryview(data)[start:])
        if (
            self._transport is not None
            and not self._paused
            and (len(self._lines) >= limits.PIPE_WAITING_LINES or self._waiting_bytes >= limits.PIPE_BYTES)
        ):
            self._paused = True
            self._transport.pause_reading()
        self._wake()

    def _stop(self) -> None:
        self.too_large = True
        self._pending = io.BytesIO()
        if self._transport is not None and not self._paused:
            self._paused = True
            self._transport.pause_reading()
        self._wake()

    def eof_received(self) -> bool | None:
        self._ended = True
        self._wake()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended = True
        self._wake()

    def _wake(self) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def next_line(self) -> bytes | None:
        """The next line; ``None`` when there are no more (the pipe ended, or a line was too large)."""
        while not self._lines:
            if self._ended or self.too_large:
                return None
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        line = self._lines.popleft()
        self._waiting_bytes -= len(line)
        if self._paused and not self.too_large and self._transport is not None and not self._lines:
            self._paused = False
            self._transport.resume_reading()
        return line


async def open_line_reader(read_end: int, limit: int) -> tuple[LineReader, asyncio.BaseTransport]:
    """Read ``read_end`` (owned from now on: closing the transport closes it) as lines."""
    loop = asyncio.get_running_loop()
    reader = LineReader(limit)
    transport, _protocol = await loop.connect_read_pipe(lambda: reader, os.fdopen(read_end, "rb", 0))
    return reader, transport
