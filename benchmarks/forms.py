"""The arguments form of a tool with 300 properties: how long until it is ready (built, first
validated, its "will send" line written), how many widgets that took, and opening one more page.

Each round builds the form of a schema not seen before (a title differs), so the schema's check is
compiled each time as on a first ``%mcp form``; the process has shown one small form before (the
widget classes are set up once per process, as in a kernel that showed any widget).
"""

from __future__ import annotations

import time
from typing import Any

from benchmarks.measure import Stats

__all__ = ["form_rows", "many_properties"]

PROPERTIES = 300
_KINDS: list[dict[str, Any]] = [
    {"type": "string", "description": "A line of text."},
    {"type": "integer", "minimum": 0},
    {"type": "boolean"},
    {"type": "string", "enum": ["low", "medium", "high"]},
    {"type": "array", "items": {"type": "string"}},
    {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "string"}}},
    {"type": "number", "default": 1.5},
]


def many_properties(count: int = PROPERTIES, tag: str = "") -> dict[str, Any]:
    """An inputSchema of ``count`` properties of seven kinds, one in ten required."""
    properties = {f"field_{i:03d}": dict(_KINDS[i % len(_KINDS)], title=f"Field {i}{tag}") for i in range(count)}
    return {"type": "object", "properties": properties, "required": [f"field_{i:03d}" for i in range(0, count, 10)]}


def _widget_count() -> int:
    from ipywidgets.widgets import widget

    return len(getattr(widget, "_instances", {}))


def form_rows(rounds: int) -> dict[str, tuple[Stats, str]]:
    from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
    from anvia_nb.widgets.fields.paged import PagedObjectField

    ArgumentsForm(schema=many_properties(7, " warm"))  # a small form first: widget classes set up
    ready: list[float] = []
    page: list[float] = []
    widgets_made = 0
    for round_ in range(rounds):
        schema = many_properties(tag=f" r{round_}")
        before = _widget_count()
        start = time.perf_counter()
        form = ArgumentsForm(schema=schema)
        ready.append(time.perf_counter() - start)
        widgets_made = _widget_count() - before
        root = form.root
        if isinstance(root, PagedObjectField) and root.pages:
            start = time.perf_counter()
            root.open_page(root.pages[0])
            page.append(time.perf_counter() - start)
    rows = {f"form of {PROPERTIES} properties, ready": (Stats(ready), f"{widgets_made} widgets; goal ≤ 0.5 s")}
    if page:
        rows["opening its next page of fields"] = (Stats(page), "built when opened")
    return rows
