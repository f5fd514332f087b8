"""A running call's progress in a form: a bar that fills as the server reports progress
(``progress/total``, or a count when it gives no total) and the server's message beside it, masked
and cut to a line."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets

from anvia_nb.display.chrome import LINE_CHARS
from anvia_nb.widgets._chrome import plain, text_label

__all__ = ["CallProgress"]


class CallProgress:
    """The bar (``bar``) and the message line (``message``) of one form's call; ``widget`` shows both."""

    def __init__(self) -> None:
        self.bar = widgets.FloatProgress(
            value=0.0, min=0.0, max=1.0, description="", layout=widgets.Layout(display="none")
        )
        self.message = text_label(value="")
        self.widget = widgets.HBox([self.bar, self.message])

    def start(self) -> None:
        """A new call: the bar empty and hidden, the message "Calling…"."""
        self.bar.value, self.bar.max, self.bar.bar_style = 0.0, 1.0, ""
        self.bar.description = ""
        self.bar.layout.display = "none"
        self.message.value = "Calling…"

    def show(self, progress: float, total: float | None, message: str | None, secrets: Sequence[str]) -> None:
        """One progress notification: the bar shows ``progress`` of ``total`` (without a total it
        counts), and the server's ``message`` beside it (``secrets`` masked)."""
        if total is not None and total > 0:
            self.bar.max = float(total)
            self.bar.description = f"{progress:g}/{total:g}"
        else:
            self.bar.max = max(float(progress), self.bar.max, 1.0)
            self.bar.description = f"{progress:g}"
        self.bar.value = min(float(progress), self.bar.max)
        self.bar.layout.display = None
        self.message.value = plain(message, secrets, LINE_CHARS) if message else ""
