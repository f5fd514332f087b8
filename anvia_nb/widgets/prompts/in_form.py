"""The requests for input a form shows while its call runs, bounded by ``Limits.prompts``.

A hostile server can send thousands of elicitation requests in one call. A form shows at most
``limit`` at once: an answered prompt makes way for a new one; when every shown prompt still waits
for the person, the new request is refused before any widget is made for it (the server gets a
cancel), and the form counts the refused ones in one line.
"""

from __future__ import annotations

import threading

import ipywidgets as widgets

from anvia_nb.widgets._chrome import text_label
from anvia_nb.widgets.prompts.elicitation_prompt import ElicitationPrompt

__all__ = ["FormPrompts"]


class FormPrompts:
    """``box`` holds the prompts shown; ``note`` says how many requests were refused."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.box = widgets.VBox([])
        self.note = text_label(value="", layout=widgets.Layout(display="none"))
        self.shown: list[ElicitationPrompt] = []
        self.refused = 0
        self._lock = threading.Lock()

    def clear(self) -> None:
        """A new call starts: nothing shown, nothing refused."""
        with self._lock:
            self.shown, self.refused = [], 0
            self.box.children = ()
            self.note.value, self.note.layout.display = "", "none"

    def make_room(self) -> bool:
        """Whether one more prompt may be shown; when not, the refused request is counted."""
        with self._lock:
            if len(self.shown) < self.limit:
                return True
            settled = next((p for p in self.shown if p.answered), None)
            if settled is not None:
                self.shown.remove(settled)
                self.box.children = tuple(p.widget for p in self.shown)
                return True
            self.refused += 1
            plural = self.refused != 1
            self.note.value = (
                f"{self.refused} more request{'s' if plural else ''} for input "
                f"{'were' if plural else 'was'} cancelled: this form shows at most "
                f"{self.limit} at once."
            )
            self.note.layout.display = None
            return False

    def show(self, prompt: ElicitationPrompt) -> None:
        with self._lock:
            self.shown.append(prompt)
            self.box.children = tuple(p.widget for p in self.shown)

    def cancel_waiting(self, note: str) -> None:
        """The call ended: every prompt still waiting says so (nothing is sent)."""
        with self._lock:
            shown, self.shown = self.shown, []
        for prompt in shown:
            prompt.cancel(note)
