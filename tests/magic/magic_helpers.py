"""Helpers of the magic tests (imported by name: a module called ``conftest`` is ambiguous when
several folders' tests run together)."""

from __future__ import annotations

from typing import Any

from IPython.core.interactiveshell import InteractiveShell
from support import DEMO_STDIO

__all__ = ["DEMO_STDIO", "SHARED_DEMO", "connect_demo", "run"]

SHARED_DEMO = "demo"


def run(ip: InteractiveShell, line: str) -> Any:
    """``%mcp LINE`` and its value."""
    return ip.run_line_magic("mcp", line)


def connect_demo(ip: InteractiveShell, name: str = "demo", options: str = "") -> None:
    run(ip, f"connect {name} {options} {DEMO_STDIO}")
