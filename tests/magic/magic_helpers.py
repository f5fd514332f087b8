"""Helpers of the magic tests (imported by name: a module called ``conftest`` is ambiguous when
several folders' tests run together)."""

from __future__ import annotations

from typing import Any

from IPython.core.interactiveshell import InteractiveShell
from support import DEMO_STDIO

__all__ = ["DEMO_STDIO", "SHARED_DEMO", "connect_demo", "displayed", "run"]

SHARED_DEMO = "demo"


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
