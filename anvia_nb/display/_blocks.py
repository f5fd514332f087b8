"""Rendering of the parts of a result that came from a server, each as HTML and plain text.

Every block made here is visibly the server's: a bordered box labelled with the server's name
("text from server demo"), so nothing inside it can pass for anvia_nb's own header. Every string
goes through the connection's :class:`~anvia_nb.policy.ShowPolicy` (cut, masked, special
characters made visible) and is escaped by the HTML builder. The shared :class:`Budget` bounds the
whole result: the characters the server sent (layout costs nothing), the special characters
marked and the items shown. What each kind of content becomes is its row in
:data:`anvia_nb.core.protocol.content.KINDS`.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from anvia_nb._visible import Prepared
from anvia_nb.core.protocol.content import ContentKind, kind_of
from anvia_nb.display._html import Html, Template, element, join, template
from anvia_nb.display._html import text as escaped
from anvia_nb.display._images import ImageCheck, base64_size, check_image, normal_mime_type
from anvia_nb.display._text import Budget
from anvia_nb.policy import ShowPolicy

__all__ = [
    "Context",
    "Piece",
    "bounded_json",
    "content_blocks",
    "content_item",
    "elision",
    "image",
    "metadata",
    "note",
    "resource",
    "server_text",
    "shown",
    "unsupported",
    "within_budget",
]

T = TypeVar("T")


@dataclass
class Piece:
    """One rendered block, in both renderings."""

    html: Html
    plain: str


@dataclass(init=False)
class Context:
    """What every block needs: provenance, the show policy, and the budgets left."""

    server: str
    tool: str
    policy: ShowPolicy
    budget: Budget
    image_bytes_left: int
    server_label: str
    links: int
    """Resource links shown so far: the next one's number for ``read_link``."""
    refusal_in_note: bool
    """The mapping's refusal of unsupported content is said once, in a note after it (links), not per item."""

    def __init__(self, server: str, tool: str, policy: ShowPolicy) -> None:
        limits = policy.limits  # made for every result: one call where a generated init took six (issue 41)
        self.server, self.tool, self.policy = server, tool, policy
        self.budget = Budget(limits.output_chars, limits.markers, limits.blocks)
        self.image_bytes_left, self.server_label = limits.image_bytes, policy.name(server)
        self.links, self.refusal_in_note = 0, False

    def name(self, value: str) -> str:
        """A short name (server, tool, uri) as it may be shown: masked, visible, bounded."""
        return self.policy.name(value)


@functools.lru_cache(maxsize=256)
def _label(label: str, error: bool) -> Html:
    """A server block's label (our words and the masked server name): the same few, built once."""
    return element("div", label, cls="anvia-label", style="error-label" if error else "label")


def shown(prepared: Prepared) -> Html:
    """Prepared text as HTML: markers in a styled span, everything else escaped."""
    segments = prepared.segments
    if len(segments) == 1 and not segments[0][0]:  # plain text, no marker: the usual result
        return escaped(segments[0][1])
    return join(
        element("span", part, cls="anvia-control", style="control") if is_marker else part
        for is_marker, part in prepared.segments
    )


def elision(hidden: int, what: str = "characters") -> Piece:
    """The visible note saying how much was cut and where the rest is."""
    message = f"… {hidden:,} more {what} not shown; the whole result is in `.output` and `.raw`"
    return Piece(element("div", message, cls="anvia-elided", style="note"), message)


def within_budget(items: Sequence[T], what: str, ctx: Context, pieces: list[Piece]) -> Iterator[tuple[int, T]]:
    """Each of ``items`` with its index while the budget has blocks left, counting one block each;
    when it runs out, the note saying how many ``what`` were not shown is added to ``pieces``."""
    for index, item in enumerate(items):
        if ctx.budget.exhausted:
            pieces.append(elision(len(items) - index, what))
            return
        ctx.budget.blocks -= 1
        yield index, item


def note(message: str) -> Piece:
    """A line of anvia_nb's own words (never server text)."""
    return Piece(element("div", message, cls="anvia-note", style="note"), message)


def server_text(
    label: str,
    text: str,
    ctx: Context,
    *,
    error: bool = False,
    limit: int | None = None,
    also_masked: Sequence[tuple[int, int]] = (),
) -> Piece:
    """A bordered, labelled ``<pre>`` holding server text, cut to the budget (and ``limit``).

    The budget counts the characters the server sent, so the note after a cut says exactly how
    many were not shown. ``also_masked``: parts of a secret split across neighbouring texts.
    """
    room = ctx.budget.remaining if limit is None else min(limit, ctx.budget.remaining)
    prepared = ctx.policy.prepare(text, room, max_markers=ctx.budget.markers, also_masked=also_masked)
    ctx.budget.spend_prepared(prepared)
    body = shown(prepared)
    plain = f"--- {label} ---\n{prepared.plain}"
    if prepared.hidden_chars:
        cut = elision(prepared.hidden_chars)
        return Piece(_box(label, error, True).fill(body, cut.html), f"{plain}\n{cut.plain}")
    return Piece(_box(label, error, False).fill(body), plain)


