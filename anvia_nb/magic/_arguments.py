"""Tool arguments typed in a notebook: JSON objects and ``key=value`` values.

Kept apart from the line grammar because a JSON mistake deserves a precise answer: the line and
column where it broke and a caret under the spot, so a person can fix a long cell body quickly.
"""

from __future__ import annotations

import json
from typing import Any

from anvia_nb.errors import AnviaError

__all__ = ["CommandLineError", "arguments_from_json", "json_prefix", "value_from_text"]


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


def _json_error(text: str, exc: json.JSONDecodeError) -> CommandLineError:
    lines = text.splitlines() or [""]
    line = lines[min(exc.lineno, len(lines)) - 1]
    start = max(0, exc.colno - 1 - 60)
    excerpt = line[start : start + 120]
    caret = " " * (exc.colno - 1 - start) + "^"
    return CommandLineError(
        f"The JSON arguments do not parse at line {exc.lineno}, column {exc.colno}: {exc.msg}.\n"
        f"    {excerpt}\n    {caret}"
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
