"""The demo server's resources, resource templates, prompts and argument completion.

Resources: a text note (the one the ``resource_link`` tool offers), a Markdown readme, a PNG image,
a binary blob and hostile ones (their names, URIs, titles and texts are script, TeX and bidi
overrides) for the display tests. Templates: ``demo://notes/{id}`` (ids completed), and
``demo://env/{name}`` (an environment variable of the server, to test secret masking). Prompts:
``greet`` (a required name, a language completed), ``review_note`` (embeds a resource and an
image) and ``hostile``. Listings are paginated (:data:`PAGE_SIZE`) so clients follow ``nextCursor``.

Plain data, then the SDK handlers; ``handlers.build_server`` registers them. The poisoned server
serves its own library through the same handlers (:func:`library_handlers`).
"""

from __future__ import annotations

import base64
import os
from collections.abc import Callable
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from anvia_nb.demo_server.account_app import ACCOUNT_APP_RESOURCES
from anvia_nb.demo_server.apps import APP_CONTENTS, APP_RESOURCES
from anvia_nb.demo_server.exchange import COUNTER_URI, counter_text
from anvia_nb.demo_server.hostile import HOSTILE_PROMPT_MESSAGES, HOSTILE_RESOURCES
from anvia_nb.demo_server.hostile_app import HOSTILE_APP_RESOURCES
from anvia_nb.demo_server.media import png_bytes
from anvia_nb.demo_server.results import NOTE_TEXT

__all__ = ["HANDLERS", "NOTES", "PAGE_SIZE", "PROMPTS", "RESOURCES", "TEMPLATES", "contents_of", "library_handlers"]

JsonObject = dict[str, Any]
_Context = ServerRequestContext[Any]

PAGE_SIZE = 3
"""Resources per ``resources/list`` page: small on purpose, so clients must follow ``nextCursor``."""

NOTES = {"1": NOTE_TEXT, "2": "Water the plants.\n", "3": "Read the MCP specification on resources.\n"}
README = "# The demo server\n\nIt has *tools*, **resources** and prompts. `%mcp read demo demo://readme`\n"
BLOB = bytes(range(256))
LANGUAGES = ("english", "french", "german", "norwegian", "spanish")
_GREETINGS = {"english": "Hello", "french": "Bonjour", "german": "Hallo", "norwegian": "Hei", "spanish": "Hola"}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


_OWN: list[tuple[JsonObject, JsonObject]] = [
    (
        {"uri": "demo://notes/1", "name": "note-1", "title": "Shopping note", "mimeType": "text/plain",
         "size": len(NOTE_TEXT.encode()), "description": "The note the resource_link tool offers."},
        {"uri": "demo://notes/1", "mimeType": "text/plain", "text": NOTE_TEXT},
    ),
    (
        {"uri": "demo://readme", "name": "readme", "title": "Read me", "mimeType": "text/markdown",
         "description": "Markdown, shown as source.", "annotations": {"audience": ["user"], "priority": 0.8}},
        {"uri": "demo://readme", "mimeType": "text/markdown", "text": README},
    ),
    (
        {"uri": "demo://images/logo.png", "name": "logo", "title": "A small PNG", "mimeType": "image/png",
         "size": len(png_bytes())},
        {"uri": "demo://images/logo.png", "mimeType": "image/png", "blob": _b64(png_bytes())},
    ),
    (
        {"uri": "demo://data/sample.bin", "name": "sample", "title": "256 bytes",
         "mimeType": "application/octet-stream", "size": len(BLOB),
         "description": "Binary: shown as its size; save it to a file."},
        {"uri": "demo://data/sample.bin", "mimeType": "application/octet-stream", "blob": _b64(BLOB)},
    ),
]  # fmt: skip

_COUNTER: JsonObject = {"uri": COUNTER_URI, "name": "counter", "title": "A counter", "mimeType": "text/plain",
                         "description": "Changes when the tool bump is called; subscribe to hear of it."}  # fmt: skip

