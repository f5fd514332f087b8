"""A schema's ``pattern`` evaluated with a bounded cost.

Patterns come from servers, and a pattern like ``^(a|aa)+$`` against a long string makes a
backtracking engine run for years: that would freeze the kernel, since checks run in it. The
``regex`` package's matcher takes a timeout; a search that does not finish in time (or a
pattern it cannot compile) gives ``None``, "could not check", which the caller reports without
refusing anything: the server still judges its own arguments.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any

from anvia_nb.core.protocol import limits

__all__ = ["search"]


@lru_cache(maxsize=512)
def _compiled(pattern: str) -> Any:
    engine: Any = importlib.import_module("regex")
    try:
        return engine.compile(pattern)
    except (engine.error, ValueError, TypeError, RecursionError, OverflowError):
        return None


def search(pattern: str, text: str) -> bool | None:
    """Whether ``pattern`` matches somewhere in ``text`` (JSON Schema's rule), or ``None`` when
    that cannot be decided within :data:`~anvia_nb.core.protocol.limits.PATTERN_TIMEOUT_SECONDS`
    (or the pattern does not compile)."""
    compiled = _compiled(pattern)
    if compiled is None:
        return None
    try:
        return compiled.search(text, timeout=limits.PATTERN_TIMEOUT_SECONDS) is not None
    except (TimeoutError, RecursionError, MemoryError):
        return None
