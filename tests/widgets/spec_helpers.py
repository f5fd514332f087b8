"""Helpers for the form tests: the schema corpus, and entries as a person would make them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from anvia_nb.widgets.spec import Entry, FieldSpec, field_spec_from_schema, initial_entry, value_from_entry

SCHEMAS = Path(__file__).parent / "schemas"


def load_schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMAS / f"{name}.json").read_text())
    return data


def typed(text: str) -> Entry:
    """A text field a person typed into."""
    return Entry(touched=True, text=text)


def ticked(flag: bool | None) -> Entry:
    return Entry(touched=True, flag=flag)


def picked(*indexes: int) -> Entry:
    return Entry(touched=True, chosen=indexes)


def null_chosen() -> Entry:
    return Entry(touched=True, null=True)


def rows(*items: Entry) -> Entry:
    return Entry(touched=True, items=items)


def group(**children: Entry) -> Entry:
    """Children changed inside an object; the group itself was not clicked."""
    return Entry(children=children)


def form_entry(spec: FieldSpec, **changes: Entry) -> Entry:
    """The untouched form with some fields changed by a person."""
    base = initial_entry(spec)
    children = dict(base.children)
    for name, change in changes.items():
        child = spec.child(name)
        if change.children and child.kind == "object":
            inner = dict(initial_entry(child).children)
            inner.update(change.children)
            change = replace(change, children=inner)
        children[name] = change
    return replace(base, children=children)


def arguments(schema: dict[str, Any], **changes: Entry) -> tuple[Any, list[str]]:
    """What the form sends for ``schema`` after ``changes``, and its problems."""
    spec = field_spec_from_schema(schema)
    return value_from_entry(spec, form_entry(spec, **changes))
