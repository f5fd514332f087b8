"""The demo server's skills (the Skills extension, SEP-2640: ``io.modelcontextprotocol/skills``).

Two skills, each a ``SKILL.md`` with YAML frontmatter and, for one, a supporting file, served
as ordinary resources under ``skill://`` (read with ``resources/read``, not listed among the
demo's resources). ``skills/list`` gives each skill's entry (its ``SKILL.md`` URI, its frontmatter
as JSON, every file with its ``sha256`` digest and size in bytes); ``skills/get`` one entry by URI,
or ``-32602`` for a URI that is no skill here. :func:`install` declares the extension among the
server's capabilities and adds the two methods.
"""

from __future__ import annotations

import hashlib
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

__all__ = ["SKILLS", "SKILLS_EXTENSION", "install", "skill_contents"]

SKILLS_EXTENSION = "io.modelcontextprotocol/skills"

_SUMMARY_MD = """---
name: summarize-notes
description: Summarize the demo server's notes in three lines
---

# Summarize notes

1. List the notes with `%mcp resources demo`.
2. Read each `demo://notes/{id}`.
3. Write three lines: what is due, what is read, what is left.

See [the style guide](references/STYLE.md) for the tone.
"""
_STYLE_MD = "# Style\n\nShort sentences. No jargon. Name each note by its id.\n"
_REVIEW_MD = """---
name: review-args
description: Check a tool's arguments against its inputSchema before calling it
---

# Review arguments

Compare each argument with the tool's `inputSchema`; call only when none is missing.
<b>Markup in a skill is text</b>, shown as written.
"""

SKILLS: dict[str, dict[str, str]] = {
    "summarize-notes": {"SKILL.md": _SUMMARY_MD, "references/STYLE.md": _STYLE_MD},
    "review-args": {"SKILL.md": _REVIEW_MD},
}
"""Each skill's files by path within the skill, ``SKILL.md`` first."""

_FRONTMATTER = {
    "summarize-notes": {"name": "summarize-notes", "description": "Summarize the demo server's notes in three lines"},
    "review-args": {
        "name": "review-args",
        "description": "Check a tool's arguments against its inputSchema before calling it",
    },
}


def _uri(skill: str, path: str) -> str:
    return f"skill://{skill}/{path}"


def _entry(skill: str) -> dict[str, Any]:  # any: JSON
    files = SKILLS[skill]
    return {
        "uri": _uri(skill, "SKILL.md"),
        "frontmatter": dict(_FRONTMATTER[skill]),
        "resources": [
            {
                "uri": _uri(skill, path),
                "digest": "sha256:" + hashlib.sha256(text.encode()).hexdigest(),
                "size": len(text.encode()),
            }
            for path, text in files.items()
        ],
    }


def skill_contents(uri: str) -> list[dict[str, Any]] | None:  # any: JSON
    """What ``resources/read`` answers for a skill file's URI; ``None`` when it is none."""
    skill, _, path = uri.removeprefix("skill://").partition("/")
    text = SKILLS.get(skill, {}).get(path) if uri.startswith("skill://") else None
    if text is None:
        return None
    return [{"uri": uri, "mimeType": "text/markdown", "text": text}]


class _ListParams(types.RequestParams):
    cursor: str | None = None


class _GetParams(types.RequestParams):
    uri: str


async def _list(_ctx: ServerRequestContext[Any], _params: _ListParams) -> dict[str, Any]:  # any: the SDK's context
    return {"skills": [_entry(skill) for skill in SKILLS], "ttlMs": 0, "cacheScope": "public"}


async def _get(_ctx: ServerRequestContext[Any], params: _GetParams) -> dict[str, Any]:  # any: the SDK's context
    for skill in SKILLS:
        if params.uri == _uri(skill, "SKILL.md"):
            return {"skill": _entry(skill), "ttlMs": 0, "cacheScope": "public"}
    raise MCPError(code=types.INVALID_PARAMS, message=f"No skill at {params.uri}")


def install(server: Server[Any]) -> None:  # any: the SDK's lifespan type
    """Declare the extension on ``server`` and answer ``skills/list``, ``skills/get`` and the
    skill files' ``resources/read`` (other URIs go to the reader it had)."""
    server.extensions[SKILLS_EXTENSION] = {}
    server.add_request_handler("skills/list", _ListParams, _list)
    server.add_request_handler("skills/get", _GetParams, _get)
    reader = server.get_request_handler("resources/read")
    assert reader is not None, "install skills after the library's handlers"
    other = reader.handler

    async def read(ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams) -> Any:  # any: SDK
        contents = skill_contents(str(params.uri))
        if contents is None:
            return await other(ctx, params)
        return types.ReadResourceResult.model_validate({"contents": contents})

    server.add_request_handler("resources/read", types.ReadResourceRequestParams, read)
