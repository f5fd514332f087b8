"""The DataFrames of ``%mcp resources``, ``%mcp templates`` and ``%mcp prompts``.

Values, not printouts (``df = %mcp resources``). Every string in them is the server's: it goes
through the connection's :class:`~anvia_nb.policy.ShowPolicy` (masked, special characters made
visible, bounded by its named limits), and each frame is a :class:`~anvia_nb.frames.server_frame.ServerFrame`,
whose HTML a front end's MathJax leaves alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import pandas as pd

from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.frames.server_frame import ServerFrame
from anvia_nb.policy import ShowPolicy

__all__ = [
    "PROMPT_COLUMNS",
    "RESOURCE_COLUMNS",
    "TEMPLATE_COLUMNS",
    "prompts_frame",
    "resources_frame",
    "templates_frame",
]

RESOURCE_COLUMNS = [
    "server",
    "uri",
    "name",
    "title",
    "mimeType",
    "size",
    "description",
    "annotations",
    "subscribed",
    "updates",
]
Subscribed = Mapping[tuple[str, str], tuple[bool, int]]
"""``(connection, uri)`` to (subscribed now, updates counted) (core/subscriptions.py)."""
TEMPLATE_COLUMNS = ["server", "uriTemplate", "name", "title", "mimeType", "description", "annotations"]
PROMPT_COLUMNS = ["server", "name", "title", "description", "arguments", "required"]

Listing = Iterable[tuple[str, tuple[str, ...], list[JsonObject]]]
"""``(connection name, its secrets, the listing)`` for each connection."""


def _line(value: Any, shown: ShowPolicy, limit: int) -> str | None:
    return shown.line(value, limit) if isinstance(value, str) else None


def _json(value: Any, shown: ShowPolicy) -> str | None:
    if value is None:
        return None
    return shown.line(json.dumps(value, ensure_ascii=False, default=str), shown.limits.line_chars)


def _size(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _common(item: JsonObject, shown: ShowPolicy) -> dict[str, Any]:
    return {
        "name": _line(item.get("name"), shown, shown.limits.name_chars),
        "title": _line(item.get("title"), shown, shown.limits.line_chars),
        "mimeType": _line(item.get("mimeType"), shown, shown.limits.name_chars),
        "description": _line(item.get("description"), shown, shown.limits.text_chars),
        "annotations": _json(item.get("annotations"), shown),
    }


def _items(listings: Listing, policy: ShowPolicy | None) -> Iterator[tuple[str, ShowPolicy, JsonObject]]:
    """``(connection, its policy, item)`` for every item of every listing, in order."""
    for server, secrets, items in listings:
        shown = (policy or ShowPolicy()).with_secrets(secrets)
        for item in items:
            yield server, shown, item


def resources_frame(
    listings: Listing, policy: ShowPolicy | None = None, subscribed: Subscribed | None = None
) -> pd.DataFrame:
    """One row per listed resource; ``subscribed`` and ``updates`` from the subscriptions. A URI
    subscribed to but not listed (made from a template) gets a row of its own after the listed
    ones, with nothing but its URI and its subscription."""
    rows = []
    for server, secrets, items in listings:
        shown = (policy or ShowPolicy()).with_secrets(secrets)
        listed: set[str] = set()
        for item in items:
            uri = _line(item.get("uri"), shown, shown.limits.line_chars)
            listed.add(str(item.get("uri")))
            on, updates = (subscribed or {}).get((server, str(item.get("uri"))), (False, 0))
            common = _common(item, shown)
            rows.append(
                {
                    "server": server,
                    "uri": uri,
                    **common,
                    "size": _size(item.get("size")),
                    "subscribed": on,
                    "updates": updates,
                }
            )
        for (where, uri), (on, updates) in (subscribed or {}).items():
            if where == server and uri not in listed:
                rows.append(
                    {
                        "server": server,
                        "uri": _line(uri, shown, shown.limits.line_chars),
                        **_common({}, shown),
                        "size": None,
                        "subscribed": on,
                        "updates": updates,
                    }
                )
    frame: pd.DataFrame = ServerFrame(rows, columns=RESOURCE_COLUMNS)
    frame["size"] = frame["size"].astype("Int64")
    frame["subscribed"] = frame["subscribed"].astype(bool)
    frame["updates"] = frame["updates"].astype("Int64")
    return frame


def templates_frame(listings: Listing, policy: ShowPolicy | None = None) -> pd.DataFrame:
    """One row per listed resource template."""
    rows = [
        {
            "server": server,
            "uriTemplate": _line(item.get("uriTemplate"), shown, shown.limits.line_chars),
            **_common(item, shown),
        }
        for server, shown, item in _items(listings, policy)
    ]
    frame: pd.DataFrame = ServerFrame(rows, columns=TEMPLATE_COLUMNS)
    return frame


def prompts_frame(listings: Listing, policy: ShowPolicy | None = None) -> pd.DataFrame:
    """One row per listed prompt, with its argument names and the required ones."""
    rows = []
    for server, shown, item in _items(listings, policy):
        declared = item.get("arguments")
        arguments = [a for a in declared if isinstance(a, dict)] if isinstance(declared, list) else []
        rows.append(
            {
                "server": server,
                "name": _line(item.get("name"), shown, shown.limits.name_chars),
                "title": _line(item.get("title"), shown, shown.limits.line_chars),
                "description": _line(item.get("description"), shown, shown.limits.text_chars),
                "arguments": [shown.name(str(a.get("name"))) for a in arguments],
                "required": [shown.name(str(a.get("name"))) for a in arguments if a.get("required") is True],
            }
        )
    frame: pd.DataFrame = ServerFrame(rows, columns=PROMPT_COLUMNS)
    return frame
