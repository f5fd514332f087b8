"""Helpers for the form tests: the schema corpus, and entries as a person would make them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from anvia_nb.core.protocol.schema import dotted, schema_check
from anvia_nb.widgets.spec import (
    OMITTED,
    Entry,
    FieldSpec,
    check_value,
    field_spec_from_schema,
    initial_entry,
    read_entry,
    value_from_entry,
)

SCHEMAS = Path(__file__).resolve().parents[1] / "widgets" / "schemas"


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
    """What the form sends for ``schema`` after ``changes``, and what could not be read."""
    spec = field_spec_from_schema(schema)
    return value_from_entry(spec, form_entry(spec, **changes))


def checked(schema: dict[str, Any], **changes: Entry) -> tuple[Any, list[str]]:
    """What the form sends after ``changes``, and every problem it shows (the one validation)."""
    spec = field_spec_from_schema(schema)
    value, unread = read_entry(spec, form_entry(spec, **changes))
    problems, _notes = check_value(schema_check(schema), {} if value is OMITTED else value, unread)
    return value, [f"{dotted(path)}: {message}" if path else message for path, message in problems]


# Hypothesis strategies: JSON values, and dicts that look like JSON Schemas (often broken ones).
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)
keywords = st.sampled_from(
    [
        "type",
        "properties",
        "items",
        "enum",
        "const",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "$defs",
        "definitions",
        "required",
        "default",
        "title",
        "description",
        "format",
        "minimum",
        "pattern",
        "additionalProperties",
        "prefixItems",
        "nullable",
        "enumNames",
        "minItems",
        "exclusiveMaximum",
    ]
)
schema_like = st.recursive(
    st.booleans() | st.dictionaries(keywords, json_values, max_size=4),
    lambda inner: st.dictionaries(
        keywords,
        inner
        | st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3)
        | st.sampled_from(["#", "#/$defs/a", "#/properties/a", "object", "string", "array", ["string", "null"]]),
        max_size=5,
    ),
    max_leaves=25,
)


SELF_RECURSIVE = {
    "type": "object",
    "$defs": {"N": {"type": "object", "properties": {"l": {"$ref": "#/$defs/N"}, "r": {"$ref": "#/$defs/N"}}}},
    "properties": {"root": {"$ref": "#/$defs/N"}},
}
MUTUALLY_RECURSIVE = {
    "type": "object",
    "$defs": {
        "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}, "b2": {"$ref": "#/$defs/B"}}},
        "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}, "a2": {"$ref": "#/$defs/A"}}},
    },
    "properties": {"root": {"$ref": "#/$defs/A"}},
}
