"""The fields that hold one value: text, number, date and boolean (a choice and a multiple choice
in :mod:`~anvia_nb.widgets.fields.choices`).

:class:`FieldWidget` is the base of every field (also of the groups in ``fields``): the control,
its label, help text, null box and message line (problems and hints, given by the form), and
reading back an :class:`Entry`. Every server string a field shows passes through
:func:`~anvia_nb.widgets._chrome.plain` first; what is shown as HTML is escaped.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import date
from typing import Any

import ipywidgets as widgets

from anvia_nb.display.chrome import DESCRIPTION_CHARS, LINE_CHARS, NAME_CHARS, policy_of
from anvia_nb.widgets._chrome import FIELD_LABEL_WIDTH, plain, text_label
from anvia_nb.widgets.spec import Entry, FieldSpec, Path, example_json

__all__ = [
    "HELP_CHARS",
    "LABEL_CHARS",
    "PROBLEM_CHARS",
    "UNSET_LABEL",
    "BooleanField",
    "DateField",
    "FieldWidget",
    "default_note",
    "text_field",
    "unset_label",
    "wrapped_html",
    "wrapping_view",
]

LABEL_CHARS = NAME_CHARS
"""The most a field's name label or one choice's label shows of the server's text."""
HELP_CHARS = DESCRIPTION_CHARS
"""The most a field's description (help line, tooltip) shows."""
PROBLEM_CHARS = LINE_CHARS
"""The most a field's problem line shows (it may quote a pattern, an enum, the typed value)."""
UNSET_LABEL = "(not set)"
_ROW = widgets.Layout(flex_flow="row wrap", max_width="100%")
"""The one layout of every field's row (label, control, null box): shared, never changed."""
_PLACEHOLDERS = {
    "email": "name@example.com",
    "uri": "https://…",
    "date": "YYYY-MM-DD",
    "date-time": "YYYY-MM-DDTHH:MM:SS",
    "time": "HH:MM:SS",
}


def _hint(spec: FieldSpec) -> str:
    """A placeholder that says what to type: the format, the number kind and its range, the shape
    of the JSON; and the default the server applies when the field is left out."""
    c = spec.constraints
    if spec.kind in {"number", "integer"}:
        parts: list[str] = [spec.kind]
        low = c.minimum if c.minimum is not None else c.exclusive_minimum
        high = c.maximum if c.maximum is not None else c.exclusive_maximum
        if low is not None:
            parts.append(f"{'≥' if c.minimum is not None else '>'} {low:g}")
        if high is not None:
            parts.append(f"{'≤' if c.maximum is not None else '<'} {high:g}")
        text = " ".join(parts)
    elif spec.kind == "json":
        text = example_json(spec.schema) if spec.schema is not None else "JSON"
    else:
        text = _PLACEHOLDERS.get(c.format or "", "")
    note = default_note(spec)
    return f"{note}  ({text})" if note and text else note or text


def default_note(spec: FieldSpec) -> str:
    """``"server default: 10"`` for an optional field whose default is not sent (else ``""``)."""
    if not spec.has_default or spec.required:
        return ""
    return f"server default: {json.dumps(spec.default, ensure_ascii=False)}"


def wrapped_html(text: str, color: str = "") -> str:
    """Plain text (already masked and bounded) as escaped HTML that wraps instead of clipping."""
    style = "white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.3;font-size:12px"
    not_math = "tex2jax_ignore mathjax_ignore"  # MathJax leaves server text alone
    return f'<div class="{not_math}" style="{style};{f"color:{color}" if color else ""}">{html.escape(text)}</div>'


def wrapping_view(label: Any) -> Any:  # any: ipywidgets is untyped
    """What to show for a one-line ``Label``: its text as wrapped HTML, kept in step with it.

    A Label never wraps (ipywidgets cuts it with an ellipsis and it cannot be styled otherwise),
    so a long "Cannot call yet: …" was clipped. The Label stays the plain-text value callers read.
    """
    view = widgets.HTML(value=wrapped_html(label.value), layout=widgets.Layout(max_width="100%"))
    label.observe(lambda change: setattr(view, "value", wrapped_html(change["new"])), names="value")
    return view