@functools.lru_cache(maxsize=256)
def _box(label: str, error: bool, elided: bool) -> Template:
    """A server block: its label (our words and the masked server name), the shown text's ``<pre>``
    and, when ``elided``, the note after a cut; the markup around the text made once per label."""

    def build(text: Html, *cut: Html) -> Html:
        pre = element("pre", text, cls="anvia-server-text", style="pre")
        return element("div", _label(label, error), pre, *cut, cls="anvia-server-block", style=_BOX_STYLES[error])

    return template(build, 2 if elided else 1)


_BOX_STYLES = {True: "error-box", False: "server-box"}


def metadata(label: str, fields: Sequence[tuple[str, str]], ctx: Context, reason: str = "") -> Piece:
    """A labelled box listing fields of an item that is not shown itself (all values escaped)."""
    items: list[Html] = []
    lines = [f"--- {label} ---"]
    for key, value in fields:
        shown_value = ctx.name(value)
        ctx.budget.spend(min(len(value), ctx.policy.limits.name_chars))
        items.append(element("li", element("b", key), ": ", element("code", shown_value)))
        lines.append(f"{key}: {shown_value}")
    children = [element("div", label, cls="anvia-label", style="label")]
    if items:
        children.append(element("ul", *items, cls="anvia-fields", style="list"))
    if reason:
        children.append(element("div", reason, cls="anvia-note", style="note"))
        lines.append(reason)
    return Piece(element("div", *children, cls="anvia-server-block", style="server-box"), "\n".join(lines))


def _str(value: Any, policy: ShowPolicy, limit: int | None = None) -> str:
    """A value as text for metadata: strings as they are, anything else as bounded JSON."""
    if isinstance(value, str):
        return value
    limit = policy.limits.name_chars * 2 if limit is None else limit
    return json.dumps(bounded_json(value, limit, policy)[0], ensure_ascii=False)


def image(item: dict[str, Any], ctx: Context, what: str = "image") -> Piece:
    """An image inline when its bytes prove its type and it fits; otherwise its metadata and why."""
    check = _checked(item.get("data"), item.get("mimeType"), ctx)
    label = f"{what} from server {ctx.server_label}"
    if check.ok and check.data_url is not None:
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
    fields = [("mimeType", _str(item.get("mimeType"), ctx.policy))]
    if check.size is not None:
        fields.append(("size", f"{check.size:,} bytes"))
    return metadata(label, fields, ctx, reason=f"Not shown: {check.reason}.")


def _checked(data: Any, mime_type: Any, ctx: Context) -> ImageCheck:
    limit = ctx.policy.limits.image_bytes
    allowed = min(limit, max(0, ctx.image_bytes_left))
    check = check_image(data, mime_type, allowed)
    if check.too_large and check.size is not None and check.size <= limit:
        return ImageCheck(check.mime_type, check.size, reason="the images above already use up the image size limit")
    return check


def resource(item: dict[str, Any], ctx: Context) -> Piece:
    """An embedded resource as a closed ``<details>``: escaped uri, type, size, bounded preview."""
    res = item.get("resource")
    res = res if isinstance(res, dict) else {}
    uri = ctx.name(_str(res.get("uri", ""), ctx.policy))
    mime = _str(res.get("mimeType", ""), ctx.policy) if res.get("mimeType") is not None else "no mimeType"
    ctx.budget.spend(min(len(uri), ctx.policy.limits.name_chars))
    label = f"resource from server {ctx.server_label}"
    body: list[Html] = []
    plain = [f"--- {label}: {uri} ({ctx.name(mime)}) ---"]
    if isinstance(res.get("text"), str):
        text = res["text"]
        summary = f"{label}: {uri} ({ctx.name(mime)}, {len(text):,} characters)"
        preview = server_text("preview of the resource text", text, ctx, limit=ctx.policy.limits.preview_chars)
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


def _size_fields(item: dict[str, Any], keys: Sequence[str], policy: ShowPolicy) -> list[tuple[str, str]]:
    return [(k, _str(item[k], policy)) for k in keys if k in item and item[k] is not None]


