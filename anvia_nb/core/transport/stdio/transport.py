"""Our stdio transport: the SDK's contract, a linear bounded reader, and no surviving processes.

Why not ``mcp.client.stdio.stdio_client``: its reader re-splits a growing string per chunk, which
is quadratic in the size of one message (20 MB ≈ 1 s), and buffers a line of any size (ours,
:mod:`anvia_nb.core.transport.stdio.pipe_lines`, copies each byte once and reads a wide pipe in large reads); it needs a
real file descriptor for the server's stderr (nbval kernels have none); it hides the process, so
nothing can kill the grandchildren a server leaves behind or clean up at interpreter exit. This
module keeps the same shape (an async context manager yielding a read and a write stream of
``SessionMessage``) so it plugs into ``mcp.Client`` like any ``Transport``.

Nothing a server sends can leave a request waiting for ever: an answer that cannot be parsed
fails its request at once, a message over :data:`anvia_nb.core.protocol.limits.MAX_MESSAGE_BYTES` fails
every waiting request and ends the connection, and the server's process ending ends the
connection even when a child it left behind still holds its stdout.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import IO, Any

import anyio
import anyio.abc
from mcp.client.stdio import get_default_environment
from mcp.shared.message import SessionMessage

from anvia_nb.core.exchange.trace import ProtocolTrace, record_safely
from anvia_nb.core.protocol import limits
from anvia_nb.core.transport.handlers import SessionHandlers
from anvia_nb.core.transport.sdk.connect import ClientTarget, ConnectFacts, open_sdk_session
from anvia_nb.core.transport.sdk.messages import Outstanding, read_line
from anvia_nb.core.transport.sdk.trace_streams import traced_transport
from anvia_nb.core.transport.session import Session
from anvia_nb.core.transport.stdio.pipe_lines import open_line_reader, wide_pipe
from anvia_nb.core.transport.stdio.process import (
    TOKEN_VARIABLE,
    kill_all_process_groups,
    live_process_groups,
    new_token,
    remember,
)
from anvia_nb.core.transport.stdio.process import stop_process as _stop_process
from anvia_nb.errors import AnviaError

__all__ = ["StdioLaunch", "kill_all_process_groups", "live_process_groups", "stdio_transport"]


@dataclass(frozen=True)
class StdioLaunch:
    """What to start: the command line, its extra environment, its cwd and its stderr log."""

    command: str
    args: tuple[str, ...] = field(default=(), repr=False)  # args and env may hold secrets: never in a repr
    env: dict[str, str] = field(default_factory=dict, repr=False)
    cwd: str | None = None
    stderr_path: str | None = None
    max_message_bytes: int | None = None
    """Largest line accepted from the server (``None``: :data:`anvia_nb.core.protocol.limits.MAX_MESSAGE_BYTES`)."""
    protocol: str | None = None
    """The protocol generation to speak (:mod:`anvia_nb.core.protocol.versions`; ``None``: discover, then fall back)."""

    def open(self, server: str, handlers: SessionHandlers) -> AbstractAsyncContextManager[Session]:
        """Start the server and handshake (see :class:`~anvia_nb.core.transport.session.SessionOpener`).
        Its messages are traced at the pipe itself; ``handlers`` hear its exit status."""

        def on_exit(status: int) -> None:
            handlers.server_exit_status = status

        async def make_transport(stack: contextlib.AsyncExitStack[bool | None], facts: ConnectFacts) -> ClientTarget:
            facts.cwd = self.cwd
            piped = stdio_transport(self, handlers.trace, on_exit=on_exit)
            return traced_transport(piped, None)  # only lets go of each answer handed on

        return open_sdk_session(server, handlers, self.protocol, make_transport)

    def auth_failure(self) -> AnviaError | None:
        return None


def _resolve_command(command: str) -> str:
    """``python`` means this kernel's Python: a notebook's PATH often points at another one."""
    if command in ("python", "python3"):
        return sys.executable
    return command


@asynccontextmanager
async def stdio_transport(
    launch: StdioLaunch, trace: ProtocolTrace | None = None, on_exit: Callable[[int], None] | None = None
) -> AsyncIterator[Any]:
    """Start the server in its own process group and bridge its pipes to message streams.

    ``trace`` records every message with the JSON that went over the pipe (each line is
    serialized or read once, for the server and the trace alike); ``on_exit(status)`` is told when
    the server's process ends, whoever ended it."""
    limit = launch.max_message_bytes or limits.MAX_MESSAGE_BYTES
    token = new_token()
    errlog: IO[bytes] | None = open(launch.stderr_path, "ab") if launch.stderr_path else None  # noqa: SIM115
    stdout_read, stdout_write = wide_pipe()
    try:
        process = await anyio.open_process(
            [_resolve_command(launch.command), *launch.args],
            env=get_default_environment() | launch.env | {TOKEN_VARIABLE: token},
            cwd=launch.cwd,
            stdout=stdout_write,
            stderr=errlog if errlog is not None else subprocess.DEVNULL,
            start_new_session=True,
        )
    except BaseException:
        os.close(stdout_read)
        raise
    finally:
        os.close(stdout_write)  # the server holds its own copy: its exit ends our reads
        if errlog is not None:
            errlog.close()
    remember(process.pid, token)
    try:
        stdout, stdout_transport = await open_line_reader(stdout_read, limit)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await _stop_process(process, token)
        raise

    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](16)
    outstanding = Outstanding()
    reading = anyio.CancelScope()
    read_done = anyio.Event()

    async def deliver(line: bytes) -> None:
        item, as_sent = read_line(line, outstanding)
        if isinstance(item, SessionMessage):
            outstanding.answered(item.message)
            if trace is not None:
                record_safely(trace, "received", item.message, line if as_sent else None)
        await read_writer.send(item)

    async def too_large() -> None:
        for answer in outstanding.fail_all(
            f"sent a message larger than the limit of {limit:,} bytes; the connection was closed",
            "too large",
        ):
            if trace is not None:
                record_safely(trace, "received", answer.message)
            await read_writer.send(answer)

    async def read_stdout() -> None:
        try:
            async with read_writer:
                with reading:
                    while True:
                        line = await stdout.next_line()
                        if line is None:
                            break
                        await deliver(line)
                        del line  # not kept until the next line arrives: it may be a 20 MB answer
                    if stdout.too_large:
                        await too_large()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            return
        finally:
            read_done.set()

    async def watch_process() -> None:
        """A server whose process ended is gone, even if a child it left still holds its stdout."""
        status = await process.wait()
        if on_exit is not None:
            on_exit(status)
        with anyio.move_on_after(limits.STDOUT_DRAIN_SECONDS):
            await read_done.wait()
        reading.cancel()

    async def write_stdin() -> None:
        assert process.stdin is not None
        async with write_reader:
            try:
                async for message in write_reader:
                    outstanding.sent(message.message)
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    if trace is not None:
                        record_safely(trace, "sent", message.message, data)
                    await process.stdin.send(data.encode("utf-8") + b"\n")
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                await read_writer.aclose()

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(read_stdout)
            tg.start_soon(write_stdin)
            tg.start_soon(watch_process)
            try:
                yield read_stream, write_stream
            finally:
                with anyio.CancelScope(shield=True):
                    await write_stream.aclose()
                    await _stop_process(process, token)
                    await read_stream.aclose()
                tg.cancel_scope.cancel()
    finally:
        stdout_transport.close()
