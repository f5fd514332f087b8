"""``ListedServer``: what a connected server is before its features: its connection, client, name and
secrets, and the three listings (resources, resource templates, prompts) read and kept.
:class:`~anvia_nb.core.api.features.ConnectedServer` adds reading, prompts and completion on top.
"""

from __future__ import annotations

from collections.abc import Callable

from anvia_nb._docs import fill_docstring
from anvia_nb.core.api.connections import McpConnection
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.limits import Timeout
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.core.transport.client import McpClient

__all__ = ["ANSWER_TIMEOUT", "ListedServer"]

ANSWER_TIMEOUT = {
    "timeout": """
timeout_seconds : float or None, optional
    Seconds to wait for the answer (default 60 s); ``None``: no limit.
"""
}
"""The ``timeout_seconds`` of a server's listings, reads and prompts, written once (see ``anvia_nb._docs``)."""

_LISTING = {
    "listing": f"""
Parameters
----------
{ANSWER_TIMEOUT["timeout"].strip()}

Returns
-------
list of dict
"""
}
"""What the three listing methods take and return, written once."""


class ListedServer:
    """A connected server's connection, client, name and secrets, and its listings read and kept.

    Parameters
    ----------
    connection : StdioConnection or HttpConnection
        What ``mcp.stdio(...)`` or ``mcp.http(...)`` made (or a replayed or in-memory one).
    client : McpClient
        Its open client (``connect_mcp`` makes both).
    """

    def __init__(self, connection: McpConnection, client: McpClient) -> None:
        self.connection = connection
        self.client = client
        self._secrets: tuple[McpConnection, tuple[str, ...]] | None = None
        self.listings: dict[str, list[JsonObject]] = {}
        """The last ``resources``, ``resourceTemplates`` and ``prompts`` listings read."""
        self.offered_links: set[str] = set()
        """URIs of the resource links its results offered (reading one is on request)."""
        self.refused: dict[str, str] = {}
        """Tools changed since they were pinned, refused when called: name to the one line why
        (core/api/audit.py; pinning again accepts them)."""

    @property
    def name(self) -> str:
        """The connection's name (``mcp.stdio(name=...)``), as ``%mcp`` knows it."""
        return self.connection.name

    @property
    def secrets(self) -> tuple[str, ...]:
        """The connection's secret values (found once per connection: every call's outcome carries them),
        and those found while connected (an OAuth token a request carried, a refreshed one)."""
        found = self._secrets
        if found is None or found[0] is not self.connection:
            found = self._secrets = (self.connection, self.connection.secrets())
        live = getattr(getattr(self.client, "log", None), "policy", None)
        more = sorted(live.secrets.difference(found[1])) if live is not None else ()
        return (*found[1], *more) if more else found[1]

    # -- listings ------------------------------------------------------------------------------

    async def _listing(self, key: str, timeout_seconds: Timeout) -> list[JsonObject]:
        """One listing read now (within ``timeout_seconds``, by default the call timeout) and kept."""
        timeout = limits.timeout_or_default(timeout_seconds, limits.DEFAULT_CALL_TIMEOUT_SECONDS)
        found = await self.client.list_items(key, timeout)
        self.listings[key] = found
        return found

    @fill_docstring(_LISTING)
    async def resources(self, *, timeout_seconds: Timeout = limits.DEFAULT) -> list[JsonObject]:
        """Every listed resource (``uri``, ``name``, ``mimeType``, ``size``...), read now and kept in ``listings``.

        {listing}
        """
        return await self._listing("resources", timeout_seconds)

    @fill_docstring(_LISTING)
    async def resource_templates(self, *, timeout_seconds: Timeout = limits.DEFAULT) -> list[JsonObject]:
        """Every listed resource template (``uriTemplate``, ``name``...), read now and kept in ``listings``.

        {listing}
        """
        return await self._listing("resourceTemplates", timeout_seconds)

    @fill_docstring(_LISTING)
    async def prompts(self, *, timeout_seconds: Timeout = limits.DEFAULT) -> list[JsonObject]:
        """Every listed prompt (``name``, ``title``, ``arguments``...), read now and kept in ``listings``.

        {listing}
        """
        return await self._listing("prompts", timeout_seconds)

    async def _listed(self, key: str) -> list[JsonObject]:
        """A listing as last read, read now when it never was."""
        if key not in self.listings:
            await self._listing(key, limits.DEFAULT)
        return self.listings[key]

    async def _find(self, key: str, wanted: Callable[[JsonObject], bool]) -> JsonObject | None:
        """The first item of a listing that is ``wanted``: in the listing as last read, else in the
        listing read again (it may be new); ``None`` when neither holds one."""
        for items in (await self._listed(key), None):
            for found in items if items is not None else await self._listing(key, limits.DEFAULT):
                if wanted(found):
                    return found
        return None
