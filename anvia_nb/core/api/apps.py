"""A tool's interactive view (MCP Apps), fetched from its own server and checked.

:func:`read_app` reads the ``ui://`` resource a tool's ``_meta.ui.resourceUri`` names, over the
tool's own connection, and returns an :class:`~anvia_nb.core.protocol.apps.AppResource` only when
it is what the extension says a view is: one content of type ``text/html;profile=mcp-app``, text
(or base64 of UTF-8 text) no larger than :data:`~anvia_nb.core.protocol.limits.APP_HTML_CHARS`.
Its CSP domains and permissions come from the content's ``_meta.ui``, else from the resource
listing's ``_meta.ui``; nothing declared means the strict default (no network). Anything else is
a one-line :class:`~anvia_nb.errors.InvalidValueError`; nothing of the view runs in the kernel.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from anvia_nb.core.api.features import ConnectedServer
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.apps import (
    APP_MIME_TYPE,
    AppResource,
    ToolApp,
    app_csp,
    app_permissions,
)
from anvia_nb.core.protocol.limits import Timeout
from anvia_nb.core.protocol.types import JsonObject, ToolInfo
from anvia_nb.errors import AnviaError, InvalidValueError

__all__ = ["app_of", "is_app_mime_type", "read_app"]


def _quoted(text: object) -> str:
    value = str(text)
    return repr(value if len(value) <= limits.APP_URI_CHARS else value[: limits.APP_URI_CHARS] + "…")


def is_app_mime_type(mime_type: object) -> bool:
    """Whether ``mime_type`` is the view's type, ``text/html;profile=mcp-app`` (case and spaces aside)."""
    if not isinstance(mime_type, str):
        return False
    parts = [part.strip().lower() for part in mime_type.split(";")]
    return parts[0] == "text/html" and "profile=mcp-app" in parts[1:]


def app_of(info: ToolInfo) -> ToolApp:
    """The view ``info`` names; :class:`InvalidValueError` when it names none."""
    app = info.app
    if app is None:
        raise InvalidValueError(
            f"{info.server}.{info.name} has no interactive view (no _meta.ui.resourceUri): call it with %mcp call."
        )
    return app


def _html(content: JsonObject, where: str) -> str:
    text = content.get("text")
    most = f"a view may have at most {limits.APP_HTML_CHARS:,}"
    if isinstance(text, str):
        if len(text) > limits.APP_HTML_CHARS:
            raise InvalidValueError(f"{where} is {len(text):,} characters: {most}.")
        return text
    blob = content.get("blob")
    if not isinstance(blob, str):
        raise InvalidValueError(f"{where} has neither text nor blob: there is no HTML to show.")
    if len(blob) > limits.APP_HTML_CHARS * 4 // 3 + 4:
        raise InvalidValueError(f"{where} is {len(blob):,} characters of base64: {most}.")
    try:
        return base64.b64decode(blob, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        raise InvalidValueError(f"{where} is a blob that is not base64 of UTF-8 text.") from None


def _ui(meta: object) -> Mapping[str, Any] | None:
    ui = meta.get("ui") if isinstance(meta, Mapping) else None
    return ui if isinstance(ui, Mapping) else None


async def _listed_ui(server: ConnectedServer, uri: str, timeout_seconds: Timeout) -> Mapping[str, Any] | None:
    """The resource listing's ``_meta.ui`` of ``uri`` (a server may declare it there only)."""
    try:
        listed = await server.resources(timeout_seconds=timeout_seconds)
    except AnviaError:  # no listing: the strict default
        return None
    for resource in listed:
        if resource.get("uri") == uri:
            return _ui(resource.get("_meta"))
    return None


async def read_app(server: ConnectedServer, app: ToolApp, *, timeout_seconds: Timeout = limits.DEFAULT) -> AppResource:
    """resources/read of the view ``app`` names, over ``server`` (the tool's own connection), checked
    (see the module's doc); raises :class:`InvalidValueError` with one line for what is wrong."""
    uri = app.resource_uri
    where = f"The view {_quoted(uri)} of {server.name!r}"
    read = await server.read_resource(uri, timeout_seconds=timeout_seconds)
    contents = read.contents
    if not contents:
        raise InvalidValueError(f"{where} came back empty: there is nothing to show.")
    content = next((c for c in contents if c.get("uri") == uri), contents[0])
    mime_type = content.get("mimeType")
    if not is_app_mime_type(mime_type):
        raise InvalidValueError(
            f"{where} is of type {_quoted(mime_type)}, not {APP_MIME_TYPE}: it is not shown as a view."
        )
    html = _html(content, where)
    ui = _ui(content.get("_meta"))
    if ui is None:
        ui = await _listed_ui(server, uri, timeout_seconds)
    border = ui.get("prefersBorder") if ui is not None else None
    return AppResource(
        uri=uri,
        html=html,
        csp=app_csp(ui),
        permissions=app_permissions(ui),
        prefers_border=border if isinstance(border, bool) else None,
    )
