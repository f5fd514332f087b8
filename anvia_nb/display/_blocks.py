"""Rendering of the parts of a result that came from a server, each as HTML and plain text.

Every block made here is visibly the server's: a bordered box labelled with the server's name
("text from server demo"), so nothing inside it can pass for anvia_nb's own header. Every string
goes through :func:`prepare_text` (cut, masked, special characters made visible) and is escaped
by the HTML builder. The shared :class:`Budget` bounds the whole result, items included.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from anvia_nb.display._html import Html, element, join
from anvia_nb.display._images import ImageCheck, base64_size, check_image, normal_mime_type
from anvia_nb.display._text import Budget, Prepared, prepare_text, secret_variants
from anvia_nb.display.settings import RenderSettings

BLOCK_COST = 160
"""Budget charged for each block's own markup, so a million empty items stay bounded too."""

NAME_CHARS = 200
MAX_JSON_DEPTH = 64


@dataclass
class Piece:
    """One rendered block, in both renderings."""

    html: Html
    plain: str


@dataclass
class Context:
    """What every block needs: provenance, secrets, settings, and the budgets left."""

    server: str
    tool: str
    secrets: tuple[str, ...]
    settings: RenderSettings
    budget: Budget
    image_bytes_left: int
    server_label: str = field(init=False)

    def __post_init__(self) -> None:
        self.server_label = self.name(self.server)

    def name(self, value: str) -> str:
        """A short name (server, tool, uri) as it may be shown: masked, visible, bounded."""
        prepared = prepare_text(value, NAME_CHARS, self.secrets)
        return prepared.plain + ("…" if prepared.hidden_chars else "")


def shown(prepared: Prepared) -> Html:
    """Prepared text as HTML: markers in a styled span, everything else escaped."""
    return join(
        element("span", part, cls="anvia-control", style="control") if is_marker else part
        for is_marker, part in prepared.segments
    )


def elision(hidden: int, what: str = "characters") -> Piece:
    """The visible note saying how much was cut and where the rest is."""
    message = f"… {hidden:,} more {what} not shown; the whole result is in `.output` and `.raw`"
    return Piece(element("div", message, cls="anvia-elided", style="note"), message)


def note(message: str) -> Piece:
    """A line of anvia_nb's own words (never server text)."""
    return Piece(element("div", message, cls="anvia-note", style="note"), message)


def server_text(label: str, text: str, ctx: Context, *, error: bool = False, limit: int | None = None) -> Piece:
    """A bordered, labelled ``<pre>`` holding server text, cut to the budget (and ``limit``)."""
    ctx.budget.spend(BLOCK_COST)
    room = ctx.budget.remaining if limit is None else min(limit, ctx.budget.remaining)
    prepared = prepare_text(text, room, ctx.secrets)
    ctx.budget.spend(prepared.cost)
    children: list[Html] = [
        element("div", label, cls="anvia-label", style="error-label" if error else "label"),
        element("pre", shown(prepared), cls="anvia-server-text", style="pre"),
    ]
    plain = f"--- {label} ---\n{prepared.plain}"
    if prepared.hidden_chars:
        cut = elision(prepared.hidden_chars)
        children.append(cut.html)
        plain += "\n" + cut.plain
    box = element("div", *children, cls="anvia-server-block", style="error-box" if error else "server-box")
    return Piece(box, plain)


def metadata(label: str, fields: Sequence[tuple[str, str]], ctx: Context, reason: str = "") -> Piece:
    """A labelled box listing fields of an item that is not shown itself (all values escaped)."""
    ctx.budget.spend(BLOCK_COST)
    items: list[Html] = []
    lines = [f"--- {label} ---"]
    for key, value in fields:
        shown_value = ctx.name(value)
        ctx.budget.spend(len(shown_value))
        items.append(element("li", element("b", key), ": ", element("code", shown_value)))
        lines.append(f"{key}: {shown_value}")
    children = [element("div", label, cls="anvia-label", style="label")]
    if items:
        children.append(element("ul", *items, cls="anvia-fields", style="list"))
    if reason:
        children.append(element("div", reason, cls="anvia-note", style="note"))
        lines.append(reason)
    return Piece(element("div", *children, cls="anvia-server-block", style="server-box"), "\n".join(lines))


