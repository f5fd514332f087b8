"""Where a server explains itself: its stderr file (stdio) and its log messages, per connection.

A :class:`ServerLog` outlives its session: a connection that failed or died keeps its log
readable until it is closed (or replaced), so the reason it failed can still be read. The stderr
file is removed when its connection is closed and, for any left, at interpreter exit, unless the
person asked to keep it (``keep=True``). Text leaves this module masked with the connection's
secrets (a server may echo the token it was given) and bounded.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import json
import os
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.bounded import bounded_json
from anvia_nb.policy import ShowPolicy

__all__ = ["CLIENT_LOGGER", "LOG_LEVELS", "LogEntry", "LogRow", "ServerLog"]

LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
"""MCP's log levels (RFC 5424), least severe first."""

CLIENT_LOGGER = "anvia_nb"
"""The logger name of anvia_nb's own notes in a connection's log (their source is ``client``)."""

_DIRECTORY = "anvia_nb-logs"

_files_to_remove: set[str] = set()
_files_lock = threading.Lock()


@dataclass(frozen=True)
class LogEntry:
    """One ``notifications/message`` from the server (or a note from anvia_nb itself)."""

    time: float
    level: str
    logger: str | None
    data: object
    source: str = "server log"
    """``"server log"`` (``notifications/message``) or ``"client"`` (anvia_nb's notes, the SDK's records)."""
    stderr_offset: int | None = None
    """How much the server had written to stderr when this arrived: places it among stderr lines."""

    def text(self) -> str:
        """``12:00:01 warning db: text``, unmasked (callers mask)."""
        body = self.data if isinstance(self.data, str) else json.dumps(self.data, ensure_ascii=False, default=str)
        source = f" {self.logger}" if self.logger else ""
        return f"{time.strftime('%H:%M:%S', time.localtime(self.time))} {self.level}{source}: {body}"


@dataclass(frozen=True)
class LogRow:
    """One line of ``%mcp log``: a stderr line, a server's log message or a note of the client."""

    time: float | None
    """When it arrived. A stderr line (the server writes it to a file, untimed): when anvia_nb first
    saw the file hold it, so it was written no later; ``None`` only if never seen before."""
    source: str
    """``"stderr"``, ``"server log"`` or ``"client"``."""
    level: str | None
    logger: str | None
    text: str


