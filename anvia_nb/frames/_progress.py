"""The progress line of a map in a notebook: one output, updated in place at a bounded rate."""

from __future__ import annotations

import time
from typing import Any

from anvia_nb.core.api.batch import MapRun
from anvia_nb.core.protocol.limits import MAP_PROGRESS_SECONDS
from anvia_nb.display.map_progress import MapProgress, progress_bundle
from anvia_nb.policy import ShowPolicy

__all__ = ["ProgressLine", "progress_wanted"]


def progress_wanted(progress: bool | None) -> bool:
    """``progress`` when given; by default, only inside a Jupyter kernel (never in scripts or workers)."""
    if progress is not None:
        return progress
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is a dependency
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


class ProgressLine:
    """One display output for the whole map, shown on the first update and then updated in place."""

    def __init__(self, target: str, policy: ShowPolicy | None = None) -> None:
        self.target = target
        self.policy = policy
        self._handle: Any = None
        self._last = 0.0
        self.updates = 0

    def update(self, run: MapRun, *, final: bool = False, stopped: bool = False) -> None:
        now = time.monotonic()
        if not final and now - self._last < MAP_PROGRESS_SECONDS:
            return
        self._last = now
        state = MapProgress(
            self.target,
            run.total,
            run.done,
            run.failed,
            run.elapsed,
            finished=final,
            stopped=stopped or run.stopped,
            client_busy=run.client_busy,
        )
        bundle = progress_bundle(state, self.policy)
        from IPython.display import display

        if self._handle is None:
            self._handle = display(bundle, raw=True, display_id=True)  # type: ignore[no-untyped-call]  # IPython: untyped display
        else:
            self._handle.update(bundle, raw=True)
        self.updates += 1
