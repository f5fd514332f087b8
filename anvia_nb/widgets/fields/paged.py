"""The root of a form with many fields: the first page of fields built at once, the rest in
collapsed pages, each built the first time it is opened.

A tool of 300 properties made about 5,000 widgets before its form could show (seconds); most of
them are never looked at. :class:`PagedObjectField` builds the first ``Limits.page_fields`` fields
and one toggle per further page ("fields 21–40 of 300, 4 required"); a page's fields are built
when it is first opened (or when a caller asks for one of them by name, :meth:`field`). Nothing
else changes: a field not built yet reads as the entry it was last given (its default, or what
:meth:`load` gave it), so the form's value, its one validation, and the problems it lists (a
required field in a closed page is named under the form and blocks the call) are the same as
with every field built.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import ipywidgets as widgets

from anvia_nb.errors import UnknownFieldError
from anvia_nb.policy import Limits
from anvia_nb.widgets.fields import FieldWidget, ObjectField, build_field
from anvia_nb.widgets.spec import Entry, FieldSpec, Path, initial_entry

__all__ = ["PagedObjectField", "root_field"]


def root_field(spec: FieldSpec, secrets: Sequence[str], limits: Limits | None = None) -> FieldWidget:
    """The form's root field: paged (``limits.page_fields`` fields a page) when the object has more
    than two pages of fields, else the plain group."""
    page_fields = (limits or Limits()).page_fields
    if spec.kind == "object" and len(spec.children) > 2 * page_fields:
        field: FieldWidget = PagedObjectField(spec, secrets=secrets, page_fields=page_fields)
        field.load(initial_entry(spec))
        return field
    return build_field(spec, root=True, secrets=secrets)


class _Page:
    """One collapsed page: its specs, a toggle, and a box filled the first time it opens."""

    def __init__(self, specs: Sequence[FieldSpec], first: int, total: int) -> None:
        self.specs = tuple(specs)
        required = sum(1 for spec in specs if spec.required)
        more = f", {required} required" if required else ""
        self.title = f"fields {first}–{first + len(specs) - 1} of {total}{more}"
        self.toggle = widgets.ToggleButton(
            value=False, description=f"▸ {self.title}", layout=widgets.Layout(width="auto"), tooltip="show these fields"
        )
        self.box = widgets.VBox([], layout=widgets.Layout(display="none"))
        self.built = False
        self.widget = widgets.VBox([self.toggle, self.box])


class PagedObjectField(ObjectField):
    """The root object, its fields built a page at a time (see the module's doc)."""

    def __init__(self, spec: FieldSpec, *, secrets: Sequence[str] = (), page_fields: int = Limits.page_fields) -> None:
        self.root = True
        self.children: dict[str, FieldWidget] = {}
        self._specs = {child.name: child for child in spec.children}
        self._waiting: dict[str, Entry] = {}
        """Entries of the fields not built yet, as last loaded (absent: their initial entry)."""
        self._secrets = tuple(secrets)
        specs = list(spec.children)
        first = [self._build(child) for child in specs[:page_fields]]
        self.pages: list[_Page] = [
            _Page(specs[start : start + page_fields], start + 1, len(specs))
            for start in range(page_fields, len(specs), page_fields)
        ]
        self._page_of = {child.name: page for page in self.pages for child in page.specs}
        for page in self.pages:
            page.toggle.observe(lambda change, page=page: self._show_page(page, bool(change["new"])), names="value")
        box = widgets.VBox([*(child.widget for child in first), *(page.widget for page in self.pages)])
        FieldWidget.__init__(self, spec, box, show_label=False, secrets=secrets)

    def _build(self, spec: FieldSpec) -> FieldWidget:
        child = build_field(spec, secrets=self._secrets)
        waiting = self._waiting.pop(spec.name, None)
        if waiting is not None:
            child.load(waiting)
        child.on_change(self._changed)
        self.children[spec.name] = child
        return child

    def open_page(self, page: _Page) -> None:
        """Show ``page``, building its fields the first time (as its toggle does)."""
        page.toggle.value = True

    def _show_page(self, page: _Page, shown: bool) -> None:
        self._fill(page)
        page.box.layout.display = None if shown else "none"
        page.toggle.description = f"{'▾' if shown else '▸'} {page.title}"

    def _fill(self, page: _Page) -> None:
        if page.built:
            return
        page.built = True
        page.box.children = [self._build(spec).widget for spec in page.specs]

    def field(self, path: str) -> FieldWidget:
        """The field at a dotted path (``"filter.since"``), its page built if it was not yet."""
        head = path.partition(".")[0]
        if head not in self.children:
            page = self._page_of.get(head)
            if page is None:
                raise UnknownFieldError(path)
            self._fill(page)
        return super().field(path)

    def walk(self, path: Path = ()) -> Iterator[tuple[Path, FieldWidget]]:
        """This field and every field built so far (one not built yet was never touched)."""
        yield path, self
        for name in self._specs:
            child = self.children.get(name)
            if child is not None:
                yield from child.walk((*path, name))

    def _entry_parts(self) -> dict[str, Any]:
        parts: dict[str, Entry] = {}
        for name, spec in self._specs.items():
            child = self.children.get(name)
            parts[name] = child.entry() if child is not None else self._waiting.get(name) or initial_entry(spec)
        return {"children": parts}

    def _load_parts(self, entry: Entry) -> None:
        for name, spec in self._specs.items():
            given = entry.children.get(name) or initial_entry(spec)
            child = self.children.get(name)
            if child is not None:
                child.load(given)
            else:
                self._waiting[name] = given
