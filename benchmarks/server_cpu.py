"""The CPU time of the bench servers a benchmark starts: which side of a stdio connection is busy.

Over stdio each contender's server is a child process of the benchmark (or of a thread of it, the
runtime's loop); its CPU is read from ``/proc/<pid>/stat`` (user and system time). A map over a
50 ms tool on two cores is bound by whichever of the client and its server is on the CPU most, and
the server's work per request depends on what the client sends (the protocol version's per-request
``_meta`` at 2026-07-28), so a map's wall is read beside both.

Only on Linux, and only when the servers are this process's children: a quick run forks them from
the test suite's fork server (``benchmarks.forks``), whose children they are, so it says why not.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from tests.helpers.server_forks import ENV

__all__ = ["ServerPids", "cpu_seconds", "not_readable", "started_servers"]

_PROC = Path("/proc")


def not_readable() -> str | None:
    """Why the servers' CPU cannot be read here, or ``None`` when it can."""
    if not (_PROC / "self" / "stat").exists():
        return "no /proc on this system"
    if os.environ.get(ENV):
        return "the servers were forked by the test suite's fork server, not started by this process"
    return None


def _children() -> set[int]:
    """This process's child processes (``/proc/<pid>/stat``'s parent field)."""
    me, found = os.getpid(), set()
    for entry in _PROC.iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == me:
                    found.add(int(entry.name))
    return found


def cpu_seconds(pids: frozenset[int]) -> float:
    """User and system CPU seconds of ``pids`` so far (a process that has gone counts nothing)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = (_PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / ticks


class ServerPids:
    """The processes started inside one ``started_servers()`` block (empty when not readable)."""

    def __init__(self) -> None:
        self.pids: frozenset[int] = frozenset()


@contextlib.contextmanager
def started_servers() -> Iterator[ServerPids]:
    """``with started_servers() as found:`` open a connection; ``found.pids`` are its servers."""
    found = ServerPids()
    before = _children() if not_readable() is None else None
    yield found
    if before is not None:
        found.pids = frozenset(_children() - before)
