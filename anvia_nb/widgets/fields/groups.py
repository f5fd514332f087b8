"""The fields that hold others (object, list, union) and the dispatch table that builds any field.

Like ipywidgets' own ``interactive`` builds a widget from an abbreviation, :data:`BUILDERS`
maps a :class:`FieldSpec` kind to a function that builds a :class:`FieldWidget`. Every field
widget reads back as an :class:`Entry` (what was typed, verbatim, and whether it was touched),
so the omission and parsing rules live in one pure place (``spec``), not in widget code.

Choices made for people, not for the widget set: numbers are plain ``Text`` (``FloatText``
silently turns a half-typed ``1e`` into something else); an optional boolean is a dropdown
with "(not set)", because a checkbox cannot say "leave it to the server"; an optional field's
default is a placeholder (or named in "(not set: server default …)"), never a value that looks
typed; descriptions are escaped text that wraps, so a server's description can never become
markup and is never clipped. Arrays of objects are lists of groups; a union of types is a
chooser of the type followed by that type's field. A field shows the problems and hints the
form gives it (:meth:`FieldWidget.show_problems`): the form checks the whole value once.

Every string from the server that a person reads here (a title, a description, an enum's
labels, a problem line quoting a pattern) goes through :func:`~anvia_nb.widgets._chrome.plain`:
the connection's secrets masked, control, ANSI, bidi and zero-width characters made visible,
the length bounded. Only what is shown is changed; the values sent stay exactly the server's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import ipywidgets as widgets

from anvia_nb.errors import UnknownFieldError
from anvia_nb.widgets._chrome import plain
from anvia_nb.widgets.fields.choices import ChoiceField, MultiChoiceField
from anvia_nb.widgets.fields.leaf import LABEL_CHARS, BooleanField, FieldWidget, text_field, unset_label
from anvia_nb.widgets.spec import Entry, FieldKind, FieldSpec, Path, initial_entry

__all__ = ["BUILDERS", "ListField", "ObjectField", "UnionField", "build_field"]

_BORDER = "1px solid #c8c8c8"
_ITEM_ROW = widgets.Layout(align_items="flex-start", max_width="100%")
"""The one layout of every list row (the item, then its − button): shared, never changed."""


def build_field(
    spec: FieldSpec, *, show_label: bool = True, root: bool = False, secrets: Sequence[str] = ()
) -> FieldWidget:
    """The field widget for ``spec``, showing its initial entry (empty, or its default).

    ``secrets`` are masked in every label, option, tooltip and problem line it shows.
    """
    if root and spec.kind == "object":
        field: FieldWidget = ObjectField(spec, show_label=False, root=True, secrets=secrets)
    else:
        field = BUILDERS[spec.kind](spec, show_label=show_label, secrets=secrets)
    field.load(initial_entry(spec))
    return field


class ListField(FieldWidget):
    """An add/remove list: one row per item (a value, or a group of fields for an array of
    objects), with − buttons and a + button. A row left empty is not sent."""

    def __init__(self, spec: FieldSpec, **kwargs: Any) -> None:  # any: ipywidgets keywords, passed on
        self.rows: list[FieldWidget] = []
        self.remove_buttons: list[Any] = []
        self.rows_box = widgets.VBox([])
        self.add_button = widgets.Button(description="+", tooltip="add an item", layout=widgets.Layout(width="3em"))
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
        item = build_field(self.spec.item, show_label=False, secrets=self.secrets)
        if entry is not None:
            item.load(entry)
        item.on_change(self._changed)
        remove = widgets.Button(description="−", tooltip="remove this item", layout=widgets.Layout(width="3em"))
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
            widgets.HBox([item.widget, remove], layout=_ITEM_ROW)
            for item, remove in zip(self.rows, self.remove_buttons, strict=True)
        ]

    def inner(self, step: str | int) -> FieldWidget | None:
        return self.rows[step] if isinstance(step, int) and 0 <= step < len(self.rows) else None

    def walk(self, path: Path = ()) -> Iterator[tuple[Path, FieldWidget]]:
        yield path, self
        for index, row in enumerate(self.rows):
            yield from row.walk((*path, index))

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

    def __init__(
        self, spec: FieldSpec, *, show_label: bool = True, root: bool = False, secrets: Sequence[str] = ()
    ) -> None:
        self.root = root
        self.children: dict[str, FieldWidget] = {
            child.name: build_field(child, secrets=secrets) for child in spec.children
        }
        layout = widgets.Layout() if root else widgets.Layout(border=_BORDER, padding="4px 8px", margin="2px 0 2px 1em")
        box = widgets.VBox([child.widget for child in self.children.values()], layout=layout)
        super().__init__(spec, box, show_label=show_label, secrets=secrets)
        for child in self.children.values():
            child.on_change(self._changed)

    def _layout(self, show_label: bool) -> Any:
        if self.root:
            return self.input
        head: list[Any] = [self.name_label] if show_label and self.spec.label else []
        if self.null_box is not None:
            head.append(self.null_box)
        parts: list[Any] = [widgets.HBox(head)] if head else []
        if self.help_label is not None and show_label:
            parts.append(self.help_label)
        return widgets.VBox([*parts, self.input, self.problem_label], layout=widgets.Layout(max_width="100%"))

    def _watch(self, control: Any) -> None:
        """Children report their own changes."""

    def _set_enabled(self, enabled: bool) -> None:
        self.input.layout.display = None if enabled else "none"

    def inner(self, step: str | int) -> FieldWidget | None:
        return self.children.get(step) if isinstance(step, str) else None

    def walk(self, path: Path = ()) -> Iterator[tuple[Path, FieldWidget]]:
        yield path, self
        for name, child in self.children.items():
            yield from child.walk((*path, name))

    def field(self, path: str) -> FieldWidget:
        """The field at a dotted path below this group (``"filter.since"``)."""
        head, _, rest = path.partition(".")
        child = self.children[head]
        if not rest:
            return child
        if not isinstance(child, ObjectField):
            raise UnknownFieldError(path)
        return child.field(rest)

    def _entry_parts(self) -> dict[str, Any]:
        return {"children": {name: child.entry() for name, child in self.children.items()}}

    def _load_parts(self, entry: Entry) -> None:
        for name, child in self.children.items():
            child.load(entry.children.get(name) or initial_entry(child.spec))


class UnionField(FieldWidget):
    """A chooser of the type (``type: ["boolean", "string"]``), then that type's own field.

    Each type keeps its own field, so switching back and forth keeps what was typed.
    """

    def __init__(self, spec: FieldSpec, *, secrets: Sequence[str] = (), **kwargs: Any) -> None:  # any: to ipywidgets
        self.options = [build_field(option, show_label=False, secrets=secrets) for option in spec.options]
        labels: list[tuple[str, int]] = [
            (plain(option.label, secrets, LABEL_CHARS), index) for index, option in enumerate(spec.options)
        ]
        if not spec.required:
            labels.insert(0, (unset_label(spec, secrets), -1))
        self.chooser = widgets.Dropdown(
            options=labels,
            value=None if spec.required else -1,
            layout=widgets.Layout(width="auto"),
            tooltip="the type of the value",
        )
        self.chosen_box = widgets.Box([])
        super().__init__(
            spec,
            widgets.HBox([self.chooser, self.chosen_box], layout=widgets.Layout(flex_flow="row wrap")),
            secrets=secrets,
            **kwargs,
        )
        for option in self.options:
            option.on_change(self._changed)

    def _watch(self, control: Any) -> None:
        self.chooser.observe(lambda _change: self._on_choose(), names="value")

    def _on_choose(self) -> None:
        self._show_chosen()
        self._changed()

    @property
    def chosen(self) -> FieldWidget | None:
        index = self.chooser.value
        return self.options[index] if isinstance(index, int) and 0 <= index < len(self.options) else None

    def choose(self, label: str) -> FieldWidget:
        """Choose the type called ``label`` (as a person would) and return its field."""
        self.chooser.label = label
        chosen = self.chosen
        assert chosen is not None
        return chosen

    def _show_chosen(self) -> None:
        chosen = self.chosen
        self.chosen_box.children = [chosen.widget] if chosen is not None else []

    def _set_enabled(self, enabled: bool) -> None:
        self.input.layout.display = None if enabled else "none"

    def walk(self, path: Path = ()) -> Iterator[tuple[Path, FieldWidget]]:
        yield path, self
        chosen = self.chosen
        if chosen is not None:
            yield from ((p, w) for p, w in chosen.walk(path) if w is not chosen)

    def inner(self, step: str | int) -> FieldWidget | None:
        chosen = self.chosen
        return chosen.inner(step) if chosen is not None else None

    def _entry_parts(self) -> dict[str, Any]:
        index = self.chooser.value
        return {
            "chosen": (index,) if isinstance(index, int) and index >= 0 else (),
            "items": tuple(option.entry() for option in self.options),
        }

    def _load_parts(self, entry: Entry) -> None:
        for index, option in enumerate(self.options):
            option.load(entry.items[index] if index < len(entry.items) else initial_entry(option.spec))
        self.chooser.value = entry.chosen[0] if entry.chosen else (None if self.spec.required else -1)
        self._show_chosen()


BUILDERS: dict[FieldKind, Callable[..., FieldWidget]] = {
    "string": text_field,
    "number": text_field,
    "integer": text_field,
    "json": text_field,
    "boolean": BooleanField,
    "choice": ChoiceField,
    "multi_choice": MultiChoiceField,
    "list": ListField,
    "object": ObjectField,
    "union": UnionField,
}
"""Field kind → builder of its widget; the groups (list, object) recurse through it."""