def _str(value: Any, limit: int = NAME_CHARS * 2) -> str:
    """A value as text for metadata: strings as they are, anything else as bounded JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(bounded_json(value, limit, ())[0], ensure_ascii=False)


def image(item: dict[str, Any], ctx: Context, what: str = "image") -> Piece:
    """An image inline when its bytes prove its type and it fits; otherwise its metadata and why."""
    check = _checked(item.get("data"), item.get("mimeType"), ctx)
    label = f"{what} from server {ctx.server_label}"
    if check.ok and check.data_url is not None:
        ctx.budget.spend(BLOCK_COST)
        ctx.image_bytes_left -= check.size or 0
        caption = f"{label}: {check.mime_type}, {check.size or 0:,} bytes"
        html = element(
            "div",
            element("div", caption, cls="anvia-label", style="label"),
            element("img", cls="anvia-image", style="image", src=check.data_url, alt=caption),
            cls="anvia-server-block",
            style="server-box",
        )
        return Piece(html, f"[{caption}]")
    fields = [("mimeType", _str(item.get("mimeType")))]
    if check.size is not None:
        fields.append(("size", f"{check.size:,} bytes"))
    return metadata(label, fields, ctx, reason=f"Not shown: {check.reason}.")


def _checked(data: Any, mime_type: Any, ctx: Context) -> ImageCheck:
    limit = ctx.settings.max_image_bytes
    allowed = min(limit, max(0, ctx.image_bytes_left))
    check = check_image(data, mime_type, allowed)
    if check.reason.startswith("it is larger") and check.size is not None and check.size <= limit:
        return ImageCheck(check.mime_type, check.size, reason="the images above already use up the image size limit")
    return check


def resource(item: dict[str, Any], ctx: Context) -> Piece:
    """An embedded resource as a closed ``<details>``: escaped uri, type, size, bounded preview."""
    res = item.get("resource")
    res = res if isinstance(res, dict) else {}
    uri = ctx.name(_str(res.get("uri", "")))
    mime = _str(res.get("mimeType", "")) if res.get("mimeType") is not None else "no mimeType"
    ctx.budget.spend(BLOCK_COST + len(uri))
    label = f"resource from server {ctx.server_label}"
    body: list[Html] = []
    plain = [f"--- {label}: {uri} ({ctx.name(mime)}) ---"]
    if isinstance(res.get("text"), str):
        text = res["text"]
        summary = f"{label}: {uri} ({ctx.name(mime)}, {len(text):,} characters)"
        preview = server_text("preview of the resource text", text, ctx, limit=ctx.settings.preview_chars)
        body.append(preview.html)
        plain.append(preview.plain)
    elif isinstance(res.get("blob"), str):
        blob = res["blob"]
        summary = f"{label}: {uri} ({ctx.name(mime)}, {base64_size(blob):,} bytes)"
        if normal_mime_type(res.get("mimeType")) in ("image/png", "image/jpeg", "image/gif", "image/webp"):
            picture = image({"data": blob, "mimeType": res.get("mimeType")}, ctx, what="resource image")
            body.append(picture.html)
            plain.append(picture.plain)
        else:
            body.append(note("Binary content: size only, not shown.").html)
            plain.append("binary content, not shown")
    else:
        summary = f"{label}: {uri} ({ctx.name(mime)}, no text or blob)"
    html = element(
        "details",
        element("summary", summary, cls="anvia-summary", style="summary"),
        *body,
        cls="anvia-resource",
        style="server-box",
    )
    plain[0] = f"--- {summary} ---"
    return Piece(html, "\n".join(plain))


def _size_fields(item: dict[str, Any], keys: Sequence[str]) -> list[tuple[str, str]]:
    return [(k, _str(item[k])) for k in keys if k in item and item[k] is not None]


def unsupported(item: dict[str, Any], kind: str, ctx: Context) -> Piece:
    """audio and resource_link: inert metadata, never played, fetched or linked."""
    from anvia_nb.errors import UNSUPPORTED_CONTENT_MESSAGE

    if kind == "resource_link":
        fields = _size_fields(item, ("uri", "name", "title", "mimeType", "size", "description"))
        label = f"resource link from server {ctx.server_label} (not fetched)"
    else:
        fields = _size_fields(item, ("mimeType",))
        if isinstance(item.get("data"), str):
            fields.append(("size", f"{base64_size(item['data']):,} bytes"))
        label = f"{kind} from server {ctx.server_label} (not played)"
    return metadata(label, fields, ctx, reason=f"{UNSUPPORTED_CONTENT_MESSAGE}: {kind}")


def content_item(item: Any, ctx: Context, *, error: bool = False) -> Piece:
    """One content item, by its ``type``."""
    kind = item.get("type") if isinstance(item, dict) else None
    source = f"error text from server {ctx.server_label}" if error else f"text from server {ctx.server_label}"
    if kind == "text" and isinstance(item.get("text"), str):
        return server_text(source, item["text"], ctx, error=error)
    if kind == "image":
        return image(item, ctx)
    if kind == "resource":
        return resource(item, ctx)
    if kind in ("audio", "resource_link"):
        return unsupported(item, kind, ctx)
    shown_kind = _str(kind) if kind is not None else "no type"
    label = f"content of type {ctx.name(shown_kind)} from server {ctx.server_label}"
    return server_text(label, _str(item, max(0, ctx.budget.remaining)), ctx)


def content_blocks(content: Sequence[Any], ctx: Context, *, error: bool = False) -> list[Piece]:
    """Every item in server order, until the budget runs out; the rest counted, visibly."""
    pieces: list[Piece] = []
    for index, item in enumerate(content):
        if ctx.budget.exhausted:
            pieces.append(elision(len(content) - index, "content items"))
            break
        pieces.append(content_item(item, ctx, error=error))
    return pieces


@dataclass
class _JsonCut:
    left: int
    variants: list[str]
    cut: bool = False


def bounded_json(value: Any, limit: int, secrets: Sequence[str]) -> tuple[Any, bool]:
    """A copy of a JSON value with at most about ``limit`` characters, secrets masked.

    Returns the copy and whether anything was left out. Long strings are cut, long lists and
    objects end in a ``"… N more"`` entry, and nesting deeper than 64 levels is elided.
    """
    state = _JsonCut(limit, secret_variants(secrets))
    return _bounded(value, state, 0), state.cut


def _bounded_str(text: str, state: _JsonCut) -> str:
    left = max(0, state.left)
    window = left + (len(state.variants[0]) if state.variants else 0)
    head = text[:window]
    for variant in state.variants:
        if variant in head:
            head = head.replace(variant, "••••••")
    out = head[:left]
    if len(text) > window or len(head) > left:
        state.cut = True
        hidden = len(head) - len(out) + len(text) - min(len(text), window)
        out += f"… ({hidden:,} more characters)"
    state.left -= len(out) + 2
    return out


def _bounded(value: Any, state: _JsonCut, depth: int) -> Any:
    if depth > MAX_JSON_DEPTH:
        state.cut = True
        return f"… nested deeper than {MAX_JSON_DEPTH} levels"
    if value is None or isinstance(value, bool):
        state.left -= 5
        return value
    if isinstance(value, int):
        state.left -= 8
        return value
    if isinstance(value, float):
        state.left -= 8
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, str):
        return _bounded_str(value, state)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for index, (key, item) in enumerate(value.items()):
            if state.left <= 0:
                state.cut = True
                out["…"] = f"{len(value) - index:,} more keys"
                break
            bounded_key = _bounded_str(str(key), state)  # before the value: it spends the same budget
            out[bounded_key] = _bounded(item, state, depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        items: list[Any] = []
        for index, item in enumerate(value):
            if state.left <= 0:
                state.cut = True
                items.append(f"… {len(value) - index:,} more items")
                break
            items.append(_bounded(item, state, depth + 1))
        return items
    return _bounded_str(repr(value), state)
