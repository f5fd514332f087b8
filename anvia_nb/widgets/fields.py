"""One ipywidgets control per field spec, chosen from a dispatch table.

Like ipywidgets' own ``interactive`` builds a widget from an abbreviation, :data:`BUILDERS`
maps a :class:`FieldSpec` kind to a function that builds a :class:`FieldWidget`. Every field
widget reads back as an :class:`Entry` (what was typed, verbatim, and whether it was touched),
so the omission and parsing rules live in one pure place (``spec``), not in widget code.

Choices made for people, not for the widget set: numbers are plain ``Text`` (``FloatText``
silently turns a half-typed ``1e`` into something else); an optional boolean is a dropdown
with "(not set)", because a checkbox cannot say "leave it to the server"; descriptions are
``Label`` text, so a server's description can never become markup.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import ipywidgets as widgets

from anvia_nb.widgets.spec import (
    Entry,
    FieldKind,
    FieldSpec,
    constraint_problems,
    initial_entry,
    value_from_entry,
)

__all__ = ["BUILDERS", "FieldWidget", "ListField", "ObjectField", "build_field"]

UNSET_LABEL = "(not set)"
_PLACEHOLDERS = {
    "email": "name@example.com",
    "uri": "https://…",
    "date": "YYYY-MM-DD",
    "date-time": "YYYY-MM-DDTHH:MM:SS",
    "time": "HH:MM:SS",
}
_BORDER = "1px solid #c8c8c8"


def _hint(spec: FieldSpec) -> str:
    """A placeholder that says what to type: the format, the number kind and its range."""
    c = spec.constraints
    if spec.kind in {"number", "integer"}:
        parts: list[str] = [spec.kind]
        low = c.minimum if c.minimum is not None else c.exclusive_minimum
        high = c.maximum if c.maximum is not None else c.exclusive_maximum
        if low is not None:
            parts.append(f"{'≥' if c.minimum is not None else '>'} {low:g}")
        if high is not None:
            parts.append(f"{'≤' if c.maximum is not None else '<'} {high:g}")
        return " ".join(parts)
    if spec.kind == "json":
        return "JSON"
    return _PLACEHOLDERS.get(c.format or "", "")


class FieldWidget:
    """The control(s) for one field, with its label, help text, null box and problem line.

    ``widget`` is what to display; ``input`` is the main control a person (or a test) sets.
    ``touched`` turns true on the first change made by a person, never on :meth:`load`.
    """

    def __init__(self, spec: FieldSpec, control: Any, *, show_label: bool = True) -> None:
        self.spec = spec
        self.input = control
        self.touched = False
        self._loading = False
        self._callbacks: list[Callable[[], None]] = []
        self.null_box = widgets.Checkbox(value=False, description="null", indent=False,
                                         layout=widgets.Layout(width="auto")) if spec.nullable else None
        self.problem_label = widgets.Label(value="", style={"text_color": "#b00020"})
        marker = " *" if spec.required and show_label and spec.name else ""
        self.name_label = widgets.Label(value=f"{spec.label}{marker}",
                                        layout=widgets.Layout(min_width="9em"))
        if spec.description:
            self.name_label.tooltip = spec.description
        self.help_label = widgets.Label(value=spec.description or "")
        self.widget = self._layout(show_label)
        if self.null_box is not None:
            self.null_box.observe(self._on_null, names="value")
        self._watch(self.input)

    def _layout(self, show_label: bool) -> Any:
        row = [self.input] if self.null_box is None else [self.input, self.null_box]
        if show_label and self.spec.label:
            row.insert(0, self.name_label)
        parts: list[Any] = [widgets.HBox(row)]
        if self.spec.description and show_label:
            parts.append(self.help_label)
        parts.append(self.problem_label)
        return widgets.VBox(parts)

    def _watch(self, control: Any) -> None:
        control.observe(lambda _change: self._changed(), names="value")

    def _on_null(self, change: dict[str, Any]) -> None:
        self._set_enabled(not change["new"])
        self._changed()

    def _set_enabled(self, enabled: bool) -> None:
        self.input.disabled = not enabled

    def _changed(self) -> None:
        if self._loading:
            return
        self.touched = True
        self.refresh_problems()
        for callback in list(self._callbacks):
            callback()

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change a person makes in this field (or inside it)."""
        self._callbacks.append(callback)

    def refresh_problems(self) -> None:
        """Show this field's own problems, once it was touched (a fresh form does not scold)."""
        _, problems = value_from_entry(self.spec, self.entry())
        self.problem_label.value = "; ".join(problems) if self.touched else ""

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
            self._load_parts(entry)
            self.touched = entry.touched
        finally:
            self._loading = False
        self.refresh_problems()

    def _entry_parts(self) -> dict[str, Any]:
        return {"text": self.input.value}

    def _load_parts(self, entry: Entry) -> None:
        self.input.value = entry.text


