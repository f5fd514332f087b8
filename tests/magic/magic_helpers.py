"""Helpers of the magic tests (imported by name: a module called ``conftest`` is ambiguous when
several folders' tests run together)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from IPython.core.interactiveshell import InteractiveShell
from support import DEMO_STDIO

from anvia_nb.runtime import get_runtime

__all__ = ["DEMO_STDIO", "KEPT", "SHARED_DEMO", "connect_demo", "displayed", "kept_open", "open_kept", "run"]

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
    """Keep the connection ``name`` open between tests while in the block (a module fixture's
    body), and close it at the end."""
    KEPT.add(name)
    try:
        yield name
    finally:
        KEPT.discard(name)
        runtime = get_runtime()
        if name in runtime.names():
            runtime.close(name)


def open_kept(ip: InteractiveShell, name: str, options: str) -> bool:
    """``%mcp connect NAME OPTIONS`` unless ``name`` is open already (a test may have closed it, or
    its server died); whether it connected now."""
    runtime = get_runtime()
    if name in runtime.names() and runtime.server(name).is_open:
        return False
    run(ip, f"connect {name} {options}")
    return True
