"""The requests for input shown in a cell's output (no form runs the call), bounded by ``Limits.prompts``.

A call awaited in a cell (``await server.tool("t").call()``) shows its server's requests for input
in that cell. A hostile server can send thousands at once: at most ``limit`` wait for the person
at a time; while they all wait, a new request is cancelled before any widget is made for it, and
one line in the cell counts the cancelled ones. When a shown prompt is settled, room is made again,
and a later refusal starts a new counting line (in the cell running then).
"""

from __future__ import annotations

import threading
from typing import Any

from anvia_nb.widgets._chrome import show_in_cell, text_label
from anvia_nb.widgets.prompts.elicitation_prompt import ElicitationPrompt

__all__ = ["CellPrompts"]


class CellPrompts:
    """The prompts one session shows in cells, at most ``limit`` waiting at once."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.waiting: list[ElicitationPrompt] = []
        self.refused = 0
        """Requests cancelled, over the session's life, because ``limit`` prompts were waiting."""
        self.note: Any = None
        """The line counting the refusals since room was last made (``None`` before any)."""
        self._refused_here = 0
        self._lock = threading.Lock()

    def make_room(self) -> bool:
        """Whether one more prompt may be shown; when not, the refused request is counted."""
        with self._lock:
            self.waiting = [p for p in self.waiting if not p.answered]
            if len(self.waiting) < self.limit:
                self.note, self._refused_here = None, 0
                return True
            self.refused += 1
            self._refused_here += 1
            fresh = self.note is None
            if fresh:
                self.note = text_label(value="")
            note, count = self.note, self._refused_here
        plural = count != 1
        note.value = (
            f"{count} more request{'s' if plural else ''} for input {'were' if plural else 'was'} "
            f"cancelled: at most {self.limit} are shown at once; answer or cancel one to make room."
        )
        if fresh:
            show_in_cell(note)
        return False

    def show(self, prompt: ElicitationPrompt) -> None:
        with self._lock:
            self.waiting.append(prompt)
        show_in_cell(prompt)