class ServerLog:
    """One connection's stderr file and log messages; reads are masked with its secrets."""

    def __init__(
        self,
        name: str,
        *,
        transport: str = "memory",
        secrets: Iterable[str] = (),
        stderr: bool = False,
        keep: bool = False,
    ) -> None:
        self.name = name
        self.transport = transport
        self.keep = keep
        self.policy = ShowPolicy().with_secrets(secrets)
        self.entries: collections.deque[LogEntry] = collections.deque(maxlen=limits.LOG_ENTRIES_KEPT)
        self.sdk_records = 0
        """How many records the SDK logged about this connection (only the last ones are kept)."""
        self.stderr_path: str | None = _new_stderr_file(name) if stderr else None
        self._seen_sizes: list[tuple[int, float]] = [(0, time.time())]
        """(size of stderr, when it was seen), growing: a stderr line's time is the first that held it."""
        if self.stderr_path is not None and not keep:
            with _files_lock:
                _files_to_remove.add(self.stderr_path)

    @property
    def has_stderr(self) -> bool:
        return self.stderr_path is not None

    def add(self, level: str, logger: str | None, data: object) -> None:
        """One log message; long strings, lists and objects in it are cut (see ``bounded_json``)."""
        source = logger if logger is None else str(logger)[: limits.LOG_TAIL_LINE_CHARS]
        entry = LogEntry(time.time(), str(level)[:20], source, bounded_json(data), "server log", self._stderr_size())
        self.entries.append(entry)

    def note(self, level: str, text: str) -> None:
        """A note of anvia_nb's own about this connection (its source is ``client``)."""
        self.entries.append(LogEntry(time.time(), level, CLIENT_LOGGER, text, "client", self._stderr_size()))

    def add_sdk(self, level: str, logger: str, text: str) -> None:
        """One record of the SDK's own logging about this connection: masked, one line, cut, counted."""
        self.sdk_records += 1
        text = self.policy.line(text, limits.LOG_RECORD_CHARS)
        self.entries.append(LogEntry(time.time(), level, f"sdk {logger}", text, "client", self._stderr_size()))

    def _stderr_size(self) -> int | None:
        if self.stderr_path is None:
            return None
        try:
            return os.path.getsize(self.stderr_path)
        except OSError:
            return None

    def stderr_text(self, max_chars: int = 20_000) -> str:
        """The last ``max_chars`` characters of stderr, masked; ``""`` without a file."""
        path = self.stderr_path
        if not path or not os.path.exists(path):
            return ""
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - max_chars * 4))
            text = handle.read().decode("utf-8", errors="replace")
        return self.policy.mask(text[-max_chars:])

    def stderr_tail(self, lines: int = limits.LOG_TAIL_LINES, line_chars: int = limits.LOG_TAIL_LINE_CHARS) -> str:
        """The last ``lines`` non-blank lines of stderr, each masked, made visible and cut."""
        found = [line for line in self.stderr_text(lines * line_chars * 2).splitlines() if line.strip()]
        return "\n".join(self.policy.line(line, line_chars) for line in found[-lines:])

    def message_lines(self, count: int) -> list[str]:
        """The last ``count`` log messages as text, masked (not yet made visible or cut)."""
        return [self.policy.mask(entry.text()) for entry in list(self.entries)[-count:]]

    def rows(self, count: int, max_chars: int = 20_000) -> list[LogRow]:
        """The last ``count`` lines of stderr and log messages, merged in the order they were
        written as far as it is known (a stderr line written before a message arrived comes
        before it), masked (not yet made visible or cut)."""
        stderr: list[tuple[int, str]] = []
        path = self.stderr_path
        if path and os.path.exists(path):
            with open(path, "rb") as handle:
                size = handle.seek(0, os.SEEK_END)
                start = max(0, size - max_chars * 4)
                handle.seek(start)
                data = handle.read()
            self._saw(size, start)
            offset = start
            for raw in data.split(b"\n"):
                line = raw.decode("utf-8", errors="replace")
                if line.strip() and not (offset == start and start > 0):  # the first piece may be half a line
                    stderr.append((offset + len(raw), self.policy.mask(line)))
                offset += len(raw) + 1
        merged: list[tuple[int, int, LogRow]] = []
        for entry in list(self.entries):
            said = entry.data
            body = said if isinstance(said, str) else json.dumps(said, ensure_ascii=False, default=str)
            where = entry.stderr_offset if entry.stderr_offset is not None else 0
            row = LogRow(entry.time, entry.source, entry.level, entry.logger, self.policy.mask(body))
            merged.append((where, 1, row))
        merged.extend((end, 0, LogRow(self._written_by(end), "stderr", None, None, line)) for end, line in stderr)
        # A line that ended at or before the size seen when a message arrived was written before it.
        merged.sort(key=lambda item: (item[0], item[1]))
        return [row for _, _, row in merged][-count:] if count > 0 else []

    def _saw(self, size: int, window_start: int) -> None:
        """Note the stderr file's ``size`` now; forget sizes before the shown window (none is read)."""
        seen = self._seen_sizes
        if size > seen[-1][0]:
            seen.append((size, time.time()))
        while len(seen) > 1 and seen[1][0] <= window_start:
            del seen[0]

    def _written_by(self, end: int) -> float | None:
        """When stderr was first seen holding ``end`` bytes (a message's arrival counts too)."""
        times = [at for size, at in self._seen_sizes if size >= end]
        times += [e.time for e in list(self.entries) if e.stderr_offset is not None and e.stderr_offset >= end]
        return min(times, default=None)

    def remove(self) -> None:
        """Delete the stderr file, unless it is to be kept; idempotent."""
        path = self.stderr_path
        if path is None or self.keep:
            return
        with _files_lock:
            _files_to_remove.discard(path)
        with contextlib.suppress(OSError):
            os.remove(path)


def _new_stderr_file(name: str) -> str:
    directory = os.path.join(tempfile.gettempdir(), _DIRECTORY)
    os.makedirs(directory, exist_ok=True)
    handle, path = tempfile.mkstemp(prefix=f"{name}-", suffix=".stderr.log", dir=directory)
    os.close(handle)
    return path


def remove_all_log_files() -> None:
    """At interpreter exit: delete every stderr file not asked to be kept."""
    with _files_lock:
        paths = list(_files_to_remove)
        _files_to_remove.clear()
    for path in paths:
        with contextlib.suppress(OSError):
            os.remove(path)


def pending_log_files() -> frozenset[str]:
    """Stderr files that would be removed at exit (for tests)."""
    with _files_lock:
        return frozenset(_files_to_remove)


atexit.register(remove_all_log_files)
