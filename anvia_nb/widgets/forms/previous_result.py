"""The note over a form's last result once the form no longer holds the arguments it was called
with: a person who changes a value (and sees Call refused for a bad one) must not read the old
result as the answer to the new values. The result stays, so it can still be compared; the note
says whose it is, with the arguments that call sent (masked and bounded by the form's policy)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from anvia_nb.widgets.fields.leaf import wrapped_html
from anvia_nb.widgets.forms.argument_memory import remembered_arguments

if TYPE_CHECKING:
    from anvia_nb.widgets.forms.tool_form import ToolForm

__all__ = ["PreviousResult"]

_GREY = "#5f6b77"


class PreviousResult:
    """The note (``.note``, hidden while the result matches the form) of one :class:`ToolForm`."""

    def __init__(self, form: ToolForm) -> None:
        self.form = form
        self.note = widgets.HTML("", layout=widgets.Layout(display="none"))
        self.text = ""
        """The note as plain text (``""`` while hidden)."""

    def sent(self) -> dict[str, Any] | None:  # any: JSON
        """The arguments of the call whose result (or error) the form shows, else ``None``."""
        form = self.form
        if form.last_outcome is not None and form.last_error is None:
            return dict(form.last_outcome.arguments or {})
        if form.last_error is not None:
            return remembered_arguments(form.server_name, form.tool_name)
        return None

    def update(self) -> None:
        """Show or hide the note for the form as it is now (called on each of its changes)."""
        form = self.form
        sent = None if form.running else self.sent()
        same = sent is not None and form.arguments.valid and form.arguments.value == sent
        if sent is None or same:
            self.text, self.note.value, self.note.layout.display = "", "", "none"
            return
        shown = form.policy.line(json.dumps(sent, ensure_ascii=False), form.policy.limits.line_chars)
        why = "Call is refused for these values" if not form.arguments.valid else "these values are not sent yet"
        self.text = f"Below: the previous call's result, for {shown} ({why})."
        self.note.value = wrapped_html(self.text, _GREY)
        self.note.layout.display = None
