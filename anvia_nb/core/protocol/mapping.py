"""The result mapping (docs/mapping.md) as pure functions over plain JSON (wire keys).

These functions never see SDK models: ``_sdk`` dumps each result to a dict first, so the rules
can be unit-tested on hand-written dicts, including shapes the SDK can no longer deliver
(``{"toolResult": x}``).

The rules, in docs/mapping.md's order:

- text items are concatenated in server order with no separator; an output made only of text
  (embedded resources included) is one ``str``;
- an image becomes ``{"type": "file", "data": {"type": "data", "data": <base64>}, "mediaType": ...}``;
  an output holding any such part is a list of parts in server order, each text its own part;
- an embedded text or blob resource becomes the JSON serialization of its uri, mimeType and
  text or blob;
- ``audio`` and ``resource_link`` raise ``Unsupported MCP tool result content type``;
- empty content beside ``structuredContent``: the structured value, JSON-serialized, as the one text;
- ``{"toolResult": x}``: ``x`` when it is a string, else its JSON serialization when possible;
- ``isError: true`` raises with the text content, or ``MCP tool returned an error``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from anvia_nb.core.protocol.content import kind_of
from anvia_nb.core.protocol.types import JsonObject, MappedOutput, MappedPart
from anvia_nb.core.protocol.values import json_value
from anvia_nb.errors import (
    TOOL_ERROR_DEFAULT_MESSAGE,
    ArgumentError,
    InputRequiredError,
    ToolResultError,
    UnsupportedContentError,
)

__all__ = [
    "arguments_from_input",
    "json_text_from_value",
    "output_from_result",
    "part_from_content",
    "text_from_content",
]


def arguments_from_input(arguments: object) -> JsonObject | None:
    """The ``arguments`` field to send: a mapping is sent, ``None`` omits the field.

    Anything else (a list, a string, a number) raises :class:`ArgumentError` before any
    remote call (docs/mapping.md, rule 9). Values must be JSON: NumPy scalars and arrays
    (a DataFrame row) become plain numbers and lists; NaN, infinities and other objects raise
    :class:`ArgumentError` naming the argument, instead of failing inside the SDK or arriving as null.
    """
    if arguments is None:
        return None
    if isinstance(arguments, (dict, Mapping)):
        ready = json_value(arguments, "the arguments")  # the one rule of anvia_nb.core.protocol.values
        assert isinstance(ready, dict)
        return ready
    kind = type(arguments).__name__
    raise ArgumentError(
        f"Tool arguments must be a JSON object (a dict) or None, not {kind}; wrap the value in a dict "
        "keyed by the argument name."
    )


def json_text_from_value(value: object) -> str:
    """JSON text as Anvia (JavaScript's ``JSON.stringify``) would write it: compact, Unicode kept,
    and NaN or an infinity written as ``null``."""
    return json.dumps(_finite(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def _resource_text(resource: Mapping[str, Any]) -> str:
    fields: dict[str, Any] = {"uri": resource.get("uri")}
    if resource.get("mimeType") is not None:
        fields["mimeType"] = resource["mimeType"]
    if "text" in resource:
        fields["text"] = resource["text"]
    elif "blob" in resource:
        fields["blob"] = resource["blob"]
    return json_text_from_value(fields)


def text_from_content(item: Mapping[str, Any]) -> str | None:
    """The text an item contributes, or ``None`` for an item that is not text-like (an image).

    What each kind contributes is its ``mapped`` treatment in :data:`anvia_nb.core.protocol.content.KINDS`.
    """
    kind = kind_of(item)
    if kind is None or kind.mapped == "unsupported":
        raise UnsupportedContentError(str(item.get("type")))
    if kind.mapped == "text":
        return str(item.get("text", ""))
    if kind.mapped == "resource":
        resource = item.get("resource")
        return _resource_text(resource if isinstance(resource, Mapping) else {})
    return None


def part_from_content(item: Mapping[str, Any]) -> MappedPart:
    """One content item as a mapped part (used when the output is a list)."""
    kind = kind_of(item)
    if kind is not None and kind.mapped == "file":
        return {
            "type": "file",
            "data": {"type": "data", "data": item.get("data", "")},
            "mediaType": item.get("mimeType"),
        }
    text = text_from_content(item)
    return {"type": "text", "text": text if text is not None else ""}


def _error_message(content: list[Mapping[str, Any]]) -> str:
    texts = [str(item.get("text", "")) for item in content if item.get("type") == "text"]
    message = "".join(texts)
    return message if message else TOOL_ERROR_DEFAULT_MESSAGE


def output_from_result(result: Mapping[str, Any], *, server: str = "", tool: str = "") -> MappedOutput:
    """The mapped output of one tools/call result (wire keys), or the mapping's error.

    ``server`` and ``tool`` only label the raised errors. Raises :class:`ToolResultError` for
    ``isError``, :class:`UnsupportedContentError` for audio and resource_link, and
    :class:`InputRequiredError` for a ``resultType: "input_required"`` result, which is never output.
    """
    if result.get("resultType") == "input_required":
        raise InputRequiredError(
            "The server asked for more input (resultType input_required) and none was supplied.",
            **_label(result, server, tool),
        )
    if "toolResult" in result and "content" not in result:
        value = result["toolResult"]
        if isinstance(value, str):
            return value
        try:
            return json_text_from_value(value)
        except (TypeError, ValueError):
            return str(value)
    content_value = result.get("content")
    content: list[Mapping[str, Any]] = []
    if isinstance(content_value, list):
        for item in content_value:
            if isinstance(item, (dict, Mapping)):
                content.append(item)
    if result.get("isError"):
        message = _error_message(content)
        raise ToolResultError(message, server_text=message, **_label(result, server, tool))
    if not content and result.get("structuredContent") is not None:
        return json_text_from_value(result["structuredContent"])
    try:
        texts: list[str] = []
        for item in content:
            text = text_from_content(item)
            if text is None:  # a file among them: the output is the list of parts
                return [part_from_content(item) for item in content]
            texts.append(text)
        return "".join(texts)
    except UnsupportedContentError as exc:
        raise UnsupportedContentError(exc.content_type, **_label(result, server, tool)) from exc


def _label(result: Mapping[str, Any], server: str, tool: str) -> dict[str, Any]:
    """What a mapping error carries: the names, and a copy of the result (made only on failure)."""
    return {"server": server, "tool": tool, "raw": dict(result)}
