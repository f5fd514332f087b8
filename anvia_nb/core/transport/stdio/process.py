"""Stopping a stdio server and everything it started, even what left its process group.

Each server runs in its own process group and carries a token in its environment
(``ANVIA_NB_SERVER``), inherited by whatever it starts. Stopping a server ends its group, then
every process still carrying its token: one that called ``setsid`` (and was re-parented to init)
is found by the token on Linux, where ``/proc`` lists every process's environment.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import threading
import uuid
from collections.abc import Callable
from pathlib import Path

import anyio
import anyio.abc

from anvia_nb.core.protocol import limits

__all__ = ["TOKEN_VARIABLE", "kill_all_process_groups", "live_process_groups", "new_token", "stop_process"]

TOKEN_VARIABLE = "ANVIA_NB_SERVER"

_live_groups: dict[int, tuple[str, threading.Thread]] = {}
"""Process group of each stdio server started here and not yet stopped, with its token and the
thread (a runtime's loop) that started it."""


def new_token() -> str:
    return uuid.uuid4().hex


def remember(pgid: int, token: str) -> None:
    _live_groups[pgid] = (token, threading.current_thread())


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


def carrying(token: str) -> list[int]:
    """Live processes whose environment holds ``token`` (Linux; ``[]`` elsewhere)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    needle = f"{TOKEN_VARIABLE}={token}".encode()
    found: list[int] = []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _kill_carriers(token: str, sig: int) -> bool:
    """Signal every process carrying ``token``; False when there were none."""
    pids = carrying(token)
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, sig)
    return bool(pids)


def kill_all_process_groups(started_in: threading.Thread | None = None) -> None:
    """Last resort at interpreter exit: SIGKILL every server group, and its escapees, still alive.

    With ``started_in``, only the servers started in that thread: a runtime shutting down kills
    what its own loop started, never the servers of another runtime in the same process."""
    for pgid, (token, thread) in list(_live_groups.items()):
        if started_in is not None and thread is not started_in:
            continue
        _kill_group(pgid, signal.SIGKILL)
        _kill_carriers(token, signal.SIGKILL)
        _live_groups.pop(pgid, None)


atexit.register(kill_all_process_groups)


async def _wait_exit(process: anyio.abc.Process, seconds: float) -> bool:
    with anyio.move_on_after(seconds):
        while process.returncode is None:
            await anyio.sleep(limits.PROCESS_POLL_SECONDS)
        return True
    return process.returncode is not None


async def _until_gone(alive: Callable[[], object], seconds: float) -> bool:
    with anyio.move_on_after(seconds):
        while alive():
            await anyio.sleep(limits.PROCESS_POLL_SECONDS * 5)
        return True
    return False


async def stop_process(process: anyio.abc.Process, token: str) -> None:
    """Close stdin, wait, SIGTERM the group, wait, SIGKILL the group; then the same for every
    process still carrying the server's token; always bounded."""
    pgid = process.pid
    with contextlib.suppress(Exception):
        if process.stdin is not None:
            await process.stdin.aclose()
    grace = limits.SERVER_TERM_GRACE_SECONDS
    if not await _wait_exit(process, limits.SERVER_EXIT_GRACE_SECONDS):
        _kill_group(pgid, signal.SIGTERM)
        if not await _wait_exit(process, grace):
            _kill_group(pgid, signal.SIGKILL)
            await _wait_exit(process, grace)
    # The leader is gone; children it left in its group, or in groups of their own, are not.
    if _kill_group(pgid, signal.SIGTERM) and not await _until_gone(lambda: _kill_group(pgid, 0), grace):
        _kill_group(pgid, signal.SIGKILL)
        await _until_gone(lambda: _kill_group(pgid, 0), grace)
    if _kill_carriers(token, signal.SIGTERM) and not await _until_gone(lambda: carrying(token), grace):
        _kill_carriers(token, signal.SIGKILL)
        await _until_gone(lambda: carrying(token), grace)
    _live_groups.pop(pgid, None)
    with contextlib.suppress(Exception):
        await process.aclose()
