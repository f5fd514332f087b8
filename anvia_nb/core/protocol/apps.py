"""MCP Apps (the ``io.modelcontextprotocol/ui`` extension, revision 2026-01-26) as plain data.

A tool may name an interactive view: its ``_meta.ui.resourceUri`` points at a ``ui://`` resource of
type ``text/html;profile=mcp-app``. The resource's own ``_meta.ui`` says what the view may reach
(``csp``) and which browser permissions it asks for (``permissions``). This module reads both,
tolerantly: metadata a server got wrong means "no app", never an exception.

What crosses the layers:

- :class:`ToolApp`: what a tool's metadata says (which resource, who may see the tool);
- :class:`AppResource`: the fetched, checked view (its HTML, CSP domains, permissions);
- :class:`AppHandler`: what answers the view's requests (``tools/call``, ``resources/read``, the
  ``ui/*`` methods); it raises :class:`AppRequestRefused` for anything it will not do.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.methods import INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND
from anvia_nb.errors import AppRequestRefused

__all__ = [
    "APP_MIME_TYPE",
    "EXTENSION_ID",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "METHOD_NOT_FOUND",
    "PERMISSIONS",
    "AppCsp",
    "AppHandler",
    "AppRequestRefused",
    "AppResource",
    "ToolApp",
    "app_csp",
    "app_permissions",
    "is_offered_link",
    "tool_app",
    "tool_visibility",
]

EXTENSION_ID = "io.modelcontextprotocol/ui"
APP_MIME_TYPE = "text/html;profile=mcp-app"
PERMISSIONS = ("camera", "microphone", "geolocation", "clipboardWrite")
"""The permissions a view may ask for; anything else in ``_meta.ui.permissions`` is ignored."""

_VISIBILITY = ("model", "app")


_LINK_URL = re.compile(r"https?://[^\s\x00-\x1f\x7f-\x9f]+\Z", re.IGNORECASE)


@dataclass(frozen=True)
class ToolApp:
    """What a tool's ``_meta.ui`` says: the view's resource and who may see the tool."""

    resource_uri: str
    visibility: tuple[str, ...] = _VISIBILITY

    @property
    def for_cells(self) -> bool:
        """Whether cells, forms and the model may call the tool (``"model"`` in its visibility)."""
        return "model" in self.visibility

    @property
    def for_app(self) -> bool:
        """Whether the view may call the tool (``"app"`` in its visibility)."""
        return "app" in self.visibility


@dataclass(frozen=True)
class AppCsp:
    """The origins a view declared, by CSP directive; empty means none (the strict default)."""

    connect_domains: tuple[str, ...] = ()
    resource_domains: tuple[str, ...] = ()
    frame_domains: tuple[str, ...] = ()
    base_uri_domains: tuple[str, ...] = ()


@dataclass(frozen=True)
class AppResource:
    """A view fetched from its server and checked: the HTML and what it may do."""

    uri: str
    html: str
    csp: AppCsp = AppCsp()
    permissions: frozenset[str] = frozenset()
    prefers_border: bool | None = None


class AppHandler(Protocol):
    """Answers one request of a view: returns the JSON-RPC ``result`` or raises
    :class:`AppRequestRefused`."""

    def handle(self, method: str, params: Mapping[str, Any]) -> Mapping[str, Any]: ...


def tool_app(meta: object) -> ToolApp | None:
    """The app a tool's ``_meta`` names, or ``None`` (no app, or metadata that is not well formed).

    Reads ``_meta.ui.resourceUri`` and ``_meta.ui.visibility``, and the older flat key
    ``_meta["ui/resourceUri"]`` that early servers send.
    """
    if not isinstance(meta, Mapping):
        return None
    ui = meta.get("ui")
    ui = ui if isinstance(ui, Mapping) else {}
    uri = ui.get("resourceUri", meta.get("ui/resourceUri"))
    if not isinstance(uri, str) or not uri.startswith("ui://"):
        return None
    seen = ui.get("visibility")
    if isinstance(seen, list) and seen and all(isinstance(item, str) for item in seen):
        visibility = tuple(item for item in _VISIBILITY if item in seen)
        return ToolApp(uri, visibility)
    return ToolApp(uri)


def tool_visibility(meta: object) -> tuple[str, ...]:
    """Who may see a tool by its ``_meta.ui.visibility`` (``"model"``: cells, forms and models;
    ``"app"``: views), with or without a ``resourceUri``: a tool only views may call need not have
    one of its own. Both when it says nothing or says it wrongly."""
    ui = meta.get("ui") if isinstance(meta, Mapping) else None
    seen = ui.get("visibility") if isinstance(ui, Mapping) else None
    if isinstance(seen, list) and seen and all(isinstance(item, str) for item in seen):
        return tuple(item for item in _VISIBILITY if item in seen)
    return _VISIBILITY


def _domains(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(item for item in value if isinstance(item, str) and item)


def app_csp(ui_meta: object) -> AppCsp:
    """The CSP domains a resource's ``_meta.ui`` declares (``_meta.ui.csp``); none if malformed."""
    csp = ui_meta.get("csp") if isinstance(ui_meta, Mapping) else None
    if not isinstance(csp, Mapping):
        return AppCsp()
    return AppCsp(
        connect_domains=_domains(csp.get("connectDomains")),
        resource_domains=_domains(csp.get("resourceDomains")),
        frame_domains=_domains(csp.get("frameDomains")),
        base_uri_domains=_domains(csp.get("baseUriDomains")),
    )


def app_permissions(ui_meta: object) -> frozenset[str]:
    """The known permissions a resource's ``_meta.ui.permissions`` asks for."""
    asked = ui_meta.get("permissions") if isinstance(ui_meta, Mapping) else None
    if not isinstance(asked, Mapping):
        return frozenset()
    return frozenset(name for name in PERMISSIONS if name in asked)


def is_offered_link(url: object) -> bool:
    """Whether a view may offer ``url`` to the person (``ui/open-link``): http or https, no white
    space or control character (``javascript:``, ``data:`` and the rest are refused)."""
    return isinstance(url, str) and len(url) <= limits.APP_MESSAGE_CHARS and bool(_LINK_URL.match(url))