RESOURCES: list[JsonObject] = [listed for listed, _ in _OWN] + [_COUNTER] + [listed for listed, _ in HOSTILE_RESOURCES]
RESOURCES += APP_RESOURCES  # the views of MCP Apps (apps.py)
RESOURCES += [listed for listed, _ in HOSTILE_APP_RESOURCES]  # the hostile MCP App's view
RESOURCES += [listed for listed, _ in ACCOUNT_APP_RESOURCES]  # the view that attacks a page for viewers
_CONTENTS: dict[str, JsonObject] = {
    listed["uri"]: content
    for listed, content in [*_OWN, *HOSTILE_RESOURCES, *HOSTILE_APP_RESOURCES, *ACCOUNT_APP_RESOURCES]
}
_CONTENTS.update(APP_CONTENTS)

TEMPLATES: list[JsonObject] = [
    {"uriTemplate": "demo://notes/{id}", "name": "note", "title": "A note by id", "mimeType": "text/plain",
     "description": "Notes 1 to 3; the id is completed."},
    {"uriTemplate": "demo://env/{name}", "name": "env", "title": "An environment variable of the server",
     "mimeType": "text/plain", "description": "To test secret masking: its value, as text."},
]  # fmt: skip

PROMPTS: list[JsonObject] = [
    {
        "name": "greet",
        "title": "A greeting",
        "description": "Greets someone in a language (completed).",
        "arguments": [
            {"name": "name", "description": "Who to greet", "required": True},
            {"name": "language", "description": "One of " + ", ".join(LANGUAGES), "required": False},
        ],
    },
    {
        "name": "review_note",
        "title": "Review a note",
        "description": "Asks for a review of a note, embedding the note and a picture.",
        "arguments": [{"name": "id", "description": "The note's id (completed)", "required": True}],
    },
    {
        "name": "hostile",
        "title": r"$\href{https://evil.example}{\text{OK ✔ safe}}$",
        "description": "<script>window.__anvia_pwned=1</script> invoice_\u202egpj.exe",
        "arguments": [{"name": "<b>x</b>", "description": '<img src=x onerror="window.__anvia_pwned=1">'}],
    },
]


def contents_of(uri: str) -> list[JsonObject]:
    """The contents ``resources/read`` answers for ``uri``; ``MCPError`` for an unknown one."""
    if uri in _CONTENTS:
        return [dict(_CONTENTS[uri])]
    if uri == COUNTER_URI:  # changes with the tool bump (exchange.py)
        return [{"uri": uri, "mimeType": "text/plain", "text": counter_text()}]
    if uri.startswith("demo://notes/") and uri.removeprefix("demo://notes/") in NOTES:
        return [{"uri": uri, "mimeType": "text/plain", "text": NOTES[uri.removeprefix("demo://notes/")]}]
    if uri.startswith("demo://env/"):
        name = uri.removeprefix("demo://env/")
        value = os.environ.get(name)
        if value is not None:
            return [{"uri": uri, "mimeType": "text/plain", "text": value}]
    raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown resource: {uri}")


def prompt_messages(name: str, arguments: dict[str, str]) -> JsonObject:
    """The GetPromptResult (wire keys) of one prompt; ``MCPError`` for a bad name or argument."""
    if name == "greet":
        who = arguments.get("name")
        if not who:
            raise MCPError(code=types.INVALID_PARAMS, message="greet needs a name")
        hello = _GREETINGS.get(arguments.get("language", "english"), "Hello")
        return {
            "description": "A greeting",
            "messages": [
                {"role": "user", "content": {"type": "text", "text": f"Please greet {who}."}},
                {"role": "assistant", "content": {"type": "text", "text": f"{hello}, {who}!"}},
            ],
        }
    if name == "review_note":
        note = arguments.get("id", "")
        if note not in NOTES:
            raise MCPError(code=types.INVALID_PARAMS, message=f"No note {note!r}: notes are 1, 2 and 3")
        resource = {"uri": f"demo://notes/{note}", "mimeType": "text/plain", "text": NOTES[note]}
        return {
            "description": f"Review of note {note}",
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "Review this note, and look at the picture."}},
                {"role": "user", "content": {"type": "resource", "resource": resource}},
                {"role": "user", "content": {"type": "image", "data": _b64(png_bytes()), "mimeType": "image/png"}},
            ],
        }
    if name == "hostile":
        return {"description": "<script>window.__anvia_pwned=1</script>", "messages": HOSTILE_PROMPT_MESSAGES}
    raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown prompt: {name}")


