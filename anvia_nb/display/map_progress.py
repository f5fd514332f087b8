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

__all__ = ["MapProgress", "progress_bundle", "progress_text"]

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


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def progress_text(progress: MapProgress, policy: ShowPolicy | None = None) -> str:
    """``demo.add [██████░░░░] 37/64 · 2 failed · 12.5 rows/s · about 2 s left``."""
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
