"""Tool arguments typed in a notebook: JSON objects and ``key=value`` values.

Kept apart from the line grammar because a JSON mistake deserves a precise answer: the line and
column where it broke and the text around the spot, in one line, so a person can fix it quickly.
"""

from __future__ import annotations

import json
from typing import Any

from anvia_nb.errors import AnviaError

__all__ = ["CommandLineError", "arguments_from_json", "json_prefix", "typed_for_schema", "value_from_text"]


class CommandLineError(AnviaError, ValueError):
    """A ``%mcp`` line that does not parse; the message says what to type instead."""


def value_from_text(value: str) -> Any:
    """A ``key=value`` value: JSON when it parses (numbers, true, lists...), else the text itself."""
    if value == "":
        return ""
    try:
        return json.loads(value)
    except ValueError:
        return value


def typed_for_schema(arguments: dict[str, Any], texts: dict[str, str], schema: Any) -> dict[str, Any]:
    """``key=value`` values as the tool wants them: ``message=123`` stays the text ``"123"`` when the
    property is a string (and not also the parsed type); every other value keeps its JSON reading."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return arguments
    typed = dict(arguments)
    for key, text in texts.items():
        prop = properties.get(key)
        kinds = prop.get("type") if isinstance(prop, dict) else None
        kinds = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []
        value = typed.get(key)
        if "string" in kinds and not isinstance(value, str) and _json_kind(value) not in kinds:
            typed[key] = text
    return typed


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "array" if isinstance(value, list) else "object"


def _json_error(text: str, exc: json.JSONDecodeError) -> CommandLineError:
    lines = text.splitlines() or [""]
    line = lines[min(exc.lineno, len(lines)) - 1]
    spot = exc.colno - 1
    before, after = line[max(0, spot - 30) : spot], line[spot : spot + 30]
    return CommandLineError(
        f"The JSON arguments do not parse at line {exc.lineno}, column {exc.colno}: {exc.msg}, "
        f"here: {before}⟦here⟧{after}"
    )


def _object_or_error(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise CommandLineError(f"Tool arguments must be a JSON object {{...}}, not a {type(value).__name__}.")
    return value


def json_prefix(text: str) -> tuple[dict[str, Any], int]:
    """The JSON value at the start of ``text`` and where it ends (options may follow it)."""
    try:
        value, end = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError as exc:
        raise _json_error(text, exc) from exc
    return _object_or_error(value), end


def arguments_from_json(text: str) -> dict[str, Any] | None:
    """A cell body as tool arguments: empty means none, else exactly one JSON object."""
    if not text.strip():
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _json_error(text, exc) from exc
    return _object_or_error(value)
