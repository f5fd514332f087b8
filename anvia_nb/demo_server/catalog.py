"""The demo server's tool table: every tool as the wire ``Tool`` object ``tools/list`` sends.

Plain JSON (camelCase keys), no SDK types, so the listing is sent exactly as written here and
tests can compare against it. Order matters: it is the listing order, split into pages.
"""

from __future__ import annotations

from typing import Any

from anvia_nb.demo_server.account_app import ACCOUNT_APP_TOOLS
from anvia_nb.demo_server.apps import APP_TOOLS
from anvia_nb.demo_server.capabilities import CAPABILITY_TOOLS
from anvia_nb.demo_server.exchange import EXCHANGE_TOOLS
from anvia_nb.demo_server.hostile import hostile_names
from anvia_nb.demo_server.hostile_app import HOSTILE_APP_TOOLS
from anvia_nb.demo_server.media import IMAGE_MIME_TYPES
from anvia_nb.demo_server.rows import ROW_TOOLS
from anvia_nb.demo_server.tool_objects import NO_ARGUMENTS, tool

__all__ = ["LARGE_MAX_CHARS", "TOOLS", "TOOLS_BY_NAME"]

JsonObject = dict[str, Any]

LARGE_MAX_CHARS = 60_000_000


def _object(properties: JsonObject, required: list[str] | None = None) -> JsonObject:
    schema: JsonObject = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


_FORM_SHOWCASE_SCHEMA: JsonObject = {
    "type": "object",
    "$defs": {
        "address": {
            "type": "object",
            "title": "Address",
            "properties": {
                "street": {"type": "string", "title": "Street"},
                "city": {"type": "string", "title": "City"},
                "postcode": {"type": "string", "pattern": "^[0-9]{5}$", "title": "Postcode"},
            },
            "required": ["city"],
        }
    },
    "properties": {
        "name": {
            "type": "string",
            "title": "Name",
            "description": "2 to 40 letters, spaces or hyphens",
            "minLength": 2,
            "maxLength": 40,
            "pattern": "^[A-Za-z][A-Za-z -]*$",
        },
        "email": {"type": "string", "format": "email", "title": "Email"},
        "homepage": {"type": "string", "format": "uri", "title": "Homepage"},
        "birthday": {"type": "string", "format": "date", "title": "Birthday"},
        "meeting": {"type": "string", "format": "date-time", "title": "Meeting"},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1, "title": "Ratio", "description": "0 to 1"},
        "count": {"type": "integer", "minimum": 1, "maximum": 100, "title": "Count", "default": 3},
        "subscribe": {"type": "boolean", "title": "Subscribe", "default": False},
        "colour": {"type": "string", "enum": ["red", "green", "blue"], "title": "Colour"},
        "size": {
            "title": "Size",
            "oneOf": [
                {"const": "s", "title": "Small"},
                {"const": "m", "title": "Medium"},
                {"const": "l", "title": "Large"},
            ],
        },
        "toppings": {
            "type": "array",
            "title": "Toppings",
            "items": {"type": "string", "enum": ["cheese", "olives", "basil"]},
            "uniqueItems": True,
        },
        "tags": {"type": "array", "title": "Tags", "items": {"type": "string"}, "maxItems": 5},
        "address": {"$ref": "#/$defs/address"},
        "options": {
            "type": "object",
            "title": "Options",
            "properties": {
                "verbose": {"type": "boolean", "title": "Verbose"},
                "level": {"type": "integer", "minimum": 0, "maximum": 5, "title": "Level"},
            },
        },
        "nickname": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Nickname"},
        "score": {"type": ["number", "null"], "title": "Score"},
        "greeting": {"type": "string", "default": "hello", "title": "Greeting"},
    },
    "required": ["name", "email", "count"],
    "additionalProperties": False,
}

_DESTRUCTIVE = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": False,
}
_ASKS_USER = {**_DESTRUCTIVE, "destructiveHint": False}

