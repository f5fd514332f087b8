"""A recording's lines checked as the live path checks a server's messages: parsed by the same
JSON parser the SDK's models use (pydantic's, with its nesting limit) and validated with the SDK's
models, so a replay meets only what a live connection could have met.

Each function raises :class:`~anvia_nb.errors.RecordingFileError` with a short reason that quotes
no data; :mod:`anvia_nb.core.recording.reading` says it again with the file and line number.
"""

from __future__ import annotations

from typing import Any

import mcp_types
import pydantic

from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.core.transport.sdk.messages import json_value, reason
from anvia_nb.errors import RecordingFileError

__all__ = ["checked_capabilities", "checked_items", "checked_result", "parse_line"]

_LISTED: dict[str, type[pydantic.BaseModel]] = {
    "tools": mcp_types.Tool,
    "resources": mcp_types.Resource,
    "resourceTemplates": mcp_types.ResourceTemplate,
    "prompts": mcp_types.Prompt,
}


_ANY_JSON: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(Any)


def parse_line(line: bytes) -> Any:  # any: the SDK's JSON-RPC message model
    """One line's JSON value, by the SDK's own parser, pydantic-core's ``from_json`` (too deep, not
    UTF-8, not JSON: a problem, said in the words of pydantic's ``validate_json``, which holds a
    line of millions of small values twice as large: see benchmarks/README.md)."""
    try:
        return json_value(line)
    except ValueError:
        pass
    try:
        return _ANY_JSON.validate_json(line)  # not JSON after all: its words
    except pydantic.ValidationError as exc:
        raise RecordingFileError(f"not JSON ({reason(exc)})") from None


def _checked(model: type[pydantic.BaseModel], value: object, what: str) -> JsonObject:
    """``value`` itself (as recorded: what the live path kept), once the SDK's model accepts it."""
    try:
        model.model_validate(value)
    except pydantic.ValidationError as exc:
        raise RecordingFileError(f"{what} is not valid ({reason(exc)})") from None
    except RecursionError:
        raise RecordingFileError(f"{what} is nested too deeply") from None
    assert isinstance(value, dict)  # every model here is an object
    return value


def checked_items(kind: str, items: object) -> list[JsonObject]:
    """A listing's items, each valid as the SDK's model of its kind (an unknown kind: objects)."""
    if not isinstance(items, list):
        raise RecordingFileError(f"the {kind[:40]} listing's items are not a list")
    model = _LISTED.get(kind)
    if model is None:
        if not all(isinstance(item, dict) for item in items):
            raise RecordingFileError(f"the {kind[:40]} listing holds an item that is not an object")
        return list(items)
    return [_checked(model, item, f"{kind} item {index}") for index, item in enumerate(items)]


def checked_capabilities(value: object) -> JsonObject:
    """A recorded handshake's capabilities, valid as the SDK's ``ServerCapabilities``."""
    return _checked(mcp_types.ServerCapabilities, {} if value is None else value, "the server's capabilities")


def checked_result(value: object) -> JsonObject:
    """A recorded call's raw result, valid as the SDK's ``CallToolResult``."""
    return _checked(mcp_types.CallToolResult, value, "the call's result")