def unsupported(item: dict[str, Any], kind: ContentKind, ctx: Context) -> Piece:
    """Kinds shown as metadata only (audio, resource_link): inert, never played, fetched or linked."""
    from anvia_nb.errors import UNSUPPORTED_CONTENT_MESSAGE

    fields = _size_fields(item, kind.fields, ctx.policy)
    if kind.sized_data and isinstance(item.get("data"), str):
        fields.append(("size", f"{base64_size(item['data']):,} bytes"))
    label = f"{kind.label} from server {ctx.server_label} ({kind.not_done})"
    reason = f"{UNSUPPORTED_CONTENT_MESSAGE}: {kind.type}" if not kind.supported and not ctx.refusal_in_note else ""
    if kind.type == "resource_link" and isinstance(item.get("uri"), str):
        if not ctx.policy.for_viewers:  # nothing to type for viewers
            reason += f"{'. ' if reason else ''}Read it only if you want: .read_link({ctx.links}) or %mcp read."
        ctx.links += 1
    return metadata(label, fields, ctx, reason=reason)


def content_item(
    item: Any,  # any: a content item as sent; kind_of reads it
    ctx: Context,
    *,
    error: bool = False,
    also_masked: Sequence[tuple[int, int]] = (),
) -> Piece:
    """One content item, as its row in :data:`~anvia_nb.core.protocol.content.KINDS` says."""
    kind = kind_of(item)
    source = f"error text from server {ctx.server_label}" if error else f"text from server {ctx.server_label}"
    if kind is not None and kind.shown == "text" and isinstance(item.get("text"), str):
        return server_text(source, item["text"], ctx, error=error, also_masked=also_masked)
    if kind is not None and kind.shown == "image":
        return image(item, ctx)
    if kind is not None and kind.shown == "resource":
        return resource(item, ctx)
    if kind is not None and kind.shown == "metadata":
        return unsupported(item, kind, ctx)
    raw_kind = item.get("type") if isinstance(item, dict) else None
    shown_kind = _str(raw_kind, ctx.policy) if raw_kind is not None else "no type"
    label = f"content of type {ctx.name(shown_kind)} from server {ctx.server_label}"
    return server_text(label, _str(item, ctx.policy, max(0, ctx.budget.remaining)), ctx)


def content_blocks(content: Sequence[Any], ctx: Context, *, error: bool = False) -> list[Piece]:
    """Every item in server order, until the budget runs out; the rest counted, visibly.

    Text items shown one after another read as one text: a secret split across them is masked
    in each (:meth:`~anvia_nb.policy.ShowPolicy.split_secrets`).
    """
    pieces: list[Piece] = []
    split = _split_secrets(content, ctx.budget.blocks, ctx.policy)
    for index, item in within_budget(content, "content items", ctx, pieces):
        pieces.append(content_item(item, ctx, error=error, also_masked=split.get(index, ())))
    return pieces


def _split_secrets(content: Sequence[Any], blocks: int, policy: ShowPolicy) -> dict[int, list[tuple[int, int]]]:
    """Per text item (by index), the spans holding part of a secret split across a run of text
    items, among the first ``blocks`` items and one more (only what can be shown)."""
    found: dict[int, list[tuple[int, int]]] = {}
    if not policy.secrets or len(content) < 2:  # no secret to split, or no two texts to split it
        return found
    content = content[: max(0, blocks) + 1]
    run: list[int] = []
    for index in [*range(len(content)), -1]:
        item: Any = content[index] if index >= 0 else None
        kind = kind_of(item)
        if kind is not None and kind.shown == "text" and isinstance(item.get("text"), str):
            run.append(index)
            continue
        if len(run) > 1:
            spans = policy.split_secrets([content[i]["text"] for i in run])
            found.update((i, s) for i, s in zip(run, spans, strict=True) if s)
        run = []
    return found


@dataclass
class _JsonCut:
    left: int
    policy: ShowPolicy
    cut: bool = False


def bounded_json(value: object, limit: int, policy: ShowPolicy) -> tuple[object, bool]:
    """A copy of a JSON value with at most about ``limit`` characters, secrets masked.

    Returns the copy and whether anything was left out. Long strings are cut, long lists and
    objects end in a ``"… N more"`` entry, and nesting deeper than ``json_depth`` levels is elided.
    Special characters are kept: JSON escapes them, and every text shown is made visible again.
    """
    state = _JsonCut(limit, policy)
    return _bounded(value, state, 0), state.cut


def _bounded_str(text: str, state: _JsonCut) -> str:
    out, hidden = state.policy.head(text, max(0, state.left))
    if hidden:
        state.cut = True
        out += f"… ({hidden:,} more characters)"
    state.left -= len(out) + 2
    return out


def _bounded(value: Any, state: _JsonCut, depth: int) -> Any:
    depth_limit = state.policy.limits.json_depth
    if depth > depth_limit:
        state.cut = True
        return f"… nested deeper than {depth_limit} levels"
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
