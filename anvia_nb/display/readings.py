"""Mime bundles for a resource read and a prompt: shown like a result, with their provenance.

A read opens with anvia_nb's header ("MCP demo · read · ok") and the provenance line ("read from
server demo", or "read on request from server demo" for a link the person chose), then each
content in a labelled box: text escaped, images inline only when their bytes prove their type
(the same check as results'), any other blob as its metadata and size with the way to save it.
A prompt shows its description and its messages role by role, each content item under the rules
of :data:`anvia_nb.core.protocol.content.KINDS`. Everything goes through the connection's
:class:`~anvia_nb.policy.ShowPolicy` and the output carries the not-math classes.
"""

from __future__ import annotations

from typing import Any

from anvia_nb.core.protocol.readings import PromptResult, ResourceRead
from anvia_nb.display._blocks import Context, Piece, content_item, image, metadata, note, server_text, within_budget
from anvia_nb.display._html import Html, element
from anvia_nb.display._images import base64_size, normal_mime_type
from anvia_nb.display.settings import RenderSettings
from anvia_nb.policy import NOT_MATH_CLASSES

__all__ = ["bundle_from_prompt", "bundle_from_read"]

_INLINE_IMAGES = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml")
_ROLES = ("user", "assistant")


def _header(ctx: Context, verb: str, what: str, seconds: float) -> Piece:
    """anvia_nb's own chrome: the server's name and the URI or prompt name, escaped."""
    shown = ctx.name(what)
    parts: list[Html] = [
        element("span", "MCP", cls="anvia-badge", style="badge"),
        element("b", ctx.server_label, cls="anvia-server-name"),
        element("span", "·", style="muted"),
        element("span", verb, style="muted"),
        element("code", shown, cls="anvia-tool-name"),
        element("span", "ok", cls="anvia-status", style="status-ok"),
        element("span", f"{seconds:.2f} s", cls="anvia-seconds", style="muted"),
    ]
    plain = f"[MCP {ctx.server_label} · {verb} {shown}] ok · {seconds:.2f} s"
    return Piece(element("div", *parts, cls="anvia-header", style="header"), plain)


def _bundle(pieces: list[Piece], ctx: Context, cls: str) -> dict[str, Any]:
    html = element("div", *(p.html for p in pieces), cls=f"anvia-result {cls} {NOT_MATH_CLASSES}")
    return {"text/plain": ctx.policy.mask("\n".join(p.plain for p in pieces)), "text/html": html.markup}


def _content(index: int, item: dict[str, Any], ctx: Context) -> Piece:
    uri = str(item["uri"]) if isinstance(item.get("uri"), str) else "no uri"
    mime = str(item["mimeType"]) if isinstance(item.get("mimeType"), str) else "no mimeType"
    label = f"content {index}: {ctx.name(uri)} ({ctx.name(mime)}) from server {ctx.server_label}"
    if isinstance(item.get("text"), str):
        return server_text(label, item["text"], ctx)
    blob = item.get("blob")
    if isinstance(blob, str):
        if normal_mime_type(item.get("mimeType")) in _INLINE_IMAGES:
            return image({"data": blob, "mimeType": item.get("mimeType")}, ctx, what=f"content {index}: image")
        fields = [("uri", uri), ("mimeType", mime), ("size", f"{base64_size(blob):,} bytes")]
        how = "" if ctx.policy.for_viewers else f": save it with .save({index}, PATH)"  # nothing to type for viewers
        return metadata(label, fields, ctx, reason=f"Binary content, not shown{how}.")
    return metadata(label, [("uri", uri), ("mimeType", mime)], ctx, reason="It has neither text nor blob.")


def bundle_from_read(read: ResourceRead, settings: RenderSettings | None = None) -> dict[str, Any]:
    """text/plain and text/html for one ``resources/read``."""
    ctx = Context(read.server, read.uri, (settings or RenderSettings()).policy(read.secrets))
    how = "read on request from" if read.on_request else "read from"
    pieces = [_header(ctx, "read", read.uri, read.seconds), note(f"{how} server {ctx.server_label}.")]
    if read.template is not None:
        pieces.append(note(f"Expanded from the template {ctx.name(read.template)}."))
    contents = read.contents
    if not contents:
        pieces.append(note("The server sent no contents."))
    for index, item in within_budget(contents, "contents", ctx, pieces):
        pieces.append(_content(index, item, ctx))
    return _bundle(pieces, ctx, "anvia-read")


def _role(message: dict[str, Any], ctx: Context) -> str:
    role = message.get("role")
    return role if role in _ROLES else f"role {ctx.name(str(role))}"


def bundle_from_prompt(result: PromptResult, settings: RenderSettings | None = None) -> dict[str, Any]:
    """text/plain and text/html for one ``prompts/get``: its messages, role by role."""
    ctx = Context(result.server, result.prompt, (settings or RenderSettings()).policy(result.secrets))
    pieces = [_header(ctx, "prompt", result.prompt, result.seconds)]
    pieces.append(note(f"Prompt from server {ctx.server_label}: its messages are the server's text, not instructions."))
    if result.description is not None:
        pieces.append(server_text(f"description from server {ctx.server_label}", result.description, ctx))
    messages = result.messages
    if not messages:
        pieces.append(note("The prompt has no messages."))
    for index, message in within_budget(messages, "messages", ctx, pieces):
        pieces.append(note(f"message {index} · {_role(message, ctx)}"))
        pieces.append(content_item(message.get("content"), ctx))
    return _bundle(pieces, ctx, "anvia-prompt")
