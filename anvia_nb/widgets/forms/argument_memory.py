"""The arguments last sent from a form, per (server, tool), for the kernel's life.

A new form for the same tool starts from them instead of the schema's defaults.
"""

from __future__ import annotations

import copy
import threading
from typing import Any

__all__ = ["forget_arguments", "remember_arguments", "remembered_arguments"]

_remembered: dict[tuple[str, str], dict[str, Any]] = {}
_remembered_lock = threading.Lock()


def remembered_arguments(server: str, tool: str) -> dict[str, Any] | None:
    """The arguments last sent to ``server.tool`` from a form in this kernel, or ``None``."""
    with _remembered_lock:
        found = _remembered.get((server, tool))
    return copy.deepcopy(found) if found is not None else None


def forget_arguments() -> None:
    """Forget every remembered argument set (new forms start from the schema's defaults)."""
    with _remembered_lock:
        _remembered.clear()


def remember_arguments(server: str, tool: str, arguments: dict[str, Any]) -> None:
    """Remember ``arguments`` as the last sent to ``server.tool`` (a deep copy)."""
    with _remembered_lock:
        _remembered[(server, tool)] = copy.deepcopy(arguments)
