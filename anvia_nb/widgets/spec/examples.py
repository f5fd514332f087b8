"""What a JSON box suggests to type: an example built from the field's schema (pure).

Where the form cannot offer fields, its JSON box shows a placeholder shaped like the schema
(``[{"oldText": "…", "newText": "…"}]`` for an array of objects) instead of the bare word
"JSON". Only a sketch: bounded in depth and size, local ``$ref`` followed, never an exception.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from anvia_nb.widgets.spec.schema import resolve_local

__all__ = ["example_json"]

_DEPTH = 4
_KEYS = 6
_CHARS = 300
_BY_TYPE: dict[str, Any] = {"string": "…", "integer": 0, "number": 0, "boolean": False, "null": None}


def example_json(schema: Any, root: Any = None) -> str:
    """A one-line JSON example for ``schema`` (``root`` resolves its ``#/...`` refs)."""
    text = json.dumps(_example(schema, schema if root is None else root, 0), ensure_ascii=False)
    return text if len(text) <= _CHARS else text[: _CHARS - 1] + "…"


def _example(schema: Any, root: Any, depth: int) -> Any:
    schema = resolve_local(root, schema)
    if not isinstance(schema, Mapping) or depth > _DEPTH:
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
                return _example(usable[0], root, depth + 1)
    type_ = schema.get("type")
    if isinstance(type_, list):
        type_ = next((t for t in type_ if t != "null"), None)
    if type_ == "array" or "items" in schema:
        return [_example(schema.get("items", {}), root, depth + 1)]
    if type_ == "object" or "properties" in schema:
        properties = schema.get("properties")
        if not isinstance(properties, Mapping):
            return {"key": "…"}
        wanted = schema.get("required")
        required = [k for k in properties if isinstance(wanted, list) and k in wanted]
        names = (required or list(properties))[:_KEYS]
        return {str(name): _example(properties[name], root, depth + 1) for name in names}
    return _BY_TYPE.get(type_, "…") if isinstance(type_, str) else "…"