class FieldWidget:
    """The control(s) for one field, with its label, help text, null box and problem line.

    ``widget`` is what to display; ``input`` is the main control a person (or a test) sets.
    ``touched`` turns true on the first change made by a person, never on :meth:`load`.
    ``secrets`` (the connection's) are masked in everything the field shows.
    """

    def __init__(
        self,
        spec: FieldSpec,
        control: Any,  # any: ipywidgets is untyped
        *,
        show_label: bool = True,
        secrets: Sequence[str] = (),
    ) -> None:
        self.spec = spec
        self.secrets = tuple(secrets)
        self.input = control
        self.touched = False
        self._loading = False
        self._callbacks: list[Callable[[], None]] = []
        self.null_box = (
            widgets.Checkbox(value=False, description="null", indent=False, layout=widgets.Layout(width="auto"))
            if spec.nullable
            else None
        )
        self.problem_label = widgets.HTML(value="", layout=widgets.Layout(display="none"))
        marker = " *" if spec.required and show_label and spec.name else ""
        label = plain(spec.label, self.secrets, LABEL_CHARS - len(marker))
        self.name_label = text_label(value=f"{label}{marker}", layout=widgets.Layout(min_width=FIELD_LABEL_WIDTH))
        description = plain(spec.description, self.secrets, HELP_CHARS) if spec.description else ""
        if description:
            self.name_label.tooltip = description
        placeholder_shows_default = isinstance(control, (widgets.Text, widgets.Textarea)) or spec.kind in {
            "boolean",
            "choice",
        }
        note = "" if placeholder_shows_default else plain(default_note(spec), self.secrets, HELP_CHARS)
        self.help_text = "\n".join(part for part in (description, note and f"({note}, not sent)") if part)
        self.help_label = widgets.HTML(value=wrapped_html(self.help_text, "#555")) if self.help_text else None
        self.widget = self._layout(show_label)
        if self.null_box is not None:
            self.null_box.observe(self._on_null, names="value")
        self._watch(self.input)

    def _layout(self, show_label: bool) -> Any:
        row = [self.input] if self.null_box is None else [self.input, self.null_box]
        if show_label and self.spec.label:
            row.insert(0, self.name_label)
        parts: list[Any] = [widgets.HBox(row, layout=_ROW)]
        if self.help_label is not None and show_label:
            parts.append(self.help_label)
        parts.append(self.problem_label)
        return widgets.VBox(parts, layout=widgets.Layout(max_width="100%"))

    def _watch(self, control: Any) -> None:
        control.observe(lambda _change: self._changed(), names="value")

    def _on_null(self, change: dict[str, Any]) -> None:
        self._set_enabled(not change["new"])
        self._changed()

    def _set_enabled(self, enabled: bool) -> None:
        self.input.disabled = not enabled

    @property
    def problem_text(self) -> str:
        """The problems this field shows now (plain text; ``""`` when none)."""
        return self._problem_text

    @property
    def hint_text(self) -> str:
        """The non-blocking hint this field shows now (a format it could not recognise)."""
        return self._hint_text

    _problem_text = ""
    _hint_text = ""

    def show_problems(self, problems: Sequence[str], hint: str = "") -> None:
        """Show these problems beside the field (the form decides which belong here), and a hint
        that does not block the call ("does not look like an email address")."""
        self._problem_text = plain("; ".join(problems), self.secrets, PROBLEM_CHARS) if problems else ""
        self._hint_text = plain(hint, self.secrets, PROBLEM_CHARS) if hint else ""
        shown = "".join(
            [
                wrapped_html(self._problem_text, "#b00020") if problems else "",
                wrapped_html(self._hint_text, "#8a6d00") if hint else "",
            ]
        )
        if shown != self.problem_label.value:
            self.problem_label.value = shown
            self.problem_label.layout.display = None if shown else "none"

    def _changed(self) -> None:
        if self._loading:
            return
        self.touched = True
        for callback in list(self._callbacks):
            callback()

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change a person makes in this field (or inside it)."""
        self._callbacks.append(callback)

    def inner(self, step: str | int) -> FieldWidget | None:
        """The field one step down a path (a property name, a list index), if any."""
        return None

    def walk(self, path: Path = ()) -> Iterator[tuple[Path, FieldWidget]]:
        """This field and every field inside it, with their paths."""
        yield path, self

    def entry(self) -> Entry:
        """What is in the field now."""
        null = self.null_box is not None and bool(self.null_box.value)
        return Entry(touched=self.touched, null=null, **self._entry_parts())

    def load(self, entry: Entry) -> None:
        """Show ``entry`` (a remembered value, a default, the JSON mode's text), as not typed."""
        self._loading = True
        try:
            if self.null_box is not None:
                self.null_box.value = entry.null
                self._set_enabled(not entry.null)
            if not entry.touched and entry.text and policy_of(self.secrets).mask(entry.text) != entry.text:
                entry = replace(entry, text="")  # a schema default echoing a secret is not shown
            self._load_parts(entry)
            self.touched = entry.touched
        finally:
            self._loading = False

    def _entry_parts(self) -> dict[str, Any]:
        return {"text": self.input.value}

    def _load_parts(self, entry: Entry) -> None:
        self.input.value = entry.text


class DateField(FieldWidget):
    """A date picker; the entry keeps ISO text so a remembered value that is no date survives."""

    def __init__(self, spec: FieldSpec, **kwargs: Any) -> None:  # any: ipywidgets keywords, passed on
        self._text = ""
        super().__init__(spec, widgets.DatePicker(value=None), **kwargs)

    def _changed(self) -> None:
        if not self._loading:
            picked = self.input.value
            self._text = picked.isoformat() if isinstance(picked, date) else ""
        super()._changed()

    def _entry_parts(self) -> dict[str, Any]:
        return {"text": self._text}

    def _load_parts(self, entry: Entry) -> None:
        self._text = entry.text
        try:
            self.input.value = date.fromisoformat(entry.text)
        except ValueError:
            self.input.value = None


class BooleanField(FieldWidget):
    """A checkbox when a value is required; otherwise a dropdown that can say "(not set)"."""

    def __init__(self, spec: FieldSpec, **kwargs: Any) -> None:  # any: ipywidgets keywords, passed on
        control: Any
        if spec.required:
            control = widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto"))
        else:
            options = ((unset_label(spec), "unset"), ("true", "true"), ("false", "false"))
            control = widgets.Dropdown(options=options, value="unset")
        super().__init__(spec, control, **kwargs)

    def _entry_parts(self) -> dict[str, Any]:
        value = self.input.value
        return {"flag": value if isinstance(value, bool) else {"true": True, "false": False}.get(value)}

    def _load_parts(self, entry: Entry) -> None:
        if self.spec.required:
            self.input.value = bool(entry.flag)
        else:
            self.input.value = "unset" if entry.flag is None else ("true" if entry.flag else "false")


def unset_label(spec: FieldSpec, secrets: Sequence[str] = ()) -> str:
    """ "(not set)", or "(not set: server default true)" when the server has a default."""
    if not spec.has_default or spec.required:
        return UNSET_LABEL
    shown = next((c.label for c in spec.choices if c.value == spec.default), None)
    note = plain(shown if shown is not None else default_note(spec).removeprefix("server default: "), secrets, 60)
    return f"(not set: server default {note})"


def text_field(spec: FieldSpec, **kwargs: Any) -> FieldWidget:  # any: ipywidgets keywords, passed on
    if spec.kind == "string" and spec.constraints.format == "date":
        return DateField(spec, **kwargs)
    placeholder = plain(_hint(spec), kwargs.get("secrets", ()), DESCRIPTION_CHARS)  # a default may echo a secret
    if spec.kind == "json":
        control = widgets.Textarea(
            value="", placeholder=placeholder, rows=3, layout=widgets.Layout(width="32em", max_width="100%")
        )
    else:
        control = widgets.Text(value="", placeholder=placeholder, continuous_update=True)
    return FieldWidget(spec, control, **kwargs)
