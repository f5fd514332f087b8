"""The live view of a call running in the background: ``%mcp call --background`` returns it.

It shows the call's status line (:func:`anvia_nb.display.background.background_html`: status,
task id, status message, progress, time), updated as the server reports, a Cancel button, and
the result view once the call is done. Nothing keeps the cell busy: the call runs on the
connection's loop and the view is updated from there (widget values only, never the cell's
output). ``view.cancel()`` does what the button does; ``view.result`` is the
:class:`~anvia_nb.display.ResultView` once done; ``view.call`` the core handle.
"""

from __future__ import annotations

import threading
from typing import Any

from anvia_nb._passthrough import Passthrough
from anvia_nb.core.api.tasks import BackgroundCall
from anvia_nb.display import RenderSettings, ResultView
from anvia_nb.display.background import background_html, background_text
from anvia_nb.widgets.viewer_page import page_settings

__all__ = ["BackgroundCallView"]


def _display_data(bundle: dict[str, Any]) -> dict[str, Any]:
    return {"output_type": "display_data", "data": bundle, "metadata": {}}


class BackgroundCallView:
    """A background call's status, Cancel button and result, as one widget."""

    status = Passthrough[str]("call.status", "The call's status now, as the line above the button says it.")
    done = Passthrough[bool]("call.done", "Whether the call has ended (its result view is then shown).")

    def __init__(self, call: BackgroundCall, settings: RenderSettings | None = None) -> None:
        import ipywidgets as widgets

        self.call = call
        self.settings = page_settings(settings)  # the kernel's viewer switch, however it was built
        self.result: ResultView | None = None
        self._lock = threading.Lock()
        self.status_line = widgets.HTML()
        self.cancel_button = widgets.Button(description="Cancel", button_style="warning", icon="stop")
        self.cancel_button.on_click(lambda _button: self.cancel())
        self.output = widgets.Output()
        self.widget = widgets.VBox([widgets.HBox([self.status_line, self.cancel_button]), self.output])
        self._stop = call.on_change(self._update)

    # -- what a person and Python use --------------------------------------------------------

    def cancel(self) -> bool:
        """Cancel the call (a task is cancelled on the server with ``tasks/cancel``)."""
        return self.call.cancel()

    def wait(self, timeout_seconds: float | None = None) -> ResultView:
        """Block until the call is done (from the kernel's thread) and return its result view."""
        outcome = self.call.result(timeout_seconds)
        return self.result if self.result is not None else ResultView(outcome, self.settings)

    def text(self) -> str:
        return background_text(self.call.state(), self.settings.policy())

    def __repr__(self) -> str:
        return self.text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = dict(self.widget._repr_mimebundle_(**kwargs))
        bundle["text/plain"] = self.text()
        return bundle

    # -- updates, from the loop's thread -----------------------------------------------------

    def _update(self, call: BackgroundCall) -> None:
        with self._lock:
            self.status_line.value = background_html(call.state(), self.settings.policy())
            self.cancel_button.disabled = call.done or call.cancel_requested
            if call.done and call.outcome is not None and self.result is None:
                self.result = ResultView(call.outcome, self.settings)
                self.output.outputs = (_display_data(self.result._repr_mimebundle_()),)
