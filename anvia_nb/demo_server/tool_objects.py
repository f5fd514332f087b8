"""The wire ``Tool`` objects the demo server lists, written one way: :func:`tool`, the
schema of a tool without arguments (``NO_ARGUMENTS``) and the annotations its read-only tools share
(``READ_ONLY``, the ``ToolAnnotations`` hints)."""

from __future__ import annotations

from typing import Any

__all__ = ["NO_ARGUMENTS", "READ_ONLY", "tool"]

JsonObject = dict[str, Any]

NO_ARGUMENTS: JsonObject = {"type": "object", "properties": {}, "additionalProperties": False}
"""The input schema of a tool that takes no arguments."""

READ_ONLY = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}


def tool(
    name: str,
    title: str,
    description: str,
    input_schema: JsonObject,
    *,
    output_schema: JsonObject | None = None,
    annotations: JsonObject | None = None,
    meta: JsonObject | None = None,
) -> JsonObject:
    """One ``Tool`` as ``tools/list`` sends it (camelCase keys): ``title`` is also its annotations'
    title, the hints are ``READ_ONLY`` unless ``annotations`` says others, ``meta`` is its ``_meta``."""
    found: JsonObject = {"name": name, "title": title, "description": description, "inputSchema": input_schema}
    if output_schema is not None:
        found["outputSchema"] = output_schema
    found["annotations"] = {"title": title, **(annotations if annotations is not None else READ_ONLY)}
    if meta is not None:
        found["_meta"] = meta
    return found
