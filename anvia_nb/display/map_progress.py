"""The one progress line of a map: done, failed, rate and time left, as a mime bundle.

Pure: counters in, a bundle out (text and HTML built by :mod:`anvia_nb.display._html`). The
tool's name is server text: it goes through the :class:`~anvia_nb.policy.ShowPolicy`, and the
outer element carries the not-math classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from anvia_nb.display._html import element
from anvia_nb.policy import NOT_MATH_CLASSES, ShowPolicy

__all__ = ["CLIENT_BOUND_SHARE", "MapProgress", "progress_bundle", "progress_text"]

CLIENT_BOUND_SHARE = 0.8
"""A map during which the client's process was on the CPU for more than this share of the time is
bound by the client, not by the tool: its progress line says so (more concurrency will not help)."""

_BAR_CELLS = 24


@dataclass(frozen=True)
class MapProgress:
    """Where a map stands: rows in all, rows finished (failed ones included), failed, seconds so far."""

    target: str
    total: int
    done: int
    failed: int
    seconds: float
    finished: bool = False
    stopped: bool = False
    client_busy: float = 0.0
    """The share of the time the client's process was on the CPU (``MapRun.client_busy``)."""


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def progress_text(progress: MapProgress, policy: ShowPolicy | None = None) -> str:
    """``demo.add [██████░░░░] 37/64 · 2 failed · 12.5 rows/s · about 2 s left``; a map whose client
    was on the CPU most of the time says it is ``bound by this client (93% CPU), not the tool``."""
    shown = policy or ShowPolicy()
    total = max(progress.total, 0)
    filled = _BAR_CELLS if total == 0 else round(_BAR_CELLS * progress.done / total)
    bar = "█" * filled + "░" * (_BAR_CELLS - filled)
    parts = [f"{shown.name(progress.target)} [{bar}] {progress.done}/{total}"]
    if progress.failed:
        parts.append(f"{progress.failed} failed")
    rate = progress.done / progress.seconds if progress.seconds > 0 else 0.0
    if progress.done:
        parts.append(f"{rate:.1f} rows/s")
    if progress.done and progress.client_busy >= CLIENT_BOUND_SHARE:
        parts.append(f"bound by this client ({progress.client_busy:.0%} CPU), not the tool")
    if progress.stopped:
        parts.append("stopped")
    elif progress.finished:
        parts.append(f"done in {_duration(progress.seconds)}")
    elif rate > 0:
        parts.append(f"about {_duration((total - progress.done) / rate)} left")
    return " · ".join(parts)


def progress_bundle(progress: MapProgress, policy: ShowPolicy | None = None) -> dict[str, Any]:
    """``text/plain`` and ``text/html`` of :func:`progress_text`."""
    text = progress_text(progress, policy)
    tone = "header-error" if progress.stopped else "header"
    html = element("div", element("span", "MCP map", style="badge"), element("span", text), style=tone)
    outer = element("div", html, cls=NOT_MATH_CLASSES)
    return {"text/plain": text, "text/html": outer.markup}
