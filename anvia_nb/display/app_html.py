"""An MCP App's view made ready for its sandbox: the CSP, the ``allow`` list, the bounds (pure).

A view (``text/html;profile=mcp-app``) runs behind a sandbox proxy of an opaque origin
(``widgets/apps/frame.py``), so it reaches neither the notebook's DOM, cookies and storage nor the
Jupyter server's API. What it may load is fixed here, in the kernel, before the HTML leaves it:

- :func:`content_security_policy` builds the policy from the resource's declared domains
  (``_meta.ui.csp``) on the extension's strict default: no network at all unless the server
  declared origins, only script the view carries itself (:data:`SCRIPT_SOURCES`) and inline style,
  no plugins, no nested frames, no ``<base>``, no form targets. A declared "domain" that is not a
  plain origin (a keyword, a scheme alone, a ``*``, anything with a space, quote or ``;``) is
  dropped, so a server can never loosen it.
- :func:`sandboxed_html` puts that policy in a ``<meta http-equiv="Content-Security-Policy">``
  before everything the server wrote: the document starts with our doctype and our meta, so the
  meta is the first element of ``<head>`` and governs every script, style and load that follows.
- :func:`iframe_allow` maps the resource's ``permissions`` to the iframe's ``allow`` list, and
  nothing more.
- :data:`APP_HTML_MAX_CHARS` bounds the HTML; :func:`clamp_height` bounds the frame's height.

The front-end gives the same policy to the proxy's document and as the frames' ``csp`` attribute
where the browser supports it (Chromium): it then holds even if the view navigates itself elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

# The bounds of a view live with the protocol's others (one home; the names stay for importers).
from anvia_nb.core.protocol.limits import APP_DOMAINS_KEPT as DOMAINS_KEPT
from anvia_nb.core.protocol.limits import APP_HTML_CHARS as APP_HTML_MAX_CHARS
from anvia_nb.core.protocol.limits import APP_MAX_HEIGHT_PX as MAX_HEIGHT_PX
from anvia_nb.core.protocol.limits import APP_MIN_HEIGHT_PX as MIN_HEIGHT_PX
from anvia_nb.display._html import Html, element, text
from anvia_nb.errors import InvalidValueError
from anvia_nb.policy import ShowPolicy

__all__ = [
    "APP_HTML_MAX_CHARS",
    "DOMAINS_KEPT",
    "MAX_HEIGHT_PX",
    "MIN_HEIGHT_PX",
    "SCRIPT_SOURCES",
    "DeclaredCsp",
    "clamp_height",
    "content_security_policy",
    "iframe_allow",
    "live_kernel_note",
    "sandbox_origins",
    "sandboxed_html",
]


class DeclaredCsp(Protocol):
    """The origins a view declared, by directive (``core.protocol.apps.AppCsp`` is one)."""

    @property
    def connect_domains(self) -> tuple[str, ...]: ...
    @property
    def resource_domains(self) -> tuple[str, ...]: ...
    @property
    def frame_domains(self) -> tuple[str, ...]: ...
    @property
    def base_uri_domains(self) -> tuple[str, ...]: ...


_ORIGIN = re.compile(
    r"(?:https?|wss?)://(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*"
    r"(?::[0-9]{1,5})?/?\Z"
)
_PERMISSION_FEATURES = {
    "camera": "camera",
    "microphone": "microphone",
    "geolocation": "geolocation",
    "clipboardWrite": "clipboard-write",
}
SCRIPT_SOURCES = "'unsafe-inline' 'unsafe-eval' blob: data:"
"""Script the view carries itself, in every form the extension's reference host allows: bundled
libraries evaluate strings (three.js examples, Vue templates) and start workers from ``blob:``
(pdf.js). None of it reaches anything: the network is ``connect-src`` and the declared origins."""
_LEADING_DOCTYPE = re.compile(r"\A\ufeff?\s*<!doctype[^>]*>", re.IGNORECASE)


def sandbox_origins(declared: Iterable[str]) -> tuple[str, ...]:
    """The declared origins that are plain origins (``https://api.example.com``,
    ``wss://*.example.com:8443``), without a trailing slash, at most :data:`DOMAINS_KEPT`.

    Anything else (``*``, ``'unsafe-eval'``, ``data:``, ``https:``, a path, a space or a ``;``
    that would start a new directive) is dropped: a declaration can only add origins.
    """
    kept: list[str] = []
    for origin in declared:
        if isinstance(origin, str) and _ORIGIN.match(origin):
            plain = origin.rstrip("/")
            if plain not in kept:
                kept.append(plain)
        if len(kept) == DOMAINS_KEPT:
            break
    return tuple(kept)


def _sources(base: str, origins: tuple[str, ...], when_none: str = "") -> str:
    words = [word for word in (base, *origins) if word]
    return " ".join(words) if words else when_none


def content_security_policy(csp: DeclaredCsp) -> str:
    """The view's Content-Security-Policy: the extension's strict default plus the declared origins.

    ``connectDomains`` become ``connect-src``; ``resourceDomains`` are added to the script, style,
    image, font, media and worker sources; ``frameDomains`` to ``frame-src``; ``baseUriDomains`` to
    ``base-uri``. With nothing declared: no fetch, XHR or WebSocket anywhere, only script the view
    carries itself (inline, evaluated, or from ``blob:`` and ``data:`` URLs it makes, workers from
    ``blob:``, as the extension's reference host allows), inline style, images and media from
    ``data:`` and ``blob:`` URLs.
    """
    resources = sandbox_origins(csp.resource_domains)
    directives = [
        "default-src 'none'",
        "script-src " + _sources(SCRIPT_SOURCES, resources),
        "style-src " + _sources("'unsafe-inline'", resources),
        "img-src " + _sources("data: blob:", resources),
        "font-src " + _sources("data:", resources),
        "media-src " + _sources("data: blob:", resources),
        "connect-src " + _sources("", sandbox_origins(csp.connect_domains), "'none'"),
        "frame-src " + _sources("", sandbox_origins(csp.frame_domains), "'none'"),
        "base-uri " + _sources("", sandbox_origins(csp.base_uri_domains), "'none'"),
        "worker-src " + _sources("blob:", resources),
        "object-src 'none'",
        "form-action 'none'",
    ]
    return "; ".join(directives)


def iframe_allow(permissions: Iterable[str]) -> str:
    """The iframe's ``allow`` list for the permissions a view asked for (known ones only), e.g.
    ``"camera; clipboard-write"``; empty when it asked for none."""
    asked = set(permissions)
    return "; ".join(feature for name, feature in _PERMISSION_FEATURES.items() if name in asked)


def _attribute(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def sandboxed_html(uri: str, html: str, csp: DeclaredCsp) -> str:
    """The view's HTML with its CSP first: our doctype, our ``<meta>``, then what the server wrote
    (its own leading doctype dropped). :class:`InvalidValueError` beyond :data:`APP_HTML_MAX_CHARS`.

    The HTML parser puts a ``<meta>`` that comes before ``<html>`` and ``<head>`` into the head it
    opens, and ignores the server's own ``<html>`` and ``<head>`` tags after it (their attributes
    are kept), so nothing the server wrote can come before the policy.
    """
    if len(html) > APP_HTML_MAX_CHARS:
        shown = ShowPolicy().line(uri)
        limit = f"{APP_HTML_MAX_CHARS:,}"
        raise InvalidValueError(f"The view {shown} is {len(html):,} characters; views are shown up to {limit}.")
    policy = _attribute(content_security_policy(csp))
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    body = _LEADING_DOCTYPE.sub("", html, count=1)
    return f"<!DOCTYPE html>{meta}{body}"


def clamp_height(height: object, current: int = MIN_HEIGHT_PX) -> int:
    """The frame height for a size the view asked for: within ``MIN_HEIGHT_PX..MAX_HEIGHT_PX``;
    ``current`` when the value is not a finite number."""
    if isinstance(height, bool) or not isinstance(height, (int, float)) or height != height:
        return current
    if height in (float("inf"), float("-inf")):
        return MAX_HEIGHT_PX if height > 0 else MIN_HEIGHT_PX
    return int(min(MAX_HEIGHT_PX, max(MIN_HEIGHT_PX, round(height))))


def live_kernel_note(uri: str, policy: ShowPolicy | None = None) -> tuple[str, Html]:
    """What a static copy of the notebook shows instead of the view: a plain line and its HTML
    (the URI is the server's text: made visible, masked and cut by ``policy``)."""
    shown = (policy or ShowPolicy()).line(uri)
    line = f"This tool has an interactive view ({shown}); it needs a live kernel to show."
    return line, element("div", text(line), style="note")