def completions(ref: JsonObject, argument: str, value: str) -> list[str]:
    """Values starting with what is typed, for the arguments and variables that have them."""
    wanted = (ref.get("type"), ref.get("name") or ref.get("uri"), argument)
    found: list[str] = []
    if wanted == ("ref/prompt", "greet", "language"):
        found = list(LANGUAGES)
    if wanted in (("ref/prompt", "review_note", "id"), ("ref/resource", "demo://notes/{id}", "id")):
        found = list(NOTES)
    return [v for v in found if v.startswith(value)]


# -- the SDK handlers ----------------------------------------------------------------------------


def _page(items: list[JsonObject], cursor: str | None) -> tuple[list[JsonObject], str | None]:
    try:
        offset = int(cursor) if cursor is not None else 0
    except ValueError:
        raise MCPError(code=types.INVALID_PARAMS, message="Invalid cursor") from None
    if not 0 <= offset <= len(items):
        raise MCPError(code=types.INVALID_PARAMS, message="Invalid cursor")
    end = offset + PAGE_SIZE
    return items[offset:end], (str(end) if end < len(items) else None)


def library_handlers(
    resources: list[JsonObject],
    templates: list[JsonObject],
    prompts: list[JsonObject],
    contents: Callable[[str], list[JsonObject]],
    messages: Callable[[str, dict[str, str]], JsonObject],
) -> dict[str, Any]:
    """Keyword arguments of the SDK's ``Server`` that serve a fixed library: ``resources`` a page
    (:data:`PAGE_SIZE`) at a time, ``templates`` and ``prompts`` whole, ``contents(uri)`` for a
    read and ``messages(name, arguments)`` for a prompt (each raises ``MCPError`` for what it lacks).
    """

    async def list_resources(_ctx: _Context, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        page, cursor = _page(resources, params.cursor if params is not None else None)
        return types.ListResourcesResult.model_validate({"resources": page, "nextCursor": cursor})

    async def list_templates(
        _ctx: _Context, _params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult.model_validate({"resourceTemplates": templates})

    async def read(_ctx: _Context, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        return types.ReadResourceResult.model_validate({"contents": contents(str(params.uri))})

    async def list_prompts(_ctx: _Context, _params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        return types.ListPromptsResult.model_validate({"prompts": prompts})

    async def get_prompt(_ctx: _Context, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        return types.GetPromptResult.model_validate(messages(params.name, dict(params.arguments or {})))

    return {
        "on_list_resources": list_resources,
        "on_list_resource_templates": list_templates,
        "on_read_resource": read,
        "on_list_prompts": list_prompts,
        "on_get_prompt": get_prompt,
    }


async def _complete(_ctx: _Context, params: types.CompleteRequestParams) -> types.CompleteResult:
    ref = params.ref.model_dump(by_alias=True, mode="json")
    values = completions(ref, params.argument.name, params.argument.value)
    return types.CompleteResult.model_validate({"completion": {"values": values, "total": len(values)}})


HANDLERS: dict[str, Any] = {
    **library_handlers(RESOURCES, TEMPLATES, PROMPTS, contents_of, prompt_messages),
    "on_completion": _complete,
}
"""Keyword arguments of the SDK's ``Server`` for everything here."""