class DateField(FieldWidget):
    """A date picker; the entry keeps ISO text so a remembered value that is no date survives."""

    def __init__(self, spec: FieldSpec, **kwargs: Any) -> None:
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

    _OPTIONS = ((UNSET_LABEL, "unset"), ("true", "true"), ("false", "false"))

    def __init__(self, spec: FieldSpec, **kwargs: Any) -> None:
        control: Any
        if spec.required:
            control = widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto"))
        else:
            control = widgets.Dropdown(options=self._OPTIONS, value="unset")
        super().__init__(spec, control, **kwargs)

    def _entry_parts(self) -> dict[str, Any]:
        value = self.input.value
        return {"flag": value if isinstance(value, bool) else {"true": True, "false": False}.get(value)}

    def _load_parts(self, entry: Entry) -> None:
        if self.spec.required:
            self.input.value = bool(entry.flag)
        else:
            self.input.value = "unset" if entry.flag is None else ("true" if entry.flag else "false")


class ChoiceField(FieldWidget):
    """A dropdown of the choices' labels; optional ones start with "(not set)"."""

    def __init__(self, spec: FieldSpec, **kwargs: Any) -> None:
        options: list[tuple[str, int]] = [(choice.label, i) for i, choice in enumerate(spec.choices)]
        if not spec.required:
            options.insert(0, (UNSET_LABEL, -1))
        control = widgets.Dropdown(options=options, value=None if spec.required else -1)
        super().__init__(spec, control, **kwargs)

    def _entry_parts(self) -> dict[str, Any]:
        index = self.input.value
        return {"chosen": () if index is None or index < 0 else (index,)}

    def _load_parts(self, entry: Entry) -> None:
        self.input.value = entry.chosen[0] if entry.chosen else (None if self.spec.required else -1)


class MultiChoiceField(FieldWidget):
    """A multiple selection over the choices of an array of enums."""

    def __init__(self, spec: FieldSpec, **kwargs: Any) -> None:
        options = [(choice.label, i) for i, choice in enumerate(spec.choices)]
        rows = max(2, min(len(options), 6))
        super().__init__(spec, widgets.SelectMultiple(options=options, value=(), rows=rows), **kwargs)

    def _entry_parts(self) -> dict[str, Any]:
        return {"chosen": tuple(self.input.value)}

    def _load_parts(self, entry: Entry) -> None:
        self.input.value = tuple(entry.chosen)


def _text_field(spec: FieldSpec, **kwargs: Any) -> FieldWidget:
    if spec.kind == "string" and spec.constraints.format == "date":
        return DateField(spec, **kwargs)
    placeholder = _hint(spec)
    if spec.kind == "json":
        control = widgets.Textarea(value="", placeholder=placeholder, rows=3,
                                   layout=widgets.Layout(width="32em"))
    else:
        control = widgets.Text(value="", placeholder=placeholder, continuous_update=True)
    return FieldWidget(spec, control, **kwargs)


def build_field(spec: FieldSpec, *, show_label: bool = True, root: bool = False) -> FieldWidget:
    """The field widget for ``spec``, showing its initial entry (empty, or its default)."""
    if root and spec.kind == "object":
        field: FieldWidget = ObjectField(spec, show_label=False, root=True)
    else:
        field = BUILDERS[spec.kind](spec, show_label=show_label)
    field.load(initial_entry(spec))
    return field


