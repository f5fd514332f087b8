"""What a call's outcome keeps of its progress notifications (:class:`ProgressKept`), and how server
data quoted in a call's error message is cut (:func:`short`); both for :mod:`~anvia_nb.core.api.tool`."""

from __future__ import annotations

import collections

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import ProgressHandler

__all__ = ["ProgressKept", "short"]


def short(text: str, limit: int = 200) -> str:
    """Server data quoted in an error message, cut: the whole of it stays on the error object."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more characters)"


class ProgressKept:
    """What a call's outcome keeps of its progress notifications: the last ``PROGRESS_KEPT``, their
    count, each told to the caller's ``on_progress`` too. ``record`` is the call's handler: a bound
    method, not a closure with three cells and a deque made whether progress comes or not, so a
    call in flight holds fewer objects for the collector (benchmarks/README.md, *The per-call
    path, fourth pass*)."""

    __slots__ = ("count", "on_progress", "received")

    def __init__(self, on_progress: ProgressHandler | None) -> None:
        self.on_progress = on_progress
        self.count = 0
        self.received: collections.deque[tuple[float, float | None, str | None]] | tuple[()] = ()

    async def record(self, progress: float, total: float | None, message: str | None) -> None:
        """One progress notification, kept (its message cut) and told to ``on_progress``."""
        self.count += 1
        if isinstance(self.received, tuple):  # the first: made only when progress comes
            self.received = collections.deque(maxlen=limits.PROGRESS_KEPT)
        said = short(message, limits.PROGRESS_MESSAGE_CHARS) if message is not None else None
        self.received.append((progress, total, said))
        if self.on_progress is not None:
            await self.on_progress(progress, total, message)
