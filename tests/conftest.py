"""Fixtures shared by every test: the bundled demo server over loopback HTTP, a fresh runtime,
process accounting for leak checks and the asyncio backend. Every process started
here is stopped here. Plain helpers (not fixtures) live in tests/helpers/."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

from tests.helpers.support import (
    DEMO_ARGS,
    FORKED_SERVERS,
    FORKS_PRELOAD,
    FORKS_SOCKET,
    QUICK_EXAMPLES,
    child_pids,
    pid_alive,
)
from tests.helpers.waiting import wait_until

if TYPE_CHECKING:  # imported by the fixtures that use them, so collecting tests loads neither
    from anvia_nb.runtime import Runtime
    from tests.helpers.oauth_server import OAuthTestServer


@pytest.fixture(scope="session", autouse=True)
def interrupts_raise_keyboard_interrupt() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt in the main thread, as in every Jupyter kernel, even when
    the suite was started as a background job (which inherits SIGINT ignored): the interrupt
    tests send SIGINT to this process and expect what a kernel's interrupt does."""
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if previous is not None:  # None: a handler installed outside Python, which cannot be restored
        signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="session", autouse=True)
def server_forks() -> Iterator[None]:
    """The fork server behind ``DEMO_ARGS`` and ``forked(...)`` (see tests/helpers/support.py), for this pytest
    process; every server forked from it is killed when it stops. Linux only (it watches processes
    through pidfds): elsewhere each launcher starts its server afresh."""
    from tests.helpers.server_forks import ServerForks

    if not hasattr(os, "pidfd_open"):
        yield
        return
    with ServerForks(FORKED_SERVERS, FORKS_PRELOAD, where=FORKS_SOCKET):
        yield


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio, the loop Jupyter kernels use."""
    return "asyncio"


@pytest.fixture(name="pid_alive")
def pid_alive_fixture() -> Callable[[int], bool]:
    return pid_alive


@pytest.fixture
def live_children() -> Callable[..., set[int]]:
    """``live_children()``: this process's live descendants; ``live_children(pid)``: another's."""
    return child_pids


@pytest.fixture
def runtime() -> Iterator[Runtime]:
    """A fresh runtime with no connection, shut down (every session closed, its loop stopped) afterwards.

    Forms remember their last arguments per tool; that memory is cleared before and after."""
    from anvia_nb.runtime import Runtime
    from anvia_nb.widgets.forms.tool_form import forget_arguments

    forget_arguments()
    rt = Runtime()
    try:
        yield rt
    finally:
        rt.shutdown()
        forget_arguments()


class HttpDemo:
    """A demo server process on 127.0.0.1 with a free port."""

    def __init__(self, *extra: str) -> None:
        from anvia_nb.demo_server.server import LISTENING_PREFIX

        self.process = subprocess.Popen(
            [sys.executable, *DEMO_ARGS, "--http", "--port", "0", *extra],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        announced: list[str] = []
        assert self.process.stderr is not None
        stderr = self.process.stderr

        def pump() -> None:  # reads stderr to its end, so the pipe never fills
            for line in stderr:
                if not announced and line.startswith(LISTENING_PREFIX):
                    announced.append(line[len(LISTENING_PREFIX) :].strip())

        threading.Thread(target=pump, daemon=True).start()
        try:
            wait_until(lambda: announced or self.process.poll() is not None, "the demo HTTP server to announce its URL")
        finally:
            if not announced:
                self.stop()
        if not announced:
            raise RuntimeError("the demo HTTP server exited before it announced its URL")
        self.url = announced[0]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


@pytest.fixture(scope="session")
def demo_http_url(server_forks: None) -> Iterator[str]:
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
def oauth_server() -> Iterator[OAuthTestServer]:
    """The OAuth-protected MCP test server (tests/helpers/oauth_server.py), stopped after the test."""
    from tests.helpers.oauth_server import OAuthTestServer

    server = OAuthTestServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def token_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where tokens are cached for the test (``ANVIA_NB_OAUTH_DIR``), empty at first."""
    directory = tmp_path / "oauth"
    monkeypatch.setenv("ANVIA_NB_OAUTH_DIR", str(directory))
    return directory


@pytest.fixture
def unused_port() -> int:
    """A port on 127.0.0.1 that nothing listens on, and that no other server in the run is given."""
    from tests.helpers.ports import free_port

    return free_port()


settings.register_profile("quick", max_examples=QUICK_EXAMPLES)


def pytest_configure(config: pytest.Config) -> None:
    """A run that leaves the slow tests out (the quick set: ``scripts/test --quick``, or any
    ``-m "not slow"``) tries each property on fewer examples (``support.examples``); the full suite
    tries each test's own count."""
    if "not slow" in (config.getoption("markexpr") or ""):
        settings.load_profile("quick")


def _is_browser(item: pytest.Item) -> bool:
    return "browser" in item.keywords or "/browser/" in str(item.path)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the real-browser tests last: Playwright's sync API leaves its event loop set on the
    main thread while its session-scoped browser lives, which breaks every asyncio test after it.

    Under pytest-xdist (``--dist loadfile --no-loadscope-reorder``, as scripts/test runs it) a file
    goes whole to one worker, so a notebook's cells run in order in one kernel, and files are handed
    out in this order, so a worker's browser files come after all its others."""
    items.sort(key=_is_browser)
