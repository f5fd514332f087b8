"""Tab completion of ``%mcp skill``: ``NAME.SKILL`` from the skills listed (read once, bounded in
time, as the other listings' completion is), then the files that skill lists."""

from __future__ import annotations

from typing import TYPE_CHECKING

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.skills import skill_name
from anvia_nb.errors import AnviaError

if TYPE_CHECKING:
    from anvia_nb.core.protocol.types import JsonObject
    from anvia_nb.runtime import Runtime

__all__ = ["complete_skill"]


def _skills(runtime: Runtime, name: str) -> list[JsonObject]:
    server = runtime.server(name)
    if "skills" not in server.listings:
        runtime.run(server.skills(timeout_seconds=limits.COMPLETION_TIMEOUT_SECONDS))
    return list(server.listings.get("skills", []))


def complete_skill(words: list[str], runtime: Runtime) -> list[str]:
    try:
        if len(words) == 1:
            return [f"{name}.{skill_name(entry)}" for name in runtime.names() for entry in _skills(runtime, name)]
        server, _, skill = words[0].partition(".")
        for entry in _skills(runtime, server) if len(words) == 2 else []:
            if skill_name(entry) == skill:
                root = str(entry.get("uri", "")).removesuffix("SKILL.md")
                files = entry.get("resources")
                uris = [str(f.get("uri", "")) for f in files if isinstance(f, dict)] if isinstance(files, list) else []
                return [uri.removeprefix(root) for uri in uris if uri.startswith(root) and " " not in uri]
    except (AnviaError, KeyError):
        return []
    return []