class ListField(FieldWidget):
    """An add/remove list of simple items: one row per item, with − buttons and a + button."""

    def __init__(self, spec: FieldSpec, **kwargs: Any) -> None:
        self.rows: list[FieldWidget] = []
        self.remove_buttons: list[Any] = []
        self.rows_box = widgets.VBox([])
        self.add_button = widgets.Button(description="+", tooltip="add an item",
                                         layout=widgets.Layout(width="3em"))
        self.add_button.on_click(lambda _button: self._add_by_person())
        super().__init__(spec, widgets.VBox([self.rows_box, self.add_button]), **kwargs)

    def _watch(self, control: Any) -> None:
        """Rows report their own changes; the container has no value of its own."""

    def _set_enabled(self, enabled: bool) -> None:
        self.input.layout.display = None if enabled else "none"

    def _add_by_person(self) -> None:
        self.add_row()
        self._changed()

    def add_row(self, entry: Entry | None = None) -> FieldWidget:
        """Append an item row (empty, or showing ``entry``) without counting it as a change."""
        assert self.spec.item is not None
        item = build_field(self.spec.item, show_label=False)
        if entry is not None:
            item.load(entry)
        item.on_change(self._changed)
        remove = widgets.Button(description="−", tooltip="remove this item",
                                layout=widgets.Layout(width="3em"))
        remove.on_click(lambda _button: self.remove_row(self.rows.index(item)))
        self.rows.append(item)
        self.remove_buttons.append(remove)
        self._show_rows()
        return item

    def remove_row(self, index: int) -> None:
        """Remove the item at ``index``, as a person's change."""
        del self.rows[index]
        del self.remove_buttons[index]
        self._show_rows()
        self._changed()

    def _show_rows(self) -> None:
        self.rows_box.children = [
            widgets.HBox([item.widget, remove]) for item, remove in zip(self.rows, self.remove_buttons,
                                                                        strict=True)
        ]

    def refresh_problems(self) -> None:
        """Only the list's own limits (item count); each row shows its own problems."""
        value, _ = value_from_entry(self.spec, self.entry())
        lines = constraint_problems(self.spec.constraints, value) if isinstance(value, list) else []
        self.problem_label.value = "; ".join(lines) if self.touched else ""

    def _entry_parts(self) -> dict[str, Any]:
        return {"items": tuple(item.entry() for item in self.rows)}

    def _load_parts(self, entry: Entry) -> None:
        self.rows.clear()
        self.remove_buttons.clear()
        for item in entry.items:
            self.add_row(item)
        self._show_rows()


class ObjectField(FieldWidget):
    """A bordered group of the object's fields; the root object is the form itself, unbordered."""

    def __init__(self, spec: FieldSpec, *, show_label: bool = True, root: bool = False) -> None:
        self.root = root
        self.children: dict[str, FieldWidget] = {child.name: build_field(child) for child in spec.children}
        layout = widgets.Layout() if root else widgets.Layout(border=_BORDER, padding="4px 8px",
                                                              margin="2px 0 2px 1em")
        box = widgets.VBox([child.widget for child in self.children.values()], layout=layout)
        super().__init__(spec, box, show_label=show_label)
        for child in self.children.values():
            child.on_change(self._changed)

    def _layout(self, show_label: bool) -> Any:
        if self.root:
            return self.input
        head: list[Any] = [self.name_label] if show_label and self.spec.label else []
        if self.null_box is not None:
            head.append(self.null_box)
        parts: list[Any] = [widgets.HBox(head)] if head else []
        if self.spec.description and show_label:
            parts.append(self.help_label)
        return widgets.VBox([*parts, self.input, self.problem_label])

    def _watch(self, control: Any) -> None:
        """Children report their own changes."""

    def _set_enabled(self, enabled: bool) -> None:
        self.input.layout.display = None if enabled else "none"

    def refresh_problems(self) -> None:
        """Nothing of its own: every child shows its problems beside itself."""

    def field(self, path: str) -> FieldWidget:
        """The field at a dotted path below this group (``"filter.since"``)."""
        head, _, rest = path.partition(".")
        child = self.children[head]
        if not rest:
            return child
        if not isinstance(child, ObjectField):
            raise KeyError(path)
        return child.field(rest)

    def _entry_parts(self) -> dict[str, Any]:
        return {"children": {name: child.entry() for name, child in self.children.items()}}

    def _load_parts(self, entry: Entry) -> None:
        for name, child in self.children.items():
            child.load(entry.children.get(name) or initial_entry(child.spec))


BUILDERS: dict[FieldKind, Callable[..., FieldWidget]] = {
    "string": _text_field,
    "number": _text_field,
    "integer": _text_field,
    "json": _text_field,
    "boolean": BooleanField,
    "choice": ChoiceField,
    "multi_choice": MultiChoiceField,
    "list": ListField,
    "object": ObjectField,
}
"""Field kind → builder of its widget; the groups (list, object) recurse through it."""
