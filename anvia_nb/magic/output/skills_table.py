"""The DataFrame of ``%mcp skills``: one row per listed skill, every string the server's, through
the connection's :class:`~anvia_nb.policy.ShowPolicy` (masked, special characters made visible,
bounded), as the other listings' frames are."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from anvia_nb.core.protocol.skills import skill_name
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.frames.server_frame import ServerFrame
from anvia_nb.policy import ShowPolicy

__all__ = ["SKILL_COLUMNS", "skills_frame"]

SKILL_COLUMNS = ["server", "name", "description", "uri", "files"]


def skills_frame(listings: Iterable[tuple[str, tuple[str, ...], list[JsonObject]]], policy: ShowPolicy) -> pd.DataFrame:
    """One row per skill of each ``(connection, its secrets, its skills)``; ``files`` is the
    number of files its entry lists (none is read)."""
    rows = []
    for server, secrets, entries in listings:
        shown = policy.with_secrets(secrets)
        for entry in entries:
            matter = entry.get("frontmatter")
            description = matter.get("description") if isinstance(matter, dict) else None
            files = entry.get("resources")
            rows.append(
                {
                    "server": server,
                    "name": shown.line(skill_name(entry), shown.limits.name_chars),
                    "description": shown.line(description, shown.limits.text_chars)
                    if isinstance(description, str)
                    else None,
                    "uri": shown.line(str(entry.get("uri", "")), shown.limits.line_chars),
                    "files": len(files) if isinstance(files, list) else None,
                }
            )
    frame: pd.DataFrame = ServerFrame(rows, columns=SKILL_COLUMNS)
    return frame
