"""Helpers of the magic tests (imported by name: a module called ``conftest`` is ambiguous when
several folders' tests run together)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.core import McpServer
from anvia_nb.errors import AnviaError
from anvia_nb.runtime import get_runtime
from tests.helpers.support import DEMO_STDIO
from tests.helpers.waiting import WAIT_SECONDS

__all__ = [
    "DEMO_STDIO",
    "KEPT",
    "SHARED_DEMO",
    "Fresh",
    "answers",
    "connect_demo",
    "displayed",
    "kept_open",
    "open_kept",
    "run",
]

SHARED_DEMO = "demo"

KEPT: set[str] = set()
"""Connections several tests share (the ``demo`` fixture's, a module's own): the ``ip`` fixture
closes every other connection before and after each test, and leaves these open."""


def run(ip: InteractiveShell, line: str) -> Any:
    """``%mcp LINE`` and its value."""
    return ip.run_line_magic("mcp", line)


def displayed(ip: InteractiveShell, line: str) -> tuple[Any, list[dict[str, Any]]]:
    """``%mcp LINE``, its value and the mime bundles it displayed in the cell (notices)."""
    from IPython.utils.capture import capture_output

    with capture_output() as captured:
        value = run(ip, line)
    return value, [dict(output.data) for output in captured.outputs]


def connect_demo(ip: InteractiveShell, name: str = "demo", options: str = "") -> None:
    run(ip, f"connect {name} {options} {DEMO_STDIO}")


@contextmanager
def kept_open(name: str) -> Iterator[str]:
    """Keep the connection ``name`` open between tests while in the block (a module or session
    fixture's body), and close it at the end."""
    KEPT.add(name)
    try:
        yield name
    finally:
        KEPT.discard(name)
        runtime = get_runtime()
        if name in runtime.names():
            runtime.close(name)


def open_kept(ip: InteractiveShell, name: str, options: str, alive: Callable[[McpServer], bool] | None = None) -> bool:
    """``%mcp connect NAME OPTIONS`` unless ``name`` is open already and, when ``alive`` is given,
    ``alive(server)`` (a test may have closed it, or its server died: a connection whose server
    died still counts as open until it is closed); whether it connected now."""
    runtime = get_runtime()
    if name in runtime.names() and runtime.server(name).is_open:
        if alive is None or alive(runtime.server(name)):
            return False
        runtime.close(name)
    run(ip, f"connect {name} {options}")
    return True


def answers(server: McpServer) -> bool:
    """Whether the demo server behind ``server`` still answers a call (not recorded in the history)."""
    try:
        get_runtime().run(server.client.call_tool("echo", {"message": "still there?"}, timeout_seconds=WAIT_SECONDS))
    except AnviaError:
        return False
    return True


@dataclass(frozen=True)
class Fresh:
    """What a test may change on a shared connection, as it was before the test.

    :meth:`put_back` restores what can be restored; what cannot (a subscription or its counted
    updates, a changed tool list) means the connection must be opened again for the next test."""

    elicitation: Any
    sampling: Any
    tools: tuple[str, ...]

    @classmethod
    def of(cls, server: McpServer) -> Fresh:
        client = server.client
        return cls(client.elicitation_handler, client.sampling_handler, tuple(t.name for t in server.tools))

    def put_back(self, server: McpServer) -> bool:
        """Put the handlers back and forget the listings read and the links offered, as a fresh
        connection has; whether the connection is as good as fresh now."""
        client = server.client
        client.set_elicitation_handler(self.elicitation)
        client.set_sampling_handler(self.sampling)
        server.listings.clear()
        server.offered_links.clear()
        subscriptions = server.subscriptions
        return (
            server.is_open
            and not subscriptions.subscribed
            and not subscriptions.updates()
            and not server.changes.pending
            and not server.changes.counts
            and tuple(t.name for t in server.tools) == self.tools
        )
