"""Our stdio transport: the SDK's contract, a linear reader, and no surviving processes.

Why not ``mcp.client.stdio.stdio_client``: its reader re-splits a growing string per chunk, which
is quadratic in the size of one message (20 MB ≈ 1 s); it needs a real file descriptor for the
server's stderr (nbval kernels have none); it hides the process, so nothing can kill the
grandchildren a server leaves in its process group or clean up at interpreter exit. This module
keeps the same shape (an async context manager yielding a read and a write stream of
``SessionMessage``) so it plugs into ``mcp.Client`` like any ``Transport``.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import IO, Any

import anyio
import anyio.abc
import mcp_types
from mcp.client.stdio import get_default_environment
from mcp.shared.message import SessionMessage

__all__ = ["StdioLaunch", "kill_all_process_groups", "live_process_groups", "stdio_transport"]

_EXIT_GRACE_SECONDS = 2.0
_TERM_GRACE_SECONDS = 2.0
_POLL_SECONDS = 0.01
_READ_CHUNK_BYTES = 1 << 20

_live_groups: set[int] = set()


def live_process_groups() -> frozenset[int]:
    """Process groups of stdio servers started here and not yet stopped (for leak tests)."""
    return frozenset(_live_groups)


def _kill_group(pgid: int, sig: int) -> bool:
    """Signal a whole group; False once it is gone."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def kill_all_process_groups() -> None:
    """Last resort at interpreter exit: SIGKILL every server group still alive."""
    for pgid in list(_live_groups):
        _kill_group(pgid, signal.SIGKILL)
        _live_groups.discard(pgid)


atexit.register(kill_all_process_groups)


@dataclass(frozen=True)
class StdioLaunch:
    """What to start: the command line, its extra environment, its cwd and its stderr log."""

    command: str
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    stderr_path: str | None = None


def _resolve_command(command: str) -> str:
    """``python`` means this kernel's Python: a notebook's PATH often points at another one."""
    if command in ("python", "python3"):
        return sys.executable
    return command


async def _wait_exit(process: anyio.abc.Process, seconds: float) -> bool:
    with anyio.move_on_after(seconds):
        while process.returncode is None:
            await anyio.sleep(_POLL_SECONDS)
        return True
    return process.returncode is not None


async def _group_gone(pgid: int, seconds: float) -> bool:
    with anyio.move_on_after(seconds):
        while _kill_group(pgid, 0):
            await anyio.sleep(_POLL_SECONDS)
        return True
    return False


async def stop_process(process: anyio.abc.Process) -> None:
    """Close stdin, wait, SIGTERM the group, wait, SIGKILL the group; always bounded."""
    pgid = process.pid
    with contextlib.suppress(Exception):
        if process.stdin is not None:
            await process.stdin.aclose()
    if not await _wait_exit(process, _EXIT_GRACE_SECONDS):
        _kill_group(pgid, signal.SIGTERM)
        if not await _wait_exit(process, _TERM_GRACE_SECONDS):
            _kill_group(pgid, signal.SIGKILL)
            await _wait_exit(process, _TERM_GRACE_SECONDS)
    # The leader is gone; children it left in its group are not: end them too.
    if _kill_group(pgid, signal.SIGTERM) and not await _group_gone(pgid, _TERM_GRACE_SECONDS):
        _kill_group(pgid, signal.SIGKILL)
        await _group_gone(pgid, _TERM_GRACE_SECONDS)
    _live_groups.discard(pgid)
    with contextlib.suppress(Exception):
        await process.aclose()


def _parse(line: bytes) -> SessionMessage | Exception:
    try:
        message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError as exc:
        return exc
    return SessionMessage(message)


@asynccontextmanager
async def stdio_transport(launch: StdioLaunch) -> AsyncIterator[Any]:
    """Start the server in its own process group and bridge its pipes to message streams."""
    errlog: IO[bytes] | None = open(launch.stderr_path, "ab") if launch.stderr_path else None  # noqa: SIM115
    try:
        process = await anyio.open_process(
            [_resolve_command(launch.command), *launch.args],
            env=get_default_environment() | launch.env,
            cwd=launch.cwd,
            stderr=errlog if errlog is not None else subprocess.DEVNULL,
            start_new_session=True,
        )
    finally:
        if errlog is not None:
            errlog.close()
    _live_groups.add(process.pid)

    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](16)

    async def read_stdout() -> None:
        assert process.stdout is not None
        buffer = bytearray()
        scanned = 0
        async with read_writer:
            try:
                while True:
                    chunk = await process.stdout.receive(_READ_CHUNK_BYTES)
                    buffer += chunk
                    start = 0
                    newline = buffer.find(b"\n", scanned)
                    while newline != -1:
                        line = bytes(buffer[start:newline])
                        if line.strip():
                            await read_writer.send(_parse(line))
                        start = newline + 1
                        newline = buffer.find(b"\n", start)
                    if start:
                        del buffer[:start]
                    scanned = len(buffer)
            except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                return

    async def write_stdin() -> None:
        assert process.stdin is not None
        async with write_reader:
            try:
                async for message in write_reader:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send(data.encode("utf-8") + b"\n")
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                await read_writer.aclose()

    async with anyio.create_task_group() as tg:
        tg.start_soon(read_stdout)
        tg.start_soon(write_stdin)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):
                await write_stream.aclose()
                await stop_process(process)
                await read_stream.aclose()
            tg.cancel_scope.cancel()