TOOLS: list[JsonObject] = [
    tool(
        "echo",
        "Echo",
        "Returns the message as one text item.",
        _object({"message": {"type": "string", "description": "Text to send back"}}, ["message"]),
    ),
    tool(
        "echo_arguments",
        "Echo arguments",
        "Returns any arguments as JSON text (sorted keys) and as structuredContent; no outputSchema.",
        {"type": "object", "additionalProperties": True},
    ),
    tool(
        "add",
        "Add",
        "Adds two numbers: the sum as text and as structuredContent {sum}.",
        _object({"a": {"type": "number"}, "b": {"type": "number"}}, ["a", "b"]),
        output_schema={"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]},
    ),
    tool(
        "concat_texts",
        "Concatenate texts",
        "Returns one text item per part, in order.",
        _object({"parts": {"type": "array", "items": {"type": "string"}}}, ["parts"]),
    ),
    tool(
        "image",
        "Image",
        "Returns a caption and a small valid image of the chosen type.",
        _object({"kind": {"type": "string", "enum": list(IMAGE_MIME_TYPES), "default": "png"}}, ["kind"]),
    ),
    tool("audio", "Audio", "Returns a short WAV tone as an audio item.", NO_ARGUMENTS),
    tool("resource_link", "Resource link", "Returns a resource_link to demo://notes/1.", NO_ARGUMENTS),
    tool(
        "embedded_text_resource",
        "Embedded text resource",
        "Returns an embedded text resource.",
        NO_ARGUMENTS,
    ),
    tool(
        "embedded_blob_resource",
        "Embedded blob resource",
        "Returns an embedded binary resource (base64 blob).",
        NO_ARGUMENTS,
    ),
    tool(
        "structured_only",
        "Structured only",
        "Returns empty content with structuredContent.",
        NO_ARGUMENTS,
        output_schema={
            "type": "object",
            "properties": {"temperature": {"type": "number"}, "unit": {"type": "string", "enum": ["C", "F"]}},
            "required": ["temperature", "unit"],
        },
    ),
    tool(
        "schema_mismatch",
        "Schema mismatch",
        'Declares {count: integer} as outputSchema but sends {count: "three"}, on purpose.',
        NO_ARGUMENTS,
        output_schema={"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]},
    ),
    tool(
        "fail",
        "Fail",
        "Returns isError: true with the message as text.",
        _object({"message": {"type": "string", "default": "the demo tool failed on purpose"}}),
    ),
    tool("fail_silently", "Fail silently", "Returns isError: true with no content at all.", NO_ARGUMENTS),
    tool(
        "slow",
        "Slow",
        "Works in steps, reporting progress per step; cancellable.",
        _object(
            {
                "steps": {"type": "integer", "minimum": 0, "maximum": 10_000, "default": 5},
                "delay_seconds": {"type": "number", "minimum": 0, "maximum": 60, "default": 0.2},
            }
        ),
    ),
    tool(
        "large",
        "Large",
        f"Returns one text item of exactly size_chars characters (at most {LARGE_MAX_CHARS:_}).",
        _object({"size_chars": {"type": "integer", "minimum": 0, "maximum": LARGE_MAX_CHARS}}, ["size_chars"]),
    ),
    tool(
        "env_value",
        "Environment value",
        "Returns the value of one environment variable of the server process (to test secret masking).",
        _object({"name": {"type": "string"}}, ["name"]),
    ),
    tool(
        "form_showcase",
        "Form showcase",
        "Exercises every form field kind; echoes its arguments as JSON text and structuredContent.",
        _FORM_SHOWCASE_SCHEMA,
    ),
    tool(
        "confirm_action",
        "Confirm action",
        "Asks the user to confirm by elicitation, then says whether it was confirmed, declined or cancelled.",
        _object({"action": {"type": "string", "description": "What to confirm"}}, ["action"]),
        annotations=_ASKS_USER,
    ),
    tool(
        "untrusted",
        "Untrusted payload",
        "Returns one payload of the hostile corpus, to test safe rendering.",
        _object({"kind": {"type": "string", "enum": hostile_names()}}, ["kind"]),
    ),
    tool(
        "untrusted_all",
        "All untrusted payloads",
        "Returns every hostile payload in one result (the enormous image only when asked).",
        _object({"include_enormous": {"type": "boolean", "default": False}}),
    ),
    tool(
        "crash",
        "Crash",
        "Exits the server process abruptly (exit code 3), to test dead servers.",
        NO_ARGUMENTS,
        annotations=_DESTRUCTIVE,
    ),
    *EXCHANGE_TOOLS,
]

TOOLS += CAPABILITY_TOOLS  # ask_model (sampling) and long_job (a task)
TOOLS.extend(ROW_TOOLS)  # jitter and records, for maps and tables
TOOLS.extend(APP_TOOLS)  # counter_app and its view (MCP Apps): apps.py
TOOLS.extend(HOSTILE_APP_TOOLS)  # hostile_view (an MCP App that attacks its host), for the sandbox tests
TOOLS.extend(ACCOUNT_APP_TOOLS)  # account_view (an MCP App that attacks a page for viewers)

TOOLS_BY_NAME: dict[str, JsonObject] = {listed["name"]: listed for listed in TOOLS}
