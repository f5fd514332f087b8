"""Fixtures shared by every test: the bundled demo server over stdio and loopback HTTP, and
process accounting for leak checks. Every process started here is stopped here."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

DEMO_ARGS = ["-m", "anvia_nb.demo_server"]
LISTENING_PREFIX = "anvia demo server listening on "
START_TIMEOUT_SECONDS = 30.0


def child_pids(parent: int | None = None) -> set[int]:
    """Live (non-zombie) descendants of ``parent`` (default: this process), read from /proc."""
    parent = os.getpid() if parent is None else parent
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        state, ppid = fields[0], int(fields[1])
        if state != "Z":
            children.setdefault(ppid, []).append(int(entry.name))
    found: set[int] = set()
    todo = [parent]
    while todo:
        for pid in children.get(todo.pop(), []):
            if pid not in found:
                found.add(pid)
                todo.append(pid)
    return found


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (checked by pid: an orphan is re-parented)."""
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.fixture(name="pid_alive")
def pid_alive_fixture() -> Callable[[int], bool]:
    return pid_alive


@pytest.fixture
def live_children() -> Callable[..., set[int]]:
    """``live_children()``: this process's live descendants; ``live_children(pid)``: another's."""
    return child_pids


def wait_until(predicate: Callable[[], bool], timeout_seconds: float = 30.0, what: str = "condition") -> None:
    """Poll ``predicate`` until true, failing after a bounded time (no fixed sleeps)."""
    deadline = time.monotonic() + timeout_seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_seconds}s waiting for {what}")
        time.sleep(0.02)


@pytest.fixture
def eventually() -> Callable[..., None]:
    return wait_until


class HttpDemo:
    """A demo server process on 127.0.0.1 with a free port."""

    def __init__(self, *extra: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, *DEMO_ARGS, "--http", "--port", "0", *extra],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        lines: queue.Queue[str] = queue.Queue()
        assert self.process.stderr is not None
        stderr = self.process.stderr

        def pump() -> None:
            for line in stderr:
                lines.put(line)

        threading.Thread(target=pump, daemon=True).start()
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        self.url = ""
        while not self.url:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.process.poll() is not None:
                self.stop()
                raise RuntimeError("the demo HTTP server did not announce its URL")
            try:
                line = lines.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                continue
            if line.startswith(LISTENING_PREFIX):
                self.url = line[len(LISTENING_PREFIX) :].strip()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


@pytest.fixture(scope="session")
def demo_http_url() -> Iterator[str]:
    """URL of one demo server over streamable HTTP, shared by the session."""
    server = HttpDemo()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def http_demo_factory() -> Iterator[Callable[..., HttpDemo]]:
    """Start extra demo HTTP servers (e.g. with ``--require-header``); all stopped after the test."""
    started: list[HttpDemo] = []

    def start(*extra: str) -> HttpDemo:
        server = HttpDemo(*extra)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def unused_port() -> int:
    """A port on 127.0.0.1 that nothing listens on."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the real-browser tests last: Playwright's sync API leaves its event loop set on the
    main thread while its session-scoped browser lives, which breaks every asyncio test after it."""
    items.sort(key=lambda item: "browser" in item.keywords or "/browser/" in str(item.path))
