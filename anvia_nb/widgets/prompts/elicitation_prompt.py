"""``ElicitationPrompt``: one request for input as a person sees it: who asks, the server's
message, a form from the requested schema (or the URL, as text), and Accept, Decline, Cancel.

Accept sends the form's value together with the request's ``default`` of every field left out
(SEP-1034, the transport's rule: :mod:`anvia_nb.core.protocol.elicitation`), and stays disabled while a
field has a problem or a required one is empty. The prompt settles once; nothing is sent before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from anvia_nb.core.protocol.elicitation import with_defaults
from anvia_nb.display.chrome import notice_html, request_header_html, server_text_html
from anvia_nb.widgets._chrome import plain, required_but_empty, text_bundle, text_label
from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
from anvia_nb.widgets.fields.leaf import wrapping_view

__all__ = ["ElicitationPrompt"]


class ElicitationPrompt:
    """One request shown to a person: provenance, the server's message, a form, three buttons.

    ``answer`` stays ``None`` until the person (or :meth:`accept`/:meth:`decline`/:meth:`cancel`,
    or a timeout) settles it; each settles it once, and the buttons are then disabled.
    """

    def __init__(self, request: Mapping[str, Any], *, secrets: tuple[str, ...] = (), in_cell: bool = False) -> None:
        self.request = dict(request)
        self.server = str(request.get("server", "?"))
        self.mode = "url" if request.get("mode") == "url" else "form"
        self.secrets = secrets
        self.answer: dict[str, Any] | None = None
        self._callbacks: list[Callable[[dict[str, Any]], None]] = []
        self._lock = threading.Lock()
        parts: list[Any] = [widgets.HTML(request_header_html(self.server, self.mode, secrets))]
        message = request.get("message")
        if isinstance(message, str) and message:
            parts.append(
                widgets.HTML(server_text_html(f"message from server {plain(self.server, secrets)}", message, secrets))
            )
        self.form: ArgumentsForm | None = None
        if self.mode == "form":
            schema = request.get("requestedSchema")
            self.form = ArgumentsForm(
                schema=schema if isinstance(schema, dict) else {"type": "object"}, secrets=secrets
            )
            self.form.on_change(lambda _form: self._refresh())
            parts.append(self.form.widget)
        else:
            url = request.get("url")
            parts.append(
                widgets.HTML(
                    server_text_html(
                        "URL sent by the server (not opened, not fetched)",
                        url if isinstance(url, str) else repr(url),
                        secrets,
                    )
                )
            )
            parts.append(
                widgets.HTML(
                    notice_html(
                        "anvia_nb never opens this link. Copy it into a browser yourself only if you trust it, "
                        "then press Accept; or Decline."
                    )
                )
            )
        self.accept_button = widgets.Button(description="Accept", button_style="success", icon="check")
        self.decline_button = widgets.Button(description="Decline", icon="times")
        self.cancel_button = widgets.Button(description="Cancel", icon="ban")
        self.accept_button.on_click(lambda _b: self.accept())
        self.decline_button.on_click(lambda _b: self.decline())
        self.cancel_button.on_click(lambda _b: self.cancel())
        self.reason = text_label(value="")
        self.status = text_label(value="Waiting for your choice.")
        if in_cell:
            parts.append(
                widgets.HTML(
                    notice_html(
                        "If the buttons do not respond, the cell is blocked in a synchronous call: "
                        "call from a form or with await instead."
                    )
                )
            )
        parts += [
            widgets.HBox([self.accept_button, self.decline_button, self.cancel_button]),
            wrapping_view(self.reason),
            self.status,
        ]
        self.widget = widgets.VBox(
            parts, layout=widgets.Layout(border="2px solid #c77700", padding="4px", margin="4px 0")
        )
        self._refresh()

    @property
    def answered(self) -> bool:
        return self.answer is not None

    def on_answer(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """Call ``callback(answer)`` once the prompt is settled (at once if it already is)."""
        with self._lock:
            if self.answer is None:
                self._callbacks.append(callback)
                return
            answer = self.answer
        callback(answer)

    @property
    def problems(self) -> list[str]:
        """Why Accept is disabled now: the form's problems, then required fields left empty."""
        if self.form is None:
            return []
        problems = self.form.problems
        if problems or self.form.json_mode:  # JSON mode is the way to send an explicit ""
            return problems
        required = self.form.schema.get("required")
        names = [name for name in required if isinstance(name, str)] if isinstance(required, list) else []
        return required_but_empty(self.form.value, names, self.secrets)

    def content(self) -> dict[str, Any]:
        """What Accept sends: the form's value, plus the request's ``default`` of every field it
        leaves out (SEP-1034)."""
        if self.form is None:
            return {}
        answer = with_defaults(self.request, {"action": "accept", "content": self.form.value})
        content: dict[str, Any] = answer.get("content", {})
        return content

    def accept(self) -> None:
        """Send what the form holds with the request's defaults (it must be valid and every required
        field filled); in URL mode, say the person went there."""
        if self.form is not None:
            if self.problems:
                self._refresh()
                return
            self._settle({"action": "accept", "content": self.content()}, "You accepted; the answer was sent.")
        else:
            self._settle({"action": "accept"}, "You accepted.")

    def decline(self) -> None:
        self._settle({"action": "decline"}, "You declined; the server was told.")

    def cancel(self, note: str = "You cancelled; the server was told.") -> None:
        self._settle({"action": "cancel"}, note)

    def _settle(self, answer: dict[str, Any], note: str) -> None:
        with self._lock:
            if self.answer is not None:
                return
            self.answer = answer
            callbacks, self._callbacks = self._callbacks, []
        self.status.value = note
        self.reason.value = ""
        for button in (self.accept_button, self.decline_button, self.cancel_button):
            button.disabled = True
        if self.form is not None:
            self.form.widget.layout.display = "none"
        for callback in callbacks:
            callback(answer)

    def _refresh(self) -> None:
        if self.answer is not None or self.form is None:
            return
        problems = self.problems
        self.accept_button.disabled = bool(problems)
        summary = self.form.summary if self.form.problems else problems[0] if problems else ""
        self.reason.value = f"Cannot accept yet: {summary}" if problems else ""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return text_bundle(
            self.widget,
            f"anvia_nb prompt: server {plain(self.server, self.secrets)} asks for "
            f"input ({self.mode} mode); answered only with a live kernel and ipywidgets.",
            **kwargs,
        )
