"""What a JSON box suggests to type: an example built from the field's schema (pure).

Where the form cannot offer fields, its JSON box shows a placeholder shaped like the schema
(``[{"oldText": "…", "newText": "…"}]`` for an array of objects) instead of the bare word
"JSON". Only a sketch: bounded in depth and size, local ``$ref`` followed, never an exception.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from anvia_nb.policy import Limits
from anvia_nb.widgets.spec.schema import resolve_local

__all__ = ["example_json"]

_BY_TYPE: dict[str, Any] = {"string": "…", "integer": 0, "number": 0, "boolean": False, "null": None}


def example_json(schema: object, root: object = None, limits: Limits | None = None) -> str:
    """A one-line JSON example for ``schema`` (``root`` resolves its ``#/...`` refs), as large as
    ``limits`` (by default :class:`~anvia_nb.policy.Limits`' own) allows an example to be."""
    limits = limits or Limits()
    text = json.dumps(_example(schema, schema if root is None else root, 0, limits), ensure_ascii=False)
    chars = limits.example_chars
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _example(schema: Any, root: Any, depth: int, limits: Limits) -> Any:
    schema = resolve_local(root, schema)
    if not isinstance(schema, Mapping) or depth > limits.example_depth:
        return "…"
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    for key in ("examples", "enum"):
        values = schema.get(key)
        if isinstance(values, list) and values:
            return values[0]
    for key in ("anyOf", "oneOf", "allOf"):
        options = schema.get(key)
        if isinstance(options, list):
            usable = [o for o in options if not (isinstance(o, Mapping) and o.get("type") == "null")]
            if usable:
                return _example(usable[0], root, depth + 1, limits)
    type_ = schema.get("type")
    if isinstance(type_, list):
        type_ = next((t for t in type_ if t != "null"), None)
    if type_ == "array" or "items" in schema:
        return [_example(schema.get("items", {}), root, depth + 1, limits)]
    if type_ == "object" or "properties" in schema:
        properties = schema.get("properties")
        if not isinstance(properties, Mapping):
            return {"key": "…"}
        wanted = schema.get("required")
        required = [k for k in properties if isinstance(wanted, list) and k in wanted]
        names = (required or list(properties))[: limits.example_keys]
        return {str(name): _example(properties[name], root, depth + 1, limits) for name in names}
    return _BY_TYPE.get(type_, "…") if isinstance(type_, str) else "…"
