"""Results of the demo tools that need nothing but their arguments, as wire JSON.

Each builder returns a ``CallToolResult`` exactly as it goes on the wire (camelCase keys). The
SDK serialises plain dicts without checking ``structuredContent`` against ``outputSchema``, which
is how ``schema_mismatch`` really reaches clients with its wrong data. Arguments are checked
against the tool's ``inputSchema`` first, as a real server must (the client-side schema only
guides the caller); a violation is a tool error the caller can read and correct.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Callable
from typing import Any

from anvia_nb.core.protocol.schema import import_jsonschema
from anvia_nb.demo_server.catalog import LARGE_MAX_CHARS, TOOLS_BY_NAME
from anvia_nb.demo_server.hostile import ENORMOUS_IMAGE, HOSTILE_CORPUS, hostile_content
from anvia_nb.demo_server.media import IMAGE_MIME_TYPES, image_bytes, wav_bytes

__all__ = ["SIMPLE_TOOLS", "argument_problems", "error_result", "text_result"]

JsonObject = dict[str, Any]

NOTE_TEXT = "Buy milk.\nCall Ada about the MCP demo.\n"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _text(text: str) -> JsonObject:
    return {"type": "text", "text": text}


def text_result(text: str) -> JsonObject:
    return {"content": [_text(text)]}


def error_result(message: str | None) -> JsonObject:
    """An ``isError`` result; ``None`` sends no content at all (the default-message case of docs/mapping.md, rule 8)."""
    return {"content": [] if message is None else [_text(message)], "isError": True}


def argument_problems(tool_name: str, arguments: JsonObject) -> list[str]:
    """One readable line per way ``arguments`` break the tool's ``inputSchema`` (empty when valid)."""
    import_jsonschema()  # at once when the server's startup thread already did it
    from jsonschema import Draft202012Validator, FormatChecker

    schema = TOOLS_BY_NAME[tool_name]["inputSchema"]
    validator = Draft202012Validator(schema, format_checker=FormatChecker())
    problems = []
    for error in sorted(validator.iter_errors(arguments), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(part) for part in error.absolute_path) or "arguments"
        problems.append(f"{where}: {error.message}")
    return problems


def _echo(args: JsonObject) -> JsonObject:
    return text_result(args["message"])


def _echo_arguments(args: JsonObject) -> JsonObject:
    return {"content": [_text(json.dumps(args, sort_keys=True))], "structuredContent": args}


def _add(args: JsonObject) -> JsonObject:
    total = args["a"] + args["b"]
    return {"content": [_text(str(total))], "structuredContent": {"sum": total}}


def _concat_texts(args: JsonObject) -> JsonObject:
    return {"content": [_text(part) for part in args["parts"]]}


def _image(args: JsonObject) -> JsonObject:
    kind = args["kind"]
    data = image_bytes(kind)
    return {
        "content": [
            _text(f"A small {kind} image ({len(data)} bytes)."),
            {"type": "image", "data": _b64(data), "mimeType": IMAGE_MIME_TYPES[kind]},
        ]
    }


def _audio(_args: JsonObject) -> JsonObject:
    return {"content": [{"type": "audio", "data": _b64(wav_bytes()), "mimeType": "audio/wav"}]}


def _resource_link(_args: JsonObject) -> JsonObject:
    link = {
        "type": "resource_link",
        "uri": "demo://notes/1",
        "name": "note-1",
        "title": "Shopping note",
        "description": "A short note; reading it is the client's decision.",
        "mimeType": "text/plain",
        "size": len(NOTE_TEXT.encode()),
    }
    return {"content": [link]}


def _embedded_text_resource(_args: JsonObject) -> JsonObject:
    resource = {"uri": "demo://notes/1", "mimeType": "text/plain", "text": NOTE_TEXT}
    return {"content": [{"type": "resource", "resource": resource}]}


def _embedded_blob_resource(_args: JsonObject) -> JsonObject:
    resource = {
        "uri": "demo://files/report.bin",
        "mimeType": "application/octet-stream",
        "blob": _b64(bytes(range(16))),
    }
    return {"content": [{"type": "resource", "resource": resource}]}


def _structured_only(_args: JsonObject) -> JsonObject:
    return {"content": [], "structuredContent": {"temperature": 21.5, "unit": "C"}}


def _schema_mismatch(_args: JsonObject) -> JsonObject:
    return {"content": [_text("count: three")], "structuredContent": {"count": "three"}}


def _fail(args: JsonObject) -> JsonObject:
    return error_result(args.get("message", "the demo tool failed on purpose"))


def _fail_silently(_args: JsonObject) -> JsonObject:
    return error_result(None)


def _large(args: JsonObject) -> JsonObject:
    size = min(args["size_chars"], LARGE_MAX_CHARS)
    block = "0123456789abcdef"
    return text_result((block * (size // len(block) + 1))[:size])


def _env_value(args: JsonObject) -> JsonObject:
    name = args["name"]
    value = os.environ.get(name)
    if value is None:
        return error_result(f"environment variable {name} is not set")
    return text_result(value)


def _form_showcase(args: JsonObject) -> JsonObject:
    return {"content": [_text(json.dumps(args, sort_keys=True))], "structuredContent": args}


def _untrusted(args: JsonObject) -> JsonObject:
    return {"content": hostile_content(args["kind"])}


def _untrusted_all(args: JsonObject) -> JsonObject:
    names = list(HOSTILE_CORPUS)
    if args.get("include_enormous", False):
        names.append(ENORMOUS_IMAGE)
    return {"content": [item for name in names for item in hostile_content(name)]}


SIMPLE_TOOLS: dict[str, Callable[[JsonObject], JsonObject]] = {
    "echo": _echo,
    "echo_arguments": _echo_arguments,
    "add": _add,
    "concat_texts": _concat_texts,
    "image": _image,
    "audio": _audio,
    "resource_link": _resource_link,
    "embedded_text_resource": _embedded_text_resource,
    "embedded_blob_resource": _embedded_blob_resource,
    "structured_only": _structured_only,
    "schema_mismatch": _schema_mismatch,
    "fail": _fail,
    "fail_silently": _fail_silently,
    "large": _large,
    "env_value": _env_value,
    "form_showcase": _form_showcase,
    "untrusted": _untrusted,
    "untrusted_all": _untrusted_all,
}
"""Tools whose result depends only on their arguments; ``slow``, ``confirm_action`` and ``crash``
need the request context and live in :mod:`anvia_nb.demo_server.handlers`."""
